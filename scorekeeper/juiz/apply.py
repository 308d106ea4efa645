"""Taking a hand ruling to a table's score ("aplicar ao placar")."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..mesas import Board, words
from ..models import Mesa
from ..rules import (
    Code,
    Kind,
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


@dataclass(frozen=True)
class ApplyPanel:
    """What the apply section shows: the buttons, or why the board must be used instead."""

    mesa: Mesa
    revision: int
    score: tuple[int, int]
    choices: tuple[Choice, ...]
    note: str | None
    cid: str = field(default_factory=lambda: str(uuid.uuid4()))  # one write, told if sent again


def special_choice(board: Board, outcome: Outcome) -> Choice | None:
    """The button of a special hand's outcome won at the table (the mão de onze or de dez
    played, the mão de ferro), worth what the table's rule set says; None for running, which a
    ruling from the rounds cannot tell."""
    special = words.special_name(board.mesa.special_at)
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


def panel(board: Board, result: Result) -> ApplyPanel | None:
    """The apply section for a hand ruling, or None when there is nothing to apply."""
    if result not in DECIDED:
        return None
    mesa, state = board.mesa, board.state
    if state.phase in PHASE_TEXTS:
        return ApplyPanel(mesa, mesa.revision, state.points, (), PHASE_TEXTS[state.phase])
    side = DECIDED[result]
    if side is None:
        choice = Choice("Mão anulada", "ninguém marca", "anulada", None, None, "aplicar-anulada")
        return ApplyPanel(mesa, mesa.revision, state.points, (choice,), None)
    rules = state.config.variant
    choices: list[Choice] = []
    note = None
    for outcome in state.legal_outcomes():
        if outcome.side != side:
            continue
        if outcome.kind is Kind.NORMAL and outcome.points is not None:
            value = outcome.points
            name = rules.value_name(value)
            choices.append(Choice(f"+{value}", name, "normal", side, value, f"aplicar-{value}"))
        elif (special := special_choice(board, outcome)) is not None:
            choices.append(special)
            note = word(Reason(Code.NO_CALL_IN_SPECIAL, special=state.special, rules=rules))
    return ApplyPanel(mesa, mesa.revision, state.points, tuple(choices), note)


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


def confirmation(outcome: Outcome, names: tuple[str, str], reason: str = REASON) -> str:
    """What the board says once a ruling is recorded, e.g. 'Os Zapeiros +3 · pelo juiz'."""
    return f"{words.describe(outcome, names)} · {reason}"


def whole_panel(board: Board, verdict: WholeHandVerdict | None) -> ApplyPanel | None:
    """The one-tap apply section of a decided whole hand (its outcome, as the engine says), or
    why the board can't take it now; None while the hand is undecided or refused."""
    outcome = None if verdict is None else verdict.outcome
    if verdict is None or outcome is None:
        return None
    mesa, state = board.mesa, board.state
    if state.phase in PHASE_TEXTS:
        return ApplyPanel(mesa, mesa.revision, state.points, (), PHASE_TEXTS[state.phase])
    try:
        state.apply(outcome)
    except RulesError as refused:
        return ApplyPanel(mesa, mesa.revision, state.points, (), str(refused))
    label = "Mão anulada" if outcome.side is None else f"+{outcome.gain}"
    choice = Choice(
        label, verdict.note or "", outcome.kind.value, outcome.side, outcome.points, "aplicar-mao"
    )
    return ApplyPanel(mesa, mesa.revision, state.points, (choice,), None)


def whole_reason(verdict: WholeHandVerdict) -> str:
    """What the board's log says of a whole hand the juiz applied: 'pelo juiz · truco aceito'."""
    return " · ".join(part for part in (REASON, verdict.note) if part)
