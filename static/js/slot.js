// What the board's feedback slot says about the kept writes and the connection (writes.js):
// sending, waiting for the network, a conflict to choose on, a reload to make; the buttons whose
// writes wait look pressed. On the offline page, the taps kept on this phone.
(function () {
  "use strict";
  var writes = window.tento.writes;
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function labels() {
    return writes.queue.map(function (write) { return write.label; }).join(", ");
  }

  // What the slot shows for the kept writes and the connection, or null for the server's own
  // content (the last hand, or the server's message).
  function view() {
    var n = writes.queue.length;
    var state = writes.state;
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
    if (writes.note) { return { estado: "info", testid: "mensagem-local", text: writes.note }; }
    return null;
  }

  // A button with a write still waiting looks pressed until the server has it.
  function showPressed(board) {
    board.querySelectorAll(".pending").forEach(function (button) { button.classList.remove("pending"); });
    writes.queue.forEach(function (write) {
      var pressed = write.button && board.querySelector("[data-testid='" + write.button + "']");
      if (pressed) { pressed.classList.add("pending"); }
    });
  }

  function line(shown) {
    var p = document.createElement("p");
    p.className = "slot-line";
    p.setAttribute("role", shown.estado === "erro" || shown.estado === "conflito" ? "alert" : "status");
    p.setAttribute("data-testid", shown.testid);
    p.textContent = shown.text;
    return p;
  }

  function actions(shown) {
    var row = document.createElement("div");
    row.className = "slot-actions";
    (shown.actions || []).forEach(function (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "chip";
      button.setAttribute("data-fila-acao", action[1]);
      button.textContent = action[0];
      row.appendChild(button);
    });
    return row;
  }

  function render() {
    var board = document.getElementById("board");
    if (!board) { renderOfflinePage(); return; }
    var slot = board.querySelector(".slot");
    var local = slot && slot.querySelector(".slot-local");
    if (!local) { return; }
    var undoButton = board.querySelector("[data-testid='desfazer']");
    if (undoButton && writes.takeBackable()) { undoButton.disabled = false; }
    showPressed(board);
    var shown = view();
    local.textContent = "";
    if (!shown) {
      slot.classList.remove("is-local");
      slot.removeAttribute("data-estado");
      local.hidden = true;
      return;
    }
    local.appendChild(line(shown));
    local.appendChild(actions(shown));
    local.hidden = false;
    slot.classList.add("is-local");
    slot.setAttribute("data-estado", shown.estado);
  }

  // The offline page (served by the service worker when a board can't load) says what is kept.
  function renderOfflinePage() {
    var card = document.querySelector("[data-testid='offline']");
    if (!card) { return; }
    var kept = card.querySelector("[data-testid='pendentes']");
    var n = writes.queue.length;
    if (n) {
      if (!kept) {
        kept = document.createElement("p");
        kept.setAttribute("data-testid", "pendentes");
        kept.className = "msg";
        card.insertBefore(kept, card.children[1] || null);
      }
      kept.textContent = plural(n, "toque guardado", "toques guardados") +
        " neste celular: " + labels() + ". Vão ser enviados quando a conexão voltar.";
    } else if (kept) {
      kept.parentNode.removeChild(kept);
    }
  }

  // A correction is sent from below the board: the form closes, and the slot, where its
  // confirmation (or refusal) shows, is brought on screen.
  function corrected(event) {
    var fix = event.target.closest && event.target.closest("#board details.fix");
    if (!fix || !event.defaultPrevented) { return; }
    fix.open = false;
    var slot = document.querySelector("#board .slot");
    if (slot) { slot.scrollIntoView({ block: "center" }); }
  }

  document.addEventListener("submit", corrected);
  // Drawn again whenever the writes change, and on every new board (whose slot starts empty).
  document.addEventListener("tento:writes", render);
  document.addEventListener("tento:board", function () { if (writes.key) { render(); } });
})();
