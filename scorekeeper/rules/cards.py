"""Cards: ranks, suits and their pt-BR names (/regras#cartas-e-manilhas). What a
ruleset makes of them (its deck, the vira, the manilhas, strength) is in `decks`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import RulesError


class Suit(Enum):
    """The four suits, in manilha order: paus (zap) beats copas, espadas, ouros."""

    PAUS = "p"
    COPAS = "c"
    ESPADAS = "e"
    OUROS = "o"

    @property
    def label(self) -> str:
        """The suit's pt-BR name."""
        return _SUIT_NAMES[self]

    @property
    def symbol(self) -> str:
        """The suit's card symbol."""
        return _SUIT_SYMBOLS[self]

    @property
    def manilha_name(self) -> str:
        """The nickname of the manilha of this suit."""
        return _MANILHA_NAMES[self]


_SUIT_NAMES = {Suit.PAUS: "paus", Suit.COPAS: "copas", Suit.ESPADAS: "espadas", Suit.OUROS: "ouros"}
_SUIT_SYMBOLS = {Suit.PAUS: "♣", Suit.COPAS: "♥", Suit.ESPADAS: "♠", Suit.OUROS: "♦"}
_MANILHA_NAMES = {
    Suit.PAUS: "zap",
    Suit.COPAS: "copas",
    Suit.ESPADAS: "espadilha",
    Suit.OUROS: "pica-fumo",
}
_SYMBOL_TO_SUIT = {
    "♣": Suit.PAUS,
    "♥": Suit.COPAS,
    "♡": Suit.COPAS,
    "♠": Suit.ESPADAS,
    "♦": Suit.OUROS,
    "♢": Suit.OUROS,
}


class Rank(Enum):
    """Ranks in the cycle 4 5 6 7 Q J K A 2 3: also the common cards' order, weakest first."""

    QUATRO = "4"
    CINCO = "5"
    SEIS = "6"
    SETE = "7"
    DAMA = "Q"
    VALETE = "J"
    REI = "K"
    AS = "A"
    DOIS = "2"
    TRES = "3"

    @property
    def label(self) -> str:
        """The rank's pt-BR name."""
        return _RANK_NAMES[self]

    @property
    def plural(self) -> str:
        """The rank in the plural with its article, e.g. 'as damas (Q)'."""
        return _RANK_PLURALS.get(self, f"os {self.value}")


_RANK_NAMES = {
    Rank.QUATRO: "4",
    Rank.CINCO: "5",
    Rank.SEIS: "6",
    Rank.SETE: "7",
    Rank.DAMA: "dama (Q)",
    Rank.VALETE: "valete (J)",
    Rank.REI: "rei (K)",
    Rank.AS: "ás (A)",
    Rank.DOIS: "2",
    Rank.TRES: "3",
}

_RANK_PLURALS = {
    Rank.DAMA: "as damas (Q)",
    Rank.VALETE: "os valetes (J)",
    Rank.REI: "os reis (K)",
    Rank.AS: "os ases (A)",
}

SUJO_CYCLE: tuple[Rank, ...] = tuple(Rank)
LIMPO_CYCLE: tuple[Rank, ...] = (Rank.DAMA, Rank.VALETE, Rank.REI, Rank.AS, Rank.DOIS, Rank.TRES)
SUITS: tuple[Suit, ...] = tuple(Suit)


@dataclass(frozen=True)
class Card:
    """One card: a rank and a suit. `str(card)` is the canonical text, e.g. '4p'."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read '4p', '7C', 'Q♥' or 'a♠'; anything else raises RulesError."""
        if not isinstance(text, str):
            raise RulesError("Carta inválida: informe um texto como '4p' ou 'A♠'.")
        cleaned = text.strip()
        if len(cleaned) != 2:
            raise RulesError(
                f"Carta inválida: {text!r}. Use o valor (A 2 3 4 5 6 7 Q J K) e o naipe "
                "(p, c, e, o), como '4p'. Não há 8, 9 nem 10 no truco."
            )
        rank_text, suit_text = cleaned[0].upper(), cleaned[1]
        try:
            rank = Rank(rank_text)
        except ValueError:
            raise RulesError(
                f"Carta inválida: {text!r}. Os valores são A 2 3 4 5 6 7 Q J K "
                "(não há 8, 9 nem 10 no truco)."
            ) from None
        suit = _SYMBOL_TO_SUIT.get(suit_text)
        if suit is None:
            try:
                suit = Suit(suit_text.lower())
            except ValueError:
                raise RulesError(
                    f"Carta inválida: {text!r}. Os naipes são p (paus), c (copas), "
                    "e (espadas) e o (ouros)."
                ) from None
        return cls(rank, suit)

    def __str__(self) -> str:
        """The canonical text, rank then suit letter."""
        return f"{self.rank.value}{self.suit.value}"

    @property
    def label(self) -> str:
        """A pt-BR name such as '4 de paus'."""
        return f"{self.rank.label} de {self.suit.label}"

    @property
    def face(self) -> str:
        """A short face such as '4♣'."""
        return f"{self.rank.value}{self.suit.symbol}"


def as_card(value: Card | str) -> Card:
    """Accept a Card or its text."""
    return value if isinstance(value, Card) else Card.parse(value)
