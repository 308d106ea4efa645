"""The score: hand values, mão de onze, mão de ferro, game, series and the deal.

/regras#truco, #correr, #mao-de-onze, #mao-de-ferro, #pontos and #rodadas-e-empates (the deal),
with the variants mão de dez and the series ("queda", best of 3). The expectations are written
from the rule book's text. Quoted Portuguese is Joga Truco's, the default text
(docs/rules-sources.md), unless a test names another.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    HAND_VALUES,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    Phase,
    RulesError,
    fold,
    replay,
)

CONFIG = MatchConfig()
ANULADA = Outcome(Kind.ANULADA)
PROXIMA = Outcome(Kind.PROXIMA_PARTIDA)
NOVA_SERIE = Outcome(Kind.NOVA_SERIE)


def normal(side: int, value: int) -> Outcome:
    return Outcome(Kind.NORMAL, side, value)


def correction(side: int, value: object) -> Outcome:
    return Outcome(Kind.CORRECAO, side, value)  # type: ignore[arg-type]


def at(p0: int, p1: int, config: MatchConfig = CONFIG) -> MatchState:
    """The state with the score set to p0 x p1 (by corrections, which do not deal a hand)."""
    state = fold(config, [correction(0, p0), correction(1, p1)])
    assert state.points == (p0, p1)
    return state


def assert_refused(state: MatchState, outcome: Outcome, *words: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        state.apply(outcome)
    message = str(excinfo.value)
    assert message.strip(), "RulesError without a message"
    wanted = words or ("mão", "partida", "série", "pontos", "lado", "correção", "truco")
    assert any(w in message.lower() for w in wanted), message


def win_game(state: MatchState, side: int) -> MatchState:
    """A doze accepted and won: 12 points at once (from any score below 11 of that side)."""
    return state.apply(normal(side, 12))


# --------------------------------------------------------------------------------------------
# Hand values
# --------------------------------------------------------------------------------------------


def test_a_match_starts_at_0_x_0() -> None:
    """/regras#pontos: "A cada nova partida o placar volta a 0 a 0"."""
    state = MatchState(CONFIG)
    assert state.points == (0, 0)
    assert state.phase is Phase.NORMAL
    assert state.game_winner is None
    assert fold(CONFIG, []) == state
    assert replay(CONFIG, []) == [state]


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("value", [1, 3, 6, 9, 12])
def test_a_hand_is_worth_1_truco_3_seis_6_nove_9_doze_12(side: int, value: int) -> None:
    """/regras#truco: "Toda mão começa valendo 1 ponto"; truco 3, seis 6, nove 9, doze 12."""
    assert value in HAND_VALUES
    state = MatchState(CONFIG).apply(normal(side, value))
    expected = [0, 0]
    expected[side] = value
    assert state.points == tuple(expected)


def test_hand_values_are_exactly_1_3_6_9_12() -> None:
    """/regras#pontos: "Quem ganha a mão marca os pontos que ela valia: 1, 3, 6, 9 ou 12"."""
    assert tuple(sorted(HAND_VALUES)) == (1, 3, 6, 9, 12)
    legal = MatchState(CONFIG).legal_outcomes()
    normals = {(o.side, o.points) for o in legal if o.kind is Kind.NORMAL}
    assert normals == {(s, v) for s in (0, 1) for v in (1, 3, 6, 9, 12)}
    assert ANULADA in legal
    assert len(legal) == 11


@pytest.mark.parametrize("value", [0, 2, 4, 5, 7, 10, 11, 13, 15, -1, -3, None])
def test_other_hand_values_are_refused(value: int | None) -> None:
    """/regras#pontos: a hand is worth 1, 3, 6, 9 or 12, nothing else."""
    state = MatchState(CONFIG).apply(normal(1, 3))
    assert_refused(state, Outcome(Kind.NORMAL, 0, value), "1, 3, 6, 9", "mão", "pontos")


