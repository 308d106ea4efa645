"""Judging a hand (mão) from its round results: /regras#rodadas-e-empates."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import product
from typing import Literal, get_args

from .errors import RulesError
from .reasons import ORDINALS, Code, Names, Reason, RuleBroken, word
from .variants import PAULISTA, Variant

SideLabel = Literal["nos", "eles"]
RoundLabel = Literal["nos", "eles", "empate"]

SIDE_LABELS: tuple[SideLabel, ...] = get_args(SideLabel)
ROUND_LABELS: tuple[RoundLabel, ...] = get_args(RoundLabel)
TIED: RoundLabel = "empate"


class Result(Enum):
    """A ruling's result, as the pages name it: a hand's (nos, eles, anulada, indecisa), a
    round's (vitoria, empate), or invalido for what the rules refuse to judge."""

    NOS = "nos"
    ELES = "eles"
    ANULADA = "anulada"
    INDECISA = "indecisa"
    VITORIA = "vitoria"
    EMPATE = "empate"
    INVALIDO = "invalido"


@dataclass(frozen=True)
class HandVerdict:
    """Who takes the hand, whether it is void, or that it is not decided yet, and why."""

    results: tuple[str | None, ...]
    decided: bool
    winner: str | None
    decided_after: int | None
    why: tuple[Reason, ...]
    rule: Reason
    teams: tuple[str, ...] = SIDE_LABELS

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why, in pt-BR, naming the sides by their labels."""
        names = Names(sides=self.teams)
        return tuple(word(reason, names) for reason in self.why)

    @property
    def void(self) -> bool:
        """True when the hand is decided with nobody winning (three tied rounds)."""
        return self.decided and self.winner is None

    @property
    def next_round(self) -> int | None:
        """The round to play next while undecided, else None."""
        return None if self.decided else len(self.results) + 1

    @property
    def result(self) -> Result:
        """nos or eles (the side that takes the hand), anulada or indecisa."""
        if not self.decided:
            return Result.INDECISA
        if self.winner is None:
            return Result.ANULADA
        return (Result.NOS, Result.ELES)[self.teams.index(self.winner)]

    def points(self, rules: Variant = PAULISTA) -> int:
        """What a simple hand decided so scores under `rules` (Paulista 1, Mineiro 2); 0 while
        undecided or when void."""
        return 0 if self.winner is None or not self.decided else rules.ladder[0]

    @property
    def winner_side(self) -> int | None:
        """The side that takes the hand (0 or 1), None while undecided or when void."""
        return None if self.winner is None else self.teams.index(self.winner)


@dataclass(frozen=True)
class Decision:
    """Where a hand stands after some rounds: decided or not, the winning side, and the rule."""

    decided: bool
    winner: int | None
    rule: Reason


def decide(results: Sequence[int | None]) -> Decision:
    """Decide a prefix of round results given by side (0, 1, or None for a tied round)."""
    n = len(results)
    if n < 2:
        if n == 1 and results[0] is None:
            return Decision(False, None, Reason(Code.FIRST_TIED))
        if n == 1:
            return Decision(False, None, Reason(Code.NOBODY_TWO_YET))
        return Decision(False, None, Reason(Code.NO_ROUND_YET))
    first, second = results[0], results[1]
    if n == 2:
        if first is not None and first == second:
            return Decision(True, first, Reason(Code.TWO_ROUNDS, side=first))
        if first is None and second is not None:
            return Decision(True, second, Reason(Code.TIED_FIRST_WON_SECOND, side=second))
        if first is not None and second is None:
            return Decision(True, first, Reason(Code.WON_FIRST_TIED_SECOND, side=first))
        if first is None:
            return Decision(False, None, Reason(Code.FIRST_TWO_TIED))
        return Decision(False, None, Reason(Code.ONE_EACH))
    third = results[2]
    if first is None:
        if third is None:
            return Decision(True, None, Reason(Code.ALL_TIED))
        return Decision(True, third, Reason(Code.FIRST_TWO_TIED_THIRD_WON, side=third))
    if third is None:
        return Decision(True, first, Reason(Code.ONE_EACH_THIRD_TIED, side=first))
    return Decision(True, third, Reason(Code.ONE_EACH_THIRD_WON, side=third))


def judge_hand(
    results: Sequence[str | None], *, teams: tuple[str, ...] = SIDE_LABELS
) -> HandVerdict:
    """Rule on a hand from its round results in order (a team label, or None for a tie)."""
    if len(teams) != 2 or teams[0] == teams[1]:
        raise RulesError("Uma mão é disputada por dois lados com nomes diferentes.")
    results = tuple(results)
    if len(results) > len(ORDINALS):
        raise RuleBroken(Reason(Code.HAND_ROUNDS, count=len(results)))
    names = Names(sides=teams)
    sides: list[int | None] = []
    why: list[Reason] = []
    for i, result in enumerate(results):
        if result is not None and result not in teams:
            raise RulesError(
                f"Resultado desconhecido na {ORDINALS[i]} rodada: {result!r}. "
                f"Use {teams[0]!r}, {teams[1]!r} ou empate."
            )
        before = decide(sides)
        if before.decided:
            refused = Reason(Code.HAND_ALREADY_DECIDED, round=i + 1, rule=before.rule)
            raise RuleBroken(refused, names)
        side = None if result is None else teams.index(result)
        sides.append(side)
        why.append(
            Reason(Code.ROUND_TIED, round=i + 1)
            if side is None
            else Reason(Code.ROUND_FOR, round=i + 1, side=side)
        )
    decision = decide(sides)
    why.append(decision.rule)
    if not decision.decided:
        why.append(Reason(Code.HAND_GOES_ON, round=len(results) + 1))
    elif decision.winner is None:
        why.append(Reason(Code.VOIDED))
    else:
        why.append(Reason(Code.HAND_ENDED, round=len(results)))
    winner = None if decision.winner is None else teams[decision.winner]
    return HandVerdict(
        results,
        decision.decided,
        winner,
        len(results) if decision.decided else None,
        tuple(why),
        decision.rule,
        teams,
    )


def results_of(labels: Iterable[str]) -> tuple[str | None, ...]:
    """Round labels ('nos', 'eles', 'empate') as `judge_hand` takes them (None for a tie)."""
    return tuple(None if label == TIED else label for label in labels)


def undecided(labels: Sequence[str]) -> bool:
    """True when a hand whose rounds went so ('nos', 'eles', 'empate') goes on to another round."""
    sides = [None if label == TIED else SIDE_LABELS.index(label) for label in labels]
    return not decide(sides).decided


def next_opening_side(last: str, mao_side: int) -> int:
    """The side that opens the round after one whose result was `last` ('nos', 'eles',
    'empate'): the winner's; after a tie, the mão's (/regras#rodadas-e-empates; under the
    primeira_empatada option the side of the first tying card, which the result alone does not
    tell)."""
    return SIDE_LABELS.index(last) if last in SIDE_LABELS else mao_side


def ways_to(round_number: int) -> tuple[tuple[RoundLabel, ...], ...]:
    """Every way the earlier rounds can have gone for a hand to reach round `round_number`."""
    earlier = product(ROUND_LABELS, repeat=round_number - 1)
    return tuple(labels for labels in earlier if undecided(labels))
