"""The whole hand, tap by tap: what the page shows of the engine's ruling (the rounds on the
table, whose turn, what the hand is worth, who may say what, what running would give) and the
links to tap next. Every rule is the engine's: this module only asks it and draws the answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import url_for

from ...domain.mesa import Board
from ...rules import (
    ANSWERER,
    DECK,
    MANILHAS,
    Card,
    CardEvent,
    HandState,
    Names,
    Special,
    Variant,
    Word,
    word,
)
from ...rules.reasons import points_text
from . import apply
from .naming import names_of
from .present import first_round, given, share, tabs
from .query import CARD_OPTIONS, EVENT_KEYS, HandQuery, WholeQuery, players_option
from .rulings import WholeRuling, table_names
from .widgets import Grid, Segment, Switch, card_grid, option_switch, variant_switch

Link = Callable[..., str]
# What a card that may not be put down yet waits for (read by screen readers).
WAIT_ANSWER = "espere a resposta"
WAIT_DECISION = "espere a decisão da {0}"

SPECIAL_LABELS = {
    Special.NORMAL: "Normal",
    Special.ONZE_NOS: "{2}: {0}",
    Special.ONZE_ELES: "{2}: {1}",
    Special.FERRO: "Ferro",
}
WORD_LABELS = {
    Word.TRUCO: "Truco!",
    Word.SEIS: "Seis!",
    Word.NOVE: "Nove!",
    Word.DEZ: "Dez!",
    Word.DOZE: "Doze!",
    Word.ACEITA: "Aceita",
    Word.CORRE: "Corre",
}


@dataclass(frozen=True)
class Action:
    """Something a seat may say now, as a link to the hand with it said."""

    label: str
    detail: str
    href: str
    testid: str
    call: bool


@dataclass(frozen=True)
class Speaker:
    """A seat that may speak now, and what it may say."""

    seat: int
    name: str
    side: int
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Put:
    """A seat's place in a round: who, and the card put down (if any yet)."""

    seat: int | None
    name: str
    side: int | None
    card: Card | None = None
    covered: bool = False
    current: bool = False
    win: bool = False


@dataclass(frozen=True)
class RoundRow:
    """A round as the table shows it: its places in play order and its result."""

    number: int
    puts: tuple[Put, ...]
    label: str | None
    current: bool


def _rows(state: HandState, names: Names, teams: tuple[str, str]) -> tuple[RoundRow, ...]:
    """The three rounds: the finished ones, the one being played (or the one the hand ended in,
    with every card put down), the ones to come (blank)."""
    setup = state.setup
    rows: list[RoundRow] = []

    def put(seat: int, play: CardEvent | None, **flags: bool) -> Put:
        return Put(
            seat,
            names.seat(seat),
            setup.side(seat),
            None if play is None else play.card,
            play is not None and play.covered,
            **flags,
        )

    for result in state.rounds:
        puts = tuple(put(p.seat, p, win=p.seat == result.winning_seat) for p in result.plays)
        label = "Empate" if result.winner is None else teams[result.winner]
        rows.append(RoundRow(result.number, puts, label, False))
    if not state.over or state.plays:  # a hand decided mid-round keeps that round's cards
        order = setup.order(state.opener)
        played = dict(enumerate(state.plays))
        puts = tuple(
            put(seat, played.get(i), current=seat == state.card_turn)
            for i, seat in enumerate(order)
        )
        rows.append(RoundRow(len(state.rounds) + 1, puts, None, not state.over))
    blank = tuple(Put(None, "", None) for _ in range(setup.players))
    rows.extend(RoundRow(n, blank, None, False) for n in range(len(rows) + 1, 4))
    return tuple(rows)


def _blank_rows(players: int) -> tuple[RoundRow, ...]:
    """Three empty rounds, before the vira is known."""
    blank = tuple(Put(None, "", None) for _ in range(players))
    return tuple(RoundRow(n, blank, None, n == 1) for n in (1, 2, 3))


