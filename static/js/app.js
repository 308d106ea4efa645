// Tento: small progressive enhancements; the app works without this file.
(function () {
  "use strict";
  var root = document.documentElement;
  var DEFAULTS = { mesa: "0", tela: "1", vibrar: "1", som: "0" };

  function pref(name) {
    try {
      var value = localStorage.getItem("tento." + name);
      return value === null ? DEFAULTS[name] : value;
    } catch (e) { return DEFAULTS[name]; }
  }

  function setPref(name, value) {
    try { localStorage.setItem("tento." + name, value); } catch (e) { /* not remembered */ }
  }

  // Theme: automático (system), claro, escuro or sol (high contrast for daylight).
  function showTheme() {
    var current = root.dataset.tema || "auto";
    document.querySelectorAll("[data-tema]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.tema === current));
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-tema]");
    if (!button) { return; }
    var theme = button.dataset.tema;
    if (theme === "auto") { delete root.dataset.tema; } else { root.dataset.tema = theme; }
    setPref("tema", theme);
    showTheme();
  });

  // Switches: modo mesa, screen on, vibration, sound.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.dataset || !input.dataset.pref) { return; }
    setPref(input.dataset.pref, input.checked ? "1" : "0");
    if (input.dataset.pref === "mesa") {
      if (input.checked) { root.dataset.mesa = "1"; } else { delete root.dataset.mesa; }
    }
    if (input.dataset.pref === "tela") { keepAwake(); }
  });

  function showSwitches() {
    document.querySelectorAll("[data-pref]").forEach(function (input) {
      input.checked = pref(input.dataset.pref) === "1";
    });
  }

  // Screen Wake Lock while a board or live view is open, asked again when visible again.
  var lock = null;
  function keepAwake() {
    var wanted = pref("tela") === "1" && document.querySelector("#board, #live");
    if (!wanted) {
      if (lock) { lock.release(); lock = null; }
      return;
    }
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", keepAwake);

  // Feedback on a tap: vibration (where the browser has it) and an optional short sound.
  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.08);
  }

  // Vibration and sound as a tap's first feedback (the board's writes call it; see below).
  window.tentoFeedback = function () {
    if (pref("vibrar") === "1" && navigator.vibrate) { navigator.vibrate(25); }
    if (pref("som") === "1") { beep(); }
  };

  // Announce the new score to screen readers after every new board or live view.
  function announce() {
    var board = document.querySelector("#board, #live");
    var region = document.getElementById("anuncio");
    if (board && region && board.dataset.announce && region.textContent !== board.dataset.announce) {
      region.textContent = board.dataset.announce;
    }
    keepAwake();
  }
  document.addEventListener("htmx:afterSwap", announce);
  document.addEventListener("tento:board", announce);

  // The service worker caches only the static shell, never a board.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* optional */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    showTheme();
    showSwitches();
    keepAwake();
  });
})();

// Copy buttons, and the banner of the live view's poller (.poll in #live) when it can't reach the server:
// "reconectando…" until it answers again, or a note when the link was rotated away (403/404).
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

  // The juiz's links: plain links (they work without JavaScript), sent through htmx by this one
  // handler instead of an htmx set-up per link, which cost most of the page's start-up. The
  // juiz swaps itself (#juiz) and pushes the URL, as hx-get links did.
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest ? evt.target.closest("#juiz a[data-hx]") : null;
    if (!link || !window.htmx || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.button) { return; }
    var grid = link.closest("[data-swap]");
    evt.preventDefault();
    window.htmx.ajax("GET", link.getAttribute("data-hx"), {
      source: link, target: "#juiz", swap: grid ? grid.getAttribute("data-swap") : "outerHTML"
    });
  });

  // --- Pollers: "reconectando…" while the server is unreachable, gone when it answers again.
  var RECONNECTING = "reconectando…";
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  // The board's own poller reports to the board's feedback slot instead (next section).
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

