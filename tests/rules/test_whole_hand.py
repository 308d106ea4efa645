"""Judging a whole hand from its events: turns, cards, calls, answers, running and points.

/regras#rodadas-e-empates, #cartas-e-manilhas, #carta-coberta, #truco, #correr, #mao-de-onze,
#mao-de-ferro and #pontos, with their variants (who opens after a tie; any player of the side
answers a call or decides the mão de onze). Expectations are written from the rule book's text.
Quoted Portuguese is Joga Truco's, the default text (docs/rules-sources.md), unless a test
names another.

Seats are 1..N in play order: odd seats are "nós" (side 0), even seats "eles" (side 1). With the
vira 4 de ouros the manilhas are the 5s, so every other rank below is a common card
(3 > 2 > A > K > J > Q > 7 > 6 > 4).
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    Card,
    CardEvent,
    Code,
    Ending,
    EventRefused,
    Kind,
    MatchConfig,
    MatchState,
    Names,
    Outcome,
    Result,
    RuleBroken,
    RulesError,
    RuleSet,
    Section,
    Special,
    Word,
    WordEvent,
    format_events,
    judge_hand,
    judge_whole_hand,
    parse_event,
    parse_events,
    word,
)
from scorekeeper.rules.reasons import Reason

from .rulesets import FIXA, LIMPO, SUJO

NOS, ELES = 0, 1
VIRA = "4o"
PRIMEIRA = RuleSet(tie_opener="primeira_empatada")
QUALQUER = RuleSet(answerer="qualquer")

# Round 1 won by seat 1 (nós) with the 3; round 2 won by seat 1 with the 2; a tied round 2.
R1_NOS = ["1:3p", "2:2c", "3:Kp", "4:Ko"]
R2_NOS = ["1:2p", "2:Ae", "3:Qp", "4:Qo"]
R2_TIE = ["1:Ac", "2:Ae", "3:Qp", "4:Qo"]


def judge(events, *, ruleset=SUJO, players=4, vira=VIRA, mao=1, special=Special.NORMAL):
    if ruleset.fixed:
        vira = None
    return judge_whole_hand(
        events, ruleset=ruleset, players=players, vira=vira, mao=mao, special=special
    )


def refused(events, **kwargs) -> tuple[int, Reason]:
    """The position and reason of the refused event (the hand must refuse one)."""
    verdict = judge(events, **kwargs)
    assert verdict.illegal is not None, f"nothing refused in {events}"
    assert verdict.result is Result.INVALIDO
    assert verdict.outcome is None and verdict.points == 0
    return verdict.illegal.position, verdict.illegal.reason


def legal(events, **kwargs):
    verdict = judge(events, **kwargs)
    assert verdict.illegal is None, verdict.illegal.message()
    return verdict


# --------------------------------------------------------------------------------------------
# Turn order
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mao", [1, 2, 3, 4])
def test_round_one_opens_with_the_mao(mao: int) -> None:
    """/regras#rodadas-e-empates: "O primeiro a jogar é o mão"."""
    assert legal([f"{mao}:3p"], mao=mao).openers == (mao,)
    other = mao % 4 + 1
    position, reason = refused([f"{other}:3p"], mao=mao)
    assert position == 1
    assert (reason.code, reason.seat, reason.other) == (Code.CARD_OUT_OF_TURN, other, mao)


def test_play_goes_round_the_table_in_seat_order() -> None:
    """/regras#rodadas-e-empates: "A ordem de jogo é anti-horária: depois de você, joga quem está à
    sua direita" (seats are numbered in play order)."""
    verdict = legal(["3:3p", "4:2c", "1:Kp", "2:Ko"], mao=3)
    assert verdict.rounds[0].opener == 3
    assert [p.seat for p in verdict.rounds[0].plays] == [3, 4, 1, 2]
    position, reason = refused(["3:3p", "1:2c"], mao=3)
    assert position == 2 and reason.code is Code.CARD_OUT_OF_TURN and reason.other == 4


def test_play_alternates_in_1x1() -> None:
    """/regras#rodadas-e-empates: "Com 2 jogadores é um contra um"."""
    verdict = legal(["2:3p", "1:2c", "2:Ac", "1:Kc"], players=2, mao=2)
    assert verdict.result is Result.ELES and verdict.points == 1
    position, reason = refused(["2:3p", "2:2c"], players=2, mao=2)
    assert position == 2 and reason.code is Code.CARD_OUT_OF_TURN and reason.other == 1


def test_the_round_winner_opens_the_next_round() -> None:
    """/regras#rodadas-e-empates: "Quem ganhou a rodada começa a próxima"."""
    first = ["1:2p", "2:Ae", "3:Qp", "4:3c"]  # seat 4 wins with the 3
    verdict = legal([*first, "4:Kc"])
    assert verdict.rounds[0].winning_seat == 4 and verdict.rounds[0].next_opener == 4
    assert verdict.openers == (1, 4)
    position, reason = refused([*first, "1:Kc"])
    assert position == 5 and reason.code is Code.CARD_OUT_OF_TURN and reason.other == 4


def test_partners_with_equal_top_cards_the_first_of_them_opens_next() -> None:
    """/regras#rodadas-e-empates: "se os dois parceiros jogarem as cartas mais fortes, a rodada
    é deles"; the first of the two equal cards (in play order) opens the next round."""
    first = ["3:Kp", "4:3p", "1:2c", "2:3c"]  # seats 4 and 2 (eles) both play a 3
    verdict = legal([*first, "4:Ko"], mao=3)
    result = verdict.rounds[0]
    assert result.winner == ELES and result.winning_seat == 4 and result.next_opener == 4
    assert refused([*first, "2:Ko"], mao=3)[0] == 5


