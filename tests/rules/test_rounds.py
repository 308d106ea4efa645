"""Judging one round (rodada).

/regras#rodadas-e-empates, #carta-coberta and #cartas-e-manilhas, with the variant of who opens
after a tie (the player of the first tying card). The expectations are written from the rule
book's text. Quoted Portuguese is Joga Truco's, the default text (docs/rules-sources.md), unless
a test names another.

Plays are given in play order (the opener first); in 2x2 the sides alternate, so plays 0 and 2
are one side and plays 1 and 3 the other.
"""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.rules import Card, RulesError, RuleSet, judge_round

from .rulesets import FIXA, LIMPO, LIMPO_FIXA, SUJO, assert_pt_error

PRIMEIRA = RuleSet(tie_opener="primeira_empatada")

# With vira 4 de ouros the manilhas are the 5s (cycle 4 5 6 7 Q J K A 2 3), so the tests
# below can use every other rank as a common card.
VIRA = "4o"
MANILHA_SUITS = ["p", "c", "e", "o"]  # zap, copas, espadilha, pica-fumo: strongest first
COMMONS = ["3", "2", "A", "K", "J", "Q", "7", "6", "4"]  # strongest first, 5 is the manilha


def judge(plays, *, ruleset=SUJO, vira=VIRA, round_number=1, **kwargs):
    if ruleset.fixed:
        vira = None
    return judge_round(plays, ruleset=ruleset, vira=vira, round_number=round_number, **kwargs)


# --------------------------------------------------------------------------------------------
# Who wins
# --------------------------------------------------------------------------------------------


def test_strongest_open_card_wins_the_round_1x1() -> None:
    """/regras#rodadas-e-empates: each player plays one card and the strongest wins."""
    verdict = judge([("ana", "3p"), ("bia", "2c")])
    assert not verdict.tie
    assert verdict.winner == frozenset({"ana"})
    assert verdict.winning_play == 0
    assert verdict.winning_side == 0
    assert verdict.winning_card == Card.parse("3p")

    verdict = judge([("ana", "2c"), ("bia", "3p")])
    assert verdict.winner == frozenset({"bia"})
    assert verdict.winning_play == 1
    assert verdict.winning_side == 1
    assert verdict.winning_card == Card.parse("3p")


@pytest.mark.parametrize(("stronger", "weaker"), list(itertools.pairwise(COMMONS)))
@pytest.mark.parametrize("stronger_first", [True, False])
def test_common_cards_rank_3_2_A_K_J_Q_7_6_5_4(
    stronger: str, weaker: str, stronger_first: bool
) -> None:
    """/regras#cartas-e-manilhas: commons from strongest: 3 2 A K J Q 7 6 5 4."""
    strong, weak = stronger + "e", weaker + "p"
    plays = [("a", strong), ("b", weak)] if stronger_first else [("a", weak), ("b", strong)]
    verdict = judge(plays)
    assert verdict.winning_card == Card.parse(strong)
    assert verdict.winner == frozenset({"a" if stronger_first else "b"})


def test_2x2_side_of_the_strongest_card_wins() -> None:
    """/regras#rodadas-e-empates: in duplas the round goes to the side of the strongest card."""
    plays = [("a1", "4p"), ("b1", "7c"), ("a2", "3e"), ("b2", "2o")]
    verdict = judge(plays, players=4)
    assert verdict.winner == frozenset({"a1", "a2"})
    assert verdict.winning_play == 2
    assert verdict.winning_side == 0
    assert verdict.winning_card == Card.parse("3e")

    plays = [("a1", "Kp"), ("b1", "Jc"), ("a2", "Qe"), ("b2", "2o")]
    verdict = judge(plays, players=4)
    assert verdict.winner == frozenset({"b1", "b2"})
    assert verdict.winning_side == 1


