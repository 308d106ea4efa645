"""Cards, decks, manilhas and card strength (seed 000, Valor das cartas e manilhas)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import RulesError
from .ruleset import RuleSet


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


FIXED_MANILHAS: tuple[Card, ...] = (
    Card(Rank.QUATRO, Suit.PAUS),
    Card(Rank.SETE, Suit.COPAS),
    Card(Rank.AS, Suit.ESPADAS),
    Card(Rank.SETE, Suit.OUROS),
)

_LIMPO_27_REMOVED = frozenset(
    {
        Card(Rank.SETE, Suit.ESPADAS),
        Card(Rank.SETE, Suit.PAUS),
        Card(Rank.QUATRO, Suit.COPAS),
        Card(Rank.QUATRO, Suit.OUROS),
        Card(Rank.QUATRO, Suit.ESPADAS),
    }
)


def cycle(ruleset: RuleSet) -> tuple[Rank, ...]:
    """The rank cycle of the ruleset's deck, weakest common first."""
    return LIMPO_CYCLE if ruleset.deck == "limpo" else SUJO_CYCLE


def deck(ruleset: RuleSet) -> tuple[Card, ...]:
    """Every card of the ruleset's deck: 40 (sujo), 24 (limpo) or 27 (limpo with manilha fixa)."""
    if ruleset.deck == "limpo" and ruleset.fixed:
        return tuple(
            Card(rank, suit)
            for rank in SUJO_CYCLE
            for suit in SUITS
            if rank not in (Rank.CINCO, Rank.SEIS) and Card(rank, suit) not in _LIMPO_27_REMOVED
        )
    return tuple(Card(rank, suit) for rank in cycle(ruleset) for suit in SUITS)


def deck_name(ruleset: RuleSet) -> str:
    """The deck's pt-BR description."""
    size = len(deck(ruleset))
    return f"baralho {ruleset.deck} ({size} cartas)"


def as_card(value: Card | str) -> Card:
    """Accept a Card or its text."""
    return value if isinstance(value, Card) else Card.parse(value)


def check_in_deck(card: Card, ruleset: RuleSet) -> None:
    """Raise RulesError when the card is not part of the ruleset's deck."""
    if card not in deck(ruleset):
        raise RulesError(f"A carta {card.label} ({card}) não existe no {deck_name(ruleset)}.")


def check_vira(ruleset: RuleSet, vira: Card | str | None) -> Card | None:
    """Validate the vira: required for manilha variável, refused for manilha fixa."""
    if ruleset.fixed:
        if vira is not None:
            raise RulesError("Com manilha fixa não há vira: as manilhas são sempre as mesmas.")
        return None
    if vira is None:
        raise RulesError("Com manilha variável é preciso informar a vira.")
    card = as_card(vira)
    check_in_deck(card, ruleset)
    return card


def manilha_rank(ruleset: RuleSet, vira: Card | str) -> Rank:
    """The rank right after the vira's in the deck's cycle, wrapping after 3."""
    card = check_vira(ruleset, vira)
    assert card is not None
    ranks = cycle(ruleset)
    return ranks[(ranks.index(card.rank) + 1) % len(ranks)]


def manilhas(ruleset: RuleSet, vira: Card | str | None = None) -> tuple[Card, ...]:
    """The four manilhas, strongest first (zap, copas, espadilha, pica-fumo)."""
    if ruleset.fixed:
        check_vira(ruleset, vira)
        return FIXED_MANILHAS
    if vira is None:
        raise RulesError("Com manilha variável é preciso informar a vira.")
    rank = manilha_rank(ruleset, vira)
    return tuple(Card(rank, suit) for suit in SUITS)


def strength(card: Card, ruleset: RuleSet, vira: Card | None) -> int:
    """A number that orders cards: manilhas 100-103, commons 0-9 by rank; higher wins."""
    mans = manilhas(ruleset, vira)
    if card in mans:
        return 103 - mans.index(card)
    return SUJO_CYCLE.index(card.rank)


def strength_order(
    ruleset: RuleSet, vira: Card | str | None = None
) -> tuple[tuple[Card, ...], ...]:
    """Every card of the deck but the vira, strongest first, grouped into equal cards."""
    vira_card = check_vira(ruleset, vira)
    cards = [c for c in deck(ruleset) if c != vira_card]
    groups: dict[int, list[Card]] = {}
    for card in cards:
        groups.setdefault(strength(card, ruleset, vira_card), []).append(card)
    return tuple(tuple(groups[key]) for key in sorted(groups, reverse=True))


def manilha_table(ruleset: RuleSet) -> tuple[tuple[Rank, Rank], ...]:
    """Pairs (vira rank, manilha rank) for every rank of the deck's cycle (manilha variável)."""
    ranks = cycle(ruleset)
    return tuple((rank, ranks[(i + 1) % len(ranks)]) for i, rank in enumerate(ranks))