@pytest.mark.parametrize(("request_value", "scored"), [(3, 1), (6, 3), (9, 6), (12, 9)])
def test_running_from_a_request_gives_the_requester_the_value_before_it(
    request_value: int, scored: int
) -> None:
    """/regras#correr: "Correr: a mão acaba e quem pediu marca o valor que a mão tinha antes
    do pedido" (truco 1, seis 3, nove 6, doze 9)."""
    assert request_value in HAND_VALUES
    state = MatchState(CONFIG).apply(normal(0, scored))
    assert state.points == (scored, 0)
    assert state.hands_dealt == 1


@pytest.mark.parametrize("worth", [1, 3, 6, 9, 12])
def test_running_on_your_turn_gives_the_others_what_the_hand_is_worth(worth: int) -> None:
    """/regras#correr: running with no request pending, "o outro lado marca o que a mão vale
    naquele momento"."""
    state = MatchState(CONFIG).apply(normal(1, worth))
    assert state.points == (0, worth)


def test_unknown_side_is_refused() -> None:
    """/regras#rodadas-e-empates: the table has two sides."""
    state = MatchState(CONFIG)
    for side in (2, -1, None):
        assert_refused(state, Outcome(Kind.NORMAL, side, 1))


def test_a_void_hand_scores_nothing_but_moves_the_deal() -> None:
    """/regras#rodadas-e-empates: "a mão é anulada e ninguém marca pontos"; the Duplas
    text: "passa-se para a próxima mão"."""
    state = at(4, 7)
    after = state.apply(ANULADA)
    assert after.points == (4, 7)
    assert after.hands_dealt == state.hands_dealt + 1
    assert after.pe == (state.pe + 1) % CONFIG.players
    assert after.phase is Phase.NORMAL


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------


def test_first_side_to_reach_12_wins_the_game() -> None:
    """/regras#pontos: "Ganha a partida quem chegar primeiro a 12 pontos"."""
    state = fold(CONFIG, [normal(0, 9), normal(1, 3), normal(1, 6)])
    assert state.points == (9, 9)
    assert state.phase is Phase.NORMAL
    state = state.apply(normal(1, 3))
    assert state.points == (9, 12)
    assert state.phase is Phase.GAME_OVER
    assert state.game_winner == 1
    assert state.wins == (0, 1)


@pytest.mark.parametrize(
    ("start", "value"), [(9, 6), (9, 9), (10, 3), (6, 12), (1, 12), (4, 9), (7, 6)]
)
def test_points_above_12_do_not_count(start: int, value: int) -> None:
    """/regras#pontos: "os pontos acima de 12 não contam"."""
    state = at(start, 2).apply(normal(0, value))
    assert start + value > 12
    assert state.points == (12, 2)
    assert state.game_winner == 0


def test_points_are_never_taken_away() -> None:
    """/regras#pontos: "Os pontos nunca são descontados"."""
    state = MatchState(CONFIG)
    for outcome in [normal(0, 3), normal(1, 1), normal(1, 6), ANULADA, normal(0, 1)]:
        after = state.apply(outcome)
        assert after.points[0] >= state.points[0]
        assert after.points[1] >= state.points[1]
        state = after
    assert state.points == (4, 7)


def test_only_the_next_game_is_legal_after_the_game_is_over() -> None:
    """/regras#pontos: the game ends at 12; nothing more is scored in it."""
    state = MatchState(CONFIG).apply(normal(0, 12))
    assert state.phase is Phase.GAME_OVER
    assert state.legal_outcomes() == (PROXIMA,)
    for outcome in (normal(0, 1), normal(1, 3), ANULADA, Outcome(Kind.FERRO, 1), NOVA_SERIE):
        assert_refused(state, outcome, "partida")
    assert_refused(state, correction(1, 5), "partida")


def test_next_game_starts_at_0_x_0() -> None:
    """/regras#pontos: "A cada nova partida o placar volta a 0 a 0"."""
    state = fold(CONFIG, [normal(1, 9), normal(0, 12)])
    assert state.points == (12, 9)
    nxt = state.apply(PROXIMA)
    assert nxt.points == (0, 0)
    assert nxt.phase is Phase.NORMAL
    assert nxt.game_number == state.game_number + 1
    assert nxt.game_winner is None
    assert nxt.wins == (1, 0)
    assert nxt.hand_in_game == 1


def test_next_game_marker_refused_during_a_game() -> None:
    """/regras#pontos: a new game starts only after one side reached 12."""
    state = at(5, 5)
    assert_refused(state, PROXIMA, "partida")
    assert_refused(state, NOVA_SERIE, "partida", "série")