@pytest.mark.parametrize(
    ("plays", "side", "first_of_them"),
    [
        ([("a1", "3p"), ("b1", "2c"), ("a2", "3e"), ("b2", "Ko")], {"a1", "a2"}, 0),
        ([("a1", "Kp"), ("b1", "3c"), ("a2", "2e"), ("b2", "3o")], {"b1", "b2"}, 1),
        ([("a1", "Ap"), ("b1", "Jc"), ("a2", "Ae"), ("b2", "Ko")], {"a1", "a2"}, 0),
        ([("a1", "7p"), ("b1", "Qc"), ("a2", "6e"), ("b2", "Qo")], {"b1", "b2"}, 1),
    ],
)
def test_partners_with_the_two_strongest_equal_cards_win_the_round(
    plays: list[tuple[str, str]], side: set[str], first_of_them: int
) -> None:
    """/regras#rodadas-e-empates: "se os dois parceiros jogarem as cartas mais fortes, a
    rodada é deles" -- equal strongest cards of one side are not a tie."""
    verdict = judge(plays)
    assert not verdict.tie
    assert verdict.winner == frozenset(side)
    assert verdict.winning_play == first_of_them
    assert verdict.next_opener == first_of_them


@pytest.mark.parametrize(
    "plays",
    [
        [("a", "3p"), ("b", "3c")],
        [("a", "Ke"), ("b", "Ko")],
        [("a1", "3p"), ("b1", "2c"), ("a2", "Ke"), ("b2", "3o")],
        [("a1", "Jp"), ("b1", "Jc"), ("a2", "Je"), ("b2", "Qo")],
        [("a1", "Ap"), ("b1", "Ac"), ("a2", "Ae"), ("b2", "Ao")],
        [("a1", "2p"), ("b1", "Kc"), ("a2", "Ke"), ("b2", "2o")],
    ],
)
def test_equal_strongest_cards_on_both_sides_tie(plays: list[tuple[str, str]]) -> None:
    """/regras#rodadas-e-empates: "Só há empate quando as cartas mais fortes são dos dois
    lados"."""
    verdict = judge(plays)
    assert verdict.tie
    assert verdict.winner is None
    assert verdict.winning_play is None
    assert verdict.winning_side is None
    assert verdict.winning_card is None


SAME_RANK_PAIRS = [
    (rank + a, rank + b)
    for rank in COMMONS
    for a, b in itertools.permutations("pceo", 2)
    if VIRA not in (rank + a, rank + b)  # the vira is not played
]


@pytest.mark.parametrize(("card_a", "card_b"), SAME_RANK_PAIRS)
def test_common_cards_of_the_same_rank_tie_whatever_the_suit(card_a: str, card_b: str) -> None:
    """/regras#cartas-e-manilhas: "Fora as manilhas, o naipe não importa: duas
    cartas comuns do mesmo valor empatam"."""
    verdict = judge([("a", card_a), ("b", card_b)])
    assert verdict.tie
    assert verdict.winner is None


@pytest.mark.parametrize(("strong", "weak"), list(itertools.combinations(MANILHA_SUITS, 2)))
@pytest.mark.parametrize("strong_first", [True, False])
def test_manilhas_never_tie_the_suit_decides(strong: str, weak: str, strong_first: bool) -> None:
    """/regras#cartas-e-manilhas: zap (paus) > copas > espadilha (espadas) >
    pica-fumo (ouros); manilhas never tie."""
    s, w = "5" + strong, "5" + weak  # vira 4 -> manilhas are the 5s
    plays = [("a", s), ("b", w)] if strong_first else [("a", w), ("b", s)]
    verdict = judge(plays, round_number=2)
    assert not verdict.tie
    assert verdict.winning_card == Card.parse(s)
    assert verdict.winner == frozenset({"a" if strong_first else "b"})


@pytest.mark.parametrize("order", list(itertools.permutations(["5p", "5c", "5e", "5o"])))
def test_zap_wins_a_round_of_four_manilhas(order: tuple[str, ...]) -> None:
    """/regras#cartas-e-manilhas: the zap (manilha de paus) is the strongest card."""
    plays = list(zip(["a1", "b1", "a2", "b2"], order, strict=True))
    verdict = judge(plays)
    assert verdict.winning_card == Card.parse("5p")
    assert verdict.winning_play == order.index("5p")
    assert verdict.winning_side == order.index("5p") % 2


@pytest.mark.parametrize("common", [r + "p" for r in COMMONS])
@pytest.mark.parametrize("manilha_first", [True, False])
def test_weakest_manilha_beats_every_common_card(common: str, manilha_first: bool) -> None:
    """/regras#cartas-e-manilhas: "As mais fortes de todas são as manilhas" --
    even the pica-fumo beats a 3."""
    plays = [("a", "5o"), ("b", common)] if manilha_first else [("a", common), ("b", "5o")]
    verdict = judge(plays)
    assert verdict.winning_card == Card.parse("5o")
    assert verdict.winning_side == (0 if manilha_first else 1)


