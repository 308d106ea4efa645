"""What a player may say during a hand: the calls of the truco ladder and the two answers."""

from __future__ import annotations

from enum import Enum

from .scoring import HAND_VALUES


class Word(Enum):
    """A call (truco, seis, nove, doze) or an answer (aceita, corre), as written in events."""

    TRUCO = "truco"
    SEIS = "seis"
    NOVE = "nove"
    DOZE = "doze"
    ACEITA = "aceita"
    CORRE = "corre"

    @property
    def asks(self) -> int | None:
        """The value a call asks for (3, 6, 9, 12); None for an answer."""
        return _ASKS.get(self)

    @property
    def is_call(self) -> bool:
        """True for truco, seis, nove and doze."""
        return self in _ASKS

    @classmethod
    def call_for(cls, value: int) -> Word:
        """The call that asks for `value` (3 truco, 6 seis, 9 nove, 12 doze)."""
        return _CALLS[value]


_ASKS = {Word.TRUCO: 3, Word.SEIS: 6, Word.NOVE: 9, Word.DOZE: 12}
_CALLS = {value: word for word, value in _ASKS.items()}


def next_step(worth: int) -> int | None:
    """The value the next call asks for when the hand is worth `worth`, None at doze."""
    index = HAND_VALUES.index(worth)
    return HAND_VALUES[index + 1] if index + 1 < len(HAND_VALUES) else None