def test_after_a_tied_round_the_mao_opens_the_next() -> None:
    """/regras#rodadas-e-empates: "Depois de uma rodada empatada, a próxima é aberta por quem
    é o mão"."""
    tie = ["2:Kp", "3:3p", "4:3c", "1:Ko"]  # seats 3 and 4 tie with the 3s
    verdict = legal([*tie, "2:2p"], mao=2)
    assert verdict.results == (None,)
    assert verdict.openers == (2, 2)
    assert Reason(Code.NEXT_BY_MAO, round=2, seat=2) in verdict.reasons
    assert refused([*tie, "3:2p"], mao=2)[0] == 5


def test_after_a_tied_round_the_first_tying_card_opens_under_primeira_empatada() -> None:
    """/regras#rodadas-e-empates, the variant as the Duplas text gives it: "No caso da rodada
    anterior ter empatado, começa por aquele jogador que pôs na mesa a primeira carta que
    empatou"."""
    tie = ["2:Kp", "3:3p", "4:3c", "1:Ko"]
    verdict = legal([*tie, "3:2p"], mao=2, ruleset=PRIMEIRA)
    assert verdict.openers == (2, 3)
    assert Reason(Code.NEXT_BY_FIRST_TIE, round=2, seat=3) in verdict.reasons
    assert refused([*tie, "2:2p"], mao=2, ruleset=PRIMEIRA)[0] == 5


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------


def test_a_card_is_played_at_most_once_in_the_hand() -> None:
    """/regras#cartas-e-manilhas: each player gets three cards of one deck, so no card is played
    twice in a hand (the rule book: "Cada carta existe uma vez só")."""
    position, reason = refused([*R1_NOS, "1:Kp"])
    assert position == 5
    assert (reason.code, reason.card, reason.other, reason.round) == (
        Code.CARD_PLAYED_TWICE,
        Card.parse("Kp"),
        3,
        1,
    )
    assert refused(["1:3p", "2:3p"])[1].code is Code.CARD_PLAYED_TWICE


def test_a_covered_card_with_a_known_face_counts_as_played() -> None:
    """/regras#carta-coberta: a covered card is still one of the player's cards; its face,
    when known, cannot appear again."""
    position, reason = refused([*R1_NOS, "1:X:Ac", "2:Ac"])
    assert position == 6 and reason.code is Code.CARD_PLAYED_TWICE
    position, reason = refused([*R1_NOS, "1:X:3p"])
    assert position == 5 and reason.code is Code.CARD_PLAYED_TWICE


def test_the_vira_is_never_played() -> None:
    """/regras#cartas-e-manilhas: "A vira não é de ninguém e não se joga"."""
    position, reason = refused(["1:4o"])
    assert position == 1 and reason.code is Code.VIRA_PLAYED
    assert refused([*R1_NOS, "1:X:4o"])[1].code is Code.VIRA_PLAYED


def test_a_card_outside_the_deck_is_refused() -> None:
    """/regras#cartas-e-manilhas: the baralho limpo has no 4, 5, 6 or 7."""
    position, reason = refused(["1:3p", "2:7c"], ruleset=LIMPO, vira="Ko")
    assert position == 2 and reason.code is Code.NOT_IN_DECK and reason.card == Card.parse("7c")


def test_covered_cards_only_from_the_second_round() -> None:
    """/regras#carta-coberta: "A partir da segunda rodada ... você pode jogar uma carta
    coberta ... Na primeira rodada não pode"; a covered card loses to any open card."""
    position, reason = refused(["1:3p", "2:X"])
    assert position == 2 and reason.code is Code.COVERED_IN_FIRST_ROUND
    verdict = legal([*R1_NOS, "1:X:5p", "2:4c", "3:X", "4:X"])  # the zap, covered, counts nothing
    assert verdict.results == (NOS, ELES)
    assert verdict.rounds[1].winning_seat == 2


def test_a_round_of_covered_cards_is_a_tie() -> None:
    """/regras#carta-coberta: "Uma rodada só com cartas cobertas é empate"."""
    verdict = legal([*R1_NOS, "1:X", "2:X", "3:X", "4:X"])
    assert verdict.results == (NOS, None)
    assert verdict.result is Result.NOS and verdict.points == 1


def test_two_rounds_won_end_the_hand() -> None:
    """/regras#rodadas-e-empates: "Quem ganhar duas rodadas leva a mão"; no third round after a
    decided second, and nothing after the end."""
    verdict = legal([*R1_NOS, *R2_NOS])
    assert verdict.result is Result.NOS and verdict.outcome == Outcome(Kind.NORMAL, NOS, 1)
    assert verdict.state.ending is Ending.ROUNDS
    for extra in ("1:Jc", "2:Jc", "1:truco", "2:corre", "3:aceita"):
        position, reason = refused([*R1_NOS, *R2_NOS, extra])
        assert position == 9 and reason.code is Code.HAND_OVER


def test_won_first_tied_second_ends_the_hand() -> None:
    """/regras#rodadas-e-empates: "Ganhou a primeira e empatou a segunda: leva quem ganhou a
    primeira"."""
    verdict = legal([*R1_NOS, *R2_TIE])
    assert verdict.results == (NOS, None) and verdict.winner == NOS
    assert [r.label for r in verdict.rounds] == ["nos", "empate"]
    assert Reason(Code.WON_FIRST_TIED_SECOND, side=NOS) in verdict.reasons
    assert refused([*R1_NOS, *R2_TIE, "1:Jc"])[1].code is Code.HAND_OVER


