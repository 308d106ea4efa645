"""A round's and a hand's reasons as values, and the checks the juiz asks for one play at a time.

/regras#rodadas-e-empates, #carta-coberta and #cartas-e-manilhas, with the variant of who opens
after a tie. The reasons are values (a code and its arguments) worded once, in
rules/reasons.py; a round names its plays by position and words them with the players' names.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    Card,
    Code,
    Names,
    Reason,
    RuleBroken,
    RulesError,
    RuleSet,
    Shown,
    check_mao,
    check_plays_count,
    explain,
    judge_hand,
    judge_round,
    judge_whole_hand,
    may_cover,
    next_opening_side,
    read_plays,
    undecided,
    ways_to,
    word,
)

SUJO = RuleSet()
VIRA = Card.parse("4o")  # manilhas: the 5s


def codes(reasons: tuple[Reason, ...]) -> list[Code]:
    return [r.code for r in reasons]


def test_a_round_gives_its_reasons_as_values_worded_with_the_players_names() -> None:
    """/regras#rodadas-e-empates: a single strongest card wins; the reasons say the manilhas,
    the open cards in order, the winning card, why it is no tie and who takes the round."""
    plays = [("Ana", "3p"), ("Bia", "5c"), ("Caio", "2e"), ("Duda", "Ao")]
    verdict = judge_round(plays, ruleset=SUJO, vira=VIRA, round_number=1)
    assert codes(verdict.why) == [
        Code.MANILHAS_BY_VIRA,
        Code.OPEN_CARDS,
        Code.STRONGEST,
        Code.NOT_A_TIE,
        Code.ROUND_TO,
    ]
    assert verdict.why[-1] == Reason(Code.ROUND_TO, round=1, seat=2, seats=(2, 4))
    assert verdict.why[1].plays[0] == Shown(2, Card.parse("5c"), manilha=True)
    assert verdict.reasons == tuple(word(r, verdict.names) for r in verdict.why)
    assert verdict.reasons[-1] == "A rodada é de Bia e Duda; Bia abre a próxima rodada."


def test_equal_strongest_cards_of_partners_win_without_saying_no_tie() -> None:
    """/regras#rodadas-e-empates: the two strongest equal cards of one pair win for it."""
    plays = [("a1", "3p"), ("b1", "2c"), ("a2", "3e"), ("b2", "Ao")]
    verdict = judge_round(plays, ruleset=SUJO, vira=VIRA, round_number=1)
    assert Code.PARTNERS_ON_TOP in codes(verdict.why)
    assert Code.NOT_A_TIE not in codes(verdict.why)


def test_a_covered_card_is_said_with_its_face_and_counts_nothing() -> None:
    """/regras#carta-coberta: a covered card is worth nothing, even a known manilha."""
    verdict = judge_round([("a", "X:5p"), ("b", "4c")], ruleset=SUJO, vira=VIRA, round_number=2)
    assert Reason(Code.COVERED_LOSE, seats=(1,)) in verdict.why
    assert Reason(Code.COVERED_WAS_MANILHA, seat=1, card=Card.parse("5p")) in verdict.why
    assert verdict.winner == frozenset({"b"})


@pytest.mark.parametrize(
    ("plays", "last"),
    [([("a", "3p"), ("b", "2c")], Code.ROUND_TO), ([("a", "3p"), ("b", "3c")], Code.TIED_ACROSS)],
)
def test_the_third_round_names_no_next_opener(plays: list[tuple[str, str]], last: Code) -> None:
    """/regras#rodadas-e-empates: a hand has three rounds, so after the third nobody opens."""
    verdict = judge_round(plays, ruleset=SUJO, vira=VIRA, round_number=3)
    assert codes(verdict.why)[-2:] == [last, Code.THIRD_ROUND_ENDS]
    assert not any(r.code in (Code.NEXT_BY_MAO, Code.NEXT_BY_FIRST_TIE) for r in verdict.why)
    assert "abre" not in " ".join(verdict.reasons)


@pytest.mark.parametrize(
    ("ruleset", "code", "seat"),
    [
        (SUJO, Code.NEXT_BY_MAO, 2),
        (RuleSet(tie_opener="primeira_empatada"), Code.NEXT_BY_FIRST_TIE, 1),
    ],
)
def test_a_tie_says_who_opens_next_by_the_rulesets_rule(
    ruleset: RuleSet, code: Code, seat: int
) -> None:
    """/regras#rodadas-e-empates: the mão opens after a tie (the default), or the first tying
    card's player (the variant)."""
    verdict = judge_round(
        [("a", "3p"), ("b", "3c")], ruleset=ruleset, vira=VIRA, round_number=2, mao=1
    )
    assert verdict.why[-1] == Reason(code, round=3, seat=seat)
    assert verdict.next_opener == seat - 1


