// The live view's poller (.poll in #live, polled by htmx every POLL_INTERVAL_MS): a banner says
// "reconectando…" while the server can't be reached, gone when it answers again, or that the
// link was rotated away (403/404).
(function () {
  "use strict";
  var RECONNECTING = "reconectando…";
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  function isPoller(elt) {
    return !!(elt && elt.classList && elt.classList.contains("poll") && elt.closest("#live"));
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

  function onAnswer(evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!isPoller(elt)) { return; }
    if (evt.detail.successful === true) {
      hideBanner(elt);
    } else if (linkGone(evt.detail)) {
      showBanner(elt, true);
    }
  }

  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:responseError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", onAnswer);
})();
