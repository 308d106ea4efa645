"""The juiz's rulings: what the rules engine decides about what a page was asked, with the
table's names, shaped for the pages (the seats on the table, what to tap next, a headline).
Every rule and every reason is the engine's, in its words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...domain.mesa import Board
from ...rules import (
    DEFAULT_RULE_SET,
    DEFAULT_SIDES,
    SIDE_LABELS,
    TIED,
    BookSection,
    Card,
    HandVerdict,
    Names,
    PlaysRead,
    Reason,
    Result,
    RoundVerdict,
    RuleBroken,
    RulesError,
    Variant,
    WholeHandVerdict,
    check_plays_count,
    check_vira,
    explain,
    judge_hand,
    judge_round,
    judge_whole_hand,
    ordinal,
    read_plays,
    results_of,
    word,
)
from ...rules.reasons import in_book, points_text
from .naming import Naming, names_of
from .query import HandQuery, RoundQuery, WholeQuery


def table_names(
    board: Board | None, naming: Naming | None = None
) -> tuple[tuple[str, str], tuple[str, ...]]:
    """The sides' names and the players' names in seat order: the link's when it gives some,
    else the table's when the juiz was opened from one, else the rules' default sides (and no
    player named)."""
    names = names_of(naming, board)
    return names.teams, names.players


Book = BookSection  # a section of the rule book of any rule set


@dataclass(frozen=True)
class Said:
    """A reason as the page shows it: its words and the rule-book section it applies."""

    text: str
    section: Book | None = None


def said(
    reasons: Sequence[Reason], names: Names, rules: Variant = DEFAULT_RULE_SET
) -> tuple[Said, ...]:
    """The engine's reasons in its words, with the table's names, each with its section in the
    rule book of `rules`."""
    return tuple(Said(word(reason, names), reason.section_in(rules)) for reason in reasons)


def sectioned(texts: Sequence[str], why: Sequence[Reason], rules: Variant) -> tuple[Said, ...]:
    """Reasons already in words, each with the rule-book section of the engine's reason in its
    place (none for words past the engine's)."""
    sections = [reason.section_in(rules) for reason in why] + [None] * len(texts)
    return tuple(Said(text, section) for text, section in zip(texts, sections, strict=False))


def section_of(error: RulesError, rules: Variant = DEFAULT_RULE_SET) -> Book | None:
    """The rule-book section (of `rules`) of the rule a refusal names, when it carries its
    reason."""
    return error.reason.section_in(rules) if isinstance(error, RuleBroken) else None


def refusal_said(error: RulesError, names: Names, rules: Variant = DEFAULT_RULE_SET) -> Said:
    """A refusal in the engine's words, with the section of the rule it breaks when it has one."""
    return Said(explain(error, names), section_of(error, rules))


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
    """The round page's answer: a result (vitoria, empate or invalido; None while input is
    missing) and its words."""

    result: Result | None
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
    error_section: Book | None = None
    rules: Variant = DEFAULT_RULE_SET

    @property
    def said(self) -> tuple[Said, ...]:
        """The reasons with the rule-book section each applies."""
        return sectioned(self.reasons, () if self.verdict is None else self.verdict.why, self.rules)

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
    query: RoundQuery,
    refusal: str | None,
    teams: Sequence[str] = DEFAULT_SIDES,
    given: Sequence[str] = (),
) -> RoundRuling:
    """Rule on the round page's input: a vitória, an empate, a refusal, or what is missing;
    every rule linked in the rule book of the query's rule set."""
    ruling = _judge_round(query, refusal, teams, given)
    rules = query.variant
    return replace(ruling, rules=rules, error_section=in_book(ruling.error_section, rules))