def test_tied_first_round_goes_to_the_second_round_winner() -> None:
    """/regras#rodadas-e-empates: "Empatou a primeira: quem ganhar a segunda leva a mão"."""
    tie = ["1:3p", "2:3c", "3:Kp", "4:Ko"]
    verdict = legal([*tie, "1:Jp", "2:2c", "3:Qp", "4:Qo"])
    assert verdict.results == (None, ELES)
    assert verdict.outcome == Outcome(Kind.NORMAL, ELES, 1)


def test_one_round_each_the_third_decides() -> None:
    """/regras#rodadas-e-empates: one round each, the third decides; tied third: the winner
    of the first."""
    second = ["1:Jp", "2:2o", "3:Qp", "4:Qo"]  # seat 2 wins, opens the third
    third = ["2:Jc", "3:Je", "4:Ke", "1:Ae"]  # seat 1 wins with the ás
    verdict = legal([*R1_NOS, *second, *third])
    assert verdict.results == (NOS, ELES, NOS) and verdict.winner == NOS
    tied_third = ["2:Ac", "3:Ae", "4:Ke", "1:Je"]
    verdict = legal([*R1_NOS, *second, *tied_third])
    assert verdict.results == (NOS, ELES, None) and verdict.winner == NOS


def test_three_tied_rounds_void_the_hand() -> None:
    """/regras#rodadas-e-empates: "Empataram as três: ... a mão é anulada e ninguém marca
    pontos"."""
    events = ["1:3p", "2:3c", "3:4p", "4:4c", "1:2p", "2:2c", "3:Ae", "4:Ac"]
    events += ["1:Kp", "2:Kc", "3:Je", "4:Jc"]
    verdict = legal(["1:truco", "2:aceita", *events])
    assert verdict.result is Result.ANULADA
    assert verdict.outcome == Outcome(Kind.ANULADA) and verdict.points == 0
    assert verdict.winner is None
    assert Reason(Code.VOIDED) in verdict.reasons


# --------------------------------------------------------------------------------------------
# Calls
# --------------------------------------------------------------------------------------------


def test_a_call_only_on_your_turn() -> None:
    """/regras#truco: "Na sua vez, antes de jogar a carta, você pode pedir Truco"."""
    position, reason = refused(["2:truco"])
    assert position == 1
    assert (reason.code, reason.seat, reason.other) == (Code.CALL_OUT_OF_TURN, 2, 1)
    assert legal(["1:3p", "2:truco"]).state.caller == 2


def test_a_call_only_before_your_card() -> None:
    """/regras#truco: "antes de jogar a carta"; once the card is down the turn has moved on."""
    position, reason = refused(["1:3p", "1:truco"])
    assert position == 2 and reason.code is Code.CALL_OUT_OF_TURN and reason.other == 2


def test_the_last_card_of_the_third_round_may_still_be_trucado() -> None:
    """/regras#truco: "Dá para pedir truco (ou aumentar) em qualquer momento da mão, até a
    última carta da terceira rodada"."""
    second = ["1:Jp", "2:2o", "3:Qp", "4:Qo"]
    third = ["2:Jc", "3:Je", "4:Ke"]
    verdict = legal([*R1_NOS, *second, *third, "1:truco", "2:aceita", "1:Ae"])
    assert verdict.outcome == Outcome(Kind.NORMAL, NOS, 3)


def test_no_call_while_a_call_waits() -> None:
    """/regras#truco: "sempre na sua vez e sem um pedido esperando resposta"."""
    position, reason = refused(["1:truco", "3:seis"])
    assert position == 2 and reason.code is Code.CALL_WAITS and reason.word is Word.TRUCO
    position, reason = refused(["1:truco", "1:truco"])
    assert position == 2 and reason.code is Code.CALL_WAITS


def test_no_card_while_a_call_waits() -> None:
    """/regras#truco: "Depois da resposta, você continua a sua jogada": nobody plays before
    the answer."""
    for card in ("1:3p", "2:3p"):
        position, reason = refused(["1:truco", card])
        assert position == 2 and reason.code is Code.CARD_WHILE_CALL_WAITS


def test_after_the_answer_the_caller_plays_his_card() -> None:
    """/regras#truco: "Depois da resposta, você continua a sua jogada"."""
    verdict = legal(["1:3p", "2:truco", "3:aceita"])
    assert verdict.state.turn == 2 and verdict.worth == 3
    assert refused(["1:3p", "2:truco", "3:aceita", "3:2c"])[1].code is Code.CARD_OUT_OF_TURN
    assert legal(["1:3p", "2:truco", "3:aceita", "2:2c"]).state.turn == 3


def test_the_next_opponent_in_play_order_answers_in_2x2() -> None:
    """/regras#truco: "Em duplas ... quem responde é o próximo adversário na ordem de jogo"."""
    position, reason = refused(["1:truco", "4:aceita"])
    assert position == 2
    assert (reason.code, reason.seat, reason.other) == (Code.NOT_THE_ANSWERER, 4, 2)
    assert legal(["1:truco", "2:aceita"]).worth == 3
    # Seat 4 calls: the next opponent is seat 1 (after 4 comes 1).
    calls = ["1:3p", "2:2c", "3:Kp", "4:truco"]
    assert refused([*calls, "3:aceita"])[1].other == 1
    assert legal([*calls, "1:aceita"]).worth == 3


