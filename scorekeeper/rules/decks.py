"""What a ruleset makes of the cards: its deck, the vira, the manilhas and card strength
(/regras#cartas-e-manilhas, with its variants manilha fixa and the baralho limpo, 27 cards with
manilha fixa: docs/rules-sources.md)."""

from __future__ import annotations

from .cards import LIMPO_CYCLE, SUITS, SUJO_CYCLE, Card, Rank, Suit, as_card
from .options import DECK
from .reasons import Code, Reason, RuleBroken
from .ruleset import RuleSet

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
    name = DECK.choice_or_default(ruleset.deck).short
    return f"{DECK.title.lower()} {name} ({len(deck(ruleset))} cartas)"


def outside_deck(card: Card, ruleset: RuleSet) -> Reason | None:
    """Why the card cannot be played with this ruleset (it is not in its deck), or None."""
    if card in deck(ruleset):
        return None
    return Reason(Code.NOT_IN_DECK, card=card, text=deck_name(ruleset))


def check_in_deck(card: Card, ruleset: RuleSet) -> None:
    """RuleBroken when the card is not part of the ruleset's deck."""
    refusal = outside_deck(card, ruleset)
    if refusal is not None:
        raise RuleBroken(refusal)


def check_vira(ruleset: RuleSet, vira: Card | str | None) -> Card | None:
    """Validate the vira: required for manilha variável (and in the deck), refused for manilha
    fixa; RuleBroken (or RulesError for a text that is no card) otherwise."""
    if ruleset.fixed:
        if vira is not None:
            raise RuleBroken(Reason(Code.VIRA_WITH_FIXA))
        return None
    if vira is None:
        raise RuleBroken(Reason(Code.VIRA_MISSING))
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
        raise RuleBroken(Reason(Code.VIRA_MISSING))
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