def _judge_round(
    query: RoundQuery, refusal: str | None, teams: Sequence[str], given: Sequence[str]
) -> RoundRuling:
    """The round ruling, its sections Truco Paulista's."""
    table = Names(sides=tuple(teams), seats=tuple(given))
    names = [table.seat(seat + 1) for seat in query.seats]
    empty = tuple(Slot(i + 1, n, (query.opener + i) % 2) for i, n in enumerate(names))
    if refusal:
        return RoundRuling(Result.INVALIDO, "Não dá para julgar assim", error=refusal, slots=empty)
    try:
        check_plays_count(len(query.plays), query.players)
    except RulesError as error:
        message = f"{error} {_fix_count(len(query.plays))}"
        section = section_of(error)
        return RoundRuling(
            Result.INVALIDO, "Jogadas demais", error=message, slots=empty, error_section=section
        )
    try:
        vira = check_vira(query.ruleset, query.vira) if query.vira or query.fixed else None
    except RulesError as error:
        return RoundRuling(
            Result.INVALIDO,
            "Vira impossível",
            error=str(error),
            slots=empty,
            error_section=section_of(error),
        )
    read = read_plays(
        list(zip(names, query.plays, strict=False)),
        ruleset=query.ruleset,
        vira=vira,
        round_number=query.round_number,
    )
    slots = _slots(query, names, read)
    used = frozenset(c for c in [vira, *(s.card for s in slots)] if c is not None)
    if read.refusal is not None:
        return RoundRuling(
            Result.INVALIDO,
            "Jogada impossível",
            error=str(read.refusal),
            vira=vira,
            slots=slots,
            used=used,
            error_section=section_of(read.refusal),
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
            counts=query.variant.players,
        )
    except RulesError as error:
        return RoundRuling(
            Result.INVALIDO,
            "Jogada impossível",
            error=str(error),
            vira=vira,
            slots=slots,
            used=used,
            error_section=section_of(error),
        )
    if verdict.winning_side is None:
        headline = "Empate: a rodada não é de ninguém"
        winner_side = None
        next_result = TIED
    else:
        winner_side = (query.opener + verdict.winning_side) % 2
        next_result = SIDE_LABELS[winner_side]
        win = verdict.plays[verdict.winning_play or 0]
        headline = f"Rodada para {teams[winner_side] if query.players > 2 else win.player}"
    return RoundRuling(
        verdict.result,
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

    result: Result
    headline: str
    reasons: tuple[str, ...] = ()
    error: str | None = None
    verdict: HandVerdict | None = None
    winner_side: int | None = None
    error_section: Book | None = None
    rules: Variant = DEFAULT_RULE_SET

    @property
    def said(self) -> tuple[Said, ...]:
        """The reasons with the rule-book section each applies."""
        return sectioned(self.reasons, () if self.verdict is None else self.verdict.why, self.rules)

    @property
    def points(self) -> int | None:
        """What the hand scores under its rule set (its ladder's first step or more; 0 when void or
        undecided); None when refused."""
        return None if self.verdict is None else self.verdict.points(self.rules)

    @property
    def next_round(self) -> int | None:
        """The round to play next while the hand is undecided."""
        return self.verdict.next_round if self.verdict and self.undecided else None

    @property
    def undecided(self) -> bool:
        """True while the hand goes on to another round."""
        return self.result is Result.INDECISA


def judge_hand_query(
    query: HandQuery, refusal: str | None, teams: Sequence[str] = DEFAULT_SIDES
) -> HandRuling:
    """Rule on the hand page's input, in words that fit any team name; every rule linked in the
    rule book of the query's rule set."""
    ruling = _judge_hand(query, refusal, teams)
    rules = query.variant
    return replace(ruling, rules=rules, error_section=in_book(ruling.error_section, rules))


def _judge_hand(query: HandQuery, refusal: str | None, teams: Sequence[str]) -> HandRuling:
    """The hand ruling, its sections Truco Paulista's."""
    if refusal:
        return HandRuling(Result.INVALIDO, "Resultado impossível", error=refusal)
    names = Names(sides=tuple(teams))
    try:
        verdict = judge_hand(results_of(query.results))
    except RulesError as error:
        return HandRuling(
            Result.INVALIDO,
            "Rodada impossível",
            error=explain(error, names),
            error_section=section_of(error),
        )
    reasons = tuple(word(reason, names) for reason in verdict.why)
    if not verdict.decided:
        headline = f"Ainda não decidida: falta a {ordinal(verdict.next_round)} rodada"
        return HandRuling(verdict.result, headline, reasons, verdict=verdict)
    if verdict.winner is None:
        return HandRuling(verdict.result, "Mão anulada: ninguém marca", reasons, verdict=verdict)
    side = SIDE_LABELS.index(verdict.winner)
    return HandRuling(
        verdict.result, f"Mão para {teams[side]}", reasons, verdict=verdict, winner_side=side
    )


@dataclass(frozen=True)
class WholeRuling:
    """The whole-hand page's answer: nos, eles, anulada, indecisa or invalido, the engine's
    verdict (the hand as it stood before an illegal event, too) and its words."""

    result: Result
    headline: str
    said: tuple[Said, ...] = ()
    refused: Said | None = None
    verdict: WholeHandVerdict | None = None
    names: Names = Names()

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons' words."""
        return tuple(s.text for s in self.said)

    @property
    def error(self) -> str | None:
        """The refusal's words, if any."""
        return None if self.refused is None else self.refused.text

    @property
    def error_section(self) -> Book | None:
        """The rule-book section of the refusal, if any."""
        return None if self.refused is None else self.refused.section

    @property
    def position(self) -> int | None:
        """The 1-based position of the first illegal event."""
        if self.verdict is None or self.verdict.illegal is None:
            return None
        return self.verdict.illegal.position

    @property
    def points(self) -> int:
        """The points scored (0 for a void, undecided or refused hand)."""
        return 0 if self.verdict is None else self.verdict.points

    @property
    def rounds(self) -> str:
        """Each finished round's result, comma-separated ('nos,empate,eles')."""
        return "" if self.verdict is None else ",".join(r.label for r in self.verdict.rounds)

    @property
    def winner_side(self) -> int | None:
        """The side that scores, if any."""
        return None if self.verdict is None else self.verdict.winner

    @property
    def undecided(self) -> bool:
        """True while the hand goes on (the vira, a card or an answer awaited)."""
        return self.result is Result.INDECISA


def judge_whole_query(
    query: WholeQuery,
    refusal: str | None,
    teams: Sequence[str] = DEFAULT_SIDES,
    given: Sequence[str] = (),
) -> WholeRuling:
    """Ask the engine about the whole hand the page was given, in the table's names."""
    names = Names(sides=tuple(teams), seats=tuple(given))
    if refusal:
        return WholeRuling(Result.INVALIDO, "Não dá para julgar assim", refused=Said(refusal))
    if query.vira is None and not query.fixed and not query.events:
        return WholeRuling(Result.INDECISA, "Toque a vira para começar", names=names)
    try:
        verdict = judge_whole_hand(
            query.events,
            ruleset=query.ruleset,
            players=query.players,
            vira=query.vira,
            mao=query.mao,
            special=query.special,
            variant=query.variant,
        )
    except RulesError as error:
        refused = refusal_said(error, names, query.variant)
        return WholeRuling(Result.INVALIDO, "Não dá para julgar assim", refused=refused)
    illegal = verdict.illegal
    if illegal is not None:
        refused = Said(illegal.message(names), illegal.reason.section_in(query.variant))
        reasons = said(verdict.reasons, names, query.variant)
        return WholeRuling(Result.INVALIDO, "Jogada impossível", reasons, refused, verdict, names)
    result = verdict.result
    if result is Result.INDECISA:
        headline = "A mão segue"
    elif result is Result.ANULADA:
        headline = "Mão anulada: ninguém marca"
    else:
        headline = f"Mão para {teams[verdict.winner or 0]}: {points_text(verdict.points)}"
    return WholeRuling(
        result, headline, said(verdict.reasons, names, query.variant), verdict=verdict, names=names
    )
