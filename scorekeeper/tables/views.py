"""Home page (open a table) and the scorer's board: parse the request, ask the tables' domain,
present its answer. A refused write is answered by the one handler of refusals (errors.py),
drawing the board again."""

from __future__ import annotations

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
from htmx_flask import request as hx_request

from .. import mesas
from ..errors import answer_refusals
from ..limits import opening_limit
from ..mesas import Board, Written, words
from ..mesas.inputs import Write, number
from ..pages.session import JUIZ_TABLE
from ..polls import polled_revision
from ..rules import SPECIAL_AT, Kind, Outcome
from . import present
from .forms import CorrectionForm, NewTableForm
from .present import PATHS

bp = Blueprint("tables", __name__)
# Every board fragment carries its revision here: the board's script compares revisions without
# reading the HTML, and a fragment without it is not a board.
REV_HEADER = "X-Tento-Rev"
YEAR = 365 * 24 * 60 * 60  # seconds: how long a versioned forecast table is kept


@bp.app_template_filter("quando")
def when_filter(moment: datetime) -> str:
    """A stored UTC time as 'dd/mm HH:MM' in Brasília time."""
    return words.to_local(moment).strftime("%d/%m %H:%M")


def _home(form: NewTableForm, status: int = 200) -> Response:
    """The home page: open a table (the form, with its errors), resume a recent one; a table
    whose links another phone rotated is said once, then forgotten."""
    recent = mesas.recent_tables(session.get("mesas"))
    if recent.gone:
        kept = [t for t in session.get("mesas", []) if t not in recent.gone]
        session["mesas"] = kept
    page = render_template(
        "tables/home.html", recent=recent.tables, rotated_away=len(recent.gone), form=form
    )
    return make_response(page, status)


@bp.get("/")
def home() -> Response:
    """The home page with a fresh form."""
    return _home(NewTableForm(formdata=None))


@bp.post("/mesas")
@opening_limit()
def create() -> Response:
    """Open a table with the form's settings (all optional) and go to its board."""
    form = NewTableForm()
    if not form.validate():
        return _home(form, 422)
    mesa = mesas.open_table(form.settings())
    session.permanent = True
    session["mesas"] = mesas.remembered(session.get("mesas"), mesa.edit_token)
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


@bp.get("/m/<token>")
def board(token: str) -> str:
    """The scorer's board page."""
    said = get_flashed_messages()
    board = mesas.scorer_board(token)
    context = present.board_context(board, said[-1] if said else None)
    return render_template("tables/board.html", **context, **present.page_context(board))


@bp.get(present.FORECAST_PATH.format("<int:special_at>"))
def forecast(special_at: int) -> Response:
    """The forecast's game table for the board's script: the same for every table with this
    special-hand threshold, versioned by its content (?v=), so kept by the browser for a year."""
    if special_at not in SPECIAL_AT.values:
        abort(404)
    text, version = present.forecast_table(special_at)
    response = Response(text, mimetype="application/json")
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@bp.get(f"/m/<token>/{PATHS['juiz']}")
def juiz(token: str) -> Response:
    """Open the juiz from the board: the table goes to this browser's session, so no juiz
    address (nor anything copied from it) ever carries the scorer's token."""
    session[JUIZ_TABLE] = mesas.scorer_table(token).edit_token
    return redirect(url_for("juiz.index"), 303)


@bp.get(f"/m/<token>/{PATHS['history']}")
def history(token: str) -> str:
    """The whole log of a table, newest first, a page at a time (?antes=<seq> for older)."""
    before = request.args.get("antes", type=int)
    page = mesas.log_page(token, before if before is not None and before > 0 else None)
    older = None
    if page.older is not None:
        older = url_for("tables.history", token=token, antes=page.older)
    return render_template(
        "tables/history.html",
        mesa=page.mesa,
        names=page.mesa.team_names,
        log=present.log_entries(page.mesa, page.records, page.numbers),
        older=older,
        first=before is None,
    )


def _fragment(context: dict[str, Any], status: int = 200) -> Response:
    """The board fragment, its revision in the REV_HEADER for the page's script."""
    response = make_response(render_template("tables/_board.html", **context), status)
    response.headers[REV_HEADER] = str(context["mesa"].revision)
    return response


@bp.get(f"/m/<token>/{PATHS['poll']}")
def board_fragment(token: str) -> Response:
    """The board fragment for polling: 204 while the revision is unchanged."""
    current = polled_revision(token, edit=True)
    if current is not None and request.args.get("rev") == str(current):
        return Response(status=204)
    return _fragment(present.board_context(mesas.scorer_board(token)))


def _answer(board: Board, status: int = 200, message: str | None = None) -> Any:
    """The board after a write: the fragment for the page's script, else a redirect (a message
    follows it as a flash) or, for a refusal, the page."""
    context = present.board_context(board, message, status)
    if hx_request.htmx:
        return _fragment(context, status)
    if status >= 400:
        page = render_template("tables/board.html", **context, **present.page_context(board))
        return make_response(page, status)
    if message:
        flash(message)
    return redirect(url_for("tables.board", token=board.mesa.edit_token), 303)


def _redraw(message: str | None, status: int) -> Any:
    """A write that was not applied (or one applied before, sent again): the current board,
    with the reason in the slot."""
    board = mesas.scorer_board(str((request.view_args or {}).get("token", "")))
    return _answer(board, status, message)


answer_refusals(bp, _redraw)


def _written(done: Written, said: str | None = None) -> Any:
    """The answer to an accepted write; `said` (e.g. 'Desfeito: {}.') words its record."""
    text = words.describe(done.record.outcome, done.board.mesa.team_names)
    return _answer(done.board, 200, said.format(text) if said else None)


@bp.post(f"/m/<token>/{PATHS['tap']}")
def tap(token: str) -> Any:
    """Record one hand outcome (a tap)."""
    write = Write.read(request.form)
    outcome = Outcome.parse(request.form.get("o"))
    return _written(mesas.record_outcome(token, write.rev, outcome, client_id=write.cid))


@bp.post(f"/m/<token>/{PATHS['undo']}")
def undo_view(token: str) -> Any:
    """Undo the last recorded step."""
    write = Write.read(request.form)
    return _written(mesas.undo(token, write.rev, write.cid), "Desfeito: {}.")


@bp.post(f"/m/<token>/{PATHS['redo']}")
def redo_view(token: str) -> Any:
    """Bring back what the last undo took."""
    write = Write.read(request.form)
    return _written(mesas.redo(token, write.rev, write.cid), "Refeito: {}.")


@bp.post(f"/m/<token>/{PATHS['note']}")
def note(token: str) -> Any:
    """Attach a note on how the last hand ended."""
    write = Write.read(request.form)
    record = number(request.form.get("registro"), "a mão")
    note_code = request.form.get("nota", "")
    return _written(mesas.set_note(token, write.rev, record, note_code, write.cid))


@bp.post(f"/m/<token>/{PATHS['fix']}")
def correct(token: str) -> Any:
    """Correct a side's points by hand, with a required reason: add to them ("Somar pontos",
    modo=somar) or set them ("Definir placar", the default)."""
    write = Write.read(request.form)
    fix = CorrectionForm.read(request.form)
    if fix.adding:
        done = mesas.add_points(token, write.rev, fix.side, fix.points, fix.reason, write.cid)
        return _written(done)
    outcome = Outcome(Kind.CORRECAO, fix.side, fix.points)
    return _written(mesas.record_outcome(token, write.rev, outcome, fix.reason, write.cid))