def test_any_opponent_answers_under_resposta_qualquer_and_the_first_answer_counts() -> None:
    """/regras#truco, the variant as the Duplas text gives it: "Qualquer um dos jogadores pode
    responder o pedido e vale a primeira resposta dada, mesmo que eles se contradigam entre
    si"."""
    assert legal(["1:truco", "4:aceita"], ruleset=QUALQUER).worth == 3
    assert legal(["1:truco", "2:aceita"], ruleset=QUALQUER).worth == 3
    # The partner's contradicting answer comes too late: the truco was already accepted.
    position, reason = refused(["1:truco", "4:aceita", "2:corre"], ruleset=QUALQUER)
    assert position == 3 and reason.code is Code.RUN_OUT_OF_TURN
    verdict = legal(["1:truco", "4:corre"], ruleset=QUALQUER)
    assert verdict.outcome == Outcome(Kind.NORMAL, NOS, 1)
    position, reason = refused(["1:truco", "4:corre", "2:aceita"], ruleset=QUALQUER)
    assert position == 3 and reason.code is Code.HAND_OVER
    assert judge(["1:truco"], ruleset=QUALQUER).state.answerers() == (2, 4)


def test_the_side_that_asked_does_not_answer() -> None:
    """/regras#truco: "Quem recebe o pedido" answers, that is the other side."""
    position, reason = refused(["1:truco", "3:aceita"])
    assert position == 2 and reason.code is Code.ASKER_DOES_NOT_ANSWER
    position, reason = refused(["1:truco", "1:corre"])
    assert position == 2 and reason.code is Code.ASKER_DOES_NOT_RUN


def test_a_raise_goes_back_to_the_player_who_asked() -> None:
    """/regras#truco: "o aumento volta para quem fez o pedido"; under the variant
    resposta=qualquer the other side answers, any of its players."""
    position, reason = refused(["1:truco", "2:seis", "3:aceita"])
    assert position == 3
    assert (reason.code, reason.other) == (Code.NOT_THE_ANSWERER, 1)
    assert legal(["1:truco", "2:seis", "1:aceita"]).worth == 6
    assert legal(["1:truco", "2:seis", "3:aceita"], ruleset=QUALQUER).worth == 6
    chain = legal(["1:truco", "2:seis", "1:nove", "2:doze", "1:aceita"])
    assert chain.worth == 12


def test_only_the_side_that_accepted_asks_next() -> None:
    """/regras#truco: "Depois de um pedido aceito, só o lado que aceitou pode pedir o
    próximo"."""
    position, reason = refused(["1:truco", "2:aceita", "1:seis"])
    assert position == 3 and reason.code is Code.ONLY_ACCEPTER_ASKS and reason.side == ELES
    accepted = ["1:truco", "2:aceita", "1:3p"]
    verdict = legal([*accepted, "2:seis", "3:aceita"])
    assert verdict.worth == 6
    # Now nós accepted last: eles may not ask again until nós ask.
    more = [*accepted, "2:seis", "3:aceita", "2:2c", "3:Kp"]
    assert refused([*more, "4:nove"])[1].code is Code.ONLY_ACCEPTER_ASKS


def test_the_first_call_is_truco_and_calls_climb_one_step_at_a_time() -> None:
    """/regras#truco: truco 3, then seis 6, nove 9, doze 12 ("pedir o próximo degrau")."""
    position, reason = refused(["1:seis"])
    assert position == 1 and (reason.code, reason.points) == (Code.WRONG_STEP, 3)
    assert "primeiro pedido é sempre truco" in word(reason)
    position, reason = refused(["1:truco", "2:nove"])
    assert position == 2 and (reason.code, reason.points) == (Code.WRONG_STEP, 6)
    position, reason = refused(["1:truco", "2:truco"])
    assert position == 2 and (reason.code, reason.points) == (Code.WRONG_STEP, 6)


def test_nothing_above_doze() -> None:
    """/regras#truco: "Doze: 12 pontos, o máximo"; the Duplas text too: "No pedido de 12
    não existe a opção de retrucar, só aceitar ou correr"."""
    to_doze = ["1:truco", "2:seis", "1:nove", "2:doze"]
    position, reason = refused([*to_doze, "1:doze"])
    assert position == 5 and reason.code is Code.NOTHING_ABOVE_DOZE
    verdict = legal([*to_doze, "1:aceita", "1:3p", "2:2c", "3:Kp"])
    assert verdict.worth == 12
    assert refused([*to_doze, "1:aceita", "1:3p", "2:truco"])[1].code is Code.NOTHING_ABOVE_DOZE


@pytest.mark.parametrize("special", [Special.ONZE_NOS, Special.ONZE_ELES, Special.FERRO])
@pytest.mark.parametrize("call", ["truco", "seis", "doze"])
def test_no_call_in_the_mao_de_onze_or_de_ferro(special: Special, call: str) -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: "Na mão de onze ninguém pode pedir
    truco", the mão de ferro "não tem truco"."""
    position, reason = refused([f"1:{call}"], special=special)
    assert position == 1 and reason.code is Code.NO_CALL_IN_SPECIAL
    assert reason.section is (Section.FERRO if special is Special.FERRO else Section.ONZE)


