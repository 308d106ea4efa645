"""The options registry: every option defined once, its values the rules' own, its words
complete, and the rule book offering each choice where it changes a rule."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, get_args

import pytest

from scorekeeper.rules import (
    ANSWERER,
    BEST_OF,
    BOOK,
    DECK,
    FERRO_MODE,
    MANILHAS,
    PLAYERS,
    RULESET_OPTIONS,
    SPECIAL_AT,
    TABLE_OPTIONS,
    TIE_OPENER,
    Answerer,
    BestOf,
    Deck,
    FerroMode,
    ManilhaMode,
    MatchConfig,
    Option,
    Players,
    RulesError,
    RuleSet,
    Section,
    SpecialAt,
    TieOpener,
    book_boxes,
    deck,
    either,
)

OPTIONS: tuple[tuple[Option[Any], Any], ...] = (
    (PLAYERS, Players),
    (DECK, Deck),
    (MANILHAS, ManilhaMode),
    (TIE_OPENER, TieOpener),
    (ANSWERER, Answerer),
    (SPECIAL_AT, SpecialAt),
    (FERRO_MODE, FerroMode),
    (BEST_OF, BestOf),
)


@pytest.mark.parametrize(("option", "values"), OPTIONS, ids=lambda o: getattr(o, "name", ""))
def test_an_options_values_are_its_types(option: Option[Any], values: Any) -> None:
    """The values an option lists are exactly those its type allows, the default first."""
    assert option.values == get_args(values)
    assert option.default == option.values[0] and option.choices[0].offered


@pytest.mark.parametrize("option", [option for option, _ in OPTIONS], ids=lambda o: o.name)
def test_every_choice_is_worded_and_spelled_once(option: Option[Any]) -> None:
    """Each choice has a label and short and long words; forms, links and the rule book tell
    choices apart by their spelling and their variant id."""
    for choice in option.choices:
        assert choice.label and choice.short and choice.long, choice
        assert choice.short == choice.short.lower() or choice.short[0].isdigit(), choice
    assert len({c.spelled for c in option.choices}) == len(option.choices)
    assert len({option.variant(c.value) for c in option.choices}) == len(option.choices)
    assert option.spelled(option.offered[-1].spelled) == option.offered[-1].value
    assert option.spelled("nada disso") == option.default


def test_the_code_names_are_the_fields_that_keep_the_options() -> None:
    """A RuleSet holds its options in the fields they name, a MatchConfig the table's others."""
    ruleset = {f.name for f in fields(RuleSet)}
    assert {option.name for option in RULESET_OPTIONS} == ruleset
    config = {f.name for f in fields(MatchConfig)}
    assert {o.name for o in TABLE_OPTIONS} - ruleset - config == {"ferro_mode"}


@pytest.mark.parametrize(
    ("deck_value", "manilhas", "cards"),
    [("sujo", "variavel", 40), ("sujo", "fixa", 40), ("limpo", "variavel", 24)],
)
def test_the_deck_words_count_the_cards_the_rules_deal(
    deck_value: str, manilhas: str, cards: int
) -> None:
    """The deck's long words give the number of cards of that deck."""
    dealt = deck(RuleSet(deck=deck_value, manilhas=manilhas))  # type: ignore[arg-type]
    assert len(dealt) == cards
    assert f"({cards} cartas" in (DECK.choice_or_default(deck_value).long)


def test_a_ruleset_refuses_a_value_in_the_options_words() -> None:
    """An unknown value is refused with the option's own words and the values it has."""
    with pytest.raises(RulesError, match="Baralho desconhecido: 'cheio'. Use 'sujo' ou 'limpo'"):
        RuleSet(deck="cheio")  # type: ignore[arg-type]


def test_every_box_words_each_offered_choice_once() -> None:
    """A box of the rule book says what each offered choice changes there, the default first,
    and names no value the option does not offer."""
    for box in BOOK:
        offered = [c.value for c in box.option.offered]
        assert list(box.texts) == offered, box.heading
        assert set(box.labels) <= set(offered)
        assert [entry.default for entry in box.entries] == [True] + [False] * (len(offered) - 1)


def test_each_option_is_in_the_rule_book_at_its_own_section() -> None:
    """Every option the pages offer has a box in the section its house rule links to."""
    for option, _ in OPTIONS:
        assert option in [box.option for box in book_boxes(option.section)], option.name
    assert [box.option for box in book_boxes(Section.CORRER)] == []


def test_either_joins_alternatives_in_portuguese() -> None:
    """'a', 'a ou b', 'a, b ou c'."""
    assert [either(["a"]), either("ab"), either("abc")] == ["a", "a ou b", "a, b ou c"]
