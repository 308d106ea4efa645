"""What the juiz's home, round and hand pages show: the switches, the card grid, the links to
tap next, the tabs and the ruling's link to share. Every rule is the engine's; this module asks
the queries for their links and draws the rulings it is given."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from flask import url_for

from ...domain.mesa import Board
from ...rules import (
    DECK,
    MANILHAS,
    PLAYERS,
    ROUND_LABELS,
    SIDE_LABELS,
    TIE_OPENER,
    TIED,
    Card,
    Section,
    Variant,
    mao_opens,
    may_cover,
    next_opening_side,
    undecided,
    ways_to,
)
from ..common.links import shared_url
from . import apply, reference
from .naming import NAME_KEYS, Naming, names_of
from .query import (
    HAND_KEYS,
    MAX_VALUE,
    ROUND_KEYS,
    HandQuery,
    RoundQuery,
    parse_round,
    players_option,
    round_start,
    variant_param,
)
from .rulings import HandRuling, RoundRuling, table_names
from .widgets import Grid, Segment, Switch, card_grid, option_switch, variant_switch

REF_HINT = "Para ver as manilhas e a força das cartas de uma vira, abra a rodada e toque a vira."


def whatsapp(headline: str, link: str) -> str:
    """A WhatsApp share link with the ruling's headline and its URL."""
    text = f"Juiz do Tento: {headline}. {link}"
    return f"https://wa.me/?text={quote(text, safe='')}"


def share(endpoint: str, params: Mapping[str, Any], headline: str, names: Naming) -> dict[str, str]:
    """The ruling's link to share, with the names the page shows (never the table's token),
    under the address other phones can open (the one the share page uses, never localhost
    unless nothing else serves), and the WhatsApp link that sends it."""
    href = shared_url(endpoint, **{**params, **names.params()})
    return {"share_href": href, "whatsapp_href": whatsapp(headline, href)}


def given(args: Mapping[str, str], keys: tuple[str, ...]) -> dict[str, Any]:
    """The known parameters exactly as given (a refused query's link reproduces the refusal)."""
    return {k: args[k][: MAX_VALUE * 2] for k in keys if k in args}


def tabs(
    board: Board | None, players: int, carry: Mapping[str, Any], round_href: str, whole_href: str
) -> dict[str, Any]:
    """The juiz's tabs (each keeping the vira and the card rules) and the way back to the board."""
    return {
        "mesa": board.mesa if board else None,
        "board_href": url_for("juiz.back_to_board") if board else None,
        "home_href": url_for("juiz.index", **carry),
        "round_tab_href": round_href,
        "hand_tab_href": url_for("juiz.hand_page", jogadores=players, **carry),
        "whole_tab_href": whole_href,
    }


def whole_href(players: int, carry: Mapping[str, Any]) -> str:
    """The whole-hand page with no event yet, keeping the vira and the card rules."""
    return url_for("juiz.hand_page", jogadores=players, eventos="", **carry)


def first_round(query: HandQuery, board: Board | None) -> RoundQuery:
    """The hand's first round as the table (or the defaults) and the kept settings have it."""
    first, _ = parse_round(dict(query.carry), round_start(board))
    return first.but(players=query.players)


# --- the home page ----------------------------------------------------------------------------


def home(query: RoundQuery, carry: Mapping[str, Any], board: Board | None) -> dict[str, Any]:
    """Everything index.html needs: the three pages, keeping the vira and rules, and the
    reference tables."""
    return {
        "mesa": board.mesa if board else None,
        "ref": reference.build(query.ruleset, Card.parse(query.vira) if query.vira else None),
        "ref_hint": REF_HINT,
        "vira_table": query.variant.manilhas is None,
        "variant": query.variant,
        "variant_switch": variant_switch(
            query.variant, lambda rules: url_for("juiz.index", **variant_param(rules))
        ),
        "round_href": url_for("juiz.round_page", **carry),
        "hand_href": url_for("juiz.hand_page", **carry),
        "whole_href": url_for("juiz.hand_page", eventos="", **carry),
        "board_href": url_for("juiz.back_to_board") if board else None,
    }


