"""The rule-set seam: a rule set is data in a registry, and nothing outside the rules names one.

A family with no special hand nor mão de ferro, another target with halves and more than one
ladder (the Spanish deck's: truco, envido) can be described; a hand may score several outcomes,
for either side, while a Paulista or Mineiro hand folds as before (/regras#pontos).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper.rules import (
    DEFAULT_RULE_SET,
    MINEIRO,
    PAULISTA,
    RULE_SETS,
    VARIANTE,
    Kind,
    Ladder,
    MatchConfig,
    MatchState,
    Outcome,
    RulesError,
    Variant,
    Word,
    book_of,
    fold,
    replay,
    rule_set,
)

ROOT = Path(__file__).resolve().parents[2]
# A branch on one rule set by name: its object, its section enum, or its code compared.
NAMED = re.compile(
    r"\b(PAULISTA|MINEIRO|MineiroSection|MINEIRO_SECTIONS)\b"
    r"""|[=!]=\s*['"](paulista|mineiro)['"]|['"](paulista|mineiro)['"]\s*[=!]="""
)


def spanish_family() -> Variant:
    """A rule set shaped like the Spanish deck's: 30 points in two halves of 15, truco 1-2-3-4
    and an envido ladder, no special hand, no mão de ferro."""
    return replace(
        PAULISTA,
        code="espanhol",
        name="Truco Espanhol",
        ladders={
            "truco": Ladder(values=(1, 2, 3, 4), calls=(Word.TRUCO, Word.SEIS, Word.NOVE)),
            "envido": Ladder(values=(2, 4, 7), calls=(Word.TRUCO, Word.SEIS)),
        },
        special=None,
        ferro=None,
        target=30,
        halves=(15,),
    )


def test_the_registry_maps_each_code_to_its_rule_set_the_default_first() -> None:
    """RULE_SETS holds Paulista (the default) and Mineiro; an unknown code is a pt-BR refusal
    naming the known ones; the rule set option offers the registry's codes."""
    assert list(RULE_SETS) == ["paulista", "mineiro"]
    assert rule_set("mineiro") is MINEIRO and DEFAULT_RULE_SET is PAULISTA
    assert VARIANTE.values == tuple(RULE_SETS)
    with pytest.raises(RulesError, match="Use 'paulista' ou 'mineiro'"):
        rule_set("gaucho")


def test_each_section_belongs_to_the_page_of_one_rule_set() -> None:
    """Every section of every rule set's book is found on that rule set's page, numbered from 1."""
    for rules in RULE_SETS.values():
        for number, section in enumerate(rules.book.sections, start=1):
            assert book_of(section) is rules
            assert rules.book.number(section) == number


def test_a_family_without_special_hand_nor_ferro_with_halves_and_two_ladders_is_described() -> None:
    """Its ladder tops below its target; it has no special points or ferro modes, and asking for
    its special hand's name is a pt-BR refusal; its envido's values are points a hand carries."""
    family = spanish_family()
    assert family.ladder == (1, 2, 3, 4) and family.target == 30 and family.halves == (15,)
    assert family.special_at == () and family.ferro_modes == ()
    assert {2, 4, 7} <= family.points_known and family.unit == 1
    with pytest.raises(RulesError, match="não tem mão especial"):
        assert not family.special_name
    with pytest.raises(RulesError, match="não tem mão de ferro"):
        assert not family.ferro_worth


def test_a_ladder_whose_calls_do_not_fit_is_refused() -> None:
    """One call per step above the first, values strictly rising."""
    with pytest.raises(RulesError):
        Ladder(values=(1, 3), calls=())
    with pytest.raises(RulesError):
        Ladder(values=(3, 1), calls=(Word.TRUCO,))


def test_a_hand_of_several_outcomes_scores_each_for_its_side_and_deals_once() -> None:
    """Truco 3 for one side and a further 1 for the other, in one hand (as an envido and a
    truco would score): 1 x 3, one hand dealt."""
    config = MatchConfig()
    hand = (Outcome(Kind.NORMAL, 1, 3), Outcome(Kind.NORMAL, 0, 1))
    state = fold(config, [hand])
    assert state.points == (1, 3) and state.hands_dealt == 1 and state.hand_in_game == 2
    assert len(replay(config, [hand, Outcome(Kind.NORMAL, 0, 1)])) == 3


def test_a_hand_stops_scoring_once_its_game_is_won() -> None:
    """At 10 x 0, a hand of 3 then 6 for the other side: the first ends the game at 12."""
    state = MatchState(MatchConfig(), (10, 0))
    after = state.apply_hand((Outcome(Kind.NORMAL, 0, 3), Outcome(Kind.NORMAL, 1, 6)))
    assert after.points == (12, 0) and after.game_winner == 0


def test_a_further_score_of_a_hand_must_be_a_value_the_rule_set_knows() -> None:
    """A second outcome worth 5 in Paulista, or one that is no hand's score, is refused."""
    state = MatchState(MatchConfig())
    with pytest.raises(RulesError, match="Uma mão vale"):
        state.apply_hand((Outcome(Kind.NORMAL, 0, 1), Outcome(Kind.NORMAL, 1, 5)))
    with pytest.raises(RulesError):
        state.apply_hand((Outcome(Kind.NORMAL, 0, 1), Outcome(Kind.CORRECAO, 1, 5)))


def test_single_outcomes_fold_exactly_as_before() -> None:
    """A Mineiro log of single outcomes gives the same state through apply and apply_hand."""
    config = MatchConfig.of("mineiro")
    log = [Outcome(Kind.NORMAL, 0, 4), Outcome(Kind.NORMAL, 1, 10), Outcome(Kind.ANULADA)]
    by_apply = MatchState(config)
    for outcome in log:
        by_apply = by_apply.apply(outcome)
    assert fold(config, log) == by_apply and by_apply.points == (4, 10)


def test_nothing_outside_the_rules_branches_on_a_rule_set_by_name() -> None:
    """No module, template or script outside scorekeeper/rules names a rule set's object, its
    section enum or compares a code to a rule set's: each asks the rule set's data."""
    places = [
        *(p for p in (ROOT / "scorekeeper").rglob("*.py") if "rules" not in p.parts),
        *(ROOT / "templates").rglob("*.html"),
        *(ROOT / "static" / "js").rglob("*.js"),
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in places
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if NAMED.search(line)
    ]
    assert found == []
