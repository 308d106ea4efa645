"""Judging a hand (mão) from its round results: seed 000, Rodadas e empates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RulesError

ORDINALS = ("primeira", "segunda", "terceira")


@dataclass(frozen=True)
class HandVerdict:
    """Who takes the hand, whether it is void, or that it is not decided yet, and why."""

    results: tuple[str | None, ...]
    decided: bool
    winner: str | None
    decided_after: int | None
    reasons: tuple[str, ...]

    @property
    def void(self) -> bool:
        """True when the hand is decided with nobody winning (three tied rounds)."""
        return self.decided and self.winner is None

    @property
    def next_round(self) -> int | None:
        """The round to play next while undecided, else None."""
        return None if self.decided else len(self.results) + 1


def _outcome(results: Sequence[str | None]) -> tuple[bool, str | None, str]:
    """Decide a prefix of round results: (decided, winner, the rule that applies)."""
    n = len(results)
    if n < 2:
        if n == 1 and results[0] is None:
            return False, None, "A primeira rodada empatou: quem ganhar a segunda leva a mão."
        if n == 1:
            return False, None, f"{results[0]} ganhou a primeira rodada; ninguém fez duas ainda."
        return False, None, "Nenhuma rodada jogada ainda."
    first, second = results[0], results[1]
    if n == 2:
        if first is not None and first == second:
            return True, first, f"{first} ganhou a primeira e a segunda: duas rodadas levam a mão."
        if first is None and second is not None:
            return True, second, f"Empatou a primeira: quem ganhou a segunda ({second}) leva a mão."
        if first is not None and second is None:
            return True, first, (
                f"Ganhou a primeira e empatou a segunda: leva quem ganhou a primeira ({first})."
            )
        if first is None:
            return False, None, "Empataram a primeira e a segunda: a terceira rodada decide."
        return False, None, "Uma rodada para cada lado: a terceira rodada decide."
    third = results[2]
    if first is None:
        if third is None:
            return True, None, "Empataram as três rodadas: a mão é anulada e ninguém marca pontos."
        return True, third, (
            f"Empataram a primeira e a segunda: a terceira decide, e foi de {third}."
        )
    if third is None:
        return True, first, (
            f"Uma rodada para cada e empatou a terceira: leva quem ganhou a primeira ({first})."
        )
    return True, third, f"Uma rodada para cada: {third} ganhou a terceira e leva a mão."


def judge_hand(
    results: Sequence[str | None], *, teams: tuple[str, str] = ("nos", "eles")
) -> HandVerdict:
    """Rule on a hand from its round results in order (a team label, or None for a tie)."""
    if len(teams) != 2 or teams[0] == teams[1]:
        raise RulesError("Uma mão é disputada por dois lados com nomes diferentes.")
    results = tuple(results)
    if len(results) > 3:
        raise RulesError(f"Uma mão tem no máximo três rodadas, não {len(results)}.")
    reasons: list[str] = []
    for i, result in enumerate(results):
        if result is not None and result not in teams:
            raise RulesError(
                f"Resultado desconhecido na {ORDINALS[i]} rodada: {result!r}. "
                f"Use {teams[0]!r}, {teams[1]!r} ou empate."
            )
        if i > 0:
            decided, _, rule = _outcome(results[:i])
            if decided:
                raise RulesError(
                    f"A mão já estava decidida depois da {ORDINALS[i - 1]} rodada ({rule}) "
                    f"e não se joga a {ORDINALS[i]} rodada."
                )
        label = "empate" if result is None else f"{result} ganhou"
        reasons.append(f"{ORDINALS[i].capitalize()} rodada: {label}.")
    decided, winner, rule = _outcome(results)
    reasons.append(rule)
    if not decided:
        reasons.append(f"A mão segue: falta a {ORDINALS[len(results)]} rodada.")
    return HandVerdict(results, decided, winner, len(results) if decided else None, tuple(reasons))