# --------------------------------------------------------------------------------------------
# Mão de onze
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p0", "p1", "onze"), [(11, 0, 0), (11, 7, 0), (11, 10, 0), (3, 11, 1), (10, 11, 1)]
)
def test_mao_de_onze_when_exactly_one_side_has_11(p0: int, p1: int, onze: int) -> None:
    """/regras#mao-de-onze: "Quando um lado chega a 11 pontos, joga a mão de
    onze": play (worth 3) or run (the others score 1); no truco; it can still be void."""
    state = at(p0, p1)
    other = 1 - onze
    assert state.phase is Phase.MAO_DE_ONZE
    assert state.onze_side == onze
    assert set(state.legal_outcomes()) == {
        Outcome(Kind.ONZE_GANHOU, onze),
        Outcome(Kind.ONZE_PERDEU, other),
        Outcome(Kind.ONZE_CORREU, other),
        ANULADA,
    }


@pytest.mark.parametrize(("p0", "p1"), [(11, 0), (11, 4), (11, 9), (11, 10)])
def test_mao_de_onze_played_and_won_wins_the_game(p0: int, p1: int) -> None:
    """/regras#mao-de-onze: "Se jogar, a mão vale 3 pontos" -- 11 + 3 ends
    the game at 12 (points above 12 do not count)."""
    state = at(p0, p1).apply(Outcome(Kind.ONZE_GANHOU, 0))
    assert state.points == (12, p1)
    assert state.phase is Phase.GAME_OVER
    assert state.game_winner == 0


@pytest.mark.parametrize(("p1", "expected"), [(0, 3), (4, 7), (7, 10), (8, 11), (9, 12), (10, 12)])
def test_mao_de_onze_played_and_lost_gives_3_to_the_others(p1: int, expected: int) -> None:
    """/regras#mao-de-onze: the mão de onze is worth 3 when played; the Duplas
    text: "se a outra dupla vencer, recebe 3 pontos"."""
    state = at(11, p1).apply(Outcome(Kind.ONZE_PERDEU, 1))
    assert state.points == (11, expected)
    assert (state.phase is Phase.GAME_OVER) is (expected == 12)
    if expected == 11:
        assert state.phase is Phase.MAO_DE_FERRO


@pytest.mark.parametrize(("p0", "expected"), [(0, 1), (5, 6), (9, 10), (10, 11)])
def test_mao_de_onze_run_gives_1_to_the_others(p0: int, expected: int) -> None:
    """/regras#mao-de-onze: "se correr, os adversários marcam 1 ponto"."""
    state = at(p0, 11).apply(Outcome(Kind.ONZE_CORREU, 0))
    assert state.points == (expected, 11)
    assert state.game_winner is None
    assert state.hands_dealt == 1


def test_no_truco_in_the_mao_de_onze() -> None:
    """/regras#mao-de-onze: "Na mão de onze ninguém pode pedir truco" -- a
    normal hand of any value is refused, and so are the other sides' outcomes."""
    state = at(11, 6)
    for side in (0, 1):
        for value in (1, 3, 6, 9, 12):
            assert_refused(state, normal(side, value), "onze")
    assert_refused(state, Outcome(Kind.ONZE_GANHOU, 1), "onze")
    assert_refused(state, Outcome(Kind.ONZE_PERDEU, 0), "onze")
    assert_refused(state, Outcome(Kind.ONZE_CORREU, 0), "onze")
    assert_refused(state, Outcome(Kind.FERRO, 0), "onze")
    assert_refused(state, Outcome(Kind.ONZE_GANHOU, 0, 6), "onze")


def test_mao_de_onze_can_be_void() -> None:
    """/regras#rodadas-e-empates: three tied rounds void any hand, the mão de onze too."""
    state = at(11, 6)
    after = state.apply(ANULADA)
    assert after.points == (11, 6)
    assert after.phase is Phase.MAO_DE_ONZE
    assert after.hands_dealt == state.hands_dealt + 1


