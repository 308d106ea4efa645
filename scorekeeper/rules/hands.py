"""Judging a hand (mão) from its round results: seed 000, Rodadas e empates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RulesError
from .reasons import ORDINALS, Code, Names, Reason, word


@dataclass(frozen=True)
class HandVerdict:
    """Who takes the hand, whether it is void, or that it is not decided yet, and why."""

    results: tuple[str | None, ...]
    decided: bool
    winner: str | None
    decided_after: int | None
    reasons: tuple[str, ...]
    rule: Reason

    @property
    def void(self) -> bool:
        """True when the hand is decided with nobody winning (three tied rounds)."""
        return self.decided and self.winner is None

    @property
    def next_round(self) -> int | None:
        """The round to play next while undecided, else None."""
        return None if self.decided else len(self.results) + 1


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
    results: Sequence[str | None], *, teams: tuple[str, str] = ("nos", "eles")
) -> HandVerdict:
    """Rule on a hand from its round results in order (a team label, or None for a tie)."""
    if len(teams) != 2 or teams[0] == teams[1]:
        raise RulesError("Uma mão é disputada por dois lados com nomes diferentes.")
    results = tuple(results)
    if len(results) > 3:
        raise RulesError(f"Uma mão tem no máximo três rodadas, não {len(results)}.")
    names = Names(sides=teams)
    sides: list[int | None] = []
    reasons: list[str] = []
    for i, result in enumerate(results):
        if result is not None and result not in teams:
            raise RulesError(
                f"Resultado desconhecido na {ORDINALS[i]} rodada: {result!r}. "
                f"Use {teams[0]!r}, {teams[1]!r} ou empate."
            )
        sides.append(None if result is None else teams.index(result))
        if i > 0:
            before = decide(sides[:i])
            if before.decided:
                rule = word(before.rule, names)
                raise RulesError(
                    f"A mão já estava decidida depois da {ORDINALS[i - 1]} rodada "
                    f"({rule[0].lower()}{rule[1:-1]}) e não se joga a {ORDINALS[i]} rodada."
                )
        side = sides[i]
        code = Reason(Code.ROUND_TIED, round=i + 1)
        if side is not None:
            code = Reason(Code.ROUND_FOR, round=i + 1, side=side)
        reasons.append(word(code, names))
    decision = decide(sides)
    reasons.append(word(decision.rule, names))
    if not decision.decided:
        reasons.append(word(Reason(Code.HAND_GOES_ON, round=len(results) + 1), names))
    winner = None if decision.winner is None else teams[decision.winner]
    return HandVerdict(
        results,
        decision.decided,
        winner,
        len(results) if decision.decided else None,
        tuple(reasons),
        decision.rule,
    )
