"""The small pieces the juiz pages are drawn from: switches, their segments, the card grid."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...rules import SUITS, VARIANTS, Card, Choice, Option, RuleSet, Variant, deck, manilhas


@dataclass(frozen=True)
class Segment:
    """One choice of a switch, as a link."""

    label: str
    href: str
    active: bool


@dataclass(frozen=True)
class Switch:
    """A house-rule switch: a title and its segments."""

    title: str
    segments: tuple[Segment, ...]

    @property
    def wide(self) -> bool:
        """True when the segments need the whole width of a phone."""
        return len(self.segments) > 3 or sum(len(s.label) for s in self.segments) > 18


def option_switch(
    option: Option[Any], query: object, link: Callable[..., str], **also: Any
) -> Switch:
    """The switch of an option the query holds (in the field its code name names): its title,
    each offered choice in its short words as a link to the query with that choice (and the
    changes `also` asks for), the query's own active."""
    current = getattr(query, option.name)

    def segment(choice: Choice[Any]) -> Segment:
        href = link(**{option.name: choice.value, **also})
        return Segment(choice.switch_label, href, choice.value == current)

    return Switch(option.title, tuple(segment(choice) for choice in option.offered))


def variant_switch(current: Variant, link: Callable[[Variant], str]) -> Switch:
    """The rule set switch, one segment per rule set, each a link to the page under it."""
    segments = tuple(Segment(v.name, _naming(link(v), v), v is current) for v in VARIANTS.values())
    return Switch("Regras", segments)


def _naming(url: str, rules: Variant) -> str:
    """A switch's link that names its rule set even where links leave the default unsaid: a
    juiz opened from a table of another rule set takes an unsaid rule set for the table's."""
    if "variante=" in url:
        return url
    return f"{url}{'&' if '?' in url else '?'}variante={rules.code}"


@dataclass(frozen=True)
class Cell:
    """A card of the grid: a link to tap, or shown as used or absent."""

    card: Card
    href: str | None
    used: bool
    absent: bool
    manilha: bool


Grid = tuple[tuple[str, tuple[Cell, ...]], ...]


def card_grid(
    ruleset: RuleSet, vira: Card | None, used: frozenset[Card], href: Callable[[Card], str | None]
) -> Grid:
    """Rows of the deck's cards by rank (in the deck's cycle), one column per suit: each card
    not used yet a link to `href(card)` (when it gives one), the manilhas marked once the vira
    (or manilha fixa) tells them."""
    cards = deck(ruleset)
    held = set(cards)
    mans = set(manilhas(ruleset, vira)) if vira is not None or ruleset.fixed else set()
    rows = []
    for rank in dict.fromkeys(card.rank for card in cards):
        cells = []
        for suit in SUITS:
            card = Card(rank, suit)
            link = href(card) if card in held and card not in used else None
            cells.append(Cell(card, link, card in used, card not in held, card in mans))
        rows.append((rank.value, tuple(cells)))
    return tuple(rows)
