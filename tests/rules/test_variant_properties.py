"""Property tests (hypothesis) over both rule sets, Truco Paulista and Truco Mineiro.

/regras#pontos, #mao-de-onze and #mao-de-ferro with the Mineiro sections: whatever legal outcomes
a board records, a score never passes 12, a Mineiro score stays even and the fold equals the
checkpoints; the whole-hand judge rules on any sequence of events, legal or not, in either rule
set without crashing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    MINEIRO,
    PAULISTA,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    Result,
    RuleSet,
    Special,
    Variant,
    Word,
    deck,
    fold,
    judge_hand,
    judge_round,
    judge_whole_hand,
    special_outcome,
    word,
)

from ..profiles import examples
from .rulesets import seat_after, seat_side, seats_of

PROPS = settings(
    deadline=None, max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow]
)
VARIANTS = st.sampled_from([PAULISTA, MINEIRO])
# A hand's set-up and events: rule set, cards, players, vira, mão, kind of hand, events.
RandomHand = tuple[Variant, RuleSet, int, str | None, int, Special, list[str]]


@st.composite
def configs(draw: st.DrawFn, rules: st.SearchStrategy[Variant] = VARIANTS) -> MatchConfig:
    """A table of either rule set, with any seats, series and special hand it allows."""
    chosen = draw(rules)
    players = draw(st.sampled_from(chosen.players))
    return MatchConfig(
        players=players,
        best_of=draw(st.sampled_from([0, 1, 3, 5])),
        first_dealer=draw(st.integers(0, players - 1)),
        special_at=draw(st.sampled_from(chosen.special_at)),
        variant=chosen,
    )


def taps(config: MatchConfig, picks: list[int]) -> list[tuple[int, int]]:
    """The scores after recording, one after the other, the legal outcome each pick chooses."""
    state, scores = MatchState(config), []
    for pick in picks:
        legal = state.legal_outcomes()
        state = state.apply(legal[pick % len(legal)])
        scores.append(state.points)
    return scores


@PROPS
@given(config=configs(st.just(MINEIRO)), picks=st.lists(st.integers(0, 50), max_size=60))
def test_mineiro_scores_stay_even(config: MatchConfig, picks: list[int]) -> None:
    """Truco Mineiro: every legal tap moves a score by an even number."""
    for points in taps(config, picks):
        assert points[0] % 2 == 0 and points[1] % 2 == 0


@PROPS
@given(config=configs(), picks=st.lists(st.integers(0, 50), max_size=60))
def test_random_legal_outcomes_never_exceed_12(config: MatchConfig, picks: list[int]) -> None:
    """/regras#pontos: the game ends at 12, capped, in either rule set."""
    for points in taps(config, picks):
        assert 0 <= points[0] <= 12 and 0 <= points[1] <= 12


@PROPS
@given(config=configs())
def test_every_legal_outcome_is_worth_a_value_of_the_rule_set(config: MatchConfig) -> None:
    """A normal hand's tap is a step of the ladder; a special hand's worth is the rule set's."""
    rules = config.variant
    for points in ((0, 0), (config.special_at, 0), (config.special_at, config.special_at)):
        for outcome in MatchState(config, points).legal_outcomes():
            if outcome.kind is Kind.NORMAL:
                assert outcome.points in rules.ladder
            elif outcome.kind in (Kind.ONZE_GANHOU, Kind.ONZE_PERDEU):
                assert outcome.gain == rules.special_worth
            elif outcome.kind is Kind.ONZE_CORREU:
                assert outcome.gain == rules.special_run
            elif outcome.kind is Kind.FERRO:
                assert outcome.gain == rules.ferro_worth