def test_mao_de_onze_reached_by_playing() -> None:
    """/regras#mao-de-onze: the side that reaches 11 plays the mão de onze."""
    state = fold(CONFIG, [normal(0, 9), normal(0, 1), normal(1, 3)])
    assert state.phase is Phase.NORMAL
    state = state.apply(normal(0, 1))
    assert state.points == (11, 3)
    assert state.phase is Phase.MAO_DE_ONZE
    assert state.onze_side == 0


def test_no_special_hand_below_11() -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: the special hands start at 11."""
    for p0, p1 in ((10, 10), (10, 0), (0, 10), (9, 10)):
        state = at(p0, p1)
        assert state.phase is Phase.NORMAL
        assert state.onze_side is None
        assert normal(0, 3) in state.legal_outcomes()


# --------------------------------------------------------------------------------------------
# Mão de ferro
# --------------------------------------------------------------------------------------------


def test_mao_de_ferro_at_11_x_11_is_worth_1_without_truco() -> None:
    """/regras#mao-de-ferro: "Quando os dois lados estão com 11 pontos, joga-se
    a mão de ferro: vale 1 ponto, não tem truco"."""
    state = at(11, 11)
    assert state.phase is Phase.MAO_DE_FERRO
    assert state.onze_side is None
    assert set(state.legal_outcomes()) == {
        Outcome(Kind.FERRO, 0),
        Outcome(Kind.FERRO, 1),
        ANULADA,
    }
    for side in (0, 1):
        for value in (1, 3):
            assert_refused(state, normal(side, value), "ferro")
        assert_refused(state, Outcome(Kind.ONZE_GANHOU, side), "ferro")
        assert_refused(state, Outcome(Kind.ONZE_CORREU, side), "ferro")


@pytest.mark.parametrize("side", [0, 1])
def test_mao_de_ferro_winner_wins_the_game(side: int) -> None:
    """/regras#mao-de-ferro: worth 1 point at 11 x 11, so its winner reaches
    12; the Duplas text: "Vence a partida a dupla que vencer a mão de ferro"."""
    state = at(11, 11).apply(Outcome(Kind.FERRO, side))
    expected = [11, 11]
    expected[side] = 12
    assert state.points == tuple(expected)
    assert state.phase is Phase.GAME_OVER
    assert state.game_winner == side


def test_mao_de_ferro_can_be_void() -> None:
    """/regras#rodadas-e-empates: three tied rounds void the hand; nobody scores."""
    state = at(11, 11).apply(ANULADA)
    assert state.points == (11, 11)
    assert state.phase is Phase.MAO_DE_FERRO
    assert state.hands_dealt == 1


def test_mao_de_ferro_reached_by_playing() -> None:
    """/regras#mao-de-ferro: 11 x 11 comes from a mão de onze lost or run."""
    state = fold(
        CONFIG,
        [normal(0, 9), normal(0, 1), normal(1, 6), normal(1, 1), normal(0, 1)],
    )
    assert state.points == (11, 7)
    state = state.apply(Outcome(Kind.ONZE_PERDEU, 1))
    assert state.points == (11, 10)
    state = state.apply(Outcome(Kind.ONZE_CORREU, 1))
    assert state.points == (11, 11)
    assert state.phase is Phase.MAO_DE_FERRO


# --------------------------------------------------------------------------------------------
# Mão de dez (the variant of /regras#mao-de-onze and /regras#mao-de-ferro)
# --------------------------------------------------------------------------------------------

DEZ = MatchConfig(special_at=10)


@pytest.mark.parametrize(
    ("p0", "p1", "onze"), [(10, 0, 0), (10, 9, 0), (4, 10, 1), (11, 3, 0), (2, 11, 1)]
)
def test_mao_de_dez_option_starts_the_special_hand_at_10(p0: int, p1: int, onze: int) -> None:
    """/regras#mao-de-onze, mão de dez as the Queda text gives it (docs/rules-sources.md):
    "Quando uma das duplas atinge 10 pontos, a mão seguinte, chamada Mão de Dez, é especial,
    pois não é permitido trucar"."""
    state = at(p0, p1, DEZ)
    assert state.phase is Phase.MAO_DE_ONZE
    assert state.onze_side == onze
    assert not any(o.kind is Kind.NORMAL for o in state.legal_outcomes())
    assert_refused(state, normal(onze, 3))
    assert at(9, 9, DEZ).phase is Phase.NORMAL


