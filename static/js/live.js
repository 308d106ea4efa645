// Tento "Ao vivo": copy buttons, the "reconectando…" banner for pollers, wake lock in modo TV.
// Everything here is an enhancement: the pages work (and keep polling) without it.
(function () {
  "use strict";

  // --- Copy buttons: <button data-copy="url" hidden>, shown only when this file runs.
  function flash(button, text) {
    var before = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", before);
    button.textContent = text;
    button.classList.add("copied");
    window.setTimeout(function () {
      button.textContent = before;
      button.classList.remove("copied");
    }, 2000);
  }

  function copyFallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr-only";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }

  function copy(button) {
    var text = button.getAttribute("data-copy") || "";
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { flash(button, "Copiado!"); },
        function () { flash(button, copyFallback(text) ? "Copiado!" : "Não deu: copie o link"); }
      );
      return;
    }
    flash(button, copyFallback(text) ? "Copiado!" : "Não deu: copie o link");
  }

  function setUpCopy() {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("button[data-copy]") : null;
    if (button) { copy(button); }
  });

  // --- Pollers (.poll inside #live or #board): a banner while the server can't be reached.
  function isPoller(elt) {
    return !!(elt && elt.classList && elt.classList.contains("poll"));
  }

  function showBanner(poller, gone) {
    var region = poller.parentElement;
    if (!region) { return; }
    var banner = region.querySelector(".reconnecting");
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "reconnecting";
      banner.setAttribute("role", "status");
      banner.setAttribute("data-testid", "reconectando");
      region.insertBefore(banner, poller.nextSibling);
    }
    banner.classList.toggle("gone", gone);
    banner.textContent = gone
      ? "Este link não vale mais (os links da mesa foram trocados). Peça o QR novo."
      : "reconectando…";
  }

  function hideBanner(poller) {
    var region = poller.parentElement;
    var banner = region && region.querySelector(".reconnecting");
    if (banner) { banner.parentNode.removeChild(banner); }
  }

  function onFailure(evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!isPoller(elt)) { return; }
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    showBanner(elt, status === 403 || status === 404);
  }

  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:responseError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (isPoller(elt) && evt.detail.successful === true) { hideBanner(elt); }
  });

  // --- Modo TV: keep the screen on while the page is visible.
  var lock = null;
  function keepAwake() {
    if (!document.querySelector("[data-wake-lock]") || !navigator.wakeLock) { return; }
    if (lock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () { lock = null; });
    }, function () { lock = null; });
  }
  document.addEventListener("visibilitychange", keepAwake);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUpCopy(); keepAwake(); });
  } else {
    setUpCopy();
    keepAwake();
  }
})();
