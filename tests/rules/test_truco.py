"""Truco, seis, nove and doze; running from a request or on your turn (/regras#truco and
/regras#correr)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import Bet, Kind, Outcome, RulesError, Special

NOS, ELES = 0, 1


def test_a_hand_starts_worth_one() -> None:
    """/regras#truco: every hand starts worth 1 point."""
    assert Bet().worth == 1


def test_accepted_truco_makes_the_hand_worth_three() -> None:
    """/regras#truco: if the other side accepts, the hand is worth 3."""
    assert Bet().ask(NOS).accept(ELES).worth == 3


@pytest.mark.parametrize(
    ("steps", "worth"), [(1, 3), (2, 6), (3, 9), (4, 12)], ids=["truco", "seis", "nove", "doze"]
)
def test_each_accepted_raise_climbs_the_ladder(steps: int, worth: int) -> None:
    """/regras#truco: truco 3, seis 6, nove 9, doze 12."""
    bet, side = Bet(), NOS
    for _ in range(steps):
        bet = bet.ask(side).accept(1 - side)
        side = 1 - side
    assert bet.worth == worth


@pytest.mark.parametrize(
    ("steps", "gain"), [(0, 1), (1, 3), (2, 6), (3, 9)], ids=["truco", "seis", "nove", "doze"]
)
def test_running_from_a_request_gives_the_asker_the_value_before_it(steps: int, gain: int) -> None:
    """/regras#truco: run from truco, the asker scores 1; seis 3; nove 6; doze 9."""
    bet, side = Bet(), NOS
    for _ in range(steps):
        bet = bet.ask(side).accept(1 - side)
        side = 1 - side
    asked = bet.ask(side)
    assert asked.run(1 - side) == Outcome(Kind.NORMAL, side, gain)


def test_running_on_your_turn_gives_the_other_side_the_value_now() -> None:
    """/regras#correr: with no pending request the other side scores what the hand is worth."""
    bet = Bet().ask(NOS).accept(ELES)
    assert bet.run(NOS) == Outcome(Kind.NORMAL, ELES, 3)
    assert Bet().run(ELES) == Outcome(Kind.NORMAL, NOS, 1)


def test_only_the_side_that_accepted_may_raise_next() -> None:
    """/regras#truco: after an accepted request only the side that accepted may ask the next."""
    accepted = Bet().ask(NOS).accept(ELES)
    with pytest.raises(RulesError, match="só o lado que aceitou"):
        accepted.ask(NOS)
    assert accepted.ask(ELES).pending == 6


def test_a_raise_accepts_and_asks_the_next_step() -> None:
    """/regras#truco: 'aumentar' asks the next step; now the other side answers."""
    raised = Bet().ask(NOS).raise_(ELES)
    assert (raised.worth, raised.pending, raised.asker) == (3, 6, ELES)
    assert raised.run(NOS) == Outcome(Kind.NORMAL, ELES, 3)


def test_no_request_waits_on_another() -> None:
    """/regras#truco: one asks on one's turn and with no request waiting for an answer."""
    with pytest.raises(RulesError, match="esperando resposta"):
        Bet().ask(NOS).ask(ELES)


def test_the_asker_does_not_answer_its_own_request() -> None:
    """/regras#truco: the other side answers."""
    with pytest.raises(RulesError, match="outro lado"):
        Bet().ask(NOS).accept(NOS)
    with pytest.raises(RulesError):
        Bet().ask(NOS).run(NOS)


def test_nothing_above_doze() -> None:
    """/regras#truco: doze (12) is the maximum."""
    bet = Bet(worth=12)
    with pytest.raises(RulesError, match="máximo"):
        bet.ask(NOS)


@pytest.mark.parametrize("special", [Special.ONZE_NOS, Special.ONZE_ELES, Special.FERRO])
def test_nobody_asks_for_truco_in_the_mao_de_onze_or_de_ferro(special: Special) -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: nobody may ask for truco."""
    for side in (NOS, ELES):
        with pytest.raises(RulesError, match="ninguém pode pedir truco"):
            Bet.start(special).ask(side)


def test_answers_without_a_request_or_from_a_third_side_are_refused() -> None:
    """/regras#truco: an answer needs a request; a table has two sides."""
    with pytest.raises(RulesError, match="Não há pedido"):
        Bet().accept(ELES)
    with pytest.raises(RulesError, match="Lado inexistente"):
        Bet().ask(2)


@pytest.mark.parametrize(
    ("special", "worth", "won", "lost"),
    [
        (Special.NORMAL, 1, Outcome(Kind.NORMAL, NOS, 1), Outcome(Kind.NORMAL, ELES, 1)),
        (Special.ONZE_NOS, 3, Outcome(Kind.ONZE_GANHOU, NOS), Outcome(Kind.ONZE_PERDEU, ELES)),
        (Special.ONZE_ELES, 3, Outcome(Kind.ONZE_PERDEU, NOS), Outcome(Kind.ONZE_GANHOU, ELES)),
        (Special.FERRO, 1, Outcome(Kind.FERRO, NOS), Outcome(Kind.FERRO, ELES)),
    ],
)
def test_the_kind_of_hand_sets_its_value_and_what_the_board_records(
    special: Special, worth: int, won: Outcome, lost: Outcome
) -> None:
    """/regras#mao-de-onze, /regras#mao-de-ferro and /regras#pontos: a played mão de onze is
    worth 3, the mão de ferro 1; the winner's record is the one the score keeps for that kind
    of hand."""
    bet = Bet.start(special)
    assert bet.worth == worth and bet.hand is special
    assert bet.won(NOS) == won and bet.won(ELES) == lost
    assert bet.run(ELES) == won and bet.run(NOS) == lost
    assert bet.void() == Outcome(Kind.ANULADA)


def test_only_the_side_at_eleven_declines_its_hand() -> None:
    """/regras#mao-de-onze: "se correr, os adversários marcam 1 ponto"; the
    other kinds of hand have nothing to decline."""
    assert Bet.start(Special.ONZE_NOS).decline() == Outcome(Kind.ONZE_CORREU, ELES)
    assert Bet.start(Special.ONZE_ELES).decline() == Outcome(Kind.ONZE_CORREU, NOS)
    assert Outcome(Kind.ONZE_CORREU, ELES).gain == 1
    for special in (Special.NORMAL, Special.FERRO):
        with pytest.raises(RulesError, match="mão de onze"):
            Bet.start(special).decline()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"worth": 2},
        {"pending": 3},
        {"pending": 6, "asker": 0},
        {"worth": 3, "hand": Special.FERRO},
        {"hand": Special.FERRO, "locked": 0},
    ],
)
def test_a_bet_no_hand_can_reach_is_refused(kwargs: dict[str, object]) -> None:
    """/regras#truco: the value is 1, 3, 6, 9 or 12 and a call asks the next step only."""
    with pytest.raises(RulesError):
        Bet(**kwargs)  # type: ignore[arg-type]
