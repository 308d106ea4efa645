// Tento "Ao vivo": copy buttons, and the banner of a poller (.poll in #live or #board) that can't
// reach the server. app.js may already have put a "reconectando" note in place: this file reuses
// it (one banner, one data-testid), pins it to the top of the screen, and says so when a link was
// rotated away (403/404) instead of promising to reconnect. Without this file the pages still
// work and keep polling.
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
    var fallback = function () {
      flash(button, copyFallback(text) ? "Copiado!" : "Não deu: copie o link");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { flash(button, "Copiado!"); }, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("button[data-copy]") : null;
    if (button) { copy(button); }
  });

  // --- Pollers: "reconectando…" while the server is unreachable, gone when it answers again.
  var RECONNECTING = "reconectando…";
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  function isPoller(elt) {
    return !!(elt && elt.classList && elt.classList.contains("poll"));
  }

  function bannerIn(region) {
    return region.querySelector("[data-testid='reconectando']");
  }

  function showBanner(poller, gone) {
    var region = poller.parentElement;
    if (!region) { return; }
    var banner = bannerIn(region);
    if (!banner) {
      banner = document.createElement("p");
      banner.setAttribute("role", "status");
      banner.setAttribute("data-testid", "reconectando");
      region.insertBefore(banner, poller.nextSibling);
    }
    banner.classList.add("reconnecting");
    banner.classList.toggle("gone", gone);
    banner.textContent = gone ? GONE : RECONNECTING;
  }

  function hideBanner(poller) {
    var region = poller.parentElement;
    var banner = region && bannerIn(region);
    if (banner) { banner.parentNode.removeChild(banner); }
  }

  function linkGone(detail) {
    var status = detail.xhr ? detail.xhr.status : 0;
    return status === 403 || status === 404;
  }

  function onFailure(evt) {
    var elt = evt.detail && evt.detail.elt;
    if (isPoller(elt)) { showBanner(elt, linkGone(evt.detail)); }
  }

  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:responseError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!isPoller(elt)) { return; }
    if (evt.detail.successful === true) {
      hideBanner(elt);
    } else if (linkGone(evt.detail)) {
      showBanner(elt, true);
    }
  });

  function showCopyButtons() {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showCopyButtons);
  } else {
    showCopyButtons();
  }
})();
