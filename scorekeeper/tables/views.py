"""Home page (open a table) and the scorer's board."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from htmx_flask import request as hx_request
from sqlalchemy import select

from ..extensions import db
from ..models import Mesa
from ..rules import Kind, Outcome, RulesError
from . import present
from .forms import (
    FERRO_MODES,
    clean_name,
    parse_int,
    parse_new_table,
    parse_outcome,
    parse_revision,
)
from .service import (
    NOTE_LABELS,
    STALE_MESSAGE,
    Board,
    StaleRevision,
    find_mesa,
    load_board,
    new_token,
    record_outcome,
    redo,
    revision_is,
    set_note,
    undo,
)

bp = Blueprint("tables", __name__)

RECENT_LIMIT = 12
LOG_ON_BOARD = 30  # the newest entries; the whole log has a page of its own
# The board's own routes, /m/<token>/<path>: the routes below and board_urls share these.
PATHS = {
    "history": "historico",
    "poll": "placar",
    "tap": "marcar",
    "undo": "desfazer",
    "redo": "refazer",
    "note": "nota",
    "fix": "corrigir",
}


def _recent_tokens() -> list[str]:
    """Edit tokens of the tables this browser opened, newest first."""
    tokens = session.get("mesas", [])
    return [t for t in tokens if isinstance(t, str)][:RECENT_LIMIT]


@bp.app_template_filter("quando")
def when_filter(moment: datetime) -> str:
    """A stored UTC time as 'dd/mm HH:MM' in Brasília time."""
    return present.to_local(moment).strftime("%d/%m %H:%M")


@bp.get("/")
def home() -> str:
    """The home page: open a table, resume a recent one."""
    return render_template("tables/home.html", recent=_recent_tables(), error=None, form={})


def _recent_tables() -> list[tuple[Mesa, Board]]:
    """The recent tables with their boards, in the session's order."""
    tokens = _recent_tokens()
    if not tokens:
        return []
    found = db.session.execute(select(Mesa).where(Mesa.edit_token.in_(tokens))).scalars()
    by_token = {m.edit_token: m for m in found}
    return [(by_token[t], load_board(by_token[t])) for t in tokens if t in by_token]


@bp.post("/mesas")
def create() -> Any:
    """Open a table with the form's settings (all optional) and go to its board."""
    try:
        settings = parse_new_table(request.form)
    except RulesError as error:
        page = render_template(
            "tables/home.html", recent=_recent_tables(), error=str(error), form=request.form
        )
        return make_response(page, 422)
    mesa = Mesa(edit_token=new_token(), view_token=new_token(), **settings)
    db.session.add(mesa)
    db.session.commit()
    session.permanent = True
    session["mesas"] = [mesa.edit_token, *_recent_tokens()][:RECENT_LIMIT]
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


def _editable(token: str) -> Mesa:
    """The table for a scorer token; a 403 page for a viewer token, else a 404 page."""
    mesa = find_mesa(token, edit=True)
    if mesa is None:
        abort(403 if find_mesa(token, edit=False) is not None else 404)
    return mesa


def board_urls(token: str) -> dict[str, str]:
    """The board's action URLs, built with one url_for (they all sit under the board's URL)."""
    base = url_for("tables.board", token=token)
    return {name: f"{base}/{path}" for name, path in PATHS.items()}


def board_context(board: Board, **extra: Any) -> dict[str, Any]:
    """Everything _board.html needs."""
    state = board.state
    chart_a, chart_b, hands = present.chart_points(board)
    return {
        "board": board,
        "mesa": board.mesa,
        "urls": board_urls(board.mesa.edit_token),
        # htmx sends the token in a header (base.html); only the page's plain forms carry it
        "csrf": None if hx_request.htmx else generate_csrf(),
        "state": state,
        "Phase": type(state.phase),
        "names": board.mesa.team_names,
        "taps": [present.side_taps(state, 0), present.side_taps(state, 1)],
        "special": present.special_taps(board),
        "deal": present.deal_text(board),
        "onze_decider": present.onze_decider(board),
        "ferro_text": FERRO_MODES.get(board.mesa.ferro_mode, FERRO_MODES["cegas"]),
        "series_label": present.series_label(board.mesa, state),
        "log": present.log_entries(board, LOG_ON_BOARD),
        "chart": {"a": chart_a, "b": chart_b, "hands": hands},
        "message": None,
        "confirm": None,
        "notes": (),
        **extra,
    }


@bp.get("/m/<token>")
def board(token: str) -> str:
    """The scorer's board page."""
    mesa = _editable(token)
    said = get_flashed_messages()
    context = board_context(load_board(mesa), message=said[-1] if said else None)
    return render_template("tables/board.html", **context)


