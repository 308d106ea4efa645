"""Taking a hand ruling to a table's score ("aplicar ao placar")."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ...domain.mesa import Board, LastHand, last_hand, words
from ...domain.mesa.inputs import number
from ...models import Entry, Mesa
from ...rules import (
    Code,
    Kind,
    MatchState,
    Outcome,
    Phase,
    Reason,
    Result,
    RulesError,
    Variant,
    WholeHandVerdict,
    special_outcome,
    word,
)
from ..common import board_words

REASON = "pelo juiz"
KINDS = {
    kind.value: kind
    for kind in (Kind.NORMAL, Kind.ONZE_GANHOU, Kind.ONZE_PERDEU, Kind.FERRO, Kind.ANULADA)
}
PHASE_TEXTS = {
    Phase.GAME_OVER: "A partida acabou: comece a próxima partida no placar.",
    Phase.SERIES_OVER: "A série acabou: comece uma nova série no placar.",
}


def fits_table(board: Board, rules: Variant) -> bool:
    """True when a ruling under `rules` may go to the board: a table of the same rule set."""
    return rules is board.state.config.variant


def other_rules(board: Board, rules: Variant) -> str:
    """Why a ruling under `rules` does not go to a board of the other rule set, in pt-BR."""
    played = board.state.config.variant.name
    return f"Esta mesa joga {played}: a decisão do {rules.name} não vai para o placar."


@dataclass(frozen=True)
class Choice:
    """One button of the apply form: what it records, and how it reads."""

    label: str
    detail: str
    kind: str
    side: int | None
    points: int | None
    testid: str


def new_cid() -> str:
    """A client id for one write, told if sent again."""
    return str(uuid.uuid4())


@dataclass(frozen=True)
class Replacing:
    """The apply section's other offer: the ruling in the place of the board's last hand (the
    one tapped before the argument), which the buttons name (`text`, e.g. 'Nós +3')."""

    record_id: int
    text: str
    choices: tuple[Choice, ...]
    cid: str = field(default_factory=new_cid)


@dataclass(frozen=True)
class ApplyPanel:
    """What the apply section shows: the buttons, or why the board must be used instead, and
    the buttons that put the ruling in the place of the last hand (when it is one)."""

    mesa: Mesa
    revision: int
    score: tuple[int, int]
    choices: tuple[Choice, ...]
    note: str | None
    replacing: Replacing | None = None
    cid: str = field(default_factory=new_cid)


def special_choice(board: Board, outcome: Outcome) -> Choice | None:
    """The button of a special hand's outcome won at the table (the mão de onze or de dez
    played, the mão de ferro), worth what the table's rule set says; None for running, which a
    ruling from the rounds cannot tell."""
    special = board_words.special_name(board.mesa.special_at)
    details = {
        Kind.ONZE_GANHOU: (f"vitória na {special}", "aplicar-onze"),
        Kind.ONZE_PERDEU: (f"vitória contra a {special}", "aplicar-onze"),
        Kind.FERRO: ("mão de ferro: quem vence leva a partida", "aplicar-ferro"),
    }
    if outcome.kind not in details:
        return None
    detail, testid = details[outcome.kind]
    return Choice(f"+{outcome.gain}", detail, outcome.kind.value, outcome.side, None, testid)


DECIDED = {Result.NOS: 0, Result.ELES: 1, Result.ANULADA: None}  # a decided hand's side
REPLACE_PREFIX = "substituir-"  # a replacing button's test id: its apply button's, renamed


def choice_outcome(choice: Choice, rules: Variant) -> Outcome:
    """The outcome a button records under `rules`."""
    kind = KINDS[choice.kind]
    if kind in (Kind.NORMAL, Kind.ANULADA):
        return Outcome(kind, choice.side, choice.points)
    return special_outcome(rules, kind, choice.side or 0)


def hand_choices(board: Board, state: MatchState, side: int | None) -> tuple[list[Choice], bool]:
    """The buttons of a hand won by `side` (None: void) recorded on `state`, and whether they
    are a special hand's (no call in it)."""
    if side is None:
        void = Choice("Mão anulada", "ninguém marca", "anulada", None, None, "aplicar-anulada")
        return [void], False
    rules = state.config.variant
    choices: list[Choice] = []
    special = False
    for outcome in state.legal_outcomes():
        if outcome.side != side:
            continue
        if outcome.kind is Kind.NORMAL and outcome.points is not None:
            value = outcome.points
            name = rules.value_name(value)
            choices.append(Choice(f"+{value}", name, "normal", side, value, f"aplicar-{value}"))
        elif (found := special_choice(board, outcome)) is not None:
            choices.append(found)
            special = True
    return choices, special


def replacing(
    board: Board, last: LastHand | None, offered: list[tuple[Choice, Outcome]]
) -> Replacing | None:
    """The offer to record one of the `offered` buttons (each with the outcome it records) in
    the place of the board's last hand `last`: those legal on the state that hand was played
    on, and unlike it; None when the last record is no hand or none is left."""
    if last is None:
        return None
    kept = tuple(
        replace(choice, testid=choice.testid.replace("aplicar-", REPLACE_PREFIX, 1))
        for choice, outcome in offered
        if _fits(last, outcome)
    )
    text = words.record_text(last.record, board.mesa.team_names)
    return Replacing(last.record.id, text, kept) if kept else None