@pytest.mark.parametrize(
    ("ruleset", "vira", "manilha", "three"),
    [
        (SUJO, "3o", "4c", "3p"),  # vira 3 -> the order starts again: 4s
        (SUJO, "7o", "Qe", "3c"),  # vira 7 -> damas
        (SUJO, "Ko", "Ao", "3e"),  # vira K -> ases
        (LIMPO, "3o", "Qo", "3p"),  # limpo: vira 3 -> damas
        (LIMPO, "Ae", "2o", "3c"),
        (FIXA, None, "7o", "3p"),  # fixa: pica-fumo is the 7 of ouros
        (LIMPO_FIXA, None, "Ae", "3o"),
    ],
)
def test_manilha_of_the_vira_beats_a_three(
    ruleset: RuleSet, vira: str | None, manilha: str, three: str
) -> None:
    """/regras#cartas-e-manilhas: the manilhas (the rank after the vira, or the
    fixed ones of manilha fixa) beat the 3, the strongest common card."""
    verdict = judge_round(
        [("a", three), ("b", manilha)], ruleset=ruleset, vira=vira, round_number=1
    )
    assert verdict.winning_card == Card.parse(manilha)
    assert verdict.winner == frozenset({"b"})


def test_fixa_4_7_and_A_that_are_not_manilhas_are_common() -> None:
    """/regras#cartas-e-manilhas: with manilha fixa the other 4, 7 and A are common cards."""
    assert judge([("a", "Ap"), ("b", "Ac")], ruleset=FIXA).tie
    assert judge([("a", "7p"), ("b", "7e")], ruleset=FIXA).tie
    assert judge([("a", "4c"), ("b", "5o")], ruleset=FIXA).winner == frozenset({"b"})
    assert judge([("a", "3c"), ("b", "Ac")], ruleset=FIXA).winner == frozenset({"a"})
    assert judge([("a", "4p"), ("b", "Ae")], ruleset=FIXA).winner == frozenset({"a"})


# --------------------------------------------------------------------------------------------
# Covered cards
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("covered", ["X", "x", "X:5p", "x:3c", "X:Q♥"])
@pytest.mark.parametrize("round_number", [2, 3])
def test_covered_card_loses_to_any_open_card(covered: str, round_number: int) -> None:
    """/regras#carta-coberta: a carta coberta "não vale nada, perde para qualquer carta
    aberta" -- even a covered zap loses to an open 4."""
    verdict = judge([("a", covered), ("b", "4p")], round_number=round_number)
    assert verdict.winner == frozenset({"b"})
    assert verdict.winning_card == Card.parse("4p")
    verdict = judge([("a", "4p"), ("b", covered)], round_number=round_number)
    assert verdict.winner == frozenset({"a"})
    assert any("coberta" in r.lower() for r in verdict.reasons)


def test_covered_card_of_a_partner_does_not_help_the_side() -> None:
    """/regras#carta-coberta: the covered card is worth nothing in the ruling."""
    plays = [("a1", "X:5p"), ("b1", "Kc"), ("a2", "Qe"), ("b2", "X:3o")]
    verdict = judge(plays, round_number=2)
    assert verdict.winner == frozenset({"b1", "b2"})
    assert verdict.winning_card == Card.parse("Kc")


@pytest.mark.parametrize(
    "plays",
    [
        [("a", "X"), ("b", "X")],
        [("a", "X:3p"), ("b", "X:5p")],
        [("a1", "X"), ("b1", "X:2c"), ("a2", "X:5o"), ("b2", "X")],
    ],
)
def test_round_with_only_covered_cards_is_a_tie(plays: list[tuple[str, str]]) -> None:
    """/regras#carta-coberta: "Uma rodada só com cartas cobertas é empate"."""
    verdict = judge(plays, round_number=3)
    assert verdict.tie
    assert verdict.winner is None