@bp.get(f"/m/<token>/{PATHS['history']}")
def history(token: str) -> str:
    """The whole log of a table, newest first."""
    board = load_board(_editable(token))
    return render_template(
        "tables/history.html",
        mesa=board.mesa,
        board=board,
        names=board.mesa.team_names,
        log=present.log_entries(board),
    )


@bp.get(f"/m/<token>/{PATHS['poll']}")
def board_fragment(token: str) -> Response:
    """The board fragment for polling: 204 while the revision is unchanged."""
    if revision_is(token, request.args.get("rev"), edit=True):
        return Response(status=204)
    mesa = _editable(token)
    return make_response(render_template("tables/_board.html", **board_context(load_board(mesa))))


def _respond(
    mesa: Mesa,
    status: int,
    message: str | None = None,
    board: Board | None = None,
    **extra: Any,
) -> Any:
    """The board (after a write, or read afresh after a refusal): the fragment for htmx, else a
    redirect (or the page on an error)."""
    if board is None:
        db.session.rollback()
        board = load_board(mesa)
    context = board_context(board, message=message, **extra)
    if hx_request.htmx:
        return make_response(render_template("tables/_board.html", **context), status)
    if status >= 400:
        return make_response(render_template("tables/board.html", **context), status)
    said = message or extra.get("confirm_text")
    if said:  # without JavaScript the confirmation survives the redirect as a flash message
        flash(said)
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


def _guarded(token: str, action: Callable[[], Any]) -> Any:
    """Run a write; turn refusals into a pt-BR message and the right status. The table is looked
    up only on a refusal: a write finds its table itself (a 403 or 404 page if it has none)."""
    try:
        return action()
    except StaleRevision:
        return _respond(_editable(token), 409, STALE_MESSAGE)
    except RulesError as error:
        return _respond(_editable(token), 422, str(error))


@bp.post(f"/m/<token>/{PATHS['tap']}")
def tap(token: str) -> Any:
    """Record one hand outcome (a tap)."""

    def action() -> Any:
        revision = parse_revision(request.form)
        done = record_outcome(token, revision, parse_outcome(request.form.get("o")))
        board, rec = done.board, done.record
        return _respond(
            board.mesa,
            200,
            board=board,
            confirm=rec,
            confirm_text=present.describe(rec, board.mesa.team_names),
            notes=present.notes_for(rec),
        )

    return _guarded(token, action)


@bp.post(f"/m/<token>/{PATHS['undo']}")
def undo_view(token: str) -> Any:
    """Undo the last recorded hand."""

    def action() -> Any:
        done = undo(token, parse_revision(request.form))
        text = f"Desfeito: {present.describe(done.record, done.board.mesa.team_names)}."
        return _respond(done.board.mesa, 200, text, board=done.board)

    return _guarded(token, action)


@bp.post(f"/m/<token>/{PATHS['redo']}")
def redo_view(token: str) -> Any:
    """Bring back the last undone hand."""

    def action() -> Any:
        done = redo(token, parse_revision(request.form))
        text = f"Refeito: {present.describe(done.record, done.board.mesa.team_names)}."
        return _respond(done.board.mesa, 200, text, board=done.board)

    return _guarded(token, action)


@bp.post(f"/m/<token>/{PATHS['note']}")
def note(token: str) -> Any:
    """Attach a note on how the last hand ended."""

    def action() -> Any:
        revision = parse_revision(request.form)
        record_id = parse_int(request.form.get("registro"), "a mão")
        done = set_note(token, revision, record_id, request.form.get("nota", ""))
        text = f"Anotado: {NOTE_LABELS[done.record.note or '']}."
        return _respond(done.board.mesa, 200, text, board=done.board)

    return _guarded(token, action)


@bp.post(f"/m/<token>/{PATHS['fix']}")
def correct(token: str) -> Any:
    """Set a side's points by hand, with a required reason."""

    def action() -> Any:
        revision = parse_revision(request.form)
        side = parse_int(request.form.get("lado"), "o lado")
        points = parse_int(request.form.get("pontos"), "os pontos")
        reason = clean_name(request.form.get("motivo"), "", 200, "Motivo")
        if not reason:
            raise RulesError("Diga o motivo da correção.")
        if side not in (0, 1):
            raise RulesError("Lado inexistente: a mesa tem dois lados.")
        done = record_outcome(token, revision, Outcome(Kind.CORRECAO, side, points), reason=reason)
        return _respond(done.board.mesa, 200, "Placar corrigido.", board=done.board)

    return _guarded(token, action)
