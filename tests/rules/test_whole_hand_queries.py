"""What the page asks the whole-hand engine while a hand is entered: who may put a card down,
which cards are gone, who may say what, and the note a finished hand leaves on the board.

/regras#truco, #correr, #mao-de-onze, #mao-de-ferro and #rodadas-e-empates; the vira 4 de ouros
makes the 5s the manilhas.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import Card, RuleSet, Special, Word, hand_note, judge_whole_hand

RULES = RuleSet()


def state(events: str, players: int = 4, special: Special = Special.NORMAL, **rules: str):
    """The hand after `events` (all legal)."""
    verdict = judge_whole_hand(
        events, ruleset=RuleSet(**rules), players=players, vira="4o", special=special
    )
    assert verdict.illegal is None, verdict.illegal
    return verdict.state


def test_no_card_goes_down_while_a_call_waits() -> None:
    """/regras#truco: while the truco waits for its answer nobody may put a card down."""
    assert state("").card_turn == 1
    assert state("1:truco").card_turn is None
    assert state("1:truco,2:aceita").card_turn == 1


def test_nobody_puts_a_card_down_after_the_hand_is_over() -> None:
    """/regras#correr: once someone ran the hand is over and nobody's turn comes."""
    finished = state("1:truco,2:corre")
    assert finished.card_turn is None and finished.speakers() == ()


def test_the_vira_and_every_card_shown_are_seen() -> None:
    """/regras#cartas-e-manilhas and /regras#carta-coberta: the vira and the cards put down
    can't be put down again; a covered card whose face is unknown hides nothing."""
    seen = state("1:3p,2:2c,3:Ae,4:Ko,1:X,2:X:7c").seen
    assert seen == {Card.parse(c) for c in ("4o", "3p", "2c", "Ae", "Ko", "7c")}


def test_the_round_number_follows_the_rounds_played() -> None:
    """/regras#rodadas-e-empates: round 2 comes after four cards in 2x2; a hand run from in
    round 1 stays in round 1."""
    assert state("").round_number == 1
    assert state("1:3p,2:2c,3:Ae,4:Ko").round_number == 2
    assert state("1:corre").round_number == 1


def test_the_turn_seat_may_call_truco_or_run() -> None:
    """/regras#truco: on one's turn, before the card, one may ask for truco or run; nobody
    else may say anything."""
    assert state("").speakers() == ((1, (Word.TRUCO, Word.CORRE)),)


def test_only_the_next_opponent_answers_a_truco() -> None:
    """/regras#truco: the next opponent in play order answers, accepting, running or raising."""
    assert state("1:truco").speakers() == ((2, (Word.SEIS, Word.ACEITA, Word.CORRE)),)


def test_any_opponent_answers_under_resposta_qualquer() -> None:
    """/regras#truco, the variant: any player of the other side may answer, the first answer
    counts."""
    seats = [seat for seat, _ in state("1:truco", answerer="qualquer").speakers()]
    assert seats == [2, 4]


def test_the_side_at_eleven_decides_and_nobody_calls() -> None:
    """/regras#mao-de-onze: the first of the side at eleven decides (aceita or corre); the mão,
    of the other side, may not ask for truco."""
    speakers = dict(state("", special=Special.ONZE_ELES).speakers())
    assert speakers[2] == (Word.ACEITA, Word.CORRE)
    assert Word.TRUCO not in speakers.get(1, ())


TWO_ROUNDS = "1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"


@pytest.mark.parametrize(
    ("events", "special", "note"),
    [
        (TWO_ROUNDS, Special.NORMAL, "mão simples"),
        ("1:truco,2:aceita," + TWO_ROUNDS, Special.NORMAL, "truco aceito"),
        ("1:truco,2:seis,1:corre", Special.NORMAL, "correram do seis"),
        ("1:truco,2:aceita,1:corre", Special.NORMAL, "truco aceito, correram na vez"),
        ("1:aceita," + TWO_ROUNDS, Special.ONZE_NOS, "mão de onze jogada"),
        ("1:corre", Special.ONZE_NOS, "correram da mão de onze"),
        (TWO_ROUNDS, Special.FERRO, "mão de ferro"),
    ],
)
def test_a_finished_hand_says_how_it_went_in_the_board_notes_words(
    events: str, special: Special, note: str
) -> None:
    """/regras#pontos: the note names the call accepted or run from, or the special hand."""
    verdict = judge_whole_hand(events, ruleset=RULES, players=4, vira="4o", special=special)
    assert verdict.note == note


def test_an_unfinished_hand_has_no_note() -> None:
    """A hand still being played leaves nothing on the board."""
    verdict = judge_whole_hand("1:truco", ruleset=RULES, players=4, vira="4o")
    assert verdict.note is None


def test_the_note_of_a_run_from_doze() -> None:
    """/regras#correr: running from the doze is 'correram do doze'."""
    assert hand_note(Special.NORMAL, ran_from=Word.DOZE) == "correram do doze"