def test_mao_de_dez_values_3_or_1() -> None:
    """/regras#mao-de-onze, mão de dez (the Queda text): the side below 10 that wins
    "receberá 3 pontos"; if the side at 10 gives up, "os adversários ganharão apenas um
    ponto"."""
    assert at(10, 4, DEZ).apply(Outcome(Kind.ONZE_PERDEU, 1)).points == (10, 7)
    assert at(10, 4, DEZ).apply(Outcome(Kind.ONZE_CORREU, 1)).points == (10, 5)
    won = at(10, 4, DEZ).apply(Outcome(Kind.ONZE_GANHOU, 0))
    assert won.points == (12, 4)
    assert won.game_winner == 0


def test_mao_de_dez_both_at_10_is_the_mao_de_ferro() -> None:
    """/regras#mao-de-ferro, mão de dez (the Queda text): "Quando as duas duplas têm 10
    pontos, a mão será disputada sem recursos" -- no truco, no choice."""
    state = at(10, 10, DEZ)
    assert state.phase is Phase.MAO_DE_FERRO
    assert set(state.legal_outcomes()) == {
        Outcome(Kind.FERRO, 0),
        Outcome(Kind.FERRO, 1),
        ANULADA,
    }


@pytest.mark.parametrize("side", [0, 1])
def test_mao_de_dez_both_at_10_the_hand_winner_wins_the_game(side: int) -> None:
    """/regras#mao-de-ferro, mão de dez (the Queda text): "Quando as duas duplas têm 10
    pontos ... o vencedor do jogo será o vencedor da mão"."""
    state = at(10, 10, DEZ).apply(Outcome(Kind.FERRO, side))
    assert state.phase is Phase.GAME_OVER
    assert state.game_winner == side
    assert state.points[side] == 12


# --------------------------------------------------------------------------------------------
# Series
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3)])
@pytest.mark.parametrize("winner", [0, 1])
def test_series_ends_when_a_side_wins_the_majority(best_of: int, needed: int, winner: int) -> None:
    """/regras#pontos: "Nas séries de melhor de 3 ou melhor de 5 ... leva a mesa quem ganhar
    2 ou 3 partidas"; the Queda text: the queda is a best of three."""
    config = MatchConfig(best_of=best_of)
    assert config.wins_needed == needed
    state = MatchState(config)
    # The loser takes as many games as it may without taking the series.
    for _ in range(needed - 1):
        state = win_game(state, 1 - winner)
        assert state.phase is Phase.GAME_OVER
        state = state.apply(PROXIMA)
    for game in range(needed):
        state = win_game(state, winner)
        if game < needed - 1:
            assert state.phase is Phase.GAME_OVER
            assert state.series_winner is None
            state = state.apply(PROXIMA)
    assert state.phase is Phase.SERIES_OVER
    assert state.series_winner == winner
    assert state.wins[winner] == needed
    assert state.wins[1 - winner] == needed - 1
    assert state.legal_outcomes() == (NOVA_SERIE,)
    assert_refused(state, PROXIMA, "série")
    assert_refused(state, normal(0, 1), "série")
    assert_refused(state, correction(0, 3), "partida", "série")


def test_new_series_resets_wins_and_points() -> None:
    """/regras#pontos: each game of a series starts at 0 x 0; a new series starts over."""
    config = MatchConfig(best_of=3)
    state = fold(config, [normal(0, 12), PROXIMA, normal(1, 3), normal(0, 12)])
    assert state.phase is Phase.SERIES_OVER
    assert state.points == (12, 3)
    fresh = state.apply(NOVA_SERIE)
    assert fresh.phase is Phase.NORMAL
    assert fresh.points == (0, 0)
    assert fresh.wins == (0, 0)
    assert fresh.series_winner is None
    assert fresh.game_winner is None
    assert fresh.series_number == state.series_number + 1
    assert fresh.game_number == 1
    assert fresh.totals == (2, 0)