# --- the round page ---------------------------------------------------------------------------


def round_page(
    query: RoundQuery,
    refusal: str | None,
    ruling: RoundRuling,
    board: Board | None,
    args: Mapping[str, str],
) -> dict[str, Any]:
    """Everything _round.html needs: the ruling, the switches, the grid and the links."""
    teams, _ = table_names(board, query.naming)

    def link(**changes: Any) -> str:
        return url_for("juiz.round_page", **query.but(**changes).params())

    undo = None
    if query.plays:
        undo = link(plays=query.plays[:-1])
    elif query.vira:
        undo = link(vira=None)
    carry = query.carry()
    coverable = _can_cover(query, ruling)
    canonical = _canonical(query, ruling)
    shared = canonical.share_params() if refusal is None else given(args, ROUND_KEYS)
    return {
        "query": query,
        "ruling": ruling,
        "teams": teams,
        "switches": _switches(query, ruling, teams, link),
        "variant_switch": variant_switch(
            query.variant, lambda rules: link(**_round_under(query, rules))
        ),
        "grid": _grid(query, ruling, link) if ruling.result is None else (),
        "undo_href": undo,
        "restart_href": link(plays=(), cover=False) if query.plays else None,
        "vira_href": link(vira=None) if query.vira else None,
        "cover_href": link(plays=(*query.plays, "X")) if coverable else None,
        "cover_known_href": link(cover=not query.cover) if coverable else None,
        "hand_notes": _hand_notes(query, ruling, teams),
        "ref": reference.build(query.ruleset, ruling.vira),
        "vira_table": query.variant.manilhas is None,
        **tabs(
            board,
            query.players,
            carry,
            url_for("juiz.round_page", jogadores=query.players, **carry),
            whole_href(query.players, carry),
        ),
        **share("juiz.round_page", shared, ruling.headline, names_of(query.naming, board)),
    }


def _round_under(query: RoundQuery, rules: Variant) -> dict[str, Any]:
    """The changes that start the round over under another rule set (its cards, seats it has)."""
    return {
        "variant": rules,
        "players": query.players if query.players in rules.players else PLAYERS.default,
        "deck": rules.deck or DECK.default,
        "manilhas": rules.manilhas or MANILHAS.default,
        "vira": None,
        "plays": (),
        "previous": (),
        "cover": False,
    }


def _canonical(query: RoundQuery, ruling: RoundRuling) -> RoundQuery:
    """The query with its plays in canonical text ('4p', 'X', 'X:4p') when they all parsed."""
    texts = tuple(s.text for s in ruling.slots if s.text is not None and not s.bad)
    return replace(query, plays=texts) if len(texts) == len(query.plays) else query


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
        hand = HandQuery(query.players, (*earlier, result), carry, variant=query.variant)
        return url_for("juiz.hand_page", **hand.params())

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
    query: RoundQuery, ruling: RoundRuling, teams: tuple[str, str], link: Callable[..., str]
) -> tuple[Switch, ...]:
    """The house-rule switches, each option a link keeping everything else."""

    def choose(label: str, query_: RoundQuery, active: bool) -> Segment:
        return Segment(label, url_for("juiz.round_page", **query_.params()), active)

    rounds = Switch(
        "Rodada",
        tuple(
            choose(f"{n}ª", _other_round(query, ruling, n), n == query.round_number)
            for n in (1, 2, 3)
        ),
    )
    rules = query.variant
    switches = [option_switch(players_option(rules), query, link), rounds]
    switches += [
        option_switch(option, query, link)
        for option, imposed in ((DECK, rules.deck), (MANILHAS, rules.manilhas))
        if imposed is None
    ]
    if mao_opens(query.round_number):
        opener = (Segment(team, link(opener=n), n == query.opener) for n, team in enumerate(teams))
        switches.append(Switch("Abre a rodada", tuple(opener)))
    switches.append(option_switch(TIE_OPENER, query, link))
    if not mao_opens(query.round_number):
        switches.extend(_seat_switches(query, ruling, choose))
    return tuple(switches)