def test_an_answer_with_nothing_waiting_is_refused() -> None:
    """/regras#truco: one answers a call; with no call there is nothing to accept."""
    position, reason = refused(["1:aceita"])
    assert position == 1 and reason.code is Code.NOTHING_TO_ANSWER
    position, reason = refused(["1:truco", "2:aceita", "2:aceita"])
    assert position == 3 and reason.code is Code.NOTHING_TO_ANSWER


# --------------------------------------------------------------------------------------------
# Points and running
# --------------------------------------------------------------------------------------------

LADDER = [
    ([], 1),
    (["1:truco", "2:aceita"], 3),
    (["1:truco", "2:seis", "1:aceita"], 6),
    (["1:truco", "2:seis", "1:nove", "2:aceita"], 9),
    (["1:truco", "2:seis", "1:nove", "2:doze", "1:aceita"], 12),
]


@pytest.mark.parametrize(("calls", "worth"), LADDER, ids=["1", "3", "6", "9", "12"])
def test_the_winner_scores_what_the_hand_is_worth(calls: list[str], worth: int) -> None:
    """/regras#pontos: "Quem ganha a mão marca os pontos que ela valia: 1, 3, 6, 9 ou 12"."""
    verdict = legal([*calls, *R1_NOS, *R2_NOS])
    assert verdict.outcome == Outcome(Kind.NORMAL, NOS, worth)
    assert verdict.points == worth and verdict.winner == NOS
    assert verdict.accepted == (None if worth == 1 else Word.call_for(worth))


RUNS = [
    (["1:truco", "2:corre"], NOS, 1, Word.TRUCO),
    (["1:truco", "2:seis", "1:corre"], ELES, 3, Word.SEIS),
    (["1:truco", "2:seis", "1:nove", "2:corre"], NOS, 6, Word.NOVE),
    (["1:truco", "2:seis", "1:nove", "2:doze", "1:corre"], ELES, 9, Word.DOZE),
]


@pytest.mark.parametrize(("events", "side", "points", "call"), RUNS, ids=["1", "3", "6", "9"])
def test_running_from_a_call_gives_the_caller_the_value_before_it(
    events: list[str], side: int, points: int, call: Word
) -> None:
    """/regras#correr: "Correr: a mão acaba e quem pediu marca o valor que a mão tinha antes do
    pedido" (truco 1, seis 3, nove 6, doze 9)."""
    verdict = legal(events)
    assert verdict.outcome == Outcome(Kind.NORMAL, side, points)
    assert verdict.state.ending is Ending.RAN and verdict.ran_from is call
    assert refused([*events, "1:3p"])[1].code is Code.HAND_OVER


def test_running_on_your_turn_gives_the_other_side_the_value_now() -> None:
    """/regras#correr: "na sua vez, sem pedido pendente (o outro lado marca o que a mão vale
    naquele momento)"."""
    assert legal(["1:corre"]).outcome == Outcome(Kind.NORMAL, ELES, 1)
    verdict = legal(["1:truco", "2:aceita", "1:3p", "2:corre"])
    assert verdict.outcome == Outcome(Kind.NORMAL, NOS, 3)
    assert verdict.ran_from is None and verdict.state.ending is Ending.RAN


def test_running_out_of_turn_is_refused() -> None:
    """/regras#correr: with no call waiting one runs only "na sua vez"."""
    position, reason = refused(["2:corre"])
    assert position == 1
    assert (reason.code, reason.seat, reason.other) == (Code.RUN_OUT_OF_TURN, 2, 1)


def test_in_2x2_one_player_running_ends_the_hand_for_the_side() -> None:
    """/regras#correr: "Em duplas, se um jogador corre, o lado inteiro corre e a mão acaba"."""
    verdict = legal(["1:3p", "2:2c", "3:corre"])
    assert verdict.outcome == Outcome(Kind.NORMAL, ELES, 1)
    assert refused(["1:3p", "2:2c", "3:corre", "4:Kc"])[1].code is Code.HAND_OVER


def test_a_played_mao_de_onze_is_worth_three() -> None:
    """/regras#mao-de-onze: "Se jogar, a mão vale 3 pontos"."""
    won = legal(["1:aceita", *R1_NOS, *R2_NOS], special=Special.ONZE_NOS)
    assert won.outcome == Outcome(Kind.ONZE_GANHOU, NOS) and won.points == 3
    lost = legal(["2:aceita", *R1_NOS, *R2_NOS], special=Special.ONZE_ELES)
    assert lost.outcome == Outcome(Kind.ONZE_PERDEU, NOS) and lost.points == 3
    assert lost.worth == 3


def test_running_from_the_mao_de_onze_gives_the_other_side_one() -> None:
    """/regras#mao-de-onze: "decide se joga ou corre ... se correr, os
    adversários marcam 1 ponto"; the Duplas text: the cards are collected "sem jogar nenhuma
    rodada"."""
    verdict = legal(["1:corre"], special=Special.ONZE_NOS)
    assert verdict.outcome == Outcome(Kind.ONZE_CORREU, ELES) and verdict.points == 1
    assert verdict.state.ending is Ending.DECLINED
    assert refused(["1:corre", "1:3p"], special=Special.ONZE_NOS)[1].code is Code.HAND_OVER