def _speakers(
    state: HandState, names: Names, teams: tuple[str, str], link: Link, query: WholeQuery
) -> tuple[Speaker, ...]:
    """Every seat that may speak now, each word a link (running says what it would give)."""
    onze = state.onze_open
    speakers = []
    for seat, words in state.speakers():
        actions = []
        for said in words:
            detail = ""
            label = WORD_LABELS[said]
            if said is Word.CORRE:
                outcome = state.if_run(seat)
                if outcome is not None:
                    detail = f"{points_text(outcome.gain)} para {teams[outcome.side or 0]}"
            elif said.is_call and query.variant.asks(said) is not None:
                detail = f"vale {points_text(query.variant.asks(said) or 0)}"
            elif onze and state.caller is None:
                label, detail = "Joga", _plays_special(query.variant)
            elif state.bet.waiting is not None:
                detail = f"o {state.bet.waiting.value}"
            href = link(events=(*query.events, f"{seat}:{said.value}"), cover=False)
            actions.append(Action(label, detail, href, f"diz-{seat}-{said.value}", said.is_call))
        speakers.append(Speaker(seat, names.seat(seat), state.setup.side(seat), tuple(actions)))
    return tuple(speakers)


def _plays_special(rules: Variant) -> str:
    """What playing the special hand means: 'a mão de onze, valendo 3'."""
    return f"a {rules.special_name}, valendo {rules.special_worth}"


def _special_word(rules: Variant) -> str:
    """The special hand's short name on its switch: 'Onze', 'Dez'."""
    return rules.special_name.removeprefix("mão de ").capitalize()


def _status(state: HandState, ruling: WholeRuling, names: Names) -> tuple[str, ...]:
    """Where the hand stands, in a few lines: whose turn (or who answers), what it is worth."""
    verdict = ruling.verdict
    if verdict is None or state.over:
        return ()
    standing = verdict.reasons[-1]
    lines = [word(standing, names)]
    worth = f"A mão vale {points_text(state.bet.worth)}"
    if state.bet.pending is not None:
        worth += f" ({points_text(state.bet.pending)} se aceitarem)"
    lines.append(worth + ".")
    return tuple(lines)


def _grid(query: WholeQuery, state: HandState | None, link: Link) -> Grid:
    """The cards to tap: the vira to pick, or the card of the seat whose turn it is; the vira
    and the cards already shown greyed out (every card, while a call waits for its answer)."""
    seat = None if state is None else state.card_turn

    def href(card: Card) -> str | None:
        if state is None:
            return link(vira=str(card))
        if seat is None:
            return None
        text = f"X:{card}" if query.cover else str(card)
        return link(events=(*query.events, f"{seat}:{text}"), cover=False)

    vira = None if state is None else state.setup.vira
    seen = frozenset() if state is None else state.seen
    return card_grid(query.ruleset, vira, seen, href)


def _switches(query: WholeQuery, teams: tuple[str, str], names: Names, link: Link) -> Any:
    """The options of the hand, each a link; changing the players or the mão starts over."""

    def switch(title: str, field: str, options: list[tuple[str, object]], **also: Any) -> Switch:
        current = getattr(query, field)
        return Switch(
            title,
            tuple(
                Segment(label, link(**{field: value, **also}), value == current)
                for label, value in options
            ),
        )

    rules = query.variant
    specials: list[tuple[str, object]] = [
        (label.format(*teams, _special_word(rules)), special)
        for special, label in SPECIAL_LABELS.items()
    ]
    switches = [
        option_switch(players_option(rules), query, link, events=(), mao=1),
        switch(
            "Quem é o mão",
            "mao",
            [(names.seat(s), s) for s in range(1, query.players + 1)],
            events=(),
        ),
        switch("Mão", "special", specials),
        *(option_switch(option, query, link) for option in _card_options(rules)),
    ]
    if query.players > 2:
        switches.append(option_switch(ANSWERER, query, link))
    return tuple(switches)


def _card_options(rules: Variant) -> tuple[Any, ...]:
    """The card options a hand may change: those its rule set does not impose."""
    imposed = {DECK.name: rules.deck, MANILHAS.name: rules.manilhas}
    return tuple(option for option in CARD_OPTIONS if imposed.get(option.name) is None)


def _switched(query: WholeQuery, rules: Variant) -> dict[str, Any]:
    """The changes that start the hand over under another rule set (its cards, seats it has)."""
    players = query.players if query.players in rules.players else 4
    return {
        "variant": rules,
        "players": players,
        "deck": rules.deck or DECK.default,
        "manilhas": rules.manilhas or MANILHAS.default,
        "vira": None,
        "events": (),
        "mao": 1,
        "special": Special.NORMAL,
        "cover": False,
    }