def test_single_games_never_end_a_series() -> None:
    """/regras#pontos: "você pode jogar partidas avulsas"."""
    config = MatchConfig(best_of=0)
    assert config.wins_needed is None
    state = MatchState(config)
    for _ in range(7):
        state = win_game(state, 0)
        assert state.phase is Phase.GAME_OVER
        assert state.series_winner is None
        assert state.legal_outcomes() == (PROXIMA,)
        state = state.apply(PROXIMA)
    assert state.wins == (7, 0)
    assert state.game_number == 8
    assert_refused(state, NOVA_SERIE, "partida", "série")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3},
        {"players": 0},
        {"players": 1},
        {"players": 5},
        {"players": 6},
        {"best_of": 2},
        {"best_of": 4},
        {"best_of": 7},
        {"best_of": -1},
        {"first_dealer": -1},
        {"first_dealer": 4},
        {"players": 2, "first_dealer": 2},
        {"special_at": 9},
        {"special_at": 12},
        {"special_at": 0},
    ],
)
def test_match_config_refuses_impossible_tables(kwargs: dict[str, int]) -> None:
    """/regras#rodadas-e-empates (2 or 4 players), /regras#pontos (single games, best of 3 or
    5) and /regras#mao-de-onze (special hand at 11, or at 10: mão de dez)."""
    with pytest.raises(RulesError) as excinfo:
        MatchConfig(**kwargs)
    assert str(excinfo.value).strip()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 4},
        {"best_of": 1},
        {"best_of": 3},
        {"best_of": 5},
        {"players": 2, "first_dealer": 1},
        {"first_dealer": 3},
        {"special_at": 10},
    ],
)
def test_match_config_accepts_every_table_the_rule_book_allows(kwargs: dict[str, int]) -> None:
    """/regras#rodadas-e-empates, /regras#pontos and /regras#mao-de-onze (mão de dez)."""
    config = MatchConfig(**kwargs)
    for key, value in kwargs.items():
        assert getattr(config, key) == value


# --------------------------------------------------------------------------------------------
# Corrections
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", range(12))
def test_correction_sets_a_side_to_0_through_11(value: int) -> None:
    """/regras#pontos: the score is kept by hand ("num papel"); a correction fixes a side's
    points during a game without dealing a hand."""
    state = fold(CONFIG, [normal(0, 6), normal(1, 3)])
    corrected = state.apply(correction(1, value))
    assert corrected.points == (6, value)
    assert corrected.hands_dealt == state.hands_dealt
    assert corrected.pe == state.pe


@pytest.mark.parametrize("value", [12, 13, -1, None, 2.5, "3", True])
def test_correction_refuses_12_negatives_and_non_numbers(value: object) -> None:
    """/regras#pontos: a game is won by a hand that reaches 12, not by a correction; points
    are never negative."""
    assert_refused(at(3, 3), correction(0, value), "pontos", "correção")


def test_correction_refuses_an_unknown_side() -> None:
    """/regras#rodadas-e-empates: two sides."""
    assert_refused(at(3, 3), Outcome(Kind.CORRECAO, 2, 5), "lado", "correção")
    assert_refused(at(3, 3), Outcome(Kind.CORRECAO, None, 5), "lado", "correção")


def test_correction_refused_after_the_game_ended() -> None:
    """/regras#pontos: once a side reached 12 the game is over."""
    state = MatchState(CONFIG).apply(normal(1, 12))
    assert_refused(state, correction(0, 5), "partida")
    assert_refused(state, correction(1, 11), "partida")


def test_correction_to_11_starts_the_mao_de_onze() -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: the phase follows the score, however it
    got there."""
    assert at(11, 2).phase is Phase.MAO_DE_ONZE
    assert at(11, 11).phase is Phase.MAO_DE_FERRO
    assert at(11, 11).apply(correction(0, 10)).phase is Phase.MAO_DE_ONZE


# --------------------------------------------------------------------------------------------
# The deal
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "first_dealer"), [(2, 0), (2, 1), (4, 0), (4, 1), (4, 3)])
def test_dealer_is_the_pe_and_the_mao_is_the_next_seat(players: int, first_dealer: int) -> None:
    """/regras#rodadas-e-empates: "O primeiro a jogar é o mão; o pé, que deu as cartas, joga por
    último. A cada nova mão, o mão passa para o jogador seguinte na ordem de jogo"."""
    config = MatchConfig(players=players, first_dealer=first_dealer)
    states = replay(config, [normal(0, 1), normal(1, 1)] * 4)
    for hands, state in enumerate(states):
        assert state.hands_dealt == hands
        assert state.pe == (first_dealer + hands) % players
        assert state.mao == (state.pe + 1) % players
        assert state.dealing_side == state.pe % 2