def _fits(last: LastHand, outcome: Outcome) -> bool:
    """True when `outcome` may be recorded in the place of the last hand: legal on the state
    that hand was played on, and not that hand again."""
    if outcome == last.record.outcome:
        return False
    try:
        last.before.apply(outcome)
    except RulesError:
        return False
    return True


def _hand_replacing(board: Board, side: int | None) -> Replacing | None:
    """The offer to put a hand won by `side` (None: void) in the place of the last hand."""
    last = last_hand(board)
    if last is None:
        return None
    rules = last.before.config.variant
    choices = hand_choices(board, last.before, side)[0]
    return replacing(board, last, [(c, choice_outcome(c, rules)) for c in choices])


def panel(board: Board, result: Result) -> ApplyPanel | None:
    """The apply section for a hand ruling, or None when there is nothing to apply."""
    if result not in DECIDED:
        return None
    mesa, state = board.mesa, board.state
    side = DECIDED[result]
    swap = _hand_replacing(board, side)
    if state.phase in PHASE_TEXTS:
        return ApplyPanel(mesa, mesa.revision, state.points, (), PHASE_TEXTS[state.phase], swap)
    choices, special = hand_choices(board, state, side)
    rules = state.config.variant
    note = (
        word(Reason(Code.NO_CALL_IN_SPECIAL, special=state.special, rules=rules))
        if special
        else None
    )
    return ApplyPanel(mesa, mesa.revision, state.points, tuple(choices), note, swap)


def read_outcome(form: Mapping[str, str], rules: Variant) -> Outcome:
    """The outcome posted by the apply form (tipo, lado and, for a normal hand, pontos) under
    the table's rule set, or a pt-BR refusal; a special hand is worth what `rules` says, never
    what the form says."""
    kind = form.get("tipo") or Kind.NORMAL.value
    if kind not in KINDS:
        raise RulesError("Essa marcação não existe.")
    if KINDS[kind] is Kind.ANULADA:
        return Outcome.parse(kind, rules)
    fields = [kind, (form.get("lado") or "").strip()]
    if KINDS[kind] is Kind.NORMAL:
        return Outcome.parse(":".join([*fields, (form.get("pontos") or "").strip()]), rules)
    side = Outcome.parse(":".join(fields), rules).side
    return special_outcome(rules, KINDS[kind], side or 0)


def replaced_id(form: Mapping[str, str]) -> int | None:
    """The record a replacing button puts the ruling in the place of (`substitui`); None for
    an apply button."""
    given = form.get("substitui")
    return None if given is None else number(given, "a mão a trocar")


def confirmation(
    outcome: Outcome, names: tuple[str, str], note: str | None, replaced: Entry | None = None
) -> str:
    """What the board says once a ruling is recorded, e.g. 'Os Zapeiros +3 · pelo juiz · truco
    aceito'; in the place of a hand, that first: 'Eles +3 no lugar de Nós +3 · pelo juiz' (the
    board's slot may show one line of it)."""
    said = words.describe(outcome, names)
    if replaced is not None:
        said = f"{said} no lugar de {words.record_text(replaced, names)}"
    return f"{said} · {reason_of(note)}"


def whole_panel(board: Board, verdict: WholeHandVerdict | None) -> ApplyPanel | None:
    """The one-tap apply section of a decided whole hand (its outcome, as the engine says), or
    why the board can't take it now; None while the hand is undecided or refused."""
    outcome = None if verdict is None else verdict.outcome
    if verdict is None or outcome is None:
        return None
    mesa, state = board.mesa, board.state
    label = "Mão anulada" if outcome.side is None else f"+{outcome.gain}"
    choice = Choice(
        label, verdict.note or "", outcome.kind.value, outcome.side, outcome.points, "aplicar-mao"
    )
    swap = replacing(board, last_hand(board), [(choice, outcome)])
    if state.phase in PHASE_TEXTS:
        return ApplyPanel(mesa, mesa.revision, state.points, (), PHASE_TEXTS[state.phase], swap)
    try:
        state.apply(outcome)
    except RulesError as refused:
        return ApplyPanel(mesa, mesa.revision, state.points, (), str(refused), swap)
    return ApplyPanel(mesa, mesa.revision, state.points, (choice,), None, swap)


# The kinds of record whose words already say how the special hand went ('mão de onze: quem
# tinha 11 jogou e ganhou', 'Mão de ferro para Nós'): a note saying it again is left out.
SAID_BY_KIND = frozenset({Kind.ONZE_GANHOU, Kind.ONZE_PERDEU, Kind.ONZE_CORREU, Kind.FERRO})


def whole_note(verdict: WholeHandVerdict) -> str | None:
    """How a whole hand the juiz applied went, for the board's log ('truco aceito'); of a
    special hand only what its record does not say ('correram na vez' after 'mão de onze
    jogada, correram na vez'), so that each fact is said once."""
    note = verdict.note
    outcome = verdict.outcome
    if note and outcome is not None and outcome.kind in SAID_BY_KIND:
        note = note.partition(", ")[2]  # a special hand's note: how it went, then the rest
    return note or None


def reason_of(note: str | None) -> str:
    """What the board's log says of a ruling the juiz applied: 'pelo juiz · truco aceito'."""
    return " · ".join(part for part in (REASON, note) if part)
