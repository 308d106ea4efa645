"""Taking a hand ruling to a table's score ("aplicar ao placar")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
    word,
)

REASON = "pelo juiz"
OTHER_RULES = "Esta mesa joga Truco Paulista: a decisão de outra variante não vai para o placar."
VALUE_NAMES = {1: "mão simples", 3: "truco", 6: "seis", 9: "nove", 12: "doze"}
KINDS = {
    kind.value: kind
    for kind in (Kind.NORMAL, Kind.ONZE_GANHOU, Kind.ONZE_PERDEU, Kind.FERRO, Kind.ANULADA)
}
PHASE_TEXTS = {
    Phase.GAME_OVER: "A partida acabou: comece a próxima partida no placar.",
    Phase.SERIES_OVER: "A série acabou: comece uma nova série no placar.",
}


def fits_table(board: Board, rules: Variant) -> bool:
    """True when a ruling under `rules` may go to the board: a table of the same rule set, and
    Truco Paulista only (the apply panel does not offer Mineiro's values yet)."""
    return rules.code == board.mesa.variante == "paulista"


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


SPECIAL = {
    Kind.ONZE_GANHOU: ("+3", "vitória na mão de onze", "aplicar-onze"),
    Kind.ONZE_PERDEU: ("+3", "vitória contra a mão de onze", "aplicar-onze"),
    Kind.FERRO: ("+1", "mão de ferro", "aplicar-ferro"),
}


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
    choices: list[Choice] = []
    note = None
    for outcome in state.legal_outcomes():
        if outcome.side != side:
            continue
        if outcome.kind is Kind.NORMAL and outcome.points is not None:
            value = outcome.points
            choices.append(
                Choice(f"+{value}", VALUE_NAMES[value], "normal", side, value, f"aplicar-{value}")
            )
        elif outcome.kind in SPECIAL:
            label, detail, testid = SPECIAL[outcome.kind]
            choices.append(Choice(label, detail, outcome.kind.value, side, None, testid))
            note = word(Reason(Code.NO_CALL_IN_SPECIAL, special=state.special))
    return ApplyPanel(mesa, mesa.revision, state.points, tuple(choices), note)


def read_outcome(form: Mapping[str, str]) -> Outcome:
    """The outcome posted by the apply form (tipo, lado, pontos), or a pt-BR refusal."""
    kind = form.get("tipo") or Kind.NORMAL.value
    if kind not in KINDS:
        raise RulesError("Essa marcação não existe.")
    fields = [kind]
    if KINDS[kind] is not Kind.ANULADA:
        fields.append((form.get("lado") or "").strip())
    if KINDS[kind] is Kind.NORMAL:
        fields.append((form.get("pontos") or "").strip())
    return Outcome.parse(":".join(fields))


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
