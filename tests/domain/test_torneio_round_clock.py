"""The round clock's pure decisions: when a round ends, how long is left, who leads, what the
limit does to a match under each rule, and which hand decides after 'a próxima mão decide'."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper.domain.torneio import clock
from scorekeeper.rules import Kind, Outcome

START = datetime(2026, 12, 2, 23, 0, 30, tzinfo=UTC)
NAMES = ("Ana e Beto", "Caio e Duda")


def test_a_round_ends_its_minutes_after_the_organiser_started_it() -> None:
    kept = {"1": clock.stamp(START)}
    assert clock.deadline(kept, 1, 90) == START + timedelta(minutes=90)
    assert clock.deadline(kept, 2, 90) is None


def test_a_stored_time_reads_back_as_the_same_utc_moment() -> None:
    assert clock.as_utc(clock.stamp(START)) == START
    assert clock.as_utc("2026-12-02T23:00:30") == START  # naive: UTC


def test_a_round_is_due_once_its_time_is_up_and_until_its_limit_is_applied() -> None:
    kept = {"1": clock.stamp(START), "2": clock.stamp(START + timedelta(minutes=50))}
    assert clock.due(kept, 90, START + timedelta(minutes=89)) == []
    assert clock.due(kept, 90, START + timedelta(minutes=90)) == [1]
    assert clock.due(kept, 90, START + timedelta(minutes=200)) == [1, 2]
    kept["1" + clock.APPLIED] = "1-0 1-1"
    assert clock.due(kept, 90, START + timedelta(minutes=200)) == [2]


def test_the_clock_runs_while_a_started_round_is_not_applied() -> None:
    assert not clock.running({})
    kept = {"1": clock.stamp(START)}
    assert clock.running(kept)
    kept["1" + clock.APPLIED] = ""
    assert not clock.running(kept)


def test_minutes_left_round_up_and_stop_at_zero() -> None:
    ends = START + timedelta(minutes=90)
    assert clock.minutes_left(ends, START) == 90
    assert clock.minutes_left(ends, ends - timedelta(seconds=1)) == 1
    assert clock.minutes_left(ends, ends) == 0
    assert clock.minutes_left(ends, ends + timedelta(minutes=5)) == 0


@pytest.mark.parametrize(
    ("wins", "points", "ahead"),
    [
        ((1, 0), (0, 9), 0),  # games won count first
        ((0, 1), (11, 0), 1),
        ((1, 1), (3, 7), 1),  # then the points of the game being played
        ((0, 0), (5, 2), 0),
        ((1, 1), (4, 4), None),  # level on both: nobody
    ],
)
def test_the_leader_has_more_games_won_then_more_points(
    wins: tuple[int, int], points: tuple[int, int], ahead: int | None
) -> None:
    assert clock.leader(wins, points) == ahead


def test_at_the_limit_lider_gives_the_match_to_the_side_ahead() -> None:
    done = clock.at_limit(clock.LIDER, (1, 0), (2, 8), 11, NAMES)
    assert done.winner == 0
    assert done.score is None
    assert done.reason == "tempo esgotado: vence quem estava na frente (Ana e Beto)"
    assert not done.next_hand


def test_at_the_limit_lider_on_a_tie_lets_the_next_hand_decide() -> None:
    done = clock.at_limit(clock.LIDER, (1, 1), (6, 6), 11, NAMES)
    assert done.winner is None
    assert done.next_hand
    assert done.reason == "tempo esgotado: empate, a próxima mão decide"


def test_at_the_limit_onze_puts_the_game_at_eleven_each() -> None:
    done = clock.at_limit(clock.ONZE, (0, 1), (3, 11), 11, NAMES)
    assert done.score == (11, 11)
    assert done.winner is None
    assert done.reason == "tempo esgotado: partida em 11 x 11"


def test_at_the_limit_onze_in_mineiro_puts_the_game_at_its_special_ten() -> None:
    done = clock.at_limit(clock.ONZE, (0, 0), (4, 2), 10, NAMES)
    assert done.score == (10, 10)
    assert done.reason == "tempo esgotado: partida em 10 x 10"


def test_at_the_limit_proxima_lets_the_next_hand_decide() -> None:
    done = clock.at_limit(clock.PROXIMA, (1, 0), (9, 2), 11, NAMES)
    assert (done.winner, done.score) == (None, None)
    assert done.reason == "tempo esgotado: a próxima mão decide"
    assert done.next_hand


def test_an_unknown_rule_at_the_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        clock.at_limit("sorteio", (0, 0), (0, 0), 11, NAMES)


def test_the_first_hand_scored_after_the_line_decides_and_a_void_hand_does_not() -> None:
    after = [
        Outcome(Kind.CORRECAO, 0, 5),
        Outcome(Kind.ANULADA),
        Outcome(Kind.NORMAL, 1, 3),
        Outcome(Kind.NORMAL, 0, 1),
    ]
    assert clock.next_hand_winner(after) == 1
    assert clock.next_hand_winner(after[:2]) is None


def test_a_mao_de_onze_run_from_decides_for_the_side_that_scores() -> None:
    assert clock.next_hand_winner([Outcome(Kind.ONZE_CORREU, 1)]) == 1
