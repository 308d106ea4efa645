"""The juiz's rulings: what the rules engine decides about what a page was asked, with the
table's names, shaped for the pages (the seats on the table, what to tap next, a headline).
Every rule and every reason is the engine's, in its words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import (
    DEFAULT_SIDES,
    SIDE_LABELS,
    TIED,
    Card,
    HandVerdict,
    Names,
    PlaysRead,
    RoundVerdict,
    RulesError,
    check_plays_count,
    check_vira,
    explain,
    judge_hand,
    judge_round,
    ordinal,
    read_plays,
    results_of,
    word,
)
from .query import HandQuery, RoundQuery

TEAMS = DEFAULT_SIDES


@dataclass(frozen=True)
class Slot:
    """One position of the round on the table: who plays, and what (if anything yet)."""

    position: int
    name: str
    side: int
    text: str | None = None
    card: Card | None = None
    covered: bool = False
    bad: bool = False
    current: bool = False


@dataclass(frozen=True)
class RoundRuling:
    """The round page's answer: a result (or None while input is missing) and its words."""

    result: str | None
    headline: str = ""
    reasons: tuple[str, ...] = ()
    error: str | None = None
    vira: Card | None = None
    slots: tuple[Slot, ...] = ()
    used: frozenset[Card] = frozenset()
    verdict: RoundVerdict | None = None
    winner_side: int | None = None
    prompt: str = ""
    next_result: str | None = None
    picking_vira: bool = False

    @property
    def winning_position(self) -> int | None:
        """The 1-based position of the winning play, on a vitória."""
        if self.verdict is None or self.verdict.winning_play is None:
            return None
        return self.verdict.winning_play + 1


def _slots(query: RoundQuery, names: list[str], read: PlaysRead) -> tuple[Slot, ...]:
    """Each position of the round: its play once read, the refused one marked, the rest empty
    (the next one to tap marked current)."""
    slots = []
    for i, name in enumerate(names):
        side = (query.opener + i) % 2
        if i < len(read.plays):
            play = read.plays[i]
            slots.append(Slot(i + 1, name, side, play.text, play.card, play.covered))
        elif i == len(read.plays) and read.refusal is not None:
            slots.append(Slot(i + 1, name, side, text=query.plays[i], bad=True))
        else:
            turn = read.refusal is None and i == len(query.plays)
            slots.append(Slot(i + 1, name, side, current=turn))
    return tuple(slots)


def judge_round_query(
    query: RoundQuery, refusal: str | None, teams: Sequence[str] = TEAMS, given: Sequence[str] = ()
) -> RoundRuling:
    """Rule on the round page's input: a vitória, an empate, a refusal, or what is missing."""
    table = Names(sides=tuple(teams), seats=tuple(given))
    names = [table.seat(seat + 1) for seat in query.seats]
    empty = tuple(Slot(i + 1, n, (query.opener + i) % 2) for i, n in enumerate(names))
    if refusal:
        return RoundRuling("invalido", "Não dá para julgar assim", error=refusal, slots=empty)
    try:
        check_plays_count(len(query.plays), query.players)
    except RulesError as error:
        message = f"{error} {_fix_count(len(query.plays))}"
        return RoundRuling("invalido", "Jogadas demais", error=message, slots=empty)
    try:
        vira = check_vira(query.ruleset, query.vira) if query.vira or query.fixed else None
    except RulesError as error:
        return RoundRuling("invalido", "Vira impossível", error=str(error), slots=empty)
    read = read_plays(
        list(zip(names, query.plays, strict=False)),
        ruleset=query.ruleset,
        vira=vira,
        round_number=query.round_number,
    )
    slots = _slots(query, names, read)
    used = frozenset(c for c in [vira, *(s.card for s in slots)] if c is not None)
    if read.refusal is not None:
        error = str(read.refusal)
        return RoundRuling(
            "invalido", "Jogada impossível", error=error, vira=vira, slots=slots, used=used
        )
    if vira is None and not query.fixed:
        prompt = "Toque a vira: a carta virada na mesa, que decide as manilhas."
        return RoundRuling(None, slots=slots, used=used, prompt=prompt, picking_vira=True)
    if len(query.plays) < query.players:
        turn = names[len(query.plays)]
        prompt = f"Toque a carta de {turn} (jogada {len(query.plays) + 1} de {query.players})."
        if query.cover:
            prompt = f"Toque a carta que {turn} jogou coberta."
        return RoundRuling(None, vira=vira, slots=slots, used=used, prompt=prompt)
    return _ruled(query, names, teams, vira, slots, used)


def _fix_count(plays: int) -> str:
    """How to fix a round with more plays than players."""
    if plays == 4:
        return "Se era 2x2, escolha 2x2 (jogadores=4); senão, desfaça as jogadas a mais."
    return "Desfaça as jogadas a mais."


def _ruled(
    query: RoundQuery,
    names: list[str],
    teams: Sequence[str],
    vira: Card | None,
    slots: tuple[Slot, ...],
    used: frozenset[Card],
) -> RoundRuling:
    """The engine's ruling on a complete round, with its reasons."""
    try:
        verdict = judge_round(
            list(zip(names, query.plays, strict=True)),
            ruleset=query.ruleset,
            vira=vira,
            round_number=query.round_number,
            players=query.players,
            mao=query.mao,
        )
    except RulesError as error:
        return RoundRuling(
            "invalido", "Jogada impossível", error=str(error), vira=vira, slots=slots, used=used
        )
    if verdict.winning_side is None:
        headline = "Empate: a rodada não é de ninguém"
        winner_side = None
        next_result = TIED
    else:
        winner_side = (query.opener + verdict.winning_side) % 2
        next_result = SIDE_LABELS[winner_side]
        win = verdict.plays[verdict.winning_play or 0]
        headline = f"Rodada para {teams[winner_side] if query.players == 4 else win.player}"
    return RoundRuling(
        "empate" if winner_side is None else "vitoria",
        headline,
        verdict.reasons,
        vira=vira,
        slots=slots,
        used=used,
        verdict=verdict,
        winner_side=winner_side,
        next_result=next_result,
    )


@dataclass(frozen=True)
class HandRuling:
    """The hand page's answer: nos, eles, anulada, indecisa or invalido, and why."""

    result: str
    headline: str
    reasons: tuple[str, ...] = ()
    error: str | None = None
    verdict: HandVerdict | None = None
    winner_side: int | None = None

    @property
    def next_round(self) -> int | None:
        """The round to play next while the hand is undecided."""
        return self.verdict.next_round if self.verdict and self.result == "indecisa" else None


def judge_hand_query(
    query: HandQuery, refusal: str | None, teams: Sequence[str] = TEAMS
) -> HandRuling:
    """Rule on the hand page's input, in words that fit any team name."""
    if refusal:
        return HandRuling("invalido", "Resultado impossível", error=refusal)
    names = Names(sides=tuple(teams))
    try:
        verdict = judge_hand(results_of(query.results))
    except RulesError as error:
        return HandRuling("invalido", "Rodada impossível", error=explain(error, names))
    reasons = tuple(word(reason, names) for reason in verdict.why)
    if not verdict.decided:
        headline = f"Ainda não decidida: falta a {ordinal(verdict.next_round)} rodada"
        return HandRuling("indecisa", headline, reasons, verdict=verdict)
    if verdict.winner is None:
        return HandRuling("anulada", "Mão anulada: ninguém marca", reasons, verdict=verdict)
    side = SIDE_LABELS.index(verdict.winner)
    return HandRuling(
        verdict.winner, f"Mão para {teams[side]}", reasons, verdict=verdict, winner_side=side
    )