def test_plays_are_read_one_at_a_time_and_stop_at_the_first_refused() -> None:
    """/regras#cartas-e-manilhas: no card exists twice; the refusal names both players."""
    read = read_plays(
        [("Ana", "3p"), ("Bia", "3p"), ("Caio", "2c")], ruleset=SUJO, vira=VIRA, round_number=1
    )
    assert [p.text for p in read.plays] == ["3p"]
    assert isinstance(read.refusal, RuleBroken)
    assert read.refusal.reason == Reason(
        Code.CARD_PLAYED_TWICE, seat=2, card=Card.parse("3p"), other=1
    )
    assert "Ana e Bia" in str(read.refusal)


@pytest.mark.parametrize(
    ("value", "round_number", "code"),
    [
        ("", 1, Code.EMPTY_PLAY),
        ("X", 1, Code.COVERED_IN_FIRST_ROUND),
        ("4o", 2, Code.VIRA_PLAYED),
        ("X:4o", 2, Code.VIRA_PLAYED),
    ],
)
def test_a_refused_play_says_the_rule_it_breaks(value: str, round_number: int, code: Code) -> None:
    """/regras#carta-coberta and /regras#cartas-e-manilhas: covered only from the second
    round, the vira is nobody's; an empty play is missing its card."""
    read = read_plays(
        [("Ana", "3p"), ("Bia", value)], ruleset=SUJO, vira=VIRA, round_number=round_number
    )
    assert isinstance(read.refusal, RuleBroken) and read.refusal.reason.code is code
    assert read.refusal.reason.seat == 2 and "Bia" in str(read.refusal)


def test_a_round_and_a_whole_hand_refuse_a_card_by_the_same_rule() -> None:
    """/regras#cartas-e-manilhas: one check for both, so both say the same."""
    read = read_plays([("1", "3p"), ("2", "4o")], ruleset=SUJO, vira=VIRA, round_number=1)
    hand = judge_whole_hand("1:3p,2:4o", ruleset=SUJO, players=2, vira=VIRA)
    assert isinstance(read.refusal, RuleBroken) and hand.illegal is not None
    assert read.refusal.reason == hand.illegal.reason


def test_more_plays_than_players_and_the_mao_are_checked_by_the_rules() -> None:
    """/regras#rodadas-e-empates: one card per player; the mão opens round 1."""
    check_plays_count(2, 2)
    with pytest.raises(RuleBroken) as excinfo:
        check_plays_count(3, 2)
    assert excinfo.value.reason == Reason(Code.PLAYS_FOR_PLAYERS, players=2, count=3)
    check_mao(2, players=4, round_number=2)
    with pytest.raises(RuleBroken) as excinfo:
        check_mao(2, players=4, round_number=1)
    assert excinfo.value.reason.code is Code.MAO_OPENS_FIRST_ROUND
    with pytest.raises(RuleBroken) as excinfo:
        check_mao(4, players=4)
    assert excinfo.value.reason.code is Code.NO_SUCH_MAO
    assert not may_cover(1) and may_cover(2) and may_cover(3)


def test_a_round_after_a_decided_hand_quotes_the_rule_that_decided_it() -> None:
    """/regras#rodadas-e-empates: two rounds won take the hand; no third round is played."""
    with pytest.raises(RuleBroken) as excinfo:
        judge_hand(["eles", "eles", "nos"])
    reason = excinfo.value.reason
    assert reason.code is Code.HAND_ALREADY_DECIDED and reason.round == 3
    assert reason.rule is not None and reason.rule.code is Code.TWO_ROUNDS
    assert explain(excinfo.value, Names(sides=("Ana", "Os Zapeiros"))) == (
        "A mão já estava decidida depois da segunda rodada (quem faz duas rodadas leva a mão) "
        "e não se joga a terceira rodada."
    )
    assert explain(RulesError("outra coisa")) == "outra coisa"


@pytest.mark.parametrize(
    ("results", "last"),
    [
        (["nos", "nos"], Reason(Code.HAND_ENDED, round=2)),
        ([None, None, None], Reason(Code.VOIDED)),
        (["nos"], Reason(Code.HAND_GOES_ON, round=2)),
    ],
)
def test_a_hand_ends_its_reasons_with_where_it_stands(
    results: list[str | None], last: Reason
) -> None:
    """/regras#rodadas-e-empates: decided in some round, void, or going on."""
    assert judge_hand(results).why[-1] == last


def test_the_rounds_a_hand_can_reach_come_from_its_rules() -> None:
    """/regras#rodadas-e-empates: round 3 follows one round each or two ties only."""
    assert ways_to(2) == (("nos",), ("eles",), ("empate",))
    assert ways_to(3) == (("nos", "eles"), ("eles", "nos"), ("empate", "empate"))
    assert undecided(("empate",)) and not undecided(("nos", "empate"))
    assert next_opening_side("eles", 0) == 1 and next_opening_side("empate", 0) == 0


def test_a_name_two_seats_share_falls_back_to_each_seats_own() -> None:
    """/regras#rodadas-e-empates: each seat is one player, so a repeated name names neither."""
    names = Names(sides=("Ana", "Os Zapeiros"), seats=("Zé", " Zé ", "Bia", ""))
    said = [names.seat(seat) for seat in (1, 2, 3, 4)]
    assert said == ["Ana 1", "Os Zapeiros 1", "Bia", "Os Zapeiros 2"]
