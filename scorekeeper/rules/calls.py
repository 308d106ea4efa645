"""What a player may say during a hand: the calls of the truco ladder and the two answers.

Which call asks for which value is the rule set's (`Variant.word_for`, `Variant.asks`); `asks`
and `call_for` here speak Truco Paulista's ladder.
"""

from __future__ import annotations

from enum import Enum


class Word(Enum):
    """A call (truco, seis, nove, dez, doze) or an answer (aceita, corre), as written in events."""

    TRUCO = "truco"
    SEIS = "seis"
    NOVE = "nove"
    DEZ = "dez"
    DOZE = "doze"
    ACEITA = "aceita"
    CORRE = "corre"

    @property
    def asks(self) -> int | None:
        """The value a call asks for in Truco Paulista (3, 6, 9, 12); None for an answer or dez."""
        return _ASKS.get(self)

    @property
    def is_call(self) -> bool:
        """True for truco, seis, nove, dez and doze."""
        return self not in (Word.ACEITA, Word.CORRE)

    @classmethod
    def call_for(cls, value: int) -> Word:
        """The Paulista call that asks for `value` (3 truco, 6 seis, 9 nove, 12 doze)."""
        return _CALLS[value]


_ASKS = {Word.TRUCO: 3, Word.SEIS: 6, Word.NOVE: 9, Word.DOZE: 12}
_CALLS = {value: word for word, value in _ASKS.items()}
