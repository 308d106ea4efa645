"""What the page families (mesa, share, juiz, turma, regras, torneio, pwa) share, so that they meet
only here and through the domain: absolute links and QR codes for what leaves the app, the live
view's presenter (the share page's live view and the turma's table being played), and what
the browser's session keeps of the juiz's table."""