@pytest.mark.parametrize("covered", ["X", "X:3p", "x:5o"])
def test_covered_card_not_allowed_in_the_first_round(covered: str) -> None:
    """/regras#carta-coberta: "A partir da segunda rodada ... carta coberta ... Na
    primeira rodada não pode"."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "3c"), ("b", covered)], round_number=1)
    assert_pt_error(excinfo, "rodada", "coberta")


def test_covered_card_with_its_face_counts_against_repeats_and_the_vira() -> None:
    """/regras#cartas-e-manilhas: the vira is never played and no card exists twice, also when
    the card is played covered."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "X:3p"), ("b", "3p")], round_number=2)
    assert_pt_error(excinfo, "carta")
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "X:" + VIRA), ("b", "3p")], round_number=2)
    assert_pt_error(excinfo, "vira")
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "X:5p"), ("b", "3p")], ruleset=LIMPO, vira="Qo", round_number=2)
    assert_pt_error(excinfo, "carta", "baralho")


# --------------------------------------------------------------------------------------------
# Who opens the next round
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner_index"),
    [
        ([("a", "3p"), ("b", "2c")], 0),
        ([("a", "2c"), ("b", "3p")], 1),
        ([("a1", "4p"), ("b1", "7c"), ("a2", "3e"), ("b2", "2o")], 2),
        ([("a1", "4p"), ("b1", "7c"), ("a2", "Ke"), ("b2", "5o")], 3),
        ([("a1", "5c"), ("b1", "7c"), ("a2", "Ke"), ("b2", "5o")], 0),
        ([("a1", "Jc"), ("b1", "5e"), ("a2", "Ke"), ("b2", "2o")], 1),
    ],
)
@pytest.mark.parametrize("ruleset", [SUJO, PRIMEIRA])
def test_round_winner_opens_the_next_round(
    plays: list[tuple[str, str]], winner_index: int, ruleset: RuleSet
) -> None:
    """/regras#rodadas-e-empates: "Quem ganhou a rodada começa a próxima"."""
    verdict = judge(plays, ruleset=ruleset, mao=len(plays) - 1)
    assert verdict.winning_play == winner_index
    assert verdict.next_opener == winner_index


@pytest.mark.parametrize("mao", [0, 1, 2, 3])
def test_after_a_tied_round_the_mao_opens_the_next(mao: int) -> None:
    """/regras#rodadas-e-empates: "Depois de uma rodada empatada, a próxima é aberta por quem
    é o mão"."""
    plays = [("b1", "Kp"), ("a2", "3c"), ("b2", "3e"), ("a1", "2o")]
    verdict = judge(plays, round_number=2, mao=mao)
    assert verdict.tie
    assert verdict.next_opener == mao


def test_after_a_tied_round_the_mao_opens_by_default() -> None:
    """/regras#rodadas-e-empates: the mão opens after a tie (default option)."""
    assert RuleSet().tie_opener == "mao"
    verdict = judge([("a", "3p"), ("b", "3c")])
    assert verdict.tie
    assert verdict.next_opener == 0
    verdict = judge([("a", "3p"), ("b", "3c")], mao=1)
    assert verdict.next_opener == 1


@pytest.mark.parametrize(
    ("plays", "first_tying"),
    [
        ([("a1", "Kp"), ("b1", "3c"), ("a2", "3e"), ("b2", "2o")], 1),
        ([("a1", "3p"), ("b1", "Kc"), ("a2", "2e"), ("b2", "3o")], 0),
        ([("a1", "Qp"), ("b1", "Jc"), ("a2", "Je"), ("b2", "7o")], 1),
        ([("a1", "Qp"), ("b1", "7c"), ("a2", "Ae"), ("b2", "Ao")], 2),
        ([("a", "2p"), ("b", "2c")], 0),
    ],
)
@pytest.mark.parametrize("mao", [0, 3])
def test_option_primeira_empatada_first_tying_card_opens_after_a_tie(
    plays: list[tuple[str, str]], first_tying: int, mao: int
) -> None:
    """/regras#rodadas-e-empates, the variant as the Duplas text gives it
    (docs/rules-sources.md): "No caso da rodada anterior ter empatado, começa por aquele
    jogador que pôs na mesa a primeira carta que empatou"."""
    mao = min(mao, len(plays) - 1)
    verdict = judge(plays, ruleset=PRIMEIRA, round_number=2, mao=mao)
    assert verdict.tie
    assert verdict.next_opener == first_tying
    # The same plays under the default give the mão.
    assert judge(plays, round_number=2, mao=mao).next_opener == mao


# --------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------


