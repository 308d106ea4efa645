"""Property tests (hypothesis) for judging a whole hand from its events.

/regras#rodadas-e-empates, #cartas-e-manilhas, #carta-coberta, #truco, #correr, #mao-de-onze,
#mao-de-ferro and #pontos, with their variants (who opens after a tie, any player of the side
answers). Quoted Portuguese is Joga Truco's, the default text (docs/rules-sources.md).

The generator below plays legal hands by itself, from the rule book: it deals three cards to each
seat, walks the turns (the mão opens, the round's winner or after a tie the mão / the first
tying card opens the next), makes calls on the player's turn while the ladder allows, answers
them from the right seat (accept, raise back to the asker, run), sometimes runs on a turn, and
works out the outcome the board must record. Only `judge_round` and `judge_hand` (tested on
their own) are borrowed from the engine, to rule a round and to tell when the hand is decided.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Card,
    Code,
    Ending,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    Result,
    RuleSet,
    Section,
    Special,
    Word,
    deck,
    judge_hand,
    judge_round,
    judge_whole_hand,
    parse_event,
    parse_events,
    word,
)

from ..profiles import examples
from .rulesets import seat_after, seat_side, seats_of

RULESETS = [
    RuleSet(deck=d, manilhas=m, tie_opener=t, answerer=a)  # type: ignore[arg-type]
    for d, m, t, a in itertools.product(
        ("sujo", "limpo"), ("variavel", "fixa"), ("mao", "primeira_empatada"),
        ("proximo", "qualquer"),
    )
]
SPECIALS = [Special.NORMAL] * 3 + [Special.ONZE_NOS, Special.ONZE_ELES, Special.FERRO]
LADDER = (1, 3, 6, 9, 12)
CALL_NAMES = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}
LABELS = ("nos", "eles")

PROPS = settings(
    deadline=None, max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow]
)


@dataclass(frozen=True)
class Step:
    """One generated event: its text, what it is, the round it belongs to and its seat."""

    text: str
    kind: str  # "card", "call", "answer" (accept, run or raise), "run" (on one's turn), "onze"
    round: int
    seat: int


@dataclass(frozen=True)
class Hand:
    """A legal hand: its set-up, its events, and what the board must record once it ends."""

    setup: dict[str, object]
    steps: tuple[Step, ...]
    outcome: Outcome | None
    results: tuple[int | None, ...]
    ending: Ending | None

    @property
    def texts(self) -> list[str]:
        return [s.text for s in self.steps]

    @property
    def special(self) -> Special:
        special = self.setup["special"]
        assert isinstance(special, Special)
        return special


def won_by(special: Special, winner: int, worth: int) -> Outcome:
    """The record of a hand `winner` takes (by rounds or because the other side ran)."""
    if special is Special.FERRO:
        return Outcome(Kind.FERRO, winner)
    onze = special.onze_side
    if onze is not None:
        return Outcome(Kind.ONZE_GANHOU if winner == onze else Kind.ONZE_PERDEU, winner)
    return Outcome(Kind.NORMAL, winner, worth)


@st.composite
def legal_hands(draw: st.DrawFn, specials: list[Special] = SPECIALS) -> Hand:
    """A hand played by the rules, to its end (of one of `specials`' kinds)."""
    ruleset = draw(st.sampled_from(RULESETS), label="ruleset")
    players = draw(st.sampled_from([2, 4]), label="players")
    mao = draw(st.integers(1, players), label="mao")
    special = draw(st.sampled_from(specials), label="special")
    vira = None if ruleset.fixed else draw(st.sampled_from(deck(ruleset)), label="vira")
    pool = [c for c in deck(ruleset) if c != vira]
    dealt = draw(st.permutations(pool), label="deal")[: 3 * players]
    held = {seat: list(dealt[3 * (seat - 1) : 3 * seat]) for seat in range(1, players + 1)}
    anyone = players == 4 and ruleset.answerer == "qualquer"
    setup: dict[str, object] = {
        "ruleset": ruleset, "players": players, "vira": vira, "mao": mao, "special": special
    }

    steps: list[Step] = []
    results: list[int | None] = []

    def done(outcome: Outcome, ending: Ending) -> Hand:
        return Hand(setup, tuple(steps), outcome, tuple(results), ending)

    onze = special.onze_side
    if onze is not None:  # the side at eleven decides before anything else
        choice = draw(st.sampled_from(["aceita", "corre"]), label="onze decision")
        candidates = seats_of(onze, mao, players)
        decider = draw(st.sampled_from(candidates)) if anyone else candidates[0]
        steps.append(Step(f"{decider}:{choice}", "onze", 1, decider))
        if choice == "corre":
            return done(Outcome(Kind.ONZE_CORREU, 1 - onze), Ending.DECLINED)

    worth, locked, opener = special.worth, None, mao
    for number in (1, 2, 3):
        order = [seat_after(opener, players, i) for i in range(players)]
        plays: list[tuple[str, str]] = []
        for seat in order:
            may_call = special is Special.NORMAL and worth < 12 and locked != seat_side(seat)
            if may_call and draw(st.integers(0, 3), label="call?") == 0:
                asker = seat
                answerer = (
                    draw(st.sampled_from(seats_of(1 - seat_side(asker), asker, players)))
                    if anyone
                    else seat_after(asker, players)
                )
                asked = LADDER[LADDER.index(worth) + 1]
                steps.append(Step(f"{asker}:{CALL_NAMES[asked]}", "call", number, asker))
                while True:
                    options = ["aceita", "corre"] + (["raise"] if asked < 12 else [])
                    answer = draw(st.sampled_from(options), label="answer")
                    if answer == "aceita":
                        steps.append(Step(f"{answerer}:aceita", "answer", number, answerer))
                        worth, locked = asked, seat_side(asker)
                        break
                    if answer == "corre":
                        steps.append(Step(f"{answerer}:corre", "answer", number, answerer))
                        return done(Outcome(Kind.NORMAL, seat_side(asker), worth), Ending.RAN)
                    worth, asked = asked, LADDER[LADDER.index(asked) + 1]
                    raised = f"{answerer}:{CALL_NAMES[asked]}"
                    steps.append(Step(raised, "answer", number, answerer))
                    back = (
                        draw(st.sampled_from(seats_of(seat_side(asker), asker, players)))
                        if anyone
                        else asker
                    )
                    asker, answerer = answerer, back
            if draw(st.integers(0, 40), label="run?") == 0:
                steps.append(Step(f"{seat}:corre", "run", number, seat))
                return done(won_by(special, 1 - seat_side(seat), worth), Ending.RAN)
            card = held[seat].pop(draw(st.integers(0, len(held[seat]) - 1), label="card"))
            text = str(card)
            if number > 1 and draw(st.integers(0, 3), label="covered?") == 0:
                text = "X" if draw(st.booleans(), label="face hidden?") else f"X:{card}"
            steps.append(Step(f"{seat}:{text}", "card", number, seat))
            plays.append((str(seat), text))
        verdict = judge_round(
            plays, ruleset=ruleset, vira=vira, round_number=number, players=players,
            mao=order.index(mao),
        )
        winner = None if verdict.winning_play is None else seat_side(order[verdict.winning_play])
        results.append(winner)
        hand = judge_hand([None if r is None else LABELS[r] for r in results])
        if hand.decided:
            if hand.winner is None:
                return done(Outcome(Kind.ANULADA), Ending.ROUNDS)
            return done(won_by(special, LABELS.index(hand.winner), worth), Ending.ROUNDS)
        opener = order[verdict.next_opener]
    raise AssertionError("a hand is decided after three rounds")


def judge(hand: Hand, events: object):
    return judge_whole_hand(events, **hand.setup)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Legal hands
# --------------------------------------------------------------------------------------------


@PROPS
@given(hand=legal_hands())
def test_replaying_a_legal_hand_event_by_event_never_refuses(hand: Hand) -> None:
    """/regras#truco, #correr and #rodadas-e-empates: a hand played by the rules is accepted
    event by event, ends exactly at its last event, and scores what the rules say."""
    state = judge(hand, []).state
    for i, step in enumerate(hand.steps):
        assert not state.over, f"ended before event {i + 1}"
        reason = state.refusal(parse_event(step.text))
        assert reason is None, f"event {i + 1} ({step.text}) refused: {word(reason)}"
        state = state.apply(parse_event(step.text))
    assert state.over
    verdict = judge(hand, hand.texts)
    assert verdict.illegal is None
    assert verdict.outcome == hand.outcome
    assert verdict.state.ending is hand.ending
    assert all(word(r).strip() for r in verdict.reasons)


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_every_prefix_of_a_legal_hand_is_legal_and_undecided(hand: Hand, data) -> None:
    """/regras#rodadas-e-empates: until its last event the hand goes on, and the engine says
    whose turn it is or who must answer."""
    cut = data.draw(st.integers(0, len(hand.steps) - 1), label="cut")
    verdict = judge(hand, hand.texts[:cut])
    assert verdict.illegal is None
    assert verdict.result is Result.INDECISA and verdict.points == 0 and verdict.outcome is None
    assert verdict.reasons[-1].code in (Code.TURN, Code.WAITING, Code.ONZE_DECIDES)
    nxt = parse_event(hand.texts[cut])
    allowed = verdict.state.answerers() or (verdict.state.turn,)
    if hand.steps[cut].kind != "onze":
        assert nxt.seat in allowed


@PROPS
@given(hand=legal_hands())
def test_points_are_always_a_legal_value(hand: Hand) -> None:
    """/regras#pontos: "Quem ganha a mão marca os pontos que ela valia: 1, 3, 6, 9 ou 12 (3 na
    mão de onze, 1 na mão de ferro)", nothing for a void hand; the outcome is one the score
    accepts for that kind of hand."""
    verdict = judge(hand, hand.texts)
    legal_points = {
        Special.NORMAL: {0, 1, 3, 6, 9, 12},
        Special.ONZE_NOS: {0, 1, 3},
        Special.ONZE_ELES: {0, 1, 3},
        Special.FERRO: {0, 1},
    }
    assert verdict.points in legal_points[hand.special]
    score = {
        Special.NORMAL: (0, 0),
        Special.ONZE_NOS: (11, 5),
        Special.ONZE_ELES: (5, 11),
        Special.FERRO: (11, 11),
    }[hand.special]
    state = MatchState(MatchConfig(), points=score)
    assert state.special is hand.special
    assert verdict.outcome in state.legal_outcomes()
    assert verdict.outcome is not None and verdict.outcome.gain == verdict.points


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_the_result_agrees_with_judge_hand_on_the_round_results(hand: Hand, data) -> None:
    """/regras#rodadas-e-empates: a hand that ends by its rounds goes to the side judge_hand
    names (or is void); a hand that ends by running was not decided by its rounds."""
    cut = data.draw(st.integers(0, len(hand.steps)), label="cut")
    verdict = judge(hand, hand.texts[:cut])
    labels = [None if r is None else LABELS[r] for r in verdict.results]
    assert verdict.hand == judge_hand(labels)
    if cut < len(hand.steps):
        assert not verdict.hand.decided
        return
    assert verdict.results == hand.results
    if verdict.state.ending is Ending.ROUNDS:
        assert verdict.hand.decided
        expected = None if verdict.hand.winner is None else LABELS.index(verdict.hand.winner)
        assert verdict.winner == expected
    else:
        assert not verdict.hand.decided


# --------------------------------------------------------------------------------------------
# Broken hands: one event removed, reordered or changed
# --------------------------------------------------------------------------------------------


@PROPS
@given(hand=legal_hands(specials=[Special.ONZE_NOS, Special.ONZE_ELES]), data=st.data())
def test_any_event_before_the_mao_de_onze_decision_is_refused_first(hand: Hand, data) -> None:
    """/regras#mao-de-onze: the side at eleven decides before anything else, so any other event
    of the hand (a card, or the other side's run) put before its decision is refused at once;
    a hand the side ran from gets the mão's card first. (A run of the side at eleven put first
    is its decision not to play: left out.)"""
    onze = hand.special.onze_side
    places = [
        i for i, step in enumerate(hand.steps)
        if i > 0 and not (step.kind == "run" and seat_side(step.seat) == onze)
    ]
    texts = hand.texts
    if places:
        i = data.draw(st.sampled_from(places), label="moved")
        texts = [texts[i], *texts[:i], *texts[i + 1 :]]
    else:
        ruleset, vira = hand.setup["ruleset"], hand.setup["vira"]
        card = next(c for c in deck(ruleset) if c != vira)  # type: ignore[arg-type]
        texts = [f"{hand.setup['mao']}:{card}", *texts]
    verdict = judge(hand, texts)
    assert verdict.illegal is not None and verdict.illegal.position == 1
    assert verdict.illegal.reason.section is Section.ONZE


def _removal_breaks_a_rule(steps: tuple[Step, ...], i: int) -> bool:
    """Whether removing event i (a call or an answer, not the last) must be refused there.

    Without a call, its answer answers nothing; without a raise, the asking side answers its
    own call; without an acceptance, the caller's card comes while the call waits. (Without an
    acceptance followed by a word, that word may answer the call itself: a legal other hand.)
    """
    removed, following = steps[i], steps[i + 1]
    if removed.kind == "call":
        return True
    if removed.kind != "answer":
        return False
    return not removed.text.endswith(":aceita") or following.kind == "card"


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_removing_a_call_or_an_answer_is_refused_where_it_was(hand: Hand, data) -> None:
    """/regras#truco: an answer needs a call waiting, and nothing but the answer may follow a
    call; so without a call (or without its answer) the next event breaks a rule."""
    places = [i for i in range(len(hand.steps) - 1) if _removal_breaks_a_rule(hand.steps, i)]
    assume(places)
    i = data.draw(st.sampled_from(places), label="removed")
    verdict = judge(hand, hand.texts[:i] + hand.texts[i + 1 :])
    assert verdict.illegal is not None, f"removing {hand.texts[i]} went unnoticed"
    assert verdict.illegal.position == i + 1


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_removing_a_card_is_refused_at_the_next_event_of_its_round(hand: Hand, data) -> None:
    """/regras#rodadas-e-empates: each player plays one card in turn, so when a
    card is missing the next player acts out of turn."""
    steps = hand.steps
    places = [
        i for i in range(len(steps) - 1)
        if steps[i].kind == "card" and steps[i + 1].round == steps[i].round
    ]
    assume(places)
    i = data.draw(st.sampled_from(places), label="removed")
    verdict = judge(hand, hand.texts[:i] + hand.texts[i + 1 :])
    assert verdict.illegal is not None and verdict.illegal.position == i + 1


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_swapping_two_events_of_different_seats_is_refused_at_the_first(hand: Hand, data) -> None:
    """/regras#rodadas-e-empates and /regras#truco: cards go in turn, calls on one's turn,
    answers from the answering seat: two neighbouring events of different seats never trade
    places. (/regras#mao-de-onze: the side at eleven's decision comes first; moving it is
    another test's.)"""
    steps = hand.steps

    def movable(i: int) -> bool:
        kinds = (steps[i].kind, steps[i + 1].kind)
        return steps[i].seat != steps[i + 1].seat and "onze" not in kinds

    places = [i for i in range(len(steps) - 1) if movable(i)]
    assume(places)
    i = data.draw(st.sampled_from(places), label="swapped")
    texts = hand.texts
    texts[i], texts[i + 1] = texts[i + 1], texts[i]
    verdict = judge(hand, texts)
    assert verdict.illegal is not None and verdict.illegal.position == i + 1


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_a_card_already_played_or_the_vira_is_refused_where_it_appears(hand: Hand, data) -> None:
    """/regras#cartas-e-manilhas: the vira is never played and no card exists twice in a hand."""
    steps = hand.steps
    known = [i for i, s in enumerate(steps) if s.kind == "card" and not s.text.endswith(":X")]
    assume(len(known) >= 2)
    first, later = sorted(data.draw(st.lists(st.sampled_from(known), min_size=2, max_size=2,
                                             unique=True), label="cards"))
    card = steps[first].text.split(":")[-1]
    texts = hand.texts
    prefix = "X:" if texts[later].count(":") == 2 else ""
    texts[later] = f"{steps[later].seat}:{prefix}{card}"
    verdict = judge(hand, texts)
    assert verdict.illegal is not None and verdict.illegal.position == later + 1
    assert verdict.illegal.reason.code is Code.CARD_PLAYED_TWICE
    assert verdict.illegal.reason.card == Card.parse(card)
    vira = hand.setup["vira"]
    if vira is not None:
        texts[later] = f"{steps[later].seat}:{prefix}{vira}"
        verdict = judge(hand, texts)
        assert verdict.illegal is not None and verdict.illegal.position == later + 1
        assert verdict.illegal.reason.code is Code.VIRA_PLAYED


@PROPS
@given(hand=legal_hands(), data=st.data())
def test_nothing_is_legal_after_the_hand_ends(hand: Hand, data) -> None:
    """/regras#rodadas-e-empates and /regras#correr: the hand ends when it is decided or
    someone runs; no card, call or answer comes after."""
    players = hand.setup["players"]
    assert isinstance(players, int)
    seat = data.draw(st.integers(1, players), label="seat")
    extra = data.draw(
        st.sampled_from([w.value for w in Word] + ["X", "3p", "4c", "Ae"]), label="extra"
    )
    verdict = judge(hand, [*hand.texts, f"{seat}:{extra}"])
    assert verdict.illegal is not None
    assert verdict.illegal.position == len(hand.steps) + 1
    assert verdict.illegal.reason.code is Code.HAND_OVER


@PROPS
@given(hand=legal_hands())
def test_the_link_text_gives_the_same_verdict(hand: Hand) -> None:
    """/regras#truco: a hand written as `eventos=1:truco,2:aceita,...` reads back the same."""
    text = ",".join(hand.texts)
    from_text = judge(hand, text)
    from_events = judge(hand, parse_events(text))
    assert from_text.events == from_events.events == parse_events(text)
    assert from_text.outcome == from_events.outcome == hand.outcome
    assert from_text.reasons == from_events.reasons
    assert from_text.openers == from_events.openers
