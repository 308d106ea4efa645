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
    judge_whole_hand,
    word,
)

from ..profiles import examples

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
