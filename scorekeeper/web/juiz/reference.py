"""The reference tables: manilhas for a vira, the ladder of strength, vira -> manilha by deck."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import (
    DECK,
    FIXED_MANILHAS,
    Card,
    Rank,
    RulesError,
    RuleSet,
    deck,
    manilha_table,
    manilhas,
)
from ...rules import strength_order as rules_strength_order


@dataclass(frozen=True)
class Step:
    """One rung of the ladder: equal cards, and a label for them."""

    place: int
    cards: tuple[Card, ...]
    label: str
    manilha: bool


@dataclass(frozen=True)
class ViraRow:
    """One row of the vira -> manilha table."""

    vira: Rank
    manilha: Rank
    current: bool


@dataclass(frozen=True)
class Reference:
    """Everything the reference section shows for a ruleset and (maybe) a vira."""

    ruleset: RuleSet
    vira: Card | None
    manilhas: tuple[Card, ...]
    ladder: tuple[Step, ...]
    tables: tuple[tuple[str, tuple[ViraRow, ...]], ...]
    fixed: tuple[Card, ...]

    @property
    def deck_name(self) -> str:
        """The ruleset's deck in words: 'baralho sujo'."""
        return f"{DECK.title.lower()} {DECK.choice_or_default(self.ruleset.deck).short}"


def ladder(ruleset: RuleSet, vira: Card | None) -> tuple[Step, ...]:
    """The whole ladder, strongest first: each manilha alone, then each common rank."""
    mans = manilhas(ruleset, vira)
    steps = []
    for place, group in enumerate(rules_strength_order(ruleset, vira), start=1):
        first = group[0]
        if first in mans:
            label = f"{first.suit.manilha_name} ({first.label})"
            steps.append(Step(place, group, label, True))
        else:
            label = first.rank.plural if len(group) > 1 else first.label
            equal = " — iguais entre si" if len(group) > 1 else ""
            steps.append(Step(place, group, f"{label}{equal}", False))
    return tuple(steps)


def vira_tables(
    current: Card | None, ruleset: RuleSet
) -> tuple[tuple[str, tuple[ViraRow, ...]], ...]:
    """The vira -> manilha table for both decks, marking the current vira's row."""
    tables = []
    for choice in DECK.offered:
        rules = RuleSet(deck=choice.value)
        rows = tuple(
            ViraRow(
                vira,
                manilha,
                current is not None and ruleset.deck == choice.value and current.rank == vira,
            )
            for vira, manilha in manilha_table(rules)
        )
        tables.append((f"{DECK.title} {choice.short} ({len(deck(rules))})", rows))
    return tuple(tables)


def build(ruleset: RuleSet, vira: Card | None) -> Reference:
    """The reference for a ruleset and a vira (the ladder needs a vira unless manilha fixa)."""
    try:
        mans = manilhas(ruleset, vira) if vira is not None or ruleset.fixed else ()
        steps = ladder(ruleset, vira) if mans else ()
    except RulesError:
        mans, steps = (), ()
    return Reference(
        ruleset=ruleset,
        vira=vira,
        manilhas=tuple(mans),
        ladder=steps,
        tables=vira_tables(vira, ruleset),
        fixed=FIXED_MANILHAS,
    )
