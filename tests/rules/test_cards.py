"""Cards, decks, manilhas and card strength.

/regras#cartas-e-manilhas, with its variants manilha fixa and the 27-card baralho limpo (the
texts each follows: docs/rules-sources.md). Every expectation below is written from the rule
book's text, not read back from the engine.
"""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.rules import (
    FIXED_MANILHAS,
    Card,
    Rank,
    RulesError,
    RuleSet,
    Suit,
    deck,
    manilha_rank,
    manilha_table,
    manilhas,
    strength_order,
)

from .rulesets import FIXA, LIMPO, LIMPO_FIXA, SUJO, assert_pt_error

# Straight from the rules text.
SUJO_RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
LIMPO_RANKS = ["Q", "J", "K", "A", "2", "3"]
SUIT_LETTERS = ["p", "c", "e", "o"]  # paus, copas, espadas, ouros: manilha order, strongest first
COMMONS_STRONGEST_FIRST = ["3", "2", "A", "K", "J", "Q", "7", "6", "5", "4"]


def cards(*texts: str) -> set[Card]:
    return {Card.parse(t) for t in texts}


def all_of(ranks: list[str]) -> set[Card]:
    return {Card.parse(r + s) for r in ranks for s in SUIT_LETTERS}


# --------------------------------------------------------------------------------------------
# The error type
# --------------------------------------------------------------------------------------------


def test_rules_error_is_a_value_error() -> None:
    """/regras#cartas-e-manilhas: an invalid card is a bad value (RulesError)."""
    assert issubclass(RulesError, ValueError)
    with pytest.raises(ValueError):
        Card.parse("8p")


# --------------------------------------------------------------------------------------------
# Card.parse and str()
# --------------------------------------------------------------------------------------------

SUIT_BY_LETTER = {"p": Suit.PAUS, "c": Suit.COPAS, "e": Suit.ESPADAS, "o": Suit.OUROS}


@pytest.mark.parametrize(("rank", "suit"), list(itertools.product(SUJO_RANKS, SUIT_LETTERS)))
def test_parse_reads_every_rank_and_suit(rank: str, suit: str) -> None:
    """/regras#cartas-e-manilhas: 40 cards, ranks 4 5 6 7 Q J K A 2 3 in four suits."""
    card = Card.parse(rank + suit)
    assert card.rank.value == rank
    assert card.suit is SUIT_BY_LETTER[suit]
    assert str(card) == rank + suit


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("qp", "Qp"),
        ("QP", "Qp"),
        ("jC", "Jc"),
        ("kE", "Ke"),
        ("aO", "Ao"),
        ("Ao", "Ao"),
        ("ap", "Ap"),
        ("4P", "4p"),
        ("7c", "7c"),
        (" 3o ", "3o"),
    ],
)
def test_parse_is_case_insensitive(text: str, canonical: str) -> None:
    """/regras#cartas-e-manilhas: a card is its rank and suit, whatever the case."""
    assert str(Card.parse(text)) == canonical
    assert Card.parse(text) == Card.parse(canonical)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("4♣", "4p"),
        ("7♥", "7c"),
        ("A♠", "Ae"),
        ("a♠", "Ae"),
        ("7♦", "7o"),
        ("q♣", "Qp"),
        ("3♦", "3o"),
        ("K♥", "Kc"),
        ("2♠", "2e"),
    ],
)
def test_parse_accepts_suit_symbols(text: str, canonical: str) -> None:
    """/regras#cartas-e-manilhas: paus ♣, copas ♥, espadas ♠, ouros ♦."""
    card = Card.parse(text)
    assert str(card) == canonical
    assert card.face[0] == canonical[0]
    assert card.face[1] in "♣♥♠♦"


def test_str_is_the_canonical_text() -> None:
    """/regras#cartas-e-manilhas: the zap is the 4 of paus, written '4p'."""
    zap = Card(Rank.QUATRO, Suit.PAUS)
    assert str(zap) == "4p"
    assert zap.face == "4♣"
    assert Card.parse(str(zap)) == zap
    for card in deck(SUJO):
        assert Card.parse(str(card)) == card
        assert Card.parse(card.face) == card


@pytest.mark.parametrize(
    "text",
    ["8", "9", "10", "8p", "9c", "10e", "10o", "", "   ", "Z1", "AX", "4", "p", "4pp", "Xp", "1p"],
)
def test_parse_refuses_cards_that_are_not_in_truco(text: str) -> None:
    """/regras#cartas-e-manilhas: the deck has no 8, 9, 10 nor jokers; suits are p c e o."""
    with pytest.raises(RulesError) as excinfo:
        Card.parse(text)
    assert_pt_error(excinfo, "carta")


