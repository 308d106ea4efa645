"""Judging a hand (mão) from its round results.

/regras#rodadas-e-empates: the tie rules, which the public texts agree on
(docs/rules-sources.md). The tables are written from the rule book's list of tie cases. Quoted
Portuguese is Joga Truco's, the default text.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError, RuleSet, judge_hand, judge_round

from .rulesets import assert_pt_error

N, E, T = "nos", "eles", None  # the two default sides and a tied round

SUJO = RuleSet()


# --------------------------------------------------------------------------------------------
# One test per rule
# --------------------------------------------------------------------------------------------


def test_two_rounds_won_win_the_hand() -> None:
    """/regras#rodadas-e-empates: "Quem ganhar duas rodadas leva a mão"."""
    verdict = judge_hand([N, N])
    assert verdict.decided and verdict.winner == N and not verdict.void
    verdict = judge_hand([E, N, E])
    assert verdict.decided and verdict.winner == E


def test_tied_first_round_goes_to_second_round_winner() -> None:
    """/regras#rodadas-e-empates: "Empatou a primeira: quem ganhar a segunda leva a mão"."""
    for side in (N, E):
        verdict = judge_hand([T, side])
        assert verdict.decided
        assert verdict.winner == side
        assert verdict.decided_after == 2


def test_won_first_tied_second_goes_to_first_round_winner() -> None:
    """/regras#rodadas-e-empates: "Ganhou a primeira e empatou a segunda: leva quem ganhou a
    primeira"."""
    for side in (N, E):
        verdict = judge_hand([side, T])
        assert verdict.decided
        assert verdict.winner == side
        assert verdict.decided_after == 2


def test_one_round_each_tied_third_goes_to_first_round_winner() -> None:
    """/regras#rodadas-e-empates: "Uma rodada para cada e empatou a terceira: leva quem ganhou
    a primeira"."""
    assert judge_hand([N, E, T]).winner == N
    assert judge_hand([E, N, T]).winner == E


def test_first_two_rounds_tied_third_decides() -> None:
    """/regras#rodadas-e-empates: "Empataram a primeira e a segunda: a terceira decide"."""
    undecided = judge_hand([T, T])
    assert not undecided.decided and undecided.next_round == 3
    assert judge_hand([T, T, N]).winner == N
    assert judge_hand([T, T, E]).winner == E


def test_three_tied_rounds_void_the_hand() -> None:
    """/regras#rodadas-e-empates: "Empataram as três: no Joga Truco a mão é anulada e
    ninguém marca pontos"."""
    verdict = judge_hand([T, T, T])
    assert verdict.decided
    assert verdict.void
    assert verdict.winner is None
    assert verdict.decided_after == 3
    assert any("anulada" in r.lower() for r in verdict.reasons)


def test_no_third_round_after_a_decided_second() -> None:
    """/regras#rodadas-e-empates: whoever wins two rounds takes the hand, so the hand ends as soon
    as it is decided; no third round is played."""
    for decided in ([N, N], [T, E], [E, T]):
        assert judge_hand(decided).next_round is None
        with pytest.raises(RulesError) as excinfo:
            judge_hand([*decided, N])
        assert_pt_error(excinfo, "rodada", "mão")


# --------------------------------------------------------------------------------------------
# Every pattern of a hand
# --------------------------------------------------------------------------------------------

# (results, decided, winner, next round while undecided)
PATTERNS = [
    ((), False, None, 1),
    ((N,), False, None, 2),
    ((E,), False, None, 2),
    ((T,), False, None, 2),
    ((N, N), True, N, None),
    ((E, E), True, E, None),
    ((N, E), False, None, 3),
    ((E, N), False, None, 3),
    ((T, N), True, N, None),
    ((T, E), True, E, None),
    ((N, T), True, N, None),
    ((E, T), True, E, None),
    ((T, T), False, None, 3),
    ((N, E, N), True, N, None),
    ((N, E, E), True, E, None),
    ((E, N, N), True, N, None),
    ((E, N, E), True, E, None),
    ((N, E, T), True, N, None),
    ((E, N, T), True, E, None),
    ((T, T, N), True, N, None),
    ((T, T, E), True, E, None),
    ((T, T, T), True, None, None),
]


