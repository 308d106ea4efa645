"""What the rules tests share: the rule sets (the default and the rule book's variants) and the
check of a refusal's pt-BR words."""

import pytest

from scorekeeper.rules import RulesError, RuleSet

SUJO = RuleSet()
LIMPO = RuleSet(deck="limpo")
FIXA = RuleSet(manilhas="fixa")
LIMPO_FIXA = RuleSet(deck="limpo", manilhas="fixa")


def assert_pt_error(excinfo: pytest.ExceptionInfo[RulesError], *words: str) -> None:
    """The refusal has a message, and it names one of these words."""
    message = str(excinfo.value)
    assert message.strip(), "RulesError without a message"
    assert any(w in message.lower() for w in words), message


def seat_side(seat: int) -> int:
    """The side of a seat (seats from 1: the odd ones are side 0)."""
    return (seat - 1) % 2


def seat_after(seat: int, players: int, n: int = 1) -> int:
    """The seat `n` places after `seat` round a table of `players`."""
    return (seat - 1 + n) % players + 1


def seats_of(which: int, start: int, players: int) -> list[int]:
    """The seats of side `which` round a table of `players`, in playing order from `start`."""
    order = [seat_after(start, players, i) for i in range(players)]
    return [seat for seat in order if seat_side(seat) == which]