def _seat_switches(
    query: RoundQuery, ruling: RoundRuling, choose: Callable[[str, RoundQuery, bool], Segment]
) -> tuple[Switch, Switch]:
    """After the first round: who is the hand's mão (any player), and who opened this round."""
    names = {seat: slot.name for seat, slot in zip(query.seats, ruling.slots, strict=False)}
    first, mao = query.seats[0], query.seats[query.mao]

    def mao_at(seat: int) -> RoundQuery:
        """This round, opened by the same player, with `seat` as the hand's mão."""
        return query.but(opener=first % 2, mao=(seat - first) % query.players, mao_seat=seat)

    mao_switch = Switch(
        "Quem é o mão", tuple(choose(names[s], mao_at(s), s == mao) for s in sorted(names))
    )
    opened = Switch(
        "Quem abriu a rodada",
        tuple(
            choose(names[s], query.but(**_opened_by(query, s)), s == first) for s in sorted(names)
        ),
    )
    return mao_switch, opened


def _grid(query: RoundQuery, ruling: RoundRuling, link: Callable[..., str]) -> Grid:
    """The cards to tap: the vira, while it is picked, else the next play (covered if asked)."""

    def href(card: Card) -> str:
        if ruling.picking_vira:
            return link(vira=str(card))
        text = f"X:{card}" if query.cover else str(card)
        return link(plays=(*query.plays, text), cover=False)

    return card_grid(query.ruleset, ruling.vira, ruling.used, href)


# --- the hand page ----------------------------------------------------------------------------


def hand_page(
    query: HandQuery,
    refusal: str | None,
    ruling: HandRuling,
    board: Board | None,
    args: Mapping[str, str],
    message: str | None = None,
) -> dict[str, Any]:
    """Everything _hand.html needs; `message` says why the board refused the ruling."""
    teams, _ = table_names(board, query.naming)

    def link(results: tuple[str, ...]) -> str:
        return url_for("juiz.hand_page", **query.params(results))

    labels: dict[str, str] = {**dict(zip(SIDE_LABELS, teams, strict=True)), TIED: "Empate"}
    choices: tuple[tuple[str, str, str], ...] = ()
    judge_href = None
    first = first_round(query, board)
    if ruling.undecided:
        choices = tuple((labels[r], link((*query.results, r)), r) for r in ROUND_LABELS)
        judge_href = url_for("juiz.round_page", **_next_round(first, query.results).params())
    carry: dict[str, Any] = dict(query.carry)
    shared = query.share_params() if refusal is None else given(args, HAND_KEYS)
    return {
        "query": query,
        "ruling": ruling,
        "teams": teams,
        "rows": [(i + 1, labels.get(r, r), r) for i, r in enumerate(query.results)],
        "choices": choices,
        "judge_href": judge_href,
        "undo_href": link(query.results[:-1]) if query.results else None,
        "restart_href": link(()) if query.results else None,
        "rule_section": Section.RODADAS,
        "message": message,
        "players_switch": option_switch(players_option(query.variant), query, _hand_link(query)),
        "variant_switch": variant_switch(
            query.variant, lambda rules: _hand_link(query)(**_hand_under(query, rules))
        ),
        "panel": apply.panel(board, ruling.result)
        if board is not None and apply.fits_table(board, query.variant)
        else None,
        **tabs(
            board,
            query.players,
            carry,
            url_for("juiz.round_page", **first.params()),
            whole_href(query.players, carry),
        ),
        **share("juiz.hand_page", shared, ruling.headline, names_of(query.naming, board)),
    }


def _hand_under(query: HandQuery, rules: Variant) -> dict[str, Any]:
    """The changes that judge the same rounds under another rule set (the names kept, its
    cards)."""
    return {
        "variant": rules,
        "players": query.players if query.players in rules.players else PLAYERS.default,
        "carry": tuple((key, value) for key, value in query.carry if key in NAME_KEYS),
    }


def _hand_link(query: HandQuery) -> Callable[..., str]:
    """A link to the hand page for the query with some fields changed."""
    return lambda **changes: url_for("juiz.hand_page", **replace(query, **changes).params())


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
