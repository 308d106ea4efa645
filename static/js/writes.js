// The board's writes (taps, notes, undo, redo, corrections): none is ever lost, none counts twice.
// A write is kept (in the page and in localStorage) with a client-made id and the revision it
// expects until the server has it; it is sent in order, retried with backoff, and a retry whose
// answer was lost is recognised by its id. When another phone changed the board meanwhile, the
// scorer is asked before anything kept is applied. Without this file the forms post as usual.
// What is kept is shown by slot.js, which redraws on the event tento:writes.
(function () {
  "use strict";
  var tento = window.tento = window.tento || {};
  var settings = tento.settings;
  var PREFIX = "tento.fila.";
  var REV_HEADER = "X-Tento-Rev";

  var writes = tento.writes = {
    key: null, // localStorage key of this board's kept writes, once started
    queue: [], // the kept writes, oldest first
    sending: false, // the first one is on its way
    state: "ok", // ok | offline | conflict | reload | gone
    note: null // a word of this page's own for the slot (e.g. what an undo took back)
  };
  var delay = settings.firstRetryMs;
  var timer = null;
  var last = { what: "", at: 0, cid: null };

  function board() { return document.getElementById("board"); }

  // The revision the board shows (NaN without a board).
  writes.shownRev = function () {
    var b = board();
    return b ? parseInt(b.getAttribute("data-rev"), 10) : NaN;
  };

  // The revision a board fragment answer carries in its header (NaN when it is no board).
  writes.revOf = function (response) {
    return parseInt(response.headers.get(REV_HEADER) || "", 10);
  };

  // Tell the slot (and whoever listens) that the kept writes or the connection changed.
  function changed() {
    document.dispatchEvent(new CustomEvent("tento:writes"));
  }

  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }

  function load() {
    try { writes.queue = JSON.parse(localStorage.getItem(writes.key) || "[]"); } catch (e) { writes.queue = []; }
    if (!Array.isArray(writes.queue)) { writes.queue = []; }
  }

  function save() {
    try {
      if (writes.queue.length) {
        localStorage.setItem(writes.key, JSON.stringify(writes.queue));
      } else {
        localStorage.removeItem(writes.key);
      }
    } catch (e) { /* kept in the page only */ }
  }

  // The last kept tap can be taken back before it leaves the phone.
  writes.takeBackable = function () {
    var queue = writes.queue;
    var tail = queue[queue.length - 1];
    return !!tail && /\/marcar$/.test(tail.url) && !(writes.sending && queue.length === 1);
  };

  // Put a board fragment (revision `rev`) in place of the board, focus kept on the same button.
  // A write's answer may redraw the revision shown (its message goes to the slot); a poll's
  // answer only a newer one.
  writes.swap = function (html, rev, newerOnly) {
    var old = board();
    var shown = writes.shownRev();
    if (!old || isNaN(rev) || rev < shown || (newerOnly && rev === shown)) { return; }
    var active = document.activeElement;
    var focused = active && old.contains(active) ? active.getAttribute("data-testid") : null;
    old.outerHTML = html;
    if (focused) {
      var again = board().querySelector("[data-testid='" + focused + "']");
      if (again) { again.focus(); }
    }
    document.dispatchEvent(new CustomEvent("tento:board"));
  };

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(flush, delay);
    delay = Math.min(delay * 2, settings.maxRetryMs);
  }

  // Send what is kept now, the backoff started over (the network or the page is back).
  writes.retryNow = function () {
    window.clearTimeout(timer);
    delay = settings.firstRetryMs;
    flush();
  };

  function unreachable() {
    writes.sending = false;
    if (writes.state === "ok") { writes.state = "offline"; }
    changed();
    if (writes.queue.length) { schedule(); }
  }

  // Whether the server answered a poll: the slot says so, and an answer sends what is kept.
  writes.reachable = function (yes) {
    if (yes && writes.state === "offline") { writes.state = "ok"; changed(); }
    if (!yes && writes.state === "ok") { writes.state = "offline"; changed(); }
    if (yes && writes.queue.length) { writes.retryNow(); }
  };

  // The board's link was rotated away (403/404): nothing can be sent any more; a refused write
  // also forgets what is kept.
  writes.linkGone = function (forget) {
    if (forget) {
      writes.queue = [];
      save();
    }
    writes.state = "gone";
    changed();
  };

  function answered(write, status, html, rev) {
    writes.sending = false;
    var isBoard = !isNaN(rev);
    if (status === 403 || status === 404) {
      writes.linkGone(true);
      return;
    } else if (!isBoard && (status >= 500 || status === 429 || status === 0)) {
      unreachable();
      return;
    } else if (!isBoard) {
      writes.state = "reload";
    } else {
      // 200 and 422 are done with this write (applied, or refused with the reason in the slot);
      // a 409 keeps it, and whatever is kept after a refusal waits for the scorer's choice.
      var queue = writes.queue;
      if (status !== 409 && queue[0] && queue[0].cid === write.cid) { queue.shift(); save(); }
      writes.swap(html, rev, false);
      delay = settings.firstRetryMs;
      writes.state = status === 200 || !queue.length ? "ok" : "conflict";
    }
    changed();
    if (writes.state === "ok") { flush(); }
  }

  // An AbortSignal that gives up after the request timeout, and the timer to clear after.
  writes.deadline = function () {
    var controller = "AbortController" in window ? new AbortController() : null;
    var stop = controller ? window.setTimeout(function () {
      controller.abort();
    }, settings.requestTimeoutMs) : null;
    return {
      signal: controller ? controller.signal : undefined,
      done: function () { window.clearTimeout(stop); }
    };
  };

  function flush() {
    var state = writes.state;
    var waiting = state === "conflict" || state === "reload" || state === "gone";
    if (writes.sending || !writes.queue.length || waiting) { return; }
    var write = writes.queue[0];
    var body = new URLSearchParams(write.fields);
    body.set("rev", String(write.rev));
    body.set("cid", write.cid);
    var deadline = writes.deadline();
    writes.sending = true;
    changed();
    window.fetch(write.url, {
      method: "POST",
      body: body,
      headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
      credentials: "same-origin",
      cache: "no-store",
      signal: deadline.signal
    }).then(function (response) {
      return response.text().then(function (html) {
        answered(write, response.status, html, writes.revOf(response));
      });
    }).catch(unreachable).then(deadline.done);
  }

  // Keep a write made on this board (after the kept ones); its client id.
  function keep(form, button) {
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && name !== "rev" && name !== "cid") { fields[name] = String(value); }
    });
    if (button && button.name) { fields[button.name] = button.value; }
    var tail = writes.queue[writes.queue.length - 1];
    var cid = uuid();
    writes.queue.push({
      cid: cid,
      url: new URL(form.action, location.href).pathname,
      fields: fields,
      label: (button && button.getAttribute("data-label")) || "toque",
      button: (button && button.getAttribute("data-testid")) || null,
      rev: tail ? tail.rev + 1 : writes.shownRev()
    });
    save();
    return cid;
  }

  function pending(cid) {
    return writes.queue.some(function (write) { return write.cid === cid; });
  }

  // The same button again within the double-tap window, while its write is still kept.
  function doubleTap(what, now) {
    return what === last.what && now - last.at < settings.doubleTapMs && pending(last.cid);
  }

  function submitted(event) {
    var form = event.target;
    if (!writes.key || !form.matches || !form.matches("#board form[data-write]")) { return; }
    event.preventDefault();
    var button = event.submitter || null;
    var what = form.action + (button ? button.name + "=" + button.value : "");
    var now = Date.now();
    if (doubleTap(what, now)) { return; }
    last = { what: what, at: now, cid: null };
    if (tento.feedback) { tento.feedback(); }
    writes.note = null;
    if (form.id === "undo" && writes.takeBackable()) {
      writes.note = "Desfeito antes de enviar: " + writes.queue.pop().label + ".";
      save();
    } else {
      last.cid = keep(form, button);
    }
    changed();
    flush();
  }

  // The slot's buttons after a refusal or a conflict: reload, discard, or send anyway.
  function chosen(event) {
    var button = event.target.closest && event.target.closest("[data-fila-acao]");
    if (!button) { return; }
    var action = button.getAttribute("data-fila-acao");
    if (action === "recarregar") { location.reload(); return; }
    if (action === "descartar") {
      var n = writes.queue.length;
      writes.note = n + " " + (n === 1 ? "toque descartado" : "toques descartados") + ".";
      writes.queue = [];
    } else {
      var rev = writes.shownRev();
      writes.queue.forEach(function (write, i) { write.rev = rev + i; });
    }
    save();
    writes.state = "ok";
    changed();
    flush();
  }

  // The writes of a board page, or of the offline page shown in a board's place.
  function start() {
    var b = board();
    var path = b ? b.getAttribute("data-fila") : (/^\/m\/[^/]+$/.test(location.pathname) ? location.pathname : null);
    if (!path) { return; }
    writes.key = PREFIX + path;
    load();
    changed();
    flush();
  }

  document.addEventListener("submit", submitted);
  document.addEventListener("click", chosen);
  window.addEventListener("online", writes.retryNow);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { writes.retryNow(); }
  });
  window.addEventListener("storage", function (event) {
    if (event.key === writes.key && !writes.sending) { load(); changed(); flush(); }
  });

  // Started once every deferred script has run, so that slot.js hears the first tento:writes.
  if (document.readyState === "complete") { start(); } else { document.addEventListener("DOMContentLoaded", start); }
})();
