"""Home page (open a table) and the scorer's board: parse the request, ask the tables' domain,
present its answer. A refused write is answered by the one handler of refusals (errors.py),
drawing the board again."""

from __future__ import annotations

import uuid
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

from ...domain.mesa import (
    AlreadyApplied,
    BadLink,
    Board,
    InputError,
    Refusal,
    Written,
    answer_of,
    service,
    words,
)
from ...domain.mesa.inputs import Write, number
from ...domain.mesa.service import ASK_NAMES
from ...rules import DEFAULT_RULE_SET, VARIANTS, Kind, Outcome, RulesError
from ..common.session import JUIZ_TABLE
from ..errors import answer_refusals
from ..limits import opening_limit
from ..polls import polled_revision
from . import present
from .forms import CorrectionForm, EditTableForm, NewTableForm
from .present import PATHS

bp = Blueprint("mesa", __name__)
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
    recent = service.recent_tables(session.get("mesas"))
    if recent.gone:
        kept = [t for t in session.get("mesas", []) if t not in recent.gone]
        session["mesas"] = kept
    page = render_template(
        "mesa/home.html", recent=recent.tables, rotated_away=len(recent.gone), form=form
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
    mesa = service.open_table(form.settings())
    session.permanent = True
    session["mesas"] = service.remembered(session.get("mesas"), mesa.edit_token)
    return redirect(url_for("mesa.board", token=mesa.edit_token), 303)


@bp.get("/m/<token>")
def board(token: str) -> str:
    """The scorer's board page."""
    said = get_flashed_messages()
    board = service.scorer_board(token)
    context = present.board_context(board, said[-1] if said else None)
    return render_template("mesa/board.html", **context, **present.page_context(board))


@bp.get(present.FORECAST_PATH.format("<int:special_at>"))
@bp.get(present.FORECAST_RULES_PATH.format("<rules>", "<int:special_at>"))
def forecast(special_at: int, rules: str = DEFAULT_RULE_SET.code) -> Response:
    """The forecast's game table for the board's script: the same for every table with this
    rule set and special-hand threshold, versioned by its content (?v=), so kept by the browser
    for a year."""
    if rules not in VARIANTS or special_at not in VARIANTS[rules].special_at:
        abort(404)
    text, version = present.forecast_table(special_at, rules)
    response = Response(text, mimetype="application/json")
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@bp.get(f"/m/<token>/{PATHS['juiz']}")
def juiz(token: str) -> Response:
    """Open the juiz from the board: the table goes to this browser's session, so no juiz
    address (nor anything copied from it) ever carries the scorer's token."""
    session[JUIZ_TABLE] = service.scorer_table(token).edit_token
    return redirect(url_for("juiz.index"), 303)


@bp.get(f"/m/<token>/{PATHS['history']}")
def history(token: str) -> str:
    """The whole log of a table, newest first, a page at a time (?antes=<seq> for older)."""
    before = request.args.get("antes", type=int)
    page = service.log_page(token, before if before is not None and before > 0 else None)
    older = None
    if page.older is not None:
        older = url_for("mesa.history", token=token, antes=page.older)
    return render_template(
        "mesa/history.html",
        mesa=page.mesa,
        names=page.mesa.team_names,
        log=present.log_entries(page.mesa, page.records, page.numbers),
        older=older,
        first=before is None,
    )


def _fragment(context: dict[str, Any], status: int = 200) -> Response:
    """The board fragment, its revision in the REV_HEADER for the page's script."""
    response = make_response(render_template("mesa/_board.html", **context), status)
    response.headers[REV_HEADER] = str(context["mesa"].revision)
    return response


@bp.get(f"/m/<token>/{PATHS['poll']}")
def board_fragment(token: str) -> Response:
    """The board fragment for polling: 204 while the revision is unchanged."""
    current = polled_revision(token, edit=True)
    if current is not None and request.args.get("rev") == str(current):
        return Response(status=204)
    return _fragment(present.board_context(service.scorer_board(token)))


def _answer(board: Board, status: int = 200, message: str | None = None) -> Any:
    """The board after a write: the fragment for the page's script, else a redirect (a message
    follows it as a flash) or, for a refusal, the page."""
    context = present.board_context(board, message, status)
    if hx_request.htmx:
        return _fragment(context, status)
    if status >= 400:
        page = render_template("mesa/board.html", **context, **present.page_context(board))
        return make_response(page, status)
    if message:
        flash(message)
    return redirect(url_for("mesa.board", token=board.mesa.edit_token), 303)


def _redraw(message: str | None, status: int) -> Any:
    """A write that was not applied (or one applied before, sent again): the current board,
    with the reason in the slot."""
    board = service.scorer_board(str((request.view_args or {}).get("token", "")))
    return _answer(board, status, message)


answer_refusals(bp, _redraw)


def _written(done: Written, said: str | None = None) -> Any:
    """The answer to an accepted write; `said` (e.g. 'Desfeito: {}.') words its record."""
    text = words.record_text(done.record, done.board.mesa.team_names)
    return _answer(done.board, 200, said.format(text) if said else None)


def tap_outcome(code: str | None) -> Outcome:
    """A tap's outcome in the words of either rule set (the table's rules then judge it), else
    the first rule set's pt-BR refusal."""
    refusals = []
    for rules in VARIANTS.values():
        try:
            return Outcome.parse(code, rules)
        except RulesError as refused:
            refusals.append(refused)
    raise refusals[0]


@bp.post(f"/m/<token>/{PATHS['tap']}")
def tap(token: str) -> Any:
    """Record one hand outcome (a tap)."""
    write = Write.read(request.form)
    outcome = tap_outcome(request.form.get("o"))
    return _written(service.record_outcome(token, write.rev, outcome, client_id=write.cid))


@bp.post(f"/m/<token>/{PATHS['undo']}")
def undo_view(token: str) -> Any:
    """Undo the last recorded step."""
    write = Write.read(request.form)
    return _written(service.undo(token, write.rev, write.cid), "Desfeito: {}.")


@bp.post(f"/m/<token>/{PATHS['redo']}")
def redo_view(token: str) -> Any:
    """Bring back what the last undo took."""
    write = Write.read(request.form)
    return _written(service.redo(token, write.rev, write.cid), "Refeito: {}.")


@bp.post(f"/m/<token>/{PATHS['note']}")
def note(token: str) -> Any:
    """Attach a note on how the last hand ended."""
    write = Write.read(request.form)
    record = number(request.form.get("registro"), "a mão")
    note_code = request.form.get("nota", "")
    return _written(service.set_note(token, write.rev, record, note_code, write.cid))


@bp.post(f"/m/<token>/{PATHS['fix']}")
def correct(token: str) -> Any:
    """Correct a side's points by hand, with a required reason: add to them ("Somar pontos",
    modo=somar) or set them ("Definir placar", the default)."""
    write = Write.read(request.form)
    fix = CorrectionForm.read(request.form)
    if fix.adding:
        done = service.add_points(token, write.rev, fix.side, fix.points, fix.reason, write.cid)
        return _written(done)
    outcome = Outcome(Kind.CORRECAO, fix.side, fix.points)
    return _written(service.record_outcome(token, write.rev, outcome, fix.reason, write.cid))


def _edit_page(
    board: Board,
    form: EditTableForm | None = None,
    rev: int | None = None,
    status: int = 200,
    message: str | None = None,
) -> Response:
    """The edit of an open table: its form (filled with the table's settings unless given, as
    posted), the revision it was drawn from and a fresh client id for its one write. A table
    that has played asks, when a name changes, whether it is a typo fixed or another person
    (shown at once when the form posted changed a name, else once one is typed)."""
    mesa = board.mesa
    shown = form or EditTableForm.of(mesa, board.state)
    page = render_template(
        "mesa/edit.html",
        mesa=mesa,
        names=mesa.team_names,
        state=board.state,
        form=shown,
        rev=mesa.revision if rev is None else rev,
        cid=str(uuid.uuid4()),
        message=message,
        board_url=url_for("mesa.board", token=mesa.edit_token),
        asks_names=board.played and mesa.torneio_id is None,
        current_names=EditTableForm.names_of(mesa),
        renamed=shown.renames(mesa),
        names_missing=message == ASK_NAMES,
    )
    return make_response(page, status)


@bp.get(f"/m/<token>/{PATHS['edit']}")
def edit(token: str) -> Response:
    """The edit of an open table: names, seating, series and house options, filled in."""
    return _edit_page(service.scorer_board(token))


@bp.post(f"/m/<token>/{PATHS['edit']}")
def edit_save(token: str) -> Response:
    """Change an open table's settings (a write like a tap: revision-checked, journaled by its
    client id, in the log, undoable) and go back to the board, whose slot says what changed; a
    refusal draws the form again as posted with its reason, a stale revision with the table as
    it is now, and a viewer's link gets 403."""
    form = EditTableForm()
    posted = None
    try:
        write = Write.read(request.form)
        posted = write.rev
        if not form.validate():
            raise RulesError(form.error or "Opções inválidas.")
        settings, dealer = form.edit()
        service.edit_table(token, write.rev, settings, dealer, write.cid, form.names_change)
    except AlreadyApplied:
        pass  # sent again after a lost answer: the board shows it done
    except BadLink:
        raise
    except (Refusal, RulesError, InputError) as error:
        status, message = answer_of(error)
        board = service.scorer_board(token)  # a viewer's link is refused here
        if status == 409:
            return _edit_page(board, status=status, message=message)
        return _edit_page(board, form, posted, status, message)
    return redirect(url_for("mesa.board", token=token), 303)