def test_the_vira_is_never_played() -> None:
    """/regras#cartas-e-manilhas: "A vira não é de ninguém e não se joga"."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", VIRA), ("b", "3p")])
    assert_pt_error(excinfo, "vira")
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "3p"), ("b", "2c"), ("c", "Q♦"), ("d", "Ke")], vira="Qo")
    assert_pt_error(excinfo, "vira")


@pytest.mark.parametrize(
    "plays",
    [
        [("a", "3p"), ("b", "3p")],
        [("a", "Q♥"), ("b", "qc")],
        [("a1", "3p"), ("b1", "2c"), ("a2", "Ke"), ("b2", "2C")],
    ],
)
def test_no_card_exists_twice_in_a_round(plays: list[tuple[str, str]]) -> None:
    """/regras#cartas-e-manilhas: one 40-card deck, so no card exists twice."""
    with pytest.raises(RulesError) as excinfo:
        judge(plays)
    assert_pt_error(excinfo, "carta")


@pytest.mark.parametrize(
    ("ruleset", "vira", "card"),
    [
        (LIMPO, "Qo", "5p"),
        (LIMPO, "Qo", "4c"),
        (LIMPO, "Qo", "7o"),
        (LIMPO_FIXA, None, "5p"),
        (LIMPO_FIXA, None, "6c"),
        (LIMPO_FIXA, None, "7e"),
        (LIMPO_FIXA, None, "4o"),
    ],
)
def test_card_not_in_the_deck_is_refused(ruleset: RuleSet, vira: str | None, card: str) -> None:
    """/regras#cartas-e-manilhas: the baralho limpo without 4 5 6 7, and with manilha fixa the
    27-card deck."""
    with pytest.raises(RulesError) as excinfo:
        judge_round([("a", "3p"), ("b", card)], ruleset=ruleset, vira=vira, round_number=1)
    assert_pt_error(excinfo, "carta", "baralho")


def test_vira_not_in_the_deck_is_refused() -> None:
    """/regras#cartas-e-manilhas: the baralho limpo has no 4, so no 4 can be the vira."""
    with pytest.raises(RulesError) as excinfo:
        judge_round([("a", "3p"), ("b", "2c")], ruleset=LIMPO, vira="4p", round_number=1)
    assert_pt_error(excinfo, "carta", "baralho")


def test_vira_required_with_variavel_and_refused_with_fixa() -> None:
    """/regras#cartas-e-manilhas: the vira defines the manilhas; with manilha fixa there is no
    vira."""
    with pytest.raises(RulesError) as excinfo:
        judge_round([("a", "3p"), ("b", "2c")], ruleset=SUJO, round_number=1)
    assert_pt_error(excinfo, "vira")
    with pytest.raises(RulesError) as excinfo:
        judge_round([("a", "3p"), ("b", "2c")], ruleset=FIXA, vira="4o", round_number=1)
    assert_pt_error(excinfo, "vira")


@pytest.mark.parametrize(
    "plays",
    [
        [],
        [("a", "3p")],
        [("a", "3p"), ("b", "2c"), ("c", "Kp")],
        [("a", "3p"), ("b", "2c"), ("c", "Kp"), ("d", "Jo"), ("e", "Qo")],
    ],
)
def test_a_round_has_2_or_4_plays(plays: list[tuple[str, str]]) -> None:
    """/regras#rodadas-e-empates: 2 players (1x1) or 4 (2x2), each plays one card per round."""
    with pytest.raises(RulesError) as excinfo:
        judge(plays)
    assert_pt_error(excinfo, "rodada", "jogada", "jogador")


@pytest.mark.parametrize(
    "plays",
    [
        [("a", "3p"), ("a", "2c")],
        [("a1", "3p"), ("b1", "2c"), ("a1", "Ke"), ("b2", "Jo")],
    ],
)
def test_each_player_plays_exactly_one_card(plays: list[tuple[str, str]]) -> None:
    """/regras#rodadas-e-empates: "Em cada rodada cada jogador joga uma carta"."""
    with pytest.raises(RulesError) as excinfo:
        judge(plays)
    assert_pt_error(excinfo, "carta", "jogador")


