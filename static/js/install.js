// Registers the service worker, which caches only the static shell and the offline page.
(function () {
  "use strict";
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* optional */ });
  }
})();
