"""What the domain's families (mesa, turma, torneio) share: the write machinery (capability
tokens, the claim on a revision, the client-id journal) and the refusals."""
