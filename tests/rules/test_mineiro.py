"""Truco Mineiro, the second rule set: each rule of its rule-book sections as a test.

Cards: 40, no vira, fixed manilhas 4 de paus > 7 de copas > A de espadas > 7 de ouros, then
3 2 A K J Q 7 6 5 4. Values 2, 4, 6, 10, 12 (truco, seis, dez, doze); running from a call gives
the value before it, running on one's turn the value now. Mão de dez: 4 if played, 2 to the
other side if run. Mão de ferro at 10 x 10: the winner takes the game. Scores are even. 1x1,
2x2 or 3x3 (seats 1, 3, 5 against 2, 4, 6). A queda is the best of 3.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    HAND_VALUES,
    MINEIRO,
    PAULISTA,
    TARGET,
    Bet,
    Card,
    Code,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    Phase,
    Result,
    RuleBroken,
    RulesError,
    RuleSet,
    Special,
    Word,
    deck,
    fold,
    judge_hand,
    judge_round,
    judge_whole_hand,
    manilhas,
    strength_order,
    variant,
    word,
)

NOS, ELES = 0, 1
CARDS = MINEIRO.ruleset()
CONFIG = MatchConfig.of("mineiro")
CALLS = (Word.TRUCO, Word.SEIS, Word.DEZ, Word.DOZE)


def judge(events, *, players=2, mao=1, special=Special.NORMAL):
    """A Mineiro hand judged from its events."""
    return judge_whole_hand(
        events, ruleset=CARDS, players=players, vira=None, mao=mao, special=special,
        variant=MINEIRO,
    )


def at(points: tuple[int, int], config: MatchConfig = CONFIG) -> MatchState:
    """A Mineiro game standing at `points`."""
    return MatchState(config, points)


def test_mineiro_is_found_by_its_code_name_and_paulista_stays_the_default() -> None:
    assert variant("mineiro") is MINEIRO
    assert variant("paulista") is PAULISTA
    assert MatchConfig().variant is PAULISTA
    assert HAND_VALUES == PAULISTA.ladder == (1, 3, 6, 9, 12)
    assert TARGET == MINEIRO.target == 12


def test_an_unknown_rule_set_is_refused_in_portuguese() -> None:
    with pytest.raises(RulesError, match="Variante desconhecida: 'gaucho'"):
        variant("gaucho")
    with pytest.raises(RulesError, match="Variante desconhecida"):
        MatchConfig.of("gaucho")


def test_mineiro_plays_the_40_card_deck_without_vira() -> None:
    assert len(deck(CARDS)) == 40
    assert {card.rank.value for card in deck(CARDS)}.isdisjoint({"8", "9", "10"})
    with pytest.raises(RuleBroken) as refused:
        judge_round([("a", "3p"), ("b", "2c")], ruleset=CARDS, vira="4o", round_number=1)
    assert refused.value.reason.code is Code.VIRA_WITH_FIXA


def test_mineiro_manilhas_are_fixed_zap_copas_espadilha_pica_fumo() -> None:
    assert manilhas(CARDS) == tuple(Card.parse(text) for text in ("4p", "7c", "Ae", "7o"))


def test_mineiro_card_order_is_the_manilhas_then_3_2_a_k_j_q_7_6_5_4() -> None:
    groups = strength_order(CARDS)
    assert [str(card) for group in groups[:4] for card in group] == ["4p", "7c", "Ae", "7o"]
    ranks = [group[0].rank for group in groups[4:]]
    assert [str(Card(rank, groups[4][0].suit))[:-1] for rank in ranks] == [
        "3", "2", "A", "K", "J", "Q", "7", "6", "5", "4",
    ]
    assert all(len({card.rank for card in group}) == 1 for group in groups[4:])


def test_mineiro_zap_beats_a_three_and_the_other_fours_are_the_weakest() -> None:
    zap = judge_round([("a", "4p"), ("b", "3c")], ruleset=CARDS, round_number=1)
    assert zap.winning_play == 0
    four = judge_round([("a", "4c"), ("b", "5o")], ruleset=CARDS, round_number=1)
    assert four.winning_play == 1


def test_mineiro_refuses_variable_manilhas_at_the_whole_hand_judge() -> None:
    with pytest.raises(RulesError, match="manilhas são fixas"):
        judge_whole_hand(
            "1:3p", ruleset=RuleSet(), players=2, vira="4o", variant=MINEIRO
        )


def test_mineiro_ladder_is_2_4_6_10_12_called_truco_seis_dez_doze() -> None:
    assert MINEIRO.ladder == (2, 4, 6, 10, 12)
    assert MINEIRO.calls == CALLS
    bet = Bet.start(variant=MINEIRO)
    assert bet.worth == 2
    for call, value in zip(CALLS, MINEIRO.ladder[1:], strict=True):
        side = NOS if call in (Word.TRUCO, Word.DEZ) else ELES
        bet = bet.ask(side, call)
        assert bet.waiting is call and bet.pending == value
        bet = bet.accept(1 - side)
        assert bet.worth == value and bet.accepted is call
    with pytest.raises(RuleBroken) as refused:
        bet.ask(ELES)
    assert refused.value.reason.code is Code.NOTHING_ABOVE_DOZE


def test_mineiro_has_no_nove_and_paulista_has_no_dez() -> None:
    at_six = Bet(6, variant=MINEIRO)
    with pytest.raises(RuleBroken) as refused:
        at_six.ask(NOS, Word.NOVE)
    assert refused.value.reason.code is Code.WRONG_STEP
    assert "o próximo pedido é dez (10 pontos)" in word(refused.value.reason)
    with pytest.raises(RuleBroken) as paulista:
        Bet(6).ask(NOS, Word.DEZ)
    assert "o próximo pedido é nove (9 pontos)" in word(paulista.value.reason)


def test_a_mineiro_hand_is_never_worth_an_odd_value() -> None:
    with pytest.raises(RulesError, match="A mão vale 2, 4, 6, 10 ou 12"):
        Bet(3, variant=MINEIRO)


@pytest.mark.parametrize(
    ("calls", "gives"), [(1, 2), (2, 4), (3, 6), (4, 10)], ids=["truco", "seis", "dez", "doze"]
)
def test_mineiro_running_from_a_call_gives_the_value_before_it(calls: int, gives: int) -> None:
    events = [f"{1 + i % 2}:{call.value}" for i, call in enumerate(CALLS[:calls])]
    runner = 1 + calls % 2
    verdict = judge([*events, f"{runner}:corre"])
    assert verdict.outcome == Outcome(Kind.NORMAL, (runner % 2), gives)
    assert verdict.ran_from is CALLS[calls - 1]
    assert MINEIRO.run_gives(verdict.worth, MINEIRO.ladder[calls]) == gives


# Each call accepted in turn, then the player whose turn it is runs (seat, events).
ACCEPTED_THEN_RUN = [
    (1, []),
    (1, ["1:truco", "2:aceita"]),
    (2, ["1:truco", "2:aceita", "1:4c", "2:seis", "1:aceita"]),
    (1, ["1:truco", "2:aceita", "1:4c", "2:seis", "1:aceita", "2:5c", "2:6c", "1:dez", "2:aceita"]),
    (
        2,
        [
            "1:truco", "2:aceita", "1:4c", "2:seis", "1:aceita", "2:5c", "2:6c", "1:dez",
            "2:aceita", "1:7p", "1:3c", "2:doze", "1:aceita",
        ],
    ),
]


@pytest.mark.parametrize(
    ("accepted", "gives"), [(0, 2), (1, 4), (2, 6), (3, 10), (4, 12)],
    ids=["simples", "truco", "seis", "dez", "doze"],
)
def test_mineiro_running_on_ones_turn_gives_the_value_now(accepted: int, gives: int) -> None:
    runner, events = ACCEPTED_THEN_RUN[accepted]
    verdict = judge([*events, f"{runner}:corre"])
    assert verdict.illegal is None
    assert verdict.outcome == Outcome(Kind.NORMAL, 2 - runner, gives)
    assert verdict.accepted is (CALLS[accepted - 1] if accepted else None)
    assert MINEIRO.run_gives(gives, None) == gives


def test_mineiro_mao_de_dez_comes_at_ten_and_offers_play_lose_or_run() -> None:
    state = at((10, 6))
    assert state.phase is Phase.MAO_DE_ONZE and state.special is Special.ONZE_NOS
    assert state.legal_outcomes() == (
        Outcome(Kind.ONZE_GANHOU, NOS, 4),
        Outcome(Kind.ONZE_PERDEU, ELES, 4),
        Outcome(Kind.ONZE_CORREU, ELES, 2),
        Outcome(Kind.ANULADA),
    )
    assert state.apply(Outcome(Kind.ONZE_GANHOU, NOS, 4)).game_winner == NOS
    assert state.apply(Outcome(Kind.ONZE_PERDEU, ELES, 4)).points == (10, 10)
    assert state.apply(Outcome(Kind.ONZE_CORREU, ELES, 2)).points == (10, 8)
    with pytest.raises(RulesError, match="Mão de dez: não tem truco. Ela vale 4"):
        state.apply(Outcome(Kind.NORMAL, NOS, 2))


def test_mineiro_mao_de_dez_is_worth_4_without_calls_and_running_gives_2() -> None:
    refused = judge(["1:aceita", "2:truco"], special=Special.ONZE_NOS)
    assert refused.illegal is not None
    assert refused.illegal.reason.code is Code.NO_CALL_IN_SPECIAL
    assert judge(["1:aceita"], special=Special.ONZE_NOS).worth == 4
    declined = judge(["1:corre"], special=Special.ONZE_NOS)
    assert declined.outcome == Outcome(Kind.ONZE_CORREU, ELES, 2)
    assert declined.points == 2 and declined.note == "correram da mão de dez"
    played = judge(
        ["1:aceita", "1:4p", "2:3c", "1:7c", "2:3o"], special=Special.ONZE_NOS
    )
    assert played.outcome == Outcome(Kind.ONZE_GANHOU, NOS, 4)
    assert played.points == 4 and played.note == "mão de dez jogada"


def test_mineiro_mao_de_ferro_at_ten_all_gives_the_game_to_its_winner() -> None:
    state = at((10, 10))
    assert state.phase is Phase.MAO_DE_FERRO
    assert Outcome(Kind.FERRO, ELES, 2) in state.legal_outcomes()
    won = state.apply(Outcome(Kind.FERRO, ELES, 2))
    assert won.points == (10, 12) and won.game_winner == ELES
    ferro = judge(["1:truco"], special=Special.FERRO)
    assert ferro.illegal is not None
    assert ferro.illegal.reason.code is Code.NO_CALL_IN_SPECIAL
    hand = judge(["1:4p", "2:3c", "1:7c", "2:3o"], special=Special.FERRO)
    assert hand.outcome == Outcome(Kind.FERRO, NOS, 2)


def test_mineiro_scores_are_even_odd_taps_are_refused() -> None:
    state = at((4, 2))
    for odd in (1, 3, 9):
        with pytest.raises(RulesError, match="Uma mão vale 2, 4, 6, 10 ou 12 pontos"):
            state.apply(Outcome(Kind.NORMAL, NOS, odd))
    assert {o.points for o in state.legal_outcomes() if o.points} == {2, 4, 6, 10, 12}


def test_mineiro_corrections_keep_scores_even() -> None:
    state = at((4, 2))
    assert state.apply(Outcome(Kind.CORRECAO, NOS, 8)).points == (8, 2)
    with pytest.raises(RulesError, match="os pontos são sempre pares"):
        state.apply(Outcome(Kind.CORRECAO, NOS, 7))


def test_mineiro_taps_parse_under_their_rule_set_only() -> None:
    assert Outcome.parse("normal:0:10", MINEIRO) == Outcome(Kind.NORMAL, NOS, 10)
    assert Outcome.parse("onze_correu:1:2", MINEIRO).gain == 2
    with pytest.raises(RulesError, match="Uma mão vale 1, 3, 6, 9 ou 12 pontos"):
        Outcome.parse("normal:0:10")
    with pytest.raises(RulesError, match="Uma mão vale 2, 4, 6, 10 ou 12 pontos"):
        Outcome.parse("normal:0:9", MINEIRO)


def test_mineiro_game_ends_at_12_capped() -> None:
    state = fold(CONFIG, [Outcome(Kind.NORMAL, NOS, 6), Outcome(Kind.NORMAL, ELES, 12)])
    assert state.points == (6, 12) and state.game_winner == ELES


def test_mineiro_queda_is_the_best_of_3() -> None:
    assert CONFIG.best_of == 3 and CONFIG.wins_needed == 2
    game = [Outcome(Kind.NORMAL, NOS, 12)]
    state = fold(CONFIG, [*game, Outcome(Kind.PROXIMA_PARTIDA), *game])
    assert state.series_winner == NOS and state.phase is Phase.SERIES_OVER


def test_mineiro_special_hand_is_the_mao_de_dez_only() -> None:
    assert CONFIG.special_at == 10
    with pytest.raises(RulesError, match="No truco mineiro a mão especial é a mão de dez"):
        MatchConfig.of("mineiro", special_at=11)


def test_3x3_is_a_mineiro_table_only() -> None:
    assert MatchConfig.of("mineiro", players=6).players == 6
    with pytest.raises(RulesError, match=r"2 jogadores \(1x1\) ou 4 \(2x2\)"):
        MatchConfig(players=6)
    with pytest.raises(RulesError, match=r"ou 4 \(2x2\)"):
        judge_whole_hand("", ruleset=CARDS, players=6, vira=None)


def test_3x3_deal_rotates_over_six_seats_alternating_sides() -> None:
    config = MatchConfig.of("mineiro", players=6)
    state = MatchState(config)
    dealers, sides = [], []
    for _ in range(7):
        dealers.append(state.pe)
        sides.append(state.dealing_side)
        state = state.apply(Outcome(Kind.ANULADA))
    assert dealers == [0, 1, 2, 3, 4, 5, 0]
    assert sides == [0, 1, 0, 1, 0, 1, 0]


def test_3x3_seats_1_3_5_against_2_4_6_in_turn_order() -> None:
    verdict = judge(["1:3p", "2:2c", "3:Kp", "4:Ko", "5:Qp", "6:4p"], players=6)
    assert [verdict.setup.side(seat) for seat in range(1, 7)] == [0, 1, 0, 1, 0, 1]
    assert verdict.rounds[0].winner == ELES and verdict.rounds[0].winning_seat == 6
    assert verdict.state.opener == 6
    out_of_turn = judge(["1:3p", "3:Kp"], players=6)
    assert out_of_turn.illegal is not None
    assert out_of_turn.illegal.reason.code is Code.CARD_OUT_OF_TURN


def test_3x3_tie_needs_the_strongest_cards_on_both_sides() -> None:
    tied = judge(["1:3p", "2:3c", "3:Kp", "4:Ko", "5:Qp", "6:Qo"], players=6)
    assert tied.rounds[0].winner is None
    partners = judge(["1:3p", "2:Kc", "3:3c", "4:Ko", "5:Qp", "6:Qo"], players=6)
    assert partners.rounds[0].winner == NOS


def test_3x3_a_call_is_answered_by_the_next_opponent_a_raise_by_the_asker() -> None:
    not_partner = judge(["1:truco", "3:aceita"], players=6)
    assert not_partner.illegal is not None
    assert not_partner.illegal.reason.code is Code.ASKER_DOES_NOT_ANSWER
    wrong_opponent = judge(["1:truco", "4:aceita"], players=6)
    assert wrong_opponent.illegal is not None
    assert wrong_opponent.illegal.reason.code is Code.NOT_THE_ANSWERER
    raised = judge(["1:truco", "2:seis", "1:dez", "2:doze", "1:corre"], players=6)
    assert raised.outcome == Outcome(Kind.NORMAL, ELES, 10)
    assert raised.result is Result.ELES


def test_3x3_any_player_of_the_side_may_answer_under_qualquer() -> None:
    cards = MINEIRO.ruleset(RuleSet(answerer="qualquer"))
    verdict = judge_whole_hand(
        ["1:truco", "6:aceita"], ruleset=cards, players=6, vira=None, variant=MINEIRO
    )
    assert verdict.illegal is None and verdict.worth == 4


def test_3x3_mao_de_dez_is_decided_by_the_first_of_the_side_in_play_order() -> None:
    verdict = judge(["5:aceita"], players=6, mao=4, special=Special.ONZE_NOS)
    assert verdict.illegal is None
    wrong = judge(["1:aceita"], players=6, mao=4, special=Special.ONZE_NOS)
    assert wrong.illegal is not None
    assert wrong.illegal.reason.code is Code.ONZE_NOT_DECIDER


def test_paulista_outcomes_keep_their_kinds_without_points() -> None:
    state = MatchState(MatchConfig(), (11, 3))
    assert state.legal_outcomes()[:3] == (
        Outcome(Kind.ONZE_GANHOU, NOS),
        Outcome(Kind.ONZE_PERDEU, ELES),
        Outcome(Kind.ONZE_CORREU, ELES),
    )


def test_mineiro_reasons_name_the_mao_de_dez_and_its_values() -> None:
    started = judge([], special=Special.ONZE_ELES)
    assert word(started.reasons[0]) == (
        "Mão de dez (Eles com 10): vale 4 pontos se for jogada, 2 para o outro lado se "
        "correrem, e ninguém pede truco."
    )
    refused = judge(["2:aceita", "1:truco"], special=Special.ONZE_ELES)
    assert refused.illegal is not None
    assert word(refused.illegal.reason) == (
        "Mão de dez: ninguém pode pedir truco; ela vale 4 pontos se for jogada."
    )
    declined = judge(["2:corre"], special=Special.ONZE_ELES)
    assert "Correram da mão de dez" in word(declined.reasons[-1])
    ferro = judge([], special=Special.FERRO)
    assert word(ferro.reasons[0]) == "Mão de ferro: sem truco, e quem vencer leva a partida."


def test_paulista_reasons_keep_the_mao_de_onze() -> None:
    started = judge_whole_hand(
        [], ruleset=RuleSet(), players=2, vira="4o", special=Special.ONZE_NOS
    )
    assert word(started.reasons[0]).startswith("Mão de onze (Nós com 11): vale 3 pontos")


def test_a_mineiro_hand_won_by_its_rounds_is_worth_2_a_void_one_0() -> None:
    won = judge_hand(["nos", "nos"])
    assert won.points(MINEIRO) == 2 and won.points() == 1
    assert judge_hand([None, None, None]).points(MINEIRO) == 0
    assert judge_hand(["nos"]).points(MINEIRO) == 0


def test_a_mineiro_tap_code_carries_the_special_hands_points() -> None:
    for outcome in at((10, 4)).legal_outcomes() + at((10, 10)).legal_outcomes():
        assert Outcome.parse(outcome.code, MINEIRO) == outcome
    assert Outcome(Kind.ONZE_CORREU, ELES, 2).code == "onze_correu:1:2"
    with pytest.raises(RulesError):
        at((10, 4)).apply(Outcome(Kind.ONZE_GANHOU, NOS))


def test_a_game_with_an_odd_score_cannot_become_mineiro() -> None:
    paulista = MatchState(MatchConfig(), (3, 6))
    with pytest.raises(RulesError, match="os pontos são sempre pares"):
        paulista.reconfigured(CONFIG, ("Nós", "Eles"))
    assert MatchState(MatchConfig(), (4, 6)).reconfigured(CONFIG, ("Nós", "Eles")).config == CONFIG
