"""The juiz pages: a round, a hand, the reference, and applying a hand ruling to a board. Views
parse the query, ask the rules (rulings), present (present, whole) and render."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from htmx_flask import request as hx_request

from ...domain.mesa import AlreadyApplied, Board, UnknownTable, service
from ...domain.mesa.inputs import Write
from ...rules import Outcome, RulesError, Variant
from ..common.session import JUIZ_TABLE, opened_table
from ..errors import answer_refusals
from . import apply, present, whole
from .query import (
    CARRY_KEYS,
    EVENT_KEYS,
    HAND_KEYS,
    parse_hand,
    parse_round,
    parse_whole,
    read_carry,
    read_variant,
    round_start,
    whole_start,
)
from .rulings import judge_hand_query, judge_round_query, judge_whole_query, table_names

bp = Blueprint("juiz", __name__, url_prefix="/juiz")


def _table() -> Board | None:
    """The board of the table this browser opened the juiz from, else None."""
    return opened_table(service.scorer_board)


def _applied_to() -> Board:
    """The board a ruling is applied to: the juiz's table; UnknownTable (a 404) without one."""
    board = _table()
    if board is None:
        raise UnknownTable()
    return board


@bp.after_request
def _no_index(response: Any) -> Any:
    """Rulings are shared in group chats, not meant for search engines."""
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


@bp.get("/placar")
def back_to_board() -> Any:
    """Back to the board the juiz was opened from (its address stays out of the juiz's pages)."""
    board = _table()
    if board is None:
        return redirect(url_for("juiz.index"), 303)
    return redirect(url_for("mesa.board", token=board.mesa.edit_token), 303)


@bp.post("/sem-mesa")
def without_table() -> Any:
    """Use the juiz on its own, apart from the table it was opened from."""
    session.pop(JUIZ_TABLE, None)
    return redirect(url_for("juiz.index"), 303)


def _render(page: str, fragment: str, status: int = 200, **context: Any) -> Any:
    """The fragment for htmx swaps, the whole page otherwise (and for history restores)."""
    partial = bool(hx_request.htmx) and not hx_request.htmx.history_restore_request
    response = make_response(render_template(fragment if partial else page, **context), status)
    response.headers["Vary"] = "HX-Request"
    return response


@bp.get("")
def index() -> Any:
    """The juiz home: what it settles, and the reference tables."""
    board = _table()
    start = round_start(board)
    carry = read_carry(request.args, start)
    query, _ = parse_round(carry, start)
    return render_template("juiz/index.html", **present.home(query, carry, board))


@bp.get("/rodada")
def round_page() -> Any:
    """Rule on one round from the vira and the plays in the query string."""
    board = _table()
    query, refusal = parse_round(request.args, round_start(board))
    ruling = judge_round_query(query, refusal, *table_names(board, query.naming))
    context = present.round_page(query, refusal, ruling, board, request.args)
    return _render("juiz/round.html", "juiz/_round.html", **context)


@bp.get("/mao")
def hand_page() -> Any:
    """Rule on a hand: from its events (`eventos`, the whole hand) or its round results."""
    if "eventos" in request.args:
        return _whole_page(_table(), request.args)
    return _hand_page(_table(), request.args)


def _whole_page(
    board: Board | None, args: Mapping[str, str], status: int = 200, message: str | None = None
) -> Any:
    """Render the whole-hand page (or its fragment), with an optional apply message."""
    query, refusal = parse_whole(args, whole_start(board))
    ruling = judge_whole_query(query, refusal, *table_names(board, query.naming))
    context = whole.page(query, refusal, ruling, board, args, message)
    return _render("juiz/whole.html", "juiz/_whole.html", status, **context)


def _hand_page(
    board: Board | None, args: Mapping[str, str], status: int = 200, message: str | None = None
) -> Any:
    """Render the hand page (or its fragment) for a query, with an optional apply message."""
    query, refusal = parse_hand(args, round_start(board))
    ruling = judge_hand_query(query, refusal, table_names(board, query.naming)[0])
    context = present.hand_page(query, refusal, ruling, board, args, message)
    return _render("juiz/hand.html", "juiz/_hand.html", status, **context)


@bp.post("/aplicar")
def apply_hand() -> Any:
    """Record a hand ruling on the board the juiz was opened from, with the same revision check
    as a tap."""
    write = Write.read(request.form)
    board = _applied_to()
    rules = board.state.config.variant
    _check_rules(board, read_variant(request.form, rules))
    outcome = apply.read_outcome(request.form, rules)
    return _record(board, write, outcome)


def _check_rules(board: Board, rules: Variant) -> None:
    """Refuse, in pt-BR, a ruling under another rule set than the board's."""
    if not apply.fits_table(board, rules):
        raise RulesError(apply.other_rules(board, rules))


def _record(board: Board, write: Write, outcome: Outcome, note: str | None = None) -> Any:
    """Record a ruling like a tap (revision checked, journaled by its client id), or in the
    place of the board's last hand when the form names it (`substitui`), and go back to the
    board, saying what was recorded ('pelo juiz', and how the hand went: `note`); a write sent
    again after a lost answer records nothing more."""
    mesa = board.mesa
    replaced = apply.replaced_id(request.form)
    try:
        if replaced is None:
            reason = apply.reason_of(note)
            service.record_outcome(mesa.edit_token, write.rev, outcome, reason, write.cid)
        else:
            service.replace_last(
                mesa.edit_token, write.rev, replaced, outcome, apply.REASON, note, write.cid
            )
    except AlreadyApplied:
        pass  # the board already shows it
    else:
        last = board.last  # the hand replaced, when it is the one the write named
        in_place_of = last if last is not None and last.id == replaced else None
        flash(apply.confirmation(outcome, mesa.team_names, note, in_place_of))
    return redirect(url_for("mesa.board", token=mesa.edit_token), 303)


@bp.post("/mao/aplicar")
def apply_whole() -> Any:
    """Record a decided whole hand on the board the juiz was opened from: the engine's outcome
    for the events posted (never a value the form says), with the same revision check as a
    tap."""
    write = Write.read(request.form)
    board = _applied_to()
    query, refusal = parse_whole(request.form, whole_start(board))
    _check_rules(board, query.variant)
    ruling = judge_whole_query(query, refusal, *table_names(board))
    verdict = ruling.verdict
    if ruling.error is not None:
        raise RulesError(ruling.error)
    if verdict is None or verdict.outcome is None:
        raise RulesError("A mão ainda não acabou: não há o que marcar no placar.")
    return _record(board, write, verdict.outcome, apply.whole_note(verdict))


def _not_applied(message: str | None, status: int) -> Any:
    """A ruling the board refused: the hand page it came from again (the whole hand, or its
    rounds), with why."""
    board = _applied_to()
    form = request.form
    if "eventos" in form:
        args = {k: form[k] for k in (*EVENT_KEYS, "cobrir") if k in form}
        return _whole_page(board, args, status, message)
    args = {k: form[k] for k in (*HAND_KEYS, *CARRY_KEYS) if k in form}
    return _hand_page(board, args, status, message)


answer_refusals(bp, _not_applied)
