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
    parse_client_id,
    parse_int,
    parse_new_table,
    parse_outcome,
    parse_revision,
)
from .service import (
    STALE_MESSAGE,
    AlreadyApplied,
    Board,
    StaleRevision,
    Written,
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


FERRO_SHORT = {"cegas": "às cegas", "claras": "às claras", "escuro": "no escuro"}


def board_urls(token: str) -> dict[str, str]:
    """The board's URL and its action URLs, built with one url_for (all under the board's)."""
    base = url_for("tables.board", token=token)
    return {"board": base, **{name: f"{base}/{path}" for name, path in PATHS.items()}}


def board_context(
    board: Board, message: str | None = None, status: int = 200, **extra: Any
) -> dict[str, Any]:
    """Everything _board.html needs; `message` goes to the feedback slot."""
    state = board.state
    chart_a, chart_b, hands = present.chart_points(board)
    ferro = board.mesa.ferro_mode if board.mesa.ferro_mode in FERRO_MODES else "cegas"
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
        "deal_short": present.deal_short(board),
        "onze_decider": present.onze_decider(board),
        "ferro_text": FERRO_MODES[ferro],
        "ferro_short": FERRO_SHORT[ferro],
        "winner_text": present.over_text(board),
        "series_label": present.series_label(board.mesa, state),
        "log": present.log_entries(board, LOG_ON_BOARD),
        "chart": {"a": chart_a, "b": chart_b, "hands": hands},
        "message": message,
        "status": status,
        "last_text": present.describe(board.last, board.mesa.team_names) if board.last else None,
        "last_detail": present.detail(board.last, board.mesa.special_at) if board.last else None,
        "notes": present.notes_for(board.last),
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
    mesa: Mesa, status: int, message: str | None = None, board: Board | None = None
) -> Any:
    """The board (after a write, or read afresh after a refusal): the fragment for htmx, else a
    redirect (or the page on an error)."""
    if board is None:
        db.session.rollback()
        board = load_board(mesa)
    context = board_context(board, message=message, status=status)
    if hx_request.htmx:
        return make_response(render_template("tables/_board.html", **context), status)
    if status >= 400:
        return make_response(render_template("tables/board.html", **context), status)
    if message:  # without JavaScript a message survives the redirect as a flash message
        flash(message)
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


def _guarded(
    token: str, action: Callable[[int, str | None], Written], said: str | None = None
) -> Any:
    """Run a write with the posted revision and client id; answer with the board after it, or
    turn a refusal into a pt-BR message and the right status. A write finds its table itself:
    the table is looked up again only on a refusal (a 403 or 404 page if it has none), and a
    write the table already applied (a retry after a lost answer) gets the current board.
    `said` (e.g. 'Desfeito: {}.') puts the touched record in the slot's message; without it the
    slot shows the last record."""
    try:
        done = action(parse_revision(request.form), parse_client_id(request.form))
    except AlreadyApplied:
        return _respond(_editable(token), 200)
    except StaleRevision:
        return _respond(_editable(token), 409, STALE_MESSAGE)
    except RulesError as error:
        return _respond(_editable(token), 422, str(error))
    board = done.board
    message = said.format(present.describe(done.record, board.mesa.team_names)) if said else None
    return _respond(board.mesa, 200, message, board=board)


@bp.post(f"/m/<token>/{PATHS['tap']}")
def tap(token: str) -> Any:
    """Record one hand outcome (a tap)."""
    return _guarded(
        token,
        lambda rev, cid: record_outcome(
            token, rev, parse_outcome(request.form.get("o")), client_id=cid
        ),
    )


@bp.post(f"/m/<token>/{PATHS['undo']}")
def undo_view(token: str) -> Any:
    """Undo the last recorded step."""
    return _guarded(token, lambda rev, cid: undo(token, rev, cid), "Desfeito: {}.")


@bp.post(f"/m/<token>/{PATHS['redo']}")
def redo_view(token: str) -> Any:
    """Bring back what the last undo took."""
    return _guarded(token, lambda rev, cid: redo(token, rev, cid), "Refeito: {}.")


@bp.post(f"/m/<token>/{PATHS['note']}")
def note(token: str) -> Any:
    """Attach a note on how the last hand ended."""

    def action(rev: int, cid: str | None) -> Written:
        record_id = parse_int(request.form.get("registro"), "a mão")
        return set_note(token, rev, record_id, request.form.get("nota", ""), cid)

    return _guarded(token, action)


@bp.post(f"/m/<token>/{PATHS['fix']}")
def correct(token: str) -> Any:
    """Set a side's points by hand, with a required reason."""

    def action(rev: int, cid: str | None) -> Written:
        side = parse_int(request.form.get("lado"), "o lado")
        points = parse_int(request.form.get("pontos"), "os pontos")
        reason = clean_name(request.form.get("motivo"), "", 200, "Motivo")
        if not reason:
            raise RulesError("Diga o motivo da correção.")
        if side not in (0, 1):
            raise RulesError("Lado inexistente: a mesa tem dois lados.")
        outcome = Outcome(Kind.CORRECAO, side, points)
        return record_outcome(token, rev, outcome, reason=reason, client_id=cid)

    return _guarded(token, action)