def test_void_and_run_hands_move_the_deal() -> None:
    """/regras#rodadas-e-empates: every hand dealt passes the mão on, even a void one or one that
    somebody ran from (the Duplas text: "inicia-se a próxima mão")."""
    outcomes = [
        ANULADA,
        normal(0, 1),  # e.g. ran from a truco
        normal(0, 1),
        normal(0, 9),
        Outcome(Kind.ONZE_CORREU, 1),  # the mão de onze run from
        ANULADA,
        Outcome(Kind.ONZE_PERDEU, 1),
    ]
    states = replay(CONFIG, outcomes)
    assert states[4].phase is Phase.MAO_DE_ONZE
    assert [s.hands_dealt for s in states] == list(range(len(outcomes) + 1))
    assert [s.pe for s in states] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [s.mao for s in states] == [1, 2, 3, 0, 1, 2, 3, 0]


def test_corrections_and_next_game_markers_do_not_move_the_deal() -> None:
    """/regras#rodadas-e-empates: only a dealt hand passes the mão on; the Duplas text: in
    the next game the mão keeps turning ("sempre o da esquerda ao que começou a mão
    anterior")."""
    config = MatchConfig(best_of=3, first_dealer=2)
    state = fold(config, [normal(0, 1), normal(1, 3)])
    pe = state.pe
    assert pe == 0
    state = state.apply(correction(0, 5))
    assert state.pe == pe
    state = state.apply(normal(0, 12))
    assert state.pe == 1
    state = state.apply(PROXIMA)
    assert state.pe == 1
    state = fold(config, [normal(0, 12), PROXIMA, normal(0, 12)])
    assert state.phase is Phase.SERIES_OVER
    assert state.apply(NOVA_SERIE).pe == state.pe == (2 + 2) % 4


def test_hand_in_game_counts_hands_of_the_current_game() -> None:
    """/regras#rodadas-e-empates: each deal is a hand of the current game."""
    state = fold(CONFIG, [normal(0, 1), ANULADA, correction(1, 4), normal(1, 3)])
    assert state.hand_in_game == 4
    state = state.apply(normal(0, 12)).apply(PROXIMA)
    assert state.hand_in_game == 1
    assert state.hands_dealt == 4


def test_replay_gives_every_state_and_fold_the_last() -> None:
    """/regras#pontos: the score is the sum of the hands recorded, in order."""
    outcomes = [normal(0, 3), normal(1, 1), ANULADA, normal(0, 6)]
    states = replay(CONFIG, outcomes)
    assert len(states) == len(outcomes) + 1
    assert [s.points for s in states] == [(0, 0), (3, 0), (3, 1), (3, 1), (9, 1)]
    assert fold(CONFIG, outcomes) == states[-1]
    with pytest.raises(RulesError):
        replay(CONFIG, [normal(0, 12), normal(1, 1)])


@pytest.mark.parametrize(
    "outcome",
    [Outcome(Kind.NORMAL, 0, 1.0), Outcome(Kind.NORMAL, True, 3)],  # type: ignore[arg-type]
)
def test_outcomes_with_a_float_or_bool_are_refused(outcome: Outcome) -> None:
    """/regras#pontos: a hand is worth whole points for one of two sides."""
    assert_refused(MatchState(CONFIG), outcome, "pontos", "lado")


def test_a_refused_tap_in_the_mao_de_dez_names_the_mao_de_dez() -> None:
    """With the special hand at 10 (/regras#mao-de-onze, the mão de dez option), a normal tap
    in it is refused naming the mão de dez, not the mão de onze."""
    state = MatchState(MatchConfig(special_at=10), points=(10, 4))
    with pytest.raises(RulesError, match="^Mão de dez: não tem truco"):
        state.apply(Outcome(Kind.NORMAL, 0, 1))
