// The score a tap leads to, on the board at once (online or not), marked waiting until the
// server has the tap. No rule here: it only follows the kept taps (writes.js) through what the
// rules engine wrote (the game table /previsao/<n>.json, #board data-previsto, the page's
// <template>s); docs/architecture.md says how. Past a second game's end it waits for the server.
(function () {
  "use strict";
  var tento = window.tento;
  var writes = tento.writes;
  var TAP = /\/marcar$/;
  var ENDED = /^fim_de_/;
  var forecast = tento.forecast = { ready: false };
  var table = null; // the game table, once fetched: {url, keys, codes, scores}
  var loading = null;
  var home = null; // the server's own layout of the board shown: {key, region}

  function board() { return document.getElementById("board"); }

  function layoutOf(score) {
    var row = table && table.scores[score];
    return row && row.length ? table.keys[row[0]] : null;
  }

  // Where the board stands, as the server drew it.
  function start(b) {
    var said;
    try { said = JSON.parse(b.getAttribute("data-previsto") || ""); } catch (e) { return null; }
    return {
      size: said.size, // a score is A * size + B, the rule set's
      score: said.score, wins: said.wins, key: said.key,
      end: said.over ? said.ends[0] : null, // [tally, layout, marker, next score, next tally]
      ends: said.over ? null : said.ends // each side's, should it win this game
    };
  }

  // Where one tap takes a board, or null when the tables do not say.
  function step(node, code) {
    if (node.end) {
      var end = node.end;
      if (code !== end[2]) { return null; }
      return { size: node.size, score: end[3], wins: end[4], key: layoutOf(end[3]), end: null, ends: null };
    }
    var row = table && table.scores[node.score];
    if (!row || !row.length) { return null; }
    var at = table.codes[table.keys[row[0]]].indexOf(code);
    if (at < 0) { return null; }
    var target = row[at + 1];
    if (target >= 0) {
      return { size: node.size, score: target, wins: node.wins, key: layoutOf(target), end: null, ends: node.ends };
    }
    if (!node.ends) { return null; }
    var won = -1 - target;
    var side = won % 2;
    var ending = node.ends[side];
    return { size: node.size, score: (won - side) / 2, wins: ending[0], key: ending[1], end: ending, ends: null };
  }

  // The board the kept taps lead to, and how many of them it takes in (0: the server's own).
  // A write the board's revision is already past is in the board; a conflict or a refusal
  // shows the server's board alone.
  function ahead(b) {
    var node = start(b);
    var taken = 0;
    if (!node || (writes.state !== "ok" && writes.state !== "offline")) { return { node: node, taken: 0 }; }
    var shown = writes.shownRev();
    for (var i = 0; i < writes.queue.length; i++) {
      var write = writes.queue[i];
      if (write.rev < shown) { continue; }
      var next = TAP.test(write.url) ? step(node, write.fields.o) : null;
      if (!next || !next.key) { break; }
      node = next;
      taken += 1;
    }
    return { node: node, taken: taken };
  }

  function layout(key) {
    if (home && key === home.key) { return home.region; }
    var template = document.querySelector("template[data-fase='" + key + "']");
    return template ? template.content.querySelector(".fase") : null;
  }

  // Put the layout of `key` in place of the one shown, the focus kept on the same button.
  function relay(b, region, key) {
    var fresh = layout(key);
    if (!fresh) { return region; }
    var active = document.activeElement;
    var focused = active && region.contains(active) ? active.getAttribute("data-testid") : null;
    var copy = fresh.cloneNode(true);
    region.parentNode.replaceChild(copy, region);
    var phase = copy.getAttribute("data-phase");
    b.className = b.className.replace(/\bphase-\S+/, "phase-" + phase);
    var voided = b.querySelector("[data-testid='anulada']");
    if (voided) { voided.hidden = ENDED.test(phase); }
    var again = focused && copy.querySelector("[data-testid='" + focused + "']");
    if (again) { again.focus(); }
    return copy;
  }

  function set(region, testid, value) {
    var el = region.querySelector("[data-testid='" + testid + "']");
    if (el && el.textContent !== String(value)) { el.textContent = String(value); }
  }

  // Draw the board the kept taps lead to; true when the layout changed.
  function show() {
    var b = board();
    var region = b && b.querySelector("#taps .fase");
    if (!region || !home) { return false; }
    var found = ahead(b);
    var node = found.node;
    if (!node) { return false; }
    var relaid = region.getAttribute("data-fase") !== node.key;
    if (relaid) { region = relay(b, region, node.key); }
    var points = [Math.floor(node.score / node.size), node.score % node.size];
    set(region, "score-a", points[0]);
    set(region, "score-b", points[1]);
    set(region, "series-a", node.wins[0]);
    set(region, "series-b", node.wins[1]);
    var waiting = found.taken > 0;
    b.classList.toggle("previsto", waiting);
    var said = document.getElementById("anuncio");
    if (waiting && said) {
      var names = b.querySelectorAll(".team");
      said.textContent = "Placar previsto, esperando confirmação: " + names[0].textContent + " " +
        points[0] + ", " + names[1].textContent + " " + points[1];
    }
    return relaid;
  }

  function fetchTable(b) {
    var url = b.getAttribute("data-previsao");
    if (!url || (table && table.url === url) || loading === url) { return; }
    loading = url;
    window.fetch(url, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (found) {
        if (!found) { return; }
        found.url = url;
        table = found;
        forecast.ready = true;
        if (show()) { document.dispatchEvent(new CustomEvent("tento:writes")); }
      })
      .catch(function () { /* no forecast: the board waits for the server, as before */ })
      .then(function () { loading = null; });
  }

  // A board from the server: its own layout kept to put back, the forecast drawn over it.
  function arrived() {
    var b = board();
    var region = b && b.querySelector("#taps .fase");
    if (!region) { home = null; return; }
    home = { key: region.getAttribute("data-fase"), region: region.cloneNode(true) };
    fetchTable(b);
    show();
  }

  document.addEventListener("tento:board", arrived);
  document.addEventListener("tento:writes", show);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", arrived); } else { arrived(); }
})();