def test_parse_refuses_non_text() -> None:
    """/regras#cartas-e-manilhas: a card is given as text like '4p'."""
    with pytest.raises(RulesError) as excinfo:
        Card.parse(None)  # type: ignore[arg-type]
    assert_pt_error(excinfo, "carta")


# --------------------------------------------------------------------------------------------
# Decks and suits
# --------------------------------------------------------------------------------------------


def test_four_suits_paus_copas_espadas_ouros() -> None:
    """/regras#cartas-e-manilhas: paus, copas, espadas and ouros."""
    assert {s.label for s in Suit} == {"paus", "copas", "espadas", "ouros"}
    assert len(Suit) == 4
    assert {s.symbol for s in Suit} == {"♣", "♥", "♠", "♦"}


def test_baralho_sujo_has_40_cards() -> None:
    """/regras#cartas-e-manilhas: 40 cards, without 8, 9, 10 and jokers."""
    cards_ = deck(SUJO)
    assert len(cards_) == 40
    assert len(set(cards_)) == 40
    assert set(cards_) == all_of(SUJO_RANKS)


def test_baralho_limpo_has_24_cards_without_4_5_6_7() -> None:
    """/regras#cartas-e-manilhas: baralho limpo, 24 cards, no 4, 5, 6 and 7."""
    cards_ = deck(LIMPO)
    assert len(cards_) == 24
    assert len(set(cards_)) == 24
    assert set(cards_) == all_of(LIMPO_RANKS)
    assert not any(c.rank.value in "4567" for c in cards_)


def test_baralho_sujo_with_manilha_fixa_keeps_40_cards() -> None:
    """/regras#cartas-e-manilhas: manilha fixa changes the manilhas, not the 40-card deck."""
    assert set(deck(FIXA)) == all_of(SUJO_RANKS)
    assert len(deck(FIXA)) == 40


def test_limpo_with_manilha_fixa_is_the_27_card_deck_of_the_queda_text() -> None:
    """/regras#cartas-e-manilhas, the Queda text's baralho limpo (docs/rules-sources.md): sujo
    minus 7 of espadas and paus, 4 of copas, ouros and espadas, and the 6s and 5s of every
    suit: 27 cards."""
    removed = cards("7e", "7p", "4c", "4o", "4e") | all_of(["6", "5"])
    expected = all_of(SUJO_RANKS) - removed
    cards_ = deck(LIMPO_FIXA)
    assert len(removed) == 13
    assert len(cards_) == 27
    assert len(set(cards_)) == 27
    assert set(cards_) == expected
    # The four fixed manilhas (the variant manilha fixa) are all still in it.
    assert cards("4p", "7c", "Ae", "7o") <= set(cards_)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"deck": "cheio"}, "baralho"),
        ({"deck": ""}, "baralho"),
        ({"manilhas": "velha"}, "manilha"),
        ({"tie_opener": "pe"}, "empate"),
    ],
)
def test_ruleset_refuses_unknown_options(kwargs: dict[str, str], word: str) -> None:
    """/regras#cartas-e-manilhas and /regras#rodadas-e-empates: the options are baralho
    sujo/limpo, manilha variável/fixa and who opens after a tie (the mão, the default, or the
    player of the first tying card, the variant)."""
    with pytest.raises(RulesError) as excinfo:
        RuleSet(**kwargs)
    assert_pt_error(excinfo, word)


# --------------------------------------------------------------------------------------------
# Manilha variável: every vira
# --------------------------------------------------------------------------------------------

# (vira rank, manilha rank), written from the cycle 4 5 6 7 Q J K A 2 3, wrapping after 3.
SUJO_MANILHAS = [
    ("4", "5"),
    ("5", "6"),
    ("6", "7"),
    ("7", "Q"),
    ("Q", "J"),
    ("J", "K"),
    ("K", "A"),
    ("A", "2"),
    ("2", "3"),
    ("3", "4"),
]
# Cycle Q J K A 2 3 (baralho limpo), wrapping after 3.
LIMPO_MANILHAS = [
    ("Q", "J"),
    ("J", "K"),
    ("K", "A"),
    ("A", "2"),
    ("2", "3"),
    ("3", "Q"),
]