def test_the_mao_de_onze_is_decided_by_the_first_player_of_the_side() -> None:
    """/regras#mao-de-onze: "Em duplas, quem decide é o primeiro jogador do
    lado na ordem de jogo" (the default); the variant, as the Duplas text gives it: "Qualquer
    um dos jogadores da dupla da mão de onze pode responder se aceita ou não a mão e vale a
    primeira resposta dada"."""
    # The mão is seat 2 (eles); nós at eleven: after seat 2 comes seat 3, the decider.
    position, reason = refused(["1:corre"], special=Special.ONZE_NOS, mao=2)
    assert position == 1 and (reason.code, reason.other) == (Code.ONZE_NOT_DECIDER, 3)
    verdict = legal(["3:corre"], special=Special.ONZE_NOS, mao=2)
    assert verdict.outcome == Outcome(Kind.ONZE_CORREU, ELES)
    verdict = legal(["1:corre"], special=Special.ONZE_NOS, mao=2, ruleset=QUALQUER)
    assert verdict.outcome == Outcome(Kind.ONZE_CORREU, ELES)
    # First answer counts: once the side plays, the partner cannot run from the decision.
    events = ["3:aceita", "1:corre"]
    position, reason = refused(events, special=Special.ONZE_NOS, mao=2, ruleset=QUALQUER)
    assert position == 2 and reason.code is Code.RUN_OUT_OF_TURN


@pytest.mark.parametrize("mao", [1, 2])
@pytest.mark.parametrize("special", [Special.ONZE_NOS, Special.ONZE_ELES])
def test_no_card_is_played_before_the_mao_de_onze_is_decided(special: Special, mao: int) -> None:
    """/regras#mao-de-onze: the side at eleven decides "necessariamente antes que o primeiro
    jogador ponha a primeira carta da rodada na mesa" (the Duplas text): a first card, from
    either side, is refused until the decision, with the rule's section."""
    position, reason = refused([f"{mao}:3p"], special=special, mao=mao)
    assert (position, reason.code, reason.section) == (1, Code.ONZE_FIRST, Section.ONZE)
    assert reason.side == special.onze_side
    assert judge("", special=special, mao=mao).state.card_turn is None


def test_nobody_runs_before_the_mao_de_onze_is_decided() -> None:
    """/regras#mao-de-onze: before the decision the other side's mão may not run on its turn
    (that would count as running from a hand nobody has played)."""
    position, reason = refused(["2:corre"], special=Special.ONZE_NOS, mao=2)
    assert (position, reason.code) == (1, Code.ONZE_FIRST)
    position, reason = refused(["2:aceita"], special=Special.ONZE_NOS, mao=2)
    assert (position, reason.code) == (1, Code.ONZE_FIRST)


def test_no_truco_is_called_before_or_after_the_mao_de_onze_decision() -> None:
    """/regras#mao-de-onze: "Na mão de onze ninguém pode pedir truco", before the decision
    too."""
    for events in (["2:truco"], ["1:truco"], ["1:aceita", "1:truco"]):
        position, reason = refused(events, special=Special.ONZE_NOS)
        assert reason.code is Code.NO_CALL_IN_SPECIAL and reason.section is Section.ONZE


def test_the_pair_at_eleven_decides_together_and_its_first_player_says_it() -> None:
    """/regras#mao-de-onze: in 2x2 the partners see each other's cards and decide together:
    "Decidem" names both, in play order from the mão, and who says it; in 1x1 one decides."""
    names = Names(("Brabos", "Patos"), ("Dani", "Zé", "Carlão", "Bia"))
    pair = judge("", special=Special.ONZE_ELES, mao=3)
    standing = pair.reasons[-1]
    assert (standing.code, standing.seats, standing.other) == (Code.ONZE_DECIDES, (4, 2), 4)
    assert word(standing, names) == (
        "Decidem: Bia e Zé. Jogam a mão de onze ou correm, antes de qualquer carta; quem diz é Bia."
    )
    anyone = judge("", special=Special.ONZE_ELES, mao=3, ruleset=QUALQUER).reasons[-1]
    assert word(anyone, names).endswith("; vale a primeira resposta.")
    alone = judge("", special=Special.ONZE_NOS, players=2).reasons[-1]
    assert word(alone, Names(("Zé", "Tião"), ("Zé", "Tião"))) == (
        "Decide: Zé. Joga a mão de onze ou corre, antes de qualquer carta."
    )


def test_after_the_mao_de_onze_is_played_running_on_ones_turn_gives_three() -> None:
    """/regras#mao-de-onze and /regras#correr: once the side plays, the hand is worth 3 and
    running on one's turn gives the other side those 3."""
    verdict = legal(["1:aceita", "1:3p"], special=Special.ONZE_NOS)
    assert Reason(Code.ONZE_PLAYED, seat=1, side=NOS) in verdict.reasons
    position, reason = refused(["1:aceita", "1:3p", "3:corre"], special=Special.ONZE_NOS)
    assert position == 3 and reason.code is Code.RUN_OUT_OF_TURN
    ran = legal(["1:aceita", "1:3p", "2:2c", "3:corre"], special=Special.ONZE_NOS)
    assert ran.outcome == Outcome(Kind.ONZE_PERDEU, ELES) and ran.points == 3
    ran = legal(["1:aceita", "1:3p", "2:corre"], special=Special.ONZE_NOS)
    assert ran.outcome == Outcome(Kind.ONZE_GANHOU, NOS) and ran.points == 3


def test_the_mao_de_ferro_is_worth_one() -> None:
    """/regras#mao-de-ferro: "joga-se a mão de ferro: vale 1 ponto, não tem
    truco"."""
    verdict = legal([*R1_NOS, *R2_NOS], special=Special.FERRO)
    assert verdict.outcome == Outcome(Kind.FERRO, NOS) and verdict.points == 1
    assert legal(["1:corre"], special=Special.FERRO).outcome == Outcome(Kind.FERRO, ELES)