@st.composite
def random_hands(draw: st.DrawFn) -> RandomHand:
    """A set-up of either rule set and any events: words, cards of its deck, covered cards and
    some nonsense, from any seat (and seats that do not exist)."""
    rules = draw(VARIANTS)
    players = draw(st.sampled_from(rules.players))
    cards = rules.ruleset(RuleSet(answerer=draw(st.sampled_from(["proximo", "qualquer"]))))
    vira = None if cards.fixed else draw(st.sampled_from([str(c) for c in deck(cards)]))
    faces = [str(c) for c in deck(cards)]
    said = [w.value for w in Word] + faces + ["X", "X:3p", "8c", "dezz", ""]
    events = draw(
        st.lists(
            st.tuples(st.integers(0, players + 1), st.sampled_from(said)).map(
                lambda pair: f"{pair[0]}:{pair[1]}"
            ),
            max_size=30,
        )
    )
    mao = draw(st.integers(1, players))
    special = draw(st.sampled_from(list(Special)))
    return rules, cards, players, vira, mao, special, events


@PROPS
@given(hand=random_hands())
def test_the_whole_hand_judge_never_crashes_in_either_rule_set(
    hand: RandomHand,
) -> None:
    """Any sequence of events gets a verdict, worded in pt-BR, and a decided hand's points are
    the rule set's."""
    rules, cards, players, vira, mao, special, events = hand
    verdict = judge_whole_hand(
        events, ruleset=cards, players=players, vira=vira, mao=mao, special=special,
        variant=rules,
    )
    assert verdict.result in Result
    assert all(word(reason) for reason in verdict.reasons)
    if verdict.illegal is not None:
        assert word(verdict.illegal.reason)
    outcome: Outcome | None = verdict.outcome
    if outcome is not None and outcome.side is not None:
        assert verdict.points in rules.points_known
        assert verdict.points % rules.unit == 0
    if verdict.illegal is None and not verdict.decided:
        for seat in range(1, players + 1):
            for said in verdict.state.legal_words(seat):
                assert rules.asks(said) is not None or not said.is_call


@PROPS
@given(config=configs(), picks=st.lists(st.integers(0, 50), max_size=40))
def test_the_fold_equals_the_checkpoints_in_either_rule_set(
    config: MatchConfig, picks: list[int]
) -> None:
    """A stored checkpoint (MatchState.snapshot) restores the state the fold reached, and
    folding on from it gives what folding from the start gives."""
    state, outcomes = MatchState(config), []
    for pick in picks:
        legal = state.legal_outcomes()
        outcomes.append(legal[pick % len(legal)])
        state = state.apply(outcomes[-1])
        assert MatchState.restore(config, state.snapshot()) == state
    assert fold(config, outcomes) == state
    middle = len(outcomes) // 2
    checkpoint = MatchState.restore(config, fold(config, outcomes[:middle]).snapshot())
    for outcome in outcomes[middle:]:
        checkpoint = checkpoint.apply(outcome)
    assert checkpoint == state


