"""'Regras desta mesa': a table's options in pt-BR, one line each, with the rule-book section
each one changes, in the options' own words. Pure: it reads the settings it is given, nothing
else (a Mesa will do)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ...rules import (
    DECK,
    DEFAULT_RULE_SET,
    LIMPO_WITH_FIXA,
    RULE_SETS,
    TABLE_OPTIONS,
    VARIANTE,
    BookSection,
    Option,
)

TITLE = "Regras desta mesa"


class TableSettings(Protocol):
    """What a table's house rules are read from (a Mesa has all of it)."""

    players: int
    best_of: int
    special_at: int
    ferro_mode: str
    deck: str
    manilhas: str
    tie_opener: str
    variante: str


@dataclass(frozen=True)
class HouseRule:
    """One line of 'Regras desta mesa': the option, its value in words, the section it changes
    and the variant it picks (the `data-variante` the rule book marks)."""

    label: str
    value: str
    section: BookSection
    variant: str

    @property
    def text(self) -> str:
        """The line as shown: 'Baralho: sujo (40 cartas)'."""
        return f"{self.label}: {self.value}"


def _said(option: Option[Any], settings: TableSettings) -> str:
    """The table's value of an option in full; a value outside the option's choices is said as
    it is stored rather than guessed; one the settings lack (a rule set) is the default. The
    limpo deck with manilha fixa keeps 27 cards."""
    value = getattr(settings, option.name, option.default)
    if option is DECK and (value, settings.manilhas) == ("limpo", "fixa"):
        return LIMPO_WITH_FIXA
    choice = option.choice(value)
    return str(value) if choice is None else choice.long


def house_rules(settings: TableSettings) -> tuple[HouseRule, ...]:
    """The table's options, one line each, in the rule book's order; a table of another rule
    set than the default names it first, and its lines link that rule set's sections."""
    code = getattr(settings, VARIANTE.name, VARIANTE.default)
    rules = RULE_SETS.get(code, DEFAULT_RULE_SET)
    options = TABLE_OPTIONS if rules is DEFAULT_RULE_SET else (VARIANTE, *TABLE_OPTIONS)
    return tuple(
        HouseRule(
            option.title,
            _said(option, settings),
            rules.book.option_place(option.name, option.section),
            option.variant(getattr(settings, option.name, option.default)),
        )
        for option in options
    )