@pytest.mark.parametrize("special", list(Special))
def test_a_void_hand_scores_nothing_in_any_kind_of_hand(special: Special) -> None:
    """/regras#rodadas-e-empates: "Empataram as três ... ninguém marca pontos";
    /regras#mao-de-onze: the mão de onze, once played, can still be void."""
    decision = {Special.ONZE_NOS: ["1:aceita"], Special.ONZE_ELES: ["2:aceita"]}
    events = decision.get(special, [])
    events += ["1:3p", "2:3c", "3:4p", "4:4c", "1:2p", "2:2c", "3:Ae", "4:Ac"]
    events += ["1:Kp", "2:Kc", "3:Je", "4:Jc"]
    verdict = legal(events, special=special)
    assert verdict.outcome == Outcome(Kind.ANULADA) and verdict.points == 0


@pytest.mark.parametrize(
    ("points", "special", "events"),
    [
        ((0, 0), Special.NORMAL, ["1:truco", "2:aceita", *R1_NOS, *R2_NOS]),
        ((11, 4), Special.ONZE_NOS, ["1:aceita", *R1_NOS, *R2_NOS]),
        ((4, 11), Special.ONZE_ELES, ["2:corre"]),
        ((11, 11), Special.FERRO, ["1:corre"]),
    ],
)
def test_the_outcome_is_what_the_board_records(
    points: tuple[int, int], special: Special, events: list[str]
) -> None:
    """/regras#pontos, #mao-de-onze and #mao-de-ferro: the judged hand is one legal record of
    the score, for the kind of hand the score says comes next."""
    state = MatchState(MatchConfig(players=4, first_dealer=3))
    state = state.apply(Outcome(Kind.CORRECAO, 0, points[0]))
    state = state.apply(Outcome(Kind.CORRECAO, 1, points[1]))
    assert state.special is special
    verdict = legal(events, special=state.special, mao=state.mao + 1)
    assert verdict.outcome in state.legal_outcomes()
    after = state.apply(verdict.outcome)
    side = verdict.winner
    assert after.points[side] - state.points[side] == min(verdict.points, 12 - state.points[side])
    assert after.points[1 - side] == state.points[1 - side]


# --------------------------------------------------------------------------------------------
# Events, set-up and reasons
# --------------------------------------------------------------------------------------------


def test_events_read_and_write_the_link_format() -> None:
    """/regras#truco and /regras#rodadas-e-empates: the events of a hand, as the juiz link
    carries them (`eventos=1:truco,2:aceita,1:3p,2:2c,3:X,4:Ko`)."""
    text = "1:truco,2:aceita,1:3p,2:2c,3:X,4:X:Ko"
    events = parse_events(text)
    assert events == (
        WordEvent(1, Word.TRUCO),
        WordEvent(2, Word.ACEITA),
        CardEvent(1, Card.parse("3p")),
        CardEvent(2, Card.parse("2c")),
        CardEvent(3, None, covered=True),
        CardEvent(4, Card.parse("Ko"), covered=True),
    )
    assert format_events(events) == text
    assert parse_event(" 4 : x:k♦ ") == CardEvent(4, Card.parse("Ko"), covered=True)
    assert parse_event("1:TRUCO") == WordEvent(1, Word.TRUCO)
    assert parse_events("") == parse_events("  ") == ()
    assert judge(text).illegal is not None  # covered in round 1: refused, but read


@pytest.mark.parametrize(
    ("text", "position", "code"),
    [
        ("1:truco,2:trucoo", 2, Code.UNKNOWN_WORD),
        ("1:8p", 1, Code.BAD_CARD),
        ("1:10p", 1, Code.BAD_CARD),
        ("1:3p,2:X:", 2, Code.BAD_CARD),
        ("1:3p,2:X:zz", 2, Code.BAD_CARD),
        ("truco", 1, Code.EVENT_FORMAT),
        ("1:3p,,2:2c", 2, Code.EVENT_FORMAT),
        ("a:3p", 1, Code.EVENT_FORMAT),
        ("1:3p,123:2c", 2, Code.EVENT_FORMAT),
    ],
)
def test_unreadable_events_are_refused_at_their_position(
    text: str, position: int, code: Code
) -> None:
    """/regras#truco: the events are cards, X, truco, seis, nove, doze, aceita and corre."""
    with pytest.raises(EventRefused) as excinfo:
        parse_events(text)
    assert excinfo.value.illegal.position == position
    assert excinfo.value.reason.code is code
    assert str(excinfo.value).startswith(f"Jogada {position} (")
    verdict = judge(text)
    assert verdict.illegal is not None and verdict.illegal.position == position


def test_a_seat_outside_the_table_is_refused() -> None:
    """/regras#rodadas-e-empates: 2 or 4 players, seats 1..N."""
    position, reason = refused(["1:3p", "3:2c"], players=2)
    assert position == 2 and (reason.code, reason.seat, reason.players) == (Code.NO_SUCH_SEAT, 3, 2)
    assert refused(["0:truco"])[1].code is Code.NO_SUCH_SEAT


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3},
        {"players": 4, "mao": 5},
        {"players": 2, "mao": 3},
        {"mao": 0},
        {"vira": None},
        {"vira": "8p"},
        {"ruleset": LIMPO, "vira": "4o"},
        {"special": "ferro"},
    ],
)
def test_impossible_set_ups_are_refused(kwargs: dict[str, object]) -> None:
    """/regras#rodadas-e-empates and /regras#cartas-e-manilhas: 2 or 4 players, the mão is one
    of them, a vira from the deck under manilha variável."""
    args: dict[str, object] = {
        "ruleset": SUJO, "players": 4, "vira": VIRA, "mao": 1, "special": Special.NORMAL
    }
    args.update(kwargs)
    with pytest.raises(RulesError) as excinfo:
        judge_whole_hand([], **args)  # type: ignore[arg-type]
    assert str(excinfo.value).strip()