@pytest.mark.parametrize("vira_suit", SUIT_LETTERS)
@pytest.mark.parametrize(("vira_rank", "manilha"), SUJO_MANILHAS)
def test_manilha_variavel_sujo_is_the_rank_after_the_vira(
    vira_rank: str, manilha: str, vira_suit: str
) -> None:
    """/regras#cartas-e-manilhas: the manilhas are the rank right after the vira;
    vira 7 -> Q, vira K -> A, vira 3 -> 4 (the order starts again)."""
    vira = vira_rank + vira_suit
    assert manilha_rank(SUJO, vira).value == manilha
    assert manilha_rank(SUJO, Card.parse(vira)).value == manilha
    expected = tuple(Card.parse(manilha + s) for s in SUIT_LETTERS)
    assert manilhas(SUJO, vira) == expected


@pytest.mark.parametrize("vira_suit", SUIT_LETTERS)
@pytest.mark.parametrize(("vira_rank", "manilha"), LIMPO_MANILHAS)
def test_manilha_variavel_limpo_is_the_rank_after_the_vira(
    vira_rank: str, manilha: str, vira_suit: str
) -> None:
    """/regras#cartas-e-manilhas: in the baralho limpo (3 2 A K J Q) the manilha is
    still the rank right after the vira: with vira 3 the manilhas are the damas."""
    vira = vira_rank + vira_suit
    assert manilha_rank(LIMPO, vira).value == manilha
    expected = tuple(Card.parse(manilha + s) for s in SUIT_LETTERS)
    assert manilhas(LIMPO, vira) == expected


def test_manilha_table_lists_every_vira() -> None:
    """/regras#cartas-e-manilhas: a manilha for every vira (sujo and limpo)."""
    assert [(v.value, m.value) for v, m in manilha_table(SUJO)] == SUJO_MANILHAS
    assert [(v.value, m.value) for v, m in manilha_table(LIMPO)] == LIMPO_MANILHAS


@pytest.mark.parametrize(("vira_rank", "manilha"), SUJO_MANILHAS)
def test_manilhas_ordered_zap_copas_espadilha_pica_fumo(vira_rank: str, manilha: str) -> None:
    """/regras#cartas-e-manilhas: among the manilhas the suit decides: zap (paus),
    copas, espadilha (espadas), pica-fumo (ouros). Manilhas never tie."""
    order = strength_order(SUJO, vira_rank + "o")
    top = order[:4]
    assert all(len(group) == 1 for group in top)
    assert [str(group[0]) for group in top] == [manilha + s for s in SUIT_LETTERS]
    names = [group[0].suit.manilha_name for group in top]
    assert names == ["zap", "copas", "espadilha", "pica-fumo"]


def test_manilhas_require_a_vira_with_manilha_variavel() -> None:
    """/regras#cartas-e-manilhas: the pé turns up the vira, which defines the manilhas."""
    for ruleset in (SUJO, LIMPO):
        with pytest.raises(RulesError) as excinfo:
            manilhas(ruleset)
        assert_pt_error(excinfo, "vira")
        with pytest.raises(RulesError) as excinfo:
            strength_order(ruleset)
        assert_pt_error(excinfo, "vira")


@pytest.mark.parametrize(
    ("ruleset", "vira"),
    [(LIMPO, "4p"), (LIMPO, "7c"), (LIMPO, "5o"), (LIMPO, "6e"), (LIMPO, "4o")],
)
def test_vira_must_be_a_card_of_the_deck(ruleset: RuleSet, vira: str) -> None:
    """/regras#cartas-e-manilhas: the vira is turned up from the deck in play;
    the baralho limpo has no 4, 5, 6 nor 7."""
    for call in (manilhas, manilha_rank, strength_order):
        with pytest.raises(RulesError) as excinfo:
            call(ruleset, vira)
        assert_pt_error(excinfo, "baralho", "carta")


@pytest.mark.parametrize("vira", ["8p", "Z1", ""])
def test_vira_must_be_a_card(vira: str) -> None:
    """/regras#cartas-e-manilhas: there is no 8, 9, 10 in truco, so no such vira."""
    with pytest.raises(RulesError):
        manilhas(SUJO, vira)


# --------------------------------------------------------------------------------------------
# Manilha fixa (the variant of /regras#cartas-e-manilhas)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [FIXA, LIMPO_FIXA])
def test_manilha_fixa_is_4p_7c_Ae_7o(ruleset: RuleSet) -> None:
    """/regras#cartas-e-manilhas, manilha fixa as the Duplas text gives it
    (docs/rules-sources.md): 7 de Ouro < Ás de Espadas < 7 de Copas < 4 de Paus."""
    expected = tuple(Card.parse(t) for t in ("4p", "7c", "Ae", "7o"))
    assert manilhas(ruleset) == expected
    assert FIXED_MANILHAS == expected
    order = strength_order(ruleset)
    assert [tuple(str(c) for c in g) for g in order[:4]] == [("4p",), ("7c",), ("Ae",), ("7o",)]