def _label(value: str | None) -> str:
    return "empate" if value is None else value


@pytest.mark.parametrize(
    ("results", "decided", "winner", "next_round"),
    PATTERNS,
    ids=["-".join(map(_label, p[0])) or "nada" for p in PATTERNS],
)
def test_judge_hand_every_tie_pattern(
    results: tuple[str | None, ...], decided: bool, winner: str | None, next_round: int | None
) -> None:
    """/regras#rodadas-e-empates: every tie case (the same in every text that lists them)."""
    verdict = judge_hand(list(results))
    assert verdict.results == results
    assert verdict.decided is decided
    assert verdict.winner == winner
    assert verdict.void is (decided and winner is None)
    assert verdict.next_round == next_round
    assert verdict.decided_after == (len(results) if decided else None)
    assert verdict.reasons and all(r.strip() for r in verdict.reasons)


DECIDED_AFTER_TWO = [(N, N), (E, E), (T, N), (T, E), (N, T), (E, T)]
REFUSED = (
    [(p, "rodada") for p in ((*d, x) for d in DECIDED_AFTER_TWO for x in (N, E, T))]
    + [(p, "rodada") for p in ((N, E, T, N), (T, T, T, T), (N, E, N, E), (T, T, T, N, E))]
    + [
        (("outros",), "rodada"),
        ((N, "Nos"), "rodada"),
        ((T, T, "empate"), "rodada"),
        ((N, E, 1), "rodada"),
    ]
)


@pytest.mark.parametrize(
    ("results", "word"), REFUSED, ids=["-".join(map(str, r[0])) for r in REFUSED]
)
def test_judge_hand_refusals(results: tuple[object, ...], word: str) -> None:
    """/regras#rodadas-e-empates: no round after the hand is decided, at most three rounds,
    and each round is won by one of the two sides or tied."""
    with pytest.raises(RulesError) as excinfo:
        judge_hand(list(results))  # type: ignore[arg-type]
    assert_pt_error(excinfo, word)


@pytest.mark.parametrize("teams", [("a", "a"), ("nos", "nos"), ("x",), ("a", "b", "c")])
def test_judge_hand_refuses_teams_that_are_not_two_distinct_sides(teams: tuple[str, ...]) -> None:
    """/regras#rodadas-e-empates: a hand is played by two sides."""
    with pytest.raises(RulesError) as excinfo:
        judge_hand([], teams=teams)  # type: ignore[arg-type]
    assert_pt_error(excinfo, "lado", "mão")


def test_judge_hand_with_custom_labels() -> None:
    """/regras#rodadas-e-empates: the rules do not depend on the sides' names."""
    teams = ("azul", "verde")
    assert judge_hand(["verde", None], teams=teams).winner == "verde"
    assert judge_hand([None, None, "azul"], teams=teams).winner == "azul"
    with pytest.raises(RulesError):
        judge_hand([N], teams=teams)


def test_hand_from_judged_rounds() -> None:
    """/regras#rodadas-e-empates: tie in the 1st round, the 2nd decides the hand."""
    vira = "7o"  # manilhas: damas
    sides = {"a1": N, "a2": N, "b1": E, "b2": E}

    first = judge_round(
        [("a1", "3p"), ("b1", "3c"), ("a2", "Kp"), ("b2", "Jc")],
        ruleset=SUJO,
        vira=vira,
        round_number=1,
        mao=0,
    )
    assert first.tie
    # The mão (a1) opens the second round.
    order = ["a1", "b1", "a2", "b2"]
    opener = order[first.next_opener]
    assert opener == "a1"
    second = judge_round(
        [("a1", "2e"), ("b1", "Qo"), ("a2", "X"), ("b2", "Ae")],
        ruleset=SUJO,
        vira=vira,
        round_number=2,
        mao=0,
    )
    assert second.winner == frozenset({"b1", "b2"})
    results = [None, sides[second.plays[second.winning_play].player]]  # type: ignore[index]
    verdict = judge_hand(results)
    assert verdict.decided and verdict.winner == E