// The board's writes (taps, notes, undo, redo, corrections): none is ever lost, none counts twice.
// A write is kept (in the page and in localStorage) with a client-made id and the revision it
// expects until the server has it; it is sent in order, retried with backoff, and a retry whose
// answer was lost is recognised by its id. When another phone changed the board meanwhile, the
// feedback slot asks before anything kept is applied. Without this file the forms post as usual.
(function () {
  "use strict";
  var PREFIX = "tento.fila.";
  var FIRST_DELAY = 1000;
  var MAX_DELAY = 15000;
  var DOUBLE_TAP = 600;
  var TIMEOUT = 10000;
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  var key = null;
  var queue = [];
  var sending = false;
  var state = "ok"; // ok | offline | conflict | reload | gone
  var delay = FIRST_DELAY;
  var timer = null;
  var note = null;
  var last = { what: "", at: 0, cid: null };

  function board() { return document.getElementById("board"); }

  function currentRev() {
    var b = board();
    return b ? parseInt(b.getAttribute("data-rev"), 10) : NaN;
  }

  function revOf(html) {
    var match = /id="board"[^>]*data-rev="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : NaN;
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
    try { queue = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { queue = []; }
    if (!Array.isArray(queue)) { queue = []; }
  }

  function save() {
    try {
      if (queue.length) { localStorage.setItem(key, JSON.stringify(queue)); } else { localStorage.removeItem(key); }
    } catch (e) { /* kept in the page only */ }
  }

  function labels() {
    return queue.map(function (write) { return write.label; }).join(", ");
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  // What the feedback slot shows for the kept writes and the connection, or null for the
  // server's own content (the last hand, or the server's message).
  function view() {
    var n = queue.length;
    if (state === "gone") { return { estado: "erro", testid: "link-trocado", text: GONE }; }
    if (state === "reload") {
      return { estado: "erro", testid: "recarregue", text: "toque não registrado — recarregue a página",
        actions: [["recarregar", "recarregar"]] };
    }
    if (state === "conflict" && n) {
      return { estado: "conflito", testid: "conflito",
        text: "O placar mudou em outro aparelho; " + plural(n, "toque seu ficou", "toques seus ficaram") +
          " de fora: " + labels() + ".",
        actions: [["marcar assim mesmo", "reenviar"], ["descartar", "descartar"]] };
    }
    if (n && state === "offline") {
      return { estado: "pendente", testid: "pendentes",
        text: plural(n, "toque esperando", "toques esperando") + " conexão: " + labels() };
    }
    if (n) { return { estado: "enviando", testid: "pendentes", text: "Enviando: " + labels() + "…" }; }
    if (state === "offline") {
      return { estado: "offline", testid: "sem-conexao", text: "sem conexão — o placar pode estar desatualizado" };
    }
    if (note) { return { estado: "info", testid: "mensagem-local", text: note }; }
    return null;
  }

  function render() {
    var b = board();
    if (!b) { renderOfflinePage(); return; }
    var slot = b.querySelector(".slot");
    var local = slot && slot.querySelector(".slot-local");
    if (!local) { return; }
    var undoButton = b.querySelector("[data-testid='desfazer']");
    if (undoButton && takeBackable()) { undoButton.disabled = false; }
    // A button with a write still waiting looks pressed until the server has it.
    b.querySelectorAll(".pending").forEach(function (button) { button.classList.remove("pending"); });
    queue.forEach(function (write) {
      var pressed = write.button && b.querySelector("[data-testid='" + write.button + "']");
      if (pressed) { pressed.classList.add("pending"); }
    });
    var shown = view();
    local.textContent = "";
    if (!shown) {
      slot.classList.remove("is-local");
      slot.removeAttribute("data-estado");
      local.hidden = true;
      return;
    }
    var line = document.createElement("p");
    line.className = "slot-line";
    line.setAttribute("role", shown.estado === "erro" || shown.estado === "conflito" ? "alert" : "status");
    line.setAttribute("data-testid", shown.testid);
    line.textContent = shown.text;
    var actions = document.createElement("div");
    actions.className = "slot-actions";
    (shown.actions || []).forEach(function (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "chip";
      button.setAttribute("data-fila-acao", action[1]);
      button.textContent = action[0];
      actions.appendChild(button);
    });
    local.appendChild(line);
    local.appendChild(actions);
    local.hidden = false;
    slot.classList.add("is-local");
    slot.setAttribute("data-estado", shown.estado);
  }

  // The offline page (served by the service worker when a board can't load) says what is kept
  // and opens the board again as soon as the server answers.
  function renderOfflinePage() {
    var card = document.querySelector("[data-testid='offline']");
    if (!card) { return; }
    var line = card.querySelector("[data-testid='pendentes']");
    if (queue.length) {
      if (!line) {
        line = document.createElement("p");
        line.setAttribute("data-testid", "pendentes");
        line.className = "msg";
        card.insertBefore(line, card.children[1] || null);
      }
      line.textContent = plural(queue.length, "toque guardado", "toques guardados") +
        " neste celular: " + labels() + ". Vão ser enviados quando a conexão voltar.";
    } else if (line) {
      line.parentNode.removeChild(line);
    }
  }

  function takeBackable() {
    var tail = queue[queue.length - 1];
    return !!tail && /\/marcar$/.test(tail.url) && !(sending && queue.length === 1);
  }

  function swap(html) {
    var old = board();
    if (!old || html.indexOf('id="board"') === -1 || revOf(html) < currentRev()) { return; }
    var active = document.activeElement;
    var focused = active && old.contains(active) ? active.getAttribute("data-testid") : null;
    old.outerHTML = html;
    var fresh = board();
    if (focused) {
      var again = fresh.querySelector("[data-testid='" + focused + "']");
      if (again) { again.focus(); }
    }
    document.dispatchEvent(new CustomEvent("tento:board"));
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(flush, delay);
    delay = Math.min(delay * 2, MAX_DELAY);
  }

  function retryNow() {
    window.clearTimeout(timer);
    delay = FIRST_DELAY;
    flush();
  }

  function unreachable() {
    sending = false;
    if (state === "ok") { state = "offline"; }
    render();
    if (queue.length) { schedule(); }
  }

  function answered(write, status, html) {
    sending = false;
    var isBoard = html.indexOf('id="board"') !== -1;
    if (status === 403 || status === 404) {
      queue = [];
      save();
      state = "gone";
    } else if (!isBoard && (status >= 500 || status === 429 || status === 0)) {
      unreachable();
      return;
    } else if (!isBoard) {
      state = "reload";
    } else {
      // 200 and 422 are done with this write (applied, or refused with the reason in the slot);
      // a 409 keeps it, and whatever is kept after a refusal waits for the scorer's choice.
      if (status !== 409 && queue[0] && queue[0].cid === write.cid) { queue.shift(); save(); }
      swap(html);
      delay = FIRST_DELAY;
      state = status === 200 || !queue.length ? "ok" : "conflict";
    }
    render();
    if (state === "ok") { flush(); }
  }

  function flush() {
    if (sending || !queue.length || state === "conflict" || state === "reload" || state === "gone") { return; }
    var write = queue[0];
    var body = new URLSearchParams(write.fields);
    body.set("rev", String(write.rev));
    body.set("cid", write.cid);
    var controller = "AbortController" in window ? new AbortController() : null;
    var stop = controller ? window.setTimeout(function () { controller.abort(); }, TIMEOUT) : null;
    sending = true;
    render();
    window.fetch(write.url, {
      method: "POST",
      body: body,
      headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
      credentials: "same-origin",
      cache: "no-store",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      return response.text().then(function (html) { answered(write, response.status, html); });
    }).catch(unreachable).then(function () { window.clearTimeout(stop); });
  }

  // Keep a write made on this board (after the kept ones); its client id.
  function keep(form, button) {
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && name !== "rev" && name !== "cid") { fields[name] = String(value); }
    });
    if (button && button.name) { fields[button.name] = button.value; }
    var tail = queue[queue.length - 1];
    var cid = uuid();
    queue.push({
      cid: cid,
      url: new URL(form.action, location.href).pathname,
      fields: fields,
      label: (button && button.getAttribute("data-label")) || "toque",
      button: (button && button.getAttribute("data-testid")) || null,
      rev: tail ? tail.rev + 1 : currentRev()
    });
    save();
    return cid;
  }

  function pending(cid) {
    return queue.some(function (write) { return write.cid === cid; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!key || !form.matches || !form.matches("#board form[data-write]")) { return; }
    event.preventDefault();
    var button = event.submitter || null;
    var what = form.action + (button ? button.name + "=" + button.value : "");
    var now = Date.now();
    if (what === last.what && now - last.at < DOUBLE_TAP && pending(last.cid)) { return; } // a double tap
    last = { what: what, at: now, cid: null };
    if (window.tentoFeedback) { window.tentoFeedback(); }
    note = null;
    if (form.id === "undo" && takeBackable()) {
      note = "Desfeito antes de enviar: " + queue.pop().label + ".";
      save();
    } else {
      last.cid = keep(form, button);
    }
    render();
    flush();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-fila-acao]");
    if (!button) { return; }
    var action = button.getAttribute("data-fila-acao");
    if (action === "recarregar") { location.reload(); return; }
    if (action === "descartar") {
      note = plural(queue.length, "toque descartado", "toques descartados") + ".";
      queue = [];
    } else {
      var rev = currentRev();
      queue.forEach(function (write, i) { write.rev = rev + i; });
    }
    save();
    state = "ok";
    render();
    flush();
  });

  // The board follows other phones by polling every 2 s with the revision it shows: 204 while
  // unchanged, else the new board. A poll that fails or succeeds tells the slot whether the
  // server can be reached, and the first success sends what is kept.
  var polling = false;
  function reachable(yes) {
    if (yes && state === "offline") { state = "ok"; render(); }
    if (!yes && state === "ok") { state = "offline"; render(); }
    if (yes && queue.length) { retryNow(); }
  }

  function poll() {
    var b = board();
    if (!b || polling || document.visibilityState === "hidden") { return; }
    polling = true;
    var controller = "AbortController" in window ? new AbortController() : null;
    var stop = controller ? window.setTimeout(function () { controller.abort(); }, TIMEOUT) : null;
    window.fetch(b.getAttribute("data-placar") + "?rev=" + b.getAttribute("data-rev"), {
      cache: "no-store", credentials: "same-origin", signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.status === 403 || response.status === 404) {
        state = "gone";
        render();
        return null;
      }
      if (!response.ok) { reachable(false); return null; }
      return response.text().then(function (html) {
        if (response.status === 200) { swap(html); }
        reachable(true);
      });
    }).catch(function () { reachable(false); }).then(function () {
      polling = false;
      window.clearTimeout(stop);
    });
  }

  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { retryNow(); poll(); }
  });
  window.addEventListener("storage", function (event) {
    if (event.key === key && !sending) { load(); render(); flush(); }
  });

  // The offline page: back to the board as soon as the server answers.
  function watchForServer() {
    if (!document.querySelector("[data-testid='offline']") || location.pathname === "/offline") { return; }
    var check = function () {
      window.fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
        .then(function (response) { if (response.ok) { location.reload(); } }, function () { /* still away */ });
    };
    window.addEventListener("online", check);
    window.setInterval(check, 3000);
  }

  function start() {
    var b = board();
    var path = b ? b.getAttribute("data-fila") : (/^\/m\/[^/]+$/.test(location.pathname) ? location.pathname : null);
    if (!path) { return; }
    key = PREFIX + path;
    load();
    render();
    watchForServer();
    flush();
    if (b) { window.setInterval(poll, 2000); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