def page(
    query: WholeQuery,
    refusal: str | None,
    ruling: WholeRuling,
    board: Board | None,
    args: Mapping[str, str],
    message: str | None = None,
) -> dict[str, Any]:
    """Everything _whole.html needs: the hand on the table and what may be said or put
    down next, the tabs, the link to share and, opened from a board, the apply section."""
    verdict = ruling.verdict
    if refusal is None and verdict is not None and verdict.illegal is None:
        query = replace(query, events=tuple(str(event) for event in verdict.events))
    shared = query.share_params() if refusal is None else given(args, EVENT_KEYS)

    def link(**changes: Any) -> str:
        return url_for("juiz.hand_page", **query.but(**changes).params())

    carry = query.carry()
    hand = HandQuery(query.players, (), tuple(carry.items()), variant=query.variant)
    first = first_round(hand, board)
    return {
        **_on_the_table(query, ruling, table_names(board, query.naming)[0], link),
        "variant_switch": variant_switch(
            query.variant, lambda rules: link(**_switched(query, rules))
        ),
        "message": message,
        "panel": apply.whole_panel(board, verdict)
        if board is not None and apply.fits_table(board, query.variant)
        else None,
        **tabs(
            board,
            query.players,
            carry,
            url_for("juiz.round_page", **first.params()),
            link(events=(), cover=False),
        ),
        **share("juiz.hand_page", shared, ruling.headline, names_of(query.naming, board)),
    }


def _on_the_table(
    query: WholeQuery, ruling: WholeRuling, teams: tuple[str, str], link: Link
) -> dict[str, Any]:
    """The hand as the engine has it: the rounds, the switches, who may speak, the cards to tap
    and the links to undo."""
    names = ruling.names
    verdict = ruling.verdict
    state = None if verdict is None else verdict.state
    picking_vira = ruling.undecided and verdict is None
    playing = ruling.undecided and state is not None
    cover_href = cover_known_href = None
    seat = None if state is None else state.card_turn
    if playing and state is not None and seat is not None:
        if state.refusal(CardEvent(seat, None, covered=True)) is None:
            cover_href = link(events=(*query.events, f"{seat}:X"), cover=False)
            cover_known_href = link(cover=not query.cover)
    prompt = ""
    if picking_vira:
        prompt = "Toque a vira: a carta virada na mesa, que decide as manilhas."
    elif playing and seat is not None:
        number = state.round_number if state else 1
        prompt = f"Toque a carta de {names.seat(seat)} ({number}ª rodada)."
        if query.cover:
            prompt = f"Toque a carta que {names.seat(seat)} jogou coberta."
    elif playing and state is not None and state.caller is not None:
        prompt = "Ninguém joga carta enquanto o pedido espera resposta."
    elif playing and state is not None and state.onze_open:
        prompt = f"Ninguém joga carta antes da decisão da {query.variant.special_name}."
    undo = None
    if query.events:
        undo = link(events=query.events[:-1], cover=False)
    elif query.vira is not None:
        undo = link(vira=None, cover=False)
    position = ruling.position
    return {
        "query": query,
        "ruling": ruling,
        "teams": teams,
        "switches": _switches(query, teams, names, link),
        "rows": _blank_rows(query.players) if state is None else _rows(state, names, teams),
        "vira": None if state is None else state.setup.vira,
        "speakers": _speakers(state, names, teams, link, query) if playing and state else (),
        "now": _status(state, ruling, names) if playing and state else (),
        "grid": _grid(query, state, link) if picking_vira or playing else (),
        "prompt": prompt,
        "wait_text": WAIT_DECISION.format(query.variant.special_name)
        if state is not None and state.onze_open
        else WAIT_ANSWER,
        "cover_href": cover_href,
        "cover_known_href": cover_known_href,
        "undo_href": undo,
        "restart_href": link(events=(), cover=False) if query.events else None,
        "cut_href": link(events=query.events[: position - 1], cover=False) if position else None,
        "picking_vira": picking_vira,
        "mao_name": names.seat(query.mao) if 1 <= query.mao <= query.players else "?",
        "speak_rows": 2 if _two_may_speak(query) else 1,
    }


def _two_may_speak(query: WholeQuery) -> bool:
    """True when two seats may have something to say at once (any player of a side answers a
    call or decides a mão de onze): the page then keeps room for two rows of buttons from the
    start."""
    return query.players > 2 and query.ruleset.anyone_answers