def test_manilha_fixa_other_4_7_and_A_are_common_cards() -> None:
    """/regras#cartas-e-manilhas, manilha fixa: only 4p, 7c, Ae and 7o are manilhas; the other
    4s, 7s and As rank as common cards (3 2 A K J Q 7 6 5 4, suit does not matter)."""
    order = strength_order(FIXA)
    groups = [set(g) for g in order[4:]]
    assert cards("Ap", "Ac", "Ao") in groups
    assert cards("7p", "7e") in groups
    assert cards("4c", "4e", "4o") in groups
    # In the common order: A above K, 7 below Q, 4 last.
    index = {frozenset(g): i for i, g in enumerate(groups)}
    assert index[frozenset(cards("Ap", "Ac", "Ao"))] < index[frozenset(all_of(["K"]))]
    assert index[frozenset(cards("7p", "7e"))] > index[frozenset(all_of(["Q"]))]
    assert index[frozenset(cards("4c", "4e", "4o"))] == len(groups) - 1


@pytest.mark.parametrize("ruleset", [FIXA, LIMPO_FIXA])
def test_manilha_fixa_has_no_vira(ruleset: RuleSet) -> None:
    """/regras#cartas-e-manilhas: with manilha fixa the manilhas are always the same, no vira."""
    with pytest.raises(RulesError) as excinfo:
        manilhas(ruleset, "Qo")
    assert_pt_error(excinfo, "vira", "manilha")
    with pytest.raises(RulesError) as excinfo:
        strength_order(ruleset, "Qo")
    assert_pt_error(excinfo, "vira", "manilha")


# --------------------------------------------------------------------------------------------
# strength_order
# --------------------------------------------------------------------------------------------

VIRAS = [(SUJO, r + s) for r in SUJO_RANKS for s in ("p", "o")] + [
    (LIMPO, r + s) for r in LIMPO_RANKS for s in ("c", "e")
]


def _vira_id(case: tuple[RuleSet, str]) -> str:
    return f"{case[0].deck}-{case[1]}"


@pytest.mark.parametrize("case", VIRAS, ids=_vira_id)
def test_strength_order_excludes_the_vira(case: tuple[RuleSet, str]) -> None:
    """/regras#cartas-e-manilhas: the vira belongs to nobody and is never played."""
    ruleset, vira = case
    order = strength_order(ruleset, vira)
    listed = [c for group in order for c in group]
    assert Card.parse(vira) not in listed
    assert len(listed) == len(set(listed)) == len(deck(ruleset)) - 1
    assert set(listed) == set(deck(ruleset)) - {Card.parse(vira)}


@pytest.mark.parametrize("case", VIRAS, ids=_vira_id)
def test_strength_order_manilhas_alone_then_commons_3_2_A_K_J_Q_7_6_5_4(
    case: tuple[RuleSet, str],
) -> None:
    """/regras#cartas-e-manilhas: manilhas first (never tie), then the common
    cards 3, 2, A, K, J, Q, 7, 6, 5, 4; two commons of the same rank tie."""
    ruleset, vira = case
    table = dict(SUJO_MANILHAS if ruleset.deck == "sujo" else LIMPO_MANILHAS)
    manilha = table[vira[0]]
    ranks_in_deck = SUJO_RANKS if ruleset.deck == "sujo" else LIMPO_RANKS
    order = strength_order(ruleset, vira)

    assert [g for g in order[:4]] == [(Card.parse(manilha + s),) for s in SUIT_LETTERS]
    commons = order[4:]
    expected_ranks = [r for r in COMMONS_STRONGEST_FIRST if r in ranks_in_deck and r != manilha]
    assert [g[0].rank.value for g in commons] == expected_ranks
    for group in commons:
        assert len({c.rank for c in group}) == 1
        assert len(group) == (3 if group[0].rank.value == vira[0] else 4)


def test_strength_order_fixa_commons_grouped_by_rank() -> None:
    """/regras#cartas-e-manilhas: with manilha fixa the commons keep the order
    3 2 A K J Q 7 6 5 4."""
    for ruleset, ranks_in_deck in ((FIXA, SUJO_RANKS), (LIMPO_FIXA, None)):
        commons = strength_order(ruleset)[4:]
        ranks = [g[0].rank.value for g in commons]
        if ranks_in_deck is None:  # 27-card deck: no 5, 6; no common 7 or 4 left
            assert ranks == ["3", "2", "A", "K", "J", "Q"]
        else:
            assert ranks == COMMONS_STRONGEST_FIRST
        for group in commons:
            assert len({c.rank for c in group}) == 1