@pytest.mark.parametrize(
    ("players", "plays"),
    [
        (4, [("a", "3p"), ("b", "2c")]),
        (2, [("a1", "3p"), ("b1", "2c"), ("a2", "Ke"), ("b2", "Jo")]),
    ],
)
def test_players_count_must_match_the_plays(players: int, plays: list[tuple[str, str]]) -> None:
    """/regras#rodadas-e-empates: 1x1 has two plays a round, 2x2 four."""
    with pytest.raises(RulesError) as excinfo:
        judge(plays, players=players)
    assert_pt_error(excinfo, "rodada", "jogada", "jogador")
    # The matching count is accepted.
    assert judge(plays, players=len(plays)).winning_card == Card.parse("3p")


@pytest.mark.parametrize("round_number", [0, 4, -1, 5])
def test_a_hand_has_rounds_1_to_3(round_number: int) -> None:
    """/regras#rodadas-e-empates: "Cada mão tem até três rodadas"."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "3p"), ("b", "2c")], round_number=round_number)
    assert_pt_error(excinfo, "rodada")


@pytest.mark.parametrize("mao", [-1, 2, 4])
def test_mao_must_be_one_of_the_players(mao: int) -> None:
    """/regras#rodadas-e-empates: the mão is one of the players at the table."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "3p"), ("b", "2c")], mao=mao)
    assert_pt_error(excinfo, "mão", "jogador")


@pytest.mark.parametrize("bad", ["8p", "10c", "", "Z1", "AX", "X:9p"])
def test_unreadable_card_in_a_play_is_refused(bad: str) -> None:
    """/regras#cartas-e-manilhas: no 8, 9, 10 or jokers in the deck."""
    with pytest.raises(RulesError) as excinfo:
        judge([("a", "3p"), ("b", bad)], round_number=2)
    assert_pt_error(excinfo, "carta", "jogada")


# --------------------------------------------------------------------------------------------
# Reasons
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vira", "plays", "rank_words", "face"),
    [
        ("3o", [("a", "4p"), ("b", "3c")], ["4"], "4♣"),
        ("7o", [("a", "3c"), ("b", "Q♠")], ["dama", "q"], "Q♠"),
        ("Ko", [("a", "Ac"), ("b", "Ap")], ["ás", "ases", "a"], "A♣"),
        ("4o", [("a", "3c"), ("b", "2e")], ["5"], "3♥"),
    ],
)
def test_reasons_name_the_manilha_and_the_winning_card(
    vira: str, plays: list[tuple[str, str]], rank_words: list[str], face: str
) -> None:
    """/regras#cartas-e-manilhas: the ruling explains which cards are manilhas
    (the rank after the vira) and which card won."""
    verdict = judge(plays, vira=vira)
    assert verdict.reasons and all(r.strip() for r in verdict.reasons)
    text = " ".join(verdict.reasons)
    manilha_lines = [r for r in verdict.reasons if "manilha" in r.lower()]
    assert manilha_lines
    assert any(w in line.lower() for line in manilha_lines for w in rank_words)
    assert face in text
    assert str(verdict.winning_card.face) == face  # type: ignore[union-attr]


def test_reasons_explain_a_covered_card() -> None:
    """/regras#carta-coberta: the covered card is worth nothing."""
    verdict = judge([("a", "X"), ("b", "4p")], round_number=2)
    text = " ".join(verdict.reasons).lower()
    assert "coberta" in text
    assert "4♣" in text


def test_reasons_explain_a_tie() -> None:
    """/regras#rodadas-e-empates: equal strongest cards on both sides tie."""
    verdict = judge([("a", "3p"), ("b", "3c")])
    text = " ".join(verdict.reasons).lower()
    assert "empat" in text
    assert "3♣" in text and "3♥" in text


def test_reasons_name_the_fixed_manilhas() -> None:
    """/regras#cartas-e-manilhas: with manilha fixa the zap is the 4 of paus."""
    verdict = judge([("a", "3p"), ("b", "4p")], ruleset=FIXA)
    text = " ".join(verdict.reasons)
    assert "fixa" in text.lower()
    assert "4♣" in text and "7♥" in text and "A♠" in text and "7♦" in text


def test_plays_may_be_card_objects() -> None:
    """/regras#rodadas-e-empates: a play is a card, whether given as text or as a Card."""
    verdict = judge([("a", Card.parse("3p")), ("b", "2c")])
    assert verdict.winner == frozenset({"a"})
    assert [p.text for p in verdict.plays] == ["3p", "2c"]
    verdict = judge([("a", "X:3p"), ("b", "X")], round_number=2)
    assert [p.text for p in verdict.plays] == ["X:3p", "X"]
