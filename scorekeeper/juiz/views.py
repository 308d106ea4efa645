"""The juiz pages: a round, a hand, the reference, and applying a hand ruling to a board."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

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

from .. import mesas
from ..errors import missing_table
from ..mesas import Board, StaleRevision, UnknownTable, ViewOnly, words
from ..mesas.inputs import Write
from ..rules import (
    DECK,
    MANILHAS,
    PLAYERS,
    ROUND_LABELS,
    SIDE_LABELS,
    SUITS,
    TIE_OPENER,
    TIED,
    Card,
    Option,
    RulesError,
    Section,
    deck,
    manilhas,
    mao_opens,
    may_cover,
    next_opening_side,
    undecided,
    ways_to,
)
from ..urls import absolute_url, public_url
from . import JUIZ_TABLE, apply, reference, whole
from .query import (
    CARRY_KEYS,
    EVENT_KEYS,
    GLOBAL,
    MAX_VALUE,
    WHOLE,
    HandQuery,
    RoundQuery,
    WholeQuery,
    parse_hand,
    parse_round,
    parse_whole,
    read_carry,
)
from .rulings import (
    TEAMS,
    HandRuling,
    RoundRuling,
    judge_hand_query,
    judge_round_query,
    judge_whole_query,
)
from .widgets import Cell, Segment, Switch, option_switch

bp = Blueprint("juiz", __name__, url_prefix="/juiz")

REF_HINT = "Para ver as manilhas e a força das cartas de uma vira, abra a rodada e toque a vira."
ROUND_KEYS = (
    "vira",
    "rodada",
    "jogadores",
    "baralho",
    "manilhas",
    "empate",
    "abre",
    "mao",
    "jogadas",
)
HAND_KEYS = ("rodadas", "jogadores")


def _table() -> Board | None:
    """The board of the table this browser opened the juiz from (kept in its session, never in
    a juiz URL: a ruling's link can be shared without handing out the score), else None."""
    token = session.get(JUIZ_TABLE)
    if not isinstance(token, str):
        return None
    try:
        return mesas.scorer_board(token)
    except (UnknownTable, ViewOnly):  # its links were rotated: the juiz works on its own
        session.pop(JUIZ_TABLE, None)
        return None


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
    return redirect(url_for("tables.board", token=board.mesa.edit_token), 303)


@bp.post("/sem-mesa")
def without_table() -> Any:
    """Use the juiz on its own, apart from the table it was opened from."""
    session.pop(JUIZ_TABLE, None)
    return redirect(url_for("juiz.index"), 303)


def _defaults(board: Board | None) -> RoundQuery:
    """The table's settings when opened from one, else the global defaults."""
    if board is None:
        return GLOBAL
    mesa, state = board.mesa, board.state
    return RoundQuery(
        players=mesa.players,
        deck=mesa.deck,
        manilhas=mesa.manilhas,
        tie_opener=mesa.tie_opener,
        opener=state.mao % 2,
        mao_seat=state.mao,
    )


def _names(board: Board | None) -> tuple[tuple[str, str], list[str]]:
    """Team names and player names in seat order."""
    if board is None:
        return TEAMS, []
    return board.mesa.team_names, [str(n) for n in (board.mesa.player_names or [])]


def _render(page: str, fragment: str, status: int = 200, **context: Any) -> Any:
    """The fragment for htmx swaps, the whole page otherwise (and for history restores)."""
    partial = bool(hx_request.htmx) and not hx_request.htmx.history_restore_request
    response = make_response(render_template(fragment if partial else page, **context), status)
    response.headers["Vary"] = "HX-Request"
    return response


def _raw_share(args: Mapping[str, str], keys: tuple[str, ...]) -> dict[str, Any]:
    """The known parameters exactly as given (to reproduce a refusal)."""
    return {k: args[k][: MAX_VALUE * 2] for k in keys if k in args}


@bp.get("")
def index() -> Any:
    """The juiz home: what it settles, and the reference tables."""
    board = _table()
    defaults = _defaults(board)
    carry = read_carry(request.args, defaults)
    query, _ = parse_round(carry, defaults)
    return render_template(
        "juiz/index.html",
        mesa=board.mesa if board else None,
        ref=reference.build(query.ruleset, Card.parse(query.vira) if query.vira else None),
        ref_hint=REF_HINT,
        round_href=url_for("juiz.rodada", **carry),
        hand_href=url_for("juiz.mao", **carry),
        whole_href=url_for("juiz.mao", eventos="", **carry),
        board_href=url_for("juiz.back_to_board") if board else None,
    )


@bp.get("/rodada")
def rodada() -> Any:
    """Rule on one round from the vira and the plays in the query string."""
    board = _table()
    query, refusal = parse_round(request.args, _defaults(board))
    teams, given = _names(board)
    ruling = judge_round_query(query, refusal, teams, given)
    share = (
        _canonical(query, ruling).share_params()
        if refusal is None
        else _raw_share(request.args, ROUND_KEYS)
    )
    context = _round_context(query, ruling, board, teams)
    context["share_href"] = absolute_url("juiz.rodada", public_url(), **share)
    context["whatsapp_href"] = _whatsapp(ruling.headline, context["share_href"])
    return _render("juiz/rodada.html", "juiz/_rodada.html", **context)


def _canonical(query: RoundQuery, ruling: RoundRuling) -> RoundQuery:
    """The query with its plays in canonical text ('4p', 'X', 'X:4p') when they all parsed."""
    texts = tuple(s.text for s in ruling.slots if s.text is not None and not s.bad)
    return replace(query, plays=texts) if len(texts) == len(query.plays) else query


def _whatsapp(headline: str, link: str) -> str:
    """A WhatsApp share link with the ruling's headline and its URL."""
    text = f"Juiz do Tento: {headline}. {link}"
    return f"https://wa.me/?text={quote(text, safe='')}"


def _round_context(
    query: RoundQuery, ruling: RoundRuling, board: Board | None, teams: tuple[str, str]
) -> dict[str, Any]:
    """Everything _rodada.html needs: the ruling, the switches, the grid and the links."""

    def link(**changes: Any) -> str:
        return url_for("juiz.rodada", **query.but(**changes).params())

    undo = None
    if query.plays:
        undo = link(plays=query.plays[:-1])
    elif query.vira:
        undo = link(vira=None)
    carry = query.carry()
    return {
        "query": query,
        "ruling": ruling,
        "mesa": board.mesa if board else None,
        "teams": teams,
        "switches": _switches(query, ruling, teams, link),
        "grid": _grid(query, ruling, link) if ruling.result is None else (),
        "undo_href": undo,
        "restart_href": link(plays=(), cover=False) if query.plays else None,
        "vira_href": link(vira=None) if query.vira else None,
        "cover_href": link(plays=(*query.plays, "X")) if _can_cover(query, ruling) else None,
        "cover_known_href": link(cover=not query.cover) if _can_cover(query, ruling) else None,
        "hand_notes": _hand_notes(query, ruling, teams),
        "ref": reference.build(query.ruleset, ruling.vira),
        "board_href": url_for("juiz.back_to_board") if board else None,
        "home_href": url_for("juiz.index", **carry),
        "round_tab_href": url_for("juiz.rodada", jogadores=query.players, **carry),
        "hand_tab_href": url_for("juiz.mao", jogadores=query.players, **carry),
        "whole_tab_href": _whole_href(query.players, carry),
    }


def _whole_href(players: int, carry: dict[str, Any]) -> str:
    """The whole-hand page with no event yet, keeping the vira and the card rules."""
    return url_for("juiz.mao", jogadores=players, eventos="", **carry)


def _hand_notes(
    query: RoundQuery, ruling: RoundRuling, teams: tuple[str, str]
) -> tuple[tuple[str, str], ...]:
    """'Anotar na mão' links: one when the earlier rounds are known, else one for each way the
    hand can have reached this round."""
    result = ruling.next_result
    if result is None:
        return ()
    carry = tuple(query.carry().items())

    def href(earlier: tuple[str, ...]) -> str:
        hand = HandQuery(query.players, (*earlier, result), carry)
        return url_for("juiz.mao", **hand.params())

    if query.round_number == 1 or query.previous:
        return (("Anotar na mão →", href(query.previous)),)
    names = dict(zip(SIDE_LABELS, teams, strict=True))

    def said(i: int, earlier: str) -> str:
        return f"{i + 1}ª para {names[earlier]}" if earlier in names else f"{i + 1}ª empatada"

    return tuple(
        (", ".join(said(i, r) for i, r in enumerate(earlier)), href(earlier))
        for earlier in ways_to(query.round_number)
    )


def _other_round(query: RoundQuery, ruling: RoundRuling, number: int) -> RoundQuery:
    """Round `number` of the same hand: the vira, the rules and the mão kept, no card yet, and
    the earlier results (and, for the next round, who opens it) carried when this page knows
    them."""
    if number == query.round_number:
        return query
    known = query.round_number == 1 or bool(query.previous)
    chain = query.previous if known else ()
    if known and ruling.next_result:
        chain = (*chain, ruling.next_result)
    changes: dict[str, Any] = {
        "round_number": number,
        "plays": (),
        "cover": False,
        "previous": (),
    }
    if len(chain) >= number - 1 and undecided(chain[: number - 1]):
        changes["previous"] = chain[: number - 1]
    verdict = ruling.verdict
    if mao_opens(number):
        changes["opener"] = query.seats[query.mao] % 2
    elif number == query.round_number + 1 and verdict is not None:
        changes.update(_opened_by(query, query.seats[verdict.next_opener]))
    return query.but(**changes)


def _opened_by(query: RoundQuery, seat: int) -> dict[str, int]:
    """The changes that make `seat` open the round, the hand's mão staying who it is."""
    mao_seat = query.seats[query.mao]
    return {"opener": seat % 2, "mao": (mao_seat - seat) % query.players}


def _can_cover(query: RoundQuery, ruling: RoundRuling) -> bool:
    """True when the next play may be covered (the rules allow it, and a play is awaited)."""
    return may_cover(query.round_number) and ruling.result is None and not ruling.picking_vira


def _switches(
    query: RoundQuery,
    ruling: RoundRuling,
    teams: tuple[str, str],
    link: Any,
) -> tuple[Switch, ...]:
    """The house-rule switches, each option a link keeping everything else."""

    def switch(option: Option[Any]) -> Switch:
        return option_switch(
            option, getattr(query, option.name), lambda value: link(**{option.name: value})
        )

    def choose(label: str, query_: RoundQuery, active: bool) -> Segment:
        return Segment(label, url_for("juiz.rodada", **query_.params()), active)

    rounds = Switch(
        "Rodada",
        tuple(
            choose(f"{n}ª", _other_round(query, ruling, n), n == query.round_number)
            for n in (1, 2, 3)
        ),
    )
    switches = [switch(PLAYERS), rounds, switch(DECK), switch(MANILHAS)]
    if mao_opens(query.round_number):
        opener = (Segment(team, link(opener=n), n == query.opener) for n, team in enumerate(teams))
        switches.append(Switch("Abre a rodada", tuple(opener)))
    switches.append(switch(TIE_OPENER))
    if not mao_opens(query.round_number):
        names = {seat: slot.name for seat, slot in zip(query.seats, ruling.slots, strict=False)}
        seats = sorted(names)
        first, mao = query.seats[0], query.seats[query.mao]
        candidates = sorted({query.but(opener=side, mao=0).seats[0] for side in (0, 1)})
        switches.append(
            Switch(
                "Quem é o mão",
                tuple(
                    choose(
                        names[s],
                        query.but(opener=first % 2, mao=(s - first) % query.players),
                        s == mao,
                    )
                    for s in candidates
                ),
            )
        )
        switches.append(
            Switch(
                "Quem abriu a rodada",
                tuple(
                    choose(names[s], query.but(**_opened_by(query, s)), s == first) for s in seats
                ),
            )
        )
    return tuple(switches)


Grid = tuple[tuple[str, tuple["Cell", ...]], ...]


def _grid(query: RoundQuery, ruling: RoundRuling, link: Any) -> Grid:
    """Rows of cards by rank (in the deck's cycle), one column per suit."""
    ruleset = query.ruleset
    cards = set(deck(ruleset))
    mans = set(manilhas(ruleset, ruling.vira)) if ruling.vira or query.fixed else set()
    ranks = list(dict.fromkeys(c.rank for c in deck(ruleset)))
    rows = []
    for rank in ranks:
        cells = []
        for suit in SUITS:
            card = Card(rank, suit)
            used = card in ruling.used
            href = None
            if card in cards and not used:
                if ruling.picking_vira:
                    href = link(vira=str(card))
                else:
                    text = f"X:{card}" if query.cover else str(card)
                    href = link(plays=(*query.plays, text), cover=False)
            cells.append(Cell(card, href, used, card not in cards, card in mans))
        rows.append((rank.value, tuple(cells)))
    return tuple(rows)


@bp.get("/mao")
def mao() -> Any:
    """Rule on a hand: from its events (`eventos`, the whole hand) or its round results."""
    if "eventos" in request.args:
        return _whole_page(_table(), request.args)
    return _hand_page(_table(), request.args)


def _whole_defaults(board: Board | None) -> WholeQuery:
    """The table's settings (and the kind and mão of its current hand), else the defaults."""
    if board is None:
        return WHOLE
    mesa, state = board.mesa, board.state
    return WholeQuery(
        players=mesa.players,
        deck=mesa.deck,
        manilhas=mesa.manilhas,
        tie_opener=mesa.tie_opener,
        special=state.special,
        mao=state.mao + 1,
    )


def _whole_page(
    board: Board | None, args: Any, status: int = 200, message: str | None = None
) -> Any:
    """Render the whole-hand page (or its fragment), with an optional apply message."""
    query, refusal = parse_whole(args, _whole_defaults(board))
    teams, given = _names(board)
    ruling = judge_whole_query(query, refusal, teams, given)
    if refusal is None and ruling.verdict is not None and ruling.verdict.illegal is None:
        query = replace(query, events=tuple(str(e) for e in ruling.verdict.events))
    share = query.share_params() if refusal is None else _raw_share(args, EVENT_KEYS)
    share_href = absolute_url("juiz.mao", public_url(), **share)

    def link(**changes: Any) -> str:
        return url_for("juiz.mao", **query.but(**changes).params())

    context = whole.build(query, ruling, teams, link)
    carry = query.carry()
    first_round = _first_round(HandQuery(query.players, (), tuple(carry.items())), board)
    context.update(
        share_href=share_href,
        whatsapp_href=_whatsapp(ruling.headline, share_href),
        message=message,
        mesa=board.mesa if board else None,
        panel=apply.whole_panel(board, ruling.verdict) if board is not None else None,
        board_href=url_for("juiz.back_to_board") if board else None,
        home_href=url_for("juiz.index", **carry),
        round_tab_href=url_for("juiz.rodada", **first_round.params()),
        hand_tab_href=url_for("juiz.mao", jogadores=query.players, **carry),
        whole_tab_href=link(events=(), cover=False),
    )
    return _render("juiz/mao_inteira.html", "juiz/_mao_inteira.html", status, **context)


def _hand_page(
    board: Board | None, args: Any, status: int = 200, message: str | None = None
) -> Any:
    """Render the hand page (or its fragment) for a query, with an optional apply message."""
    query, refusal = parse_hand(args, _defaults(board))
    teams, _ = _names(board)
    ruling = judge_hand_query(query, refusal, teams)
    share = query.share_params() if refusal is None else _raw_share(args, HAND_KEYS)
    share_href = absolute_url("juiz.mao", public_url(), **share)
    context = _hand_context(query, ruling, board, teams)
    context.update(
        share_href=share_href,
        whatsapp_href=_whatsapp(ruling.headline, share_href),
        message=message,
    )
    return _render("juiz/mao.html", "juiz/_mao.html", status, **context)


def _hand_context(
    query: HandQuery,
    ruling: HandRuling,
    board: Board | None,
    teams: tuple[str, str],
) -> dict[str, Any]:
    """Everything _mao.html needs."""

    def link(results: tuple[str, ...]) -> str:
        return url_for("juiz.mao", **query.params(results))

    labels = {**dict(zip(SIDE_LABELS, teams, strict=True)), TIED: "Empate"}
    choices: tuple[tuple[str, str, str], ...] = ()
    judge_href = None
    first_round = _first_round(query, board)
    if ruling.result == "indecisa":
        choices = tuple((labels[r], link((*query.results, r)), r) for r in ROUND_LABELS)
        judge_href = url_for("juiz.rodada", **_next_round(first_round, query.results).params())
    carry: dict[str, Any] = dict(query.carry)
    return {
        "query": query,
        "ruling": ruling,
        "mesa": board.mesa if board else None,
        "teams": teams,
        "rows": [(i + 1, labels.get(r, r), r) for i, r in enumerate(query.results)],
        "choices": choices,
        "judge_href": judge_href,
        "undo_href": link(query.results[:-1]) if query.results else None,
        "restart_href": link(()) if query.results else None,
        "rule_section": Section.RODADAS,
        "players_switch": option_switch(
            PLAYERS,
            query.players,
            lambda players: url_for("juiz.mao", **replace(query, players=players).params()),
        ),
        "panel": apply.panel(board, ruling.result) if board is not None else None,
        "board_href": url_for("juiz.back_to_board") if board else None,
        "home_href": url_for("juiz.index", **carry),
        "round_tab_href": url_for("juiz.rodada", **first_round.params()),
        "hand_tab_href": url_for("juiz.mao", jogadores=query.players, **carry),
        "whole_tab_href": _whole_href(query.players, carry),
    }


def _first_round(query: HandQuery, board: Board | None) -> RoundQuery:
    """The hand's first round as the table (or the defaults) and the kept settings have it."""
    defaults = _defaults(board)
    first, _ = parse_round(dict(query.carry), defaults)
    return first.but(players=query.players)


def _next_round(first: RoundQuery, results: tuple[str, ...]) -> RoundQuery:
    """The round after `results`, opened by the side the rules say (the last winner's; after a
    tie, the mão's), the hand's mão staying who it is."""
    if not results:
        return first
    side = next_opening_side(results[-1], first.opener)
    seat = first.but(opener=side).seats[0]
    mao_seat = first.seats[0]
    return first.but(
        round_number=len(results) + 1,
        previous=results,
        opener=side,
        mao=(mao_seat - seat) % first.players,
    )


@bp.post("/aplicar")
def aplicar() -> Any:
    """Record a hand ruling on the board the juiz was opened from, with the same revision check
    as a tap."""
    write = Write.read(request.form)
    outcome = apply.read_outcome(request.form)
    board = _table()
    if board is None:
        raise UnknownTable()
    mesa = board.mesa
    mesas.record_outcome(mesa.edit_token, write.rev, outcome, reason=apply.REASON)
    flash(apply.confirmation(outcome, mesa.team_names))
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


@bp.post("/mao/aplicar")
def aplicar_mao() -> Any:
    """Record a decided whole hand on the board the juiz was opened from: the engine's outcome
    for the events posted (never a value the form says), with the same revision check as a
    tap."""
    write = Write.read(request.form)
    board = _table()
    if board is None:
        raise UnknownTable()
    query, refusal = parse_whole(request.form, _whole_defaults(board))
    ruling = judge_whole_query(query, refusal, *_names(board))
    verdict = ruling.verdict
    if ruling.error is not None:
        raise RulesError(ruling.error)
    if verdict is None or verdict.outcome is None:
        raise RulesError("A mão ainda não acabou: não há o que marcar no placar.")
    mesa = board.mesa
    reason = apply.whole_reason(verdict)
    mesas.record_outcome(mesa.edit_token, write.rev, verdict.outcome, reason=reason)
    flash(f"{words.describe(verdict.outcome, mesa.team_names)} · {reason}")
    return redirect(url_for("tables.board", token=mesa.edit_token), 303)


@bp.errorhandler(StaleRevision)
@bp.errorhandler(RulesError)
def _not_applied(error: Exception) -> Any:
    """A ruling the board refused: the hand page again, with the reason (409 or 422)."""
    stale = isinstance(error, StaleRevision)
    board = _table()
    if board is None:
        return missing_table(UnknownTable())
    if "eventos" in request.form:
        args = {k: request.form[k] for k in (*EVENT_KEYS, "cobrir") if k in request.form}
        return _whole_page(board, args, 409 if stale else 422, _refusal_text(error, stale))
    args = {k: request.form[k] for k in (*HAND_KEYS, *CARRY_KEYS) if k in request.form}
    return _hand_page(board, args, 409 if stale else 422, _refusal_text(error, stale))


def _refusal_text(error: Exception, stale: bool) -> str:
    """What the page says of a write the board refused."""
    return words.STALE_MESSAGE if stale else str(error)