def test_manilha_fixa_needs_no_vira() -> None:
    """/regras#cartas-e-manilhas, manilha fixa (the Duplas text: "manilha fixa ... 4 de
    Paus"): the 4 of paus is the strongest card."""
    verdict = legal(["1:3p", "2:4p", "2:2p", "1:3c", "1:Ac", "2:2c"], ruleset=FIXA, players=2)
    assert verdict.results == (ELES, NOS, ELES) and verdict.winner == ELES
    with pytest.raises(RulesError):
        judge_whole_hand([], ruleset=FIXA, players=2, vira=VIRA)


@pytest.mark.parametrize(
    ("points", "special"),
    [((0, 0), Special.NORMAL), ((11, 3), Special.ONZE_NOS), ((10, 11), Special.ONZE_ELES),
     ((11, 11), Special.FERRO)],
)
def test_the_score_gives_the_kind_of_hand(points: tuple[int, int], special: Special) -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: one side at 11 plays the mão de onze,
    both the mão de ferro."""
    state = MatchState(MatchConfig(), points=points)
    assert state.special is special


def test_every_reason_is_worded_in_portuguese_with_its_rule_book_section() -> None:
    """The rule book (every section): every reason the engine gives has pt-BR words, and every rule
    it applies points to a section of the rule book."""
    sample = Reason(
        Code.NO_ROUND_YET, seat=1, other=2, side=0, word=Word.TRUCO, card=Card.parse("3p"),
        round=1, points=3, special=Special.NORMAL, players=4, text="x",
    )
    no_rule = {Code.EVENT_FORMAT, Code.UNKNOWN_WORD, Code.NO_SUCH_SIDE}
    for code in Code:
        reason = Reason(code, **{k: v for k, v in vars(sample).items() if k != "code"})
        sentence = word(reason)
        assert sentence.strip() and sentence[0].isupper() and sentence.endswith("."), code
        assert "None" not in sentence, (code, sentence)
        assert (reason.section is None) == (code in no_rule), code
    assert {s.value for s in Section} >= {"truco", "correr", "mao-de-onze", "mao-de-ferro"}
    assert all(s.title.strip() for s in Section)


def test_reasons_read_right_for_any_team_and_player_name() -> None:
    """/regras#rodadas-e-empates: the table's own names appear in the reasons."""
    names = Names(sides=("Os Zapeiros", "Ana e Bia"), seats=("Zé", "Ana", "", "Bia"))
    verdict = legal(["1:truco", "2:aceita", *R1_NOS, *R2_NOS])
    sentences = [word(r, names) for r in verdict.reasons]
    assert "Pedido de truco (Zé): se aceitarem, a mão vale 3 pontos. Responde Ana." in sentences
    assert "Mão para Os Zapeiros: 3 pontos." in sentences
    assert Names().seat(3) == "Nós 2" and names.seat(3) == "Os Zapeiros 2"


def test_a_refusal_words_itself_and_raises_as_a_rules_error() -> None:
    """/regras#truco: a refusal says which event and which rule, in Portuguese."""
    verdict = judge(["1:truco", "3:aceita"])
    assert verdict.illegal is not None
    message = verdict.illegal.message()
    assert message.startswith("Jogada 2 (3:aceita): ") and "outro lado" in message
    error = verdict.illegal.error()
    assert isinstance(error, RulesError) and isinstance(error, RuleBroken)
    assert str(error) == message and error.illegal.position == 2
    # The hand as it stood before the refused event is kept.
    assert verdict.state.caller == 1 and verdict.events == (WordEvent(1, Word.TRUCO),)


def test_the_hand_says_whose_turn_who_may_call_and_what_running_gives() -> None:
    """/regras#truco and /regras#correr: on one's turn one may call, play or run; a call waits for
    its answerer, who may accept, raise or run."""
    state = judge(["1:truco", "2:aceita", "1:3p"]).state
    assert state.turn == 2
    assert state.legal_words(2) == (Word.SEIS, Word.CORRE)
    assert state.legal_words(1) == ()
    assert state.if_run(2) == Outcome(Kind.NORMAL, NOS, 3) and state.if_run(3) is None
    waiting = state.apply(WordEvent(2, Word.SEIS))
    assert waiting.answerers() == (3,)
    assert waiting.legal_words(3) == (Word.NOVE, Word.ACEITA, Word.CORRE)
    assert waiting.if_run(3) == Outcome(Kind.NORMAL, ELES, 3)
    verdict = judge(["1:truco", "2:aceita", "1:3p", "2:seis"])
    assert verdict.reasons[-1] == Reason(Code.WAITING, word=Word.SEIS, other=3, side=NOS)
    assert word(verdict.reasons[-1]) == "O pedido de seis espera a resposta: responde Nós 2."


def test_the_result_agrees_with_judge_hand() -> None:
    """/regras#rodadas-e-empates: the whole hand is decided by the same rule as its rounds."""
    verdict = legal([*R1_NOS, *R2_TIE])
    assert verdict.hand == judge_hand(["nos", None])
    assert verdict.hand.rule in verdict.reasons