@st.composite
def legal_hands(draw: st.DrawFn, rules: Variant) -> tuple[dict[str, object], list[str], Outcome]:
    """A hand of `rules` played by its rule book to its end, written from the rules alone (the
    rounds ruled by `judge_round` and `judge_hand`): its set-up, its events and its record."""
    cards = rules.ruleset(
        RuleSet(
            tie_opener=draw(st.sampled_from(["mao", "primeira_empatada"])),
            answerer=draw(st.sampled_from(["proximo", "qualquer"])),
        )
    )
    players = draw(st.sampled_from(rules.players))
    mao = draw(st.integers(1, players))
    special = draw(st.sampled_from([Special.NORMAL] * 3 + list(Special)[1:]))
    vira = None if cards.fixed else draw(st.sampled_from(deck(cards)))
    pool = draw(st.permutations([c for c in deck(cards) if c != vira]))[: 3 * players]
    held = {seat: list(pool[3 * (seat - 1) : 3 * seat]) for seat in range(1, players + 1)}
    anyone = players > 2 and cards.anyone_answers
    setup: dict[str, object] = {
        "ruleset": cards, "players": players, "vira": vira, "mao": mao, "special": special,
        "variant": rules,
    }

    def won_in_variant(winner: int, worth: int) -> Outcome:
        if special is Special.FERRO:
            return special_outcome(rules, Kind.FERRO, winner)
        if special.onze_side is not None:
            kind = Kind.ONZE_GANHOU if winner == special.onze_side else Kind.ONZE_PERDEU
            return special_outcome(rules, kind, winner)
        return Outcome(Kind.NORMAL, winner, worth)

    events: list[str] = []
    onze = special.onze_side
    if onze is not None:
        choice = draw(st.sampled_from(["aceita", "corre"]))
        candidates = seats_of(onze, mao, players)
        decider = draw(st.sampled_from(candidates)) if anyone else candidates[0]
        events.append(f"{decider}:{choice}")
        if choice == "corre":
            return setup, events, special_outcome(rules, Kind.ONZE_CORREU, 1 - onze)
    ladder = rules.ladder
    worth, locked, opener = special.worth_in(rules), None, mao
    results: list[int | None] = []
    for number in (1, 2, 3):
        order = [seat_after(opener, players, i) for i in range(players)]
        plays: list[tuple[str, str]] = []
        for seat in order:
            mine = seat_side(seat)
            may_call = special is Special.NORMAL and worth < ladder[-1] and locked != mine
            if may_call and draw(st.integers(0, 3)) == 0:
                asker = seat
                answerer = (
                    draw(st.sampled_from(seats_of(1 - seat_side(asker), asker, players)))
                    if anyone
                    else seat_after(asker, players)
                )
                asked = ladder[ladder.index(worth) + 1]
                events.append(f"{asker}:{rules.word_for(asked).value}")
                while True:
                    answer = draw(
                        st.sampled_from(["aceita", "corre", "raise"][: 3 if asked < 12 else 2])
                    )
                    if answer == "aceita":
                        events.append(f"{answerer}:aceita")
                        worth, locked = asked, seat_side(asker)
                        break
                    if answer == "corre":
                        events.append(f"{answerer}:corre")
                        return setup, events, Outcome(Kind.NORMAL, seat_side(asker), worth)
                    worth, asked = asked, ladder[ladder.index(asked) + 1]
                    events.append(f"{answerer}:{rules.word_for(asked).value}")
                    partners = seats_of(seat_side(asker), asker, players)
                    back = draw(st.sampled_from(partners)) if anyone else asker
                    asker, answerer = answerer, back
            if draw(st.integers(0, 40)) == 0:
                events.append(f"{seat}:corre")
                return setup, events, won_in_variant(1 - seat_side(seat), worth)
            card = held[seat].pop(draw(st.integers(0, len(held[seat]) - 1)))
            text = str(card)
            if number > 1 and draw(st.integers(0, 3)) == 0:
                text = "X" if draw(st.booleans()) else f"X:{card}"
            events.append(f"{seat}:{text}")
            plays.append((str(seat), text))
        verdict = judge_round(
            plays, ruleset=cards, vira=vira, round_number=number, players=players,
            mao=order.index(mao), counts=rules.players,
        )
        won = verdict.winning_play
        results.append(None if won is None else seat_side(order[won]))
        hand = judge_hand([None if r is None else ("nos", "eles")[r] for r in results])
        if hand.decided:
            if hand.winner is None:
                return setup, events, Outcome(Kind.ANULADA)
            return setup, events, won_in_variant(("nos", "eles").index(hand.winner), worth)
        opener = order[verdict.next_opener]
    raise AssertionError("a hand is decided after three rounds")


@PROPS
@given(data=st.data(), rules=VARIANTS)
def test_a_legal_hand_of_either_rule_set_is_ruled_as_played(
    data: st.DataObject, rules: Variant
) -> None:
    """A hand played by its rule set's book (ladder and words, mão de dez or de onze, ferro,
    1x1 to 3x3) is accepted event by event and records what the rules say, a tap the board of
    that rule set takes in that kind of hand."""
    setup, events, outcome = data.draw(legal_hands(rules))
    verdict = judge_whole_hand(events, **setup)  # type: ignore[arg-type]
    assert verdict.illegal is None, word(verdict.illegal.reason)
    assert verdict.outcome == outcome
    assert verdict.points % rules.unit == 0
    special = setup["special"]
    assert isinstance(special, Special)
    config = MatchConfig.of(rules.code, players=2)
    at = config.special_at
    points = {Special.NORMAL: (0, 0), Special.ONZE_NOS: (at, 0), Special.ONZE_ELES: (0, at)}
    state = MatchState(config, points.get(special, (at, at)))
    assert outcome in state.legal_outcomes()
