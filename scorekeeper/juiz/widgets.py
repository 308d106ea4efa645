"""The small pieces the juiz pages are drawn from: switches, their options, the card grid."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Card


@dataclass(frozen=True)
class Option:
    """One choice of a house-rule switch, as a link."""

    label: str
    href: str
    active: bool


@dataclass(frozen=True)
class Switch:
    """A house-rule switch: a title and its options."""

    title: str
    options: tuple[Option, ...]

    @property
    def wide(self) -> bool:
        """True when the options need the whole width of a phone."""
        return len(self.options) > 3 or sum(len(o.label) for o in self.options) > 18


@dataclass(frozen=True)
class Cell:
    """A card of the grid: a link to tap, or shown as used or absent."""

    card: Card
    href: str | None
    used: bool
    absent: bool
    manilha: bool
