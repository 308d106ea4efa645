"""Property tests (hypothesis) over cards, rounds, hands and the score.

/regras#cartas-e-manilhas, #rodadas-e-empates, #pontos, #mao-de-onze and #mao-de-ferro, with
the variants manilha fixa, the 27-card baralho limpo and the mão de dez. Quoted Portuguese is
Joga Truco's, the default text (docs/rules-sources.md).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Card,
    Kind,
    MatchConfig,
    MatchState,
    Phase,
    RuleSet,
    Suit,
    deck,
    judge_hand,
    judge_round,
    manilhas,
    strength_order,
)

from ..profiles import examples
from .rulesets import FIXA, LIMPO, LIMPO_FIXA, SUJO

PRIMEIRA = RuleSet(tie_opener="primeira_empatada")
LIMPO_PRIMEIRA = RuleSet(deck="limpo", tie_opener="primeira_empatada")
RULESETS = [SUJO, LIMPO, FIXA, LIMPO_FIXA, PRIMEIRA, LIMPO_PRIMEIRA]
VARIAVEL = [r for r in RULESETS if not r.fixed]

PROPS = settings(
    deadline=None, max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow]
)

PLAYERS = ("a1", "b1", "a2", "b2")


@st.composite
def table(draw: st.DrawFn, rulesets: list[RuleSet] = RULESETS) -> tuple[RuleSet, Card | None]:
    """A ruleset and a vira from its deck (None with manilha fixa)."""
    ruleset = draw(st.sampled_from(rulesets))
    vira = None if ruleset.fixed else draw(st.sampled_from(deck(ruleset)))
    return ruleset, vira


def playable(ruleset: RuleSet, vira: Card | None) -> list[Card]:
    return [c for c in deck(ruleset) if c != vira]


def plays_of(cards: list[Card]) -> list[tuple[str, Card]]:
    names = PLAYERS if len(cards) == 4 else PLAYERS[:2]
    return list(zip(names, cards, strict=True))


# --------------------------------------------------------------------------------------------
# Manilhas
# --------------------------------------------------------------------------------------------


@PROPS
@given(data=st.data(), setup=table(), round_number=st.sampled_from([1, 2, 3]))
def test_a_manilha_beats_every_common_card(data, setup, round_number) -> None:
    """/regras#cartas-e-manilhas: "As mais fortes de todas são as manilhas", for
    any vira and any deck (also manilha fixa)."""
    ruleset, vira = setup
    mans = manilhas(ruleset, vira)
    commons = [c for c in playable(ruleset, vira) if c not in mans]
    manilha = data.draw(st.sampled_from(mans), label="manilha")
    n = data.draw(st.sampled_from([2, 4]), label="players")
    others = data.draw(
        st.lists(st.sampled_from(commons), min_size=n - 1, max_size=n - 1, unique=True),
        label="commons",
    )
    position = data.draw(st.integers(0, n - 1), label="position")
    cards = [*others[:position], manilha, *others[position:]]
    verdict = judge_round(plays_of(cards), ruleset=ruleset, vira=vira, round_number=round_number)
    assert not verdict.tie
    assert verdict.winning_card == manilha
    assert verdict.winning_side == position % 2
    assert PLAYERS[position] in verdict.winner


# --------------------------------------------------------------------------------------------
# Suits of common cards do not matter
# --------------------------------------------------------------------------------------------


def _permute(card: Card, mapping: dict[Suit, Suit]) -> Card:
    return Card(card.rank, mapping[card.suit])


@PROPS
@given(
    data=st.data(),
    setup=table(),
    permutation=st.permutations(list(Suit)),
    round_number=st.sampled_from([1, 2, 3]),
)
def test_permuting_suits_of_common_cards_never_changes_a_ruling(
    data, setup, permutation, round_number
) -> None:
    """/regras#cartas-e-manilhas: "Fora as manilhas, o naipe não importa"."""
    ruleset, vira = setup
    mapping = dict(zip(Suit, permutation, strict=True))
    mans = manilhas(ruleset, vira)
    commons = [c for c in playable(ruleset, vira) if c not in mans]
    n = data.draw(st.sampled_from([2, 4]), label="players")
    cards = data.draw(
        st.lists(st.sampled_from(commons), min_size=n, max_size=n, unique=True), label="cards"
    )
    moved = [_permute(c, mapping) for c in cards]
    moved_vira = None if vira is None else _permute(vira, mapping)
    # The permuted table is the same table with other suits: the vira's suit moves too, so the
    # manilha rank is the same. With manilha fixa a permuted card may leave the deck or become
    # a manilha: then it is not a permutation of common cards, and the case does not apply.
    moved_mans = manilhas(ruleset, moved_vira)
    assume(not any(c not in deck(ruleset) or c in moved_mans for c in moved))
    before = judge_round(plays_of(cards), ruleset=ruleset, vira=vira, round_number=round_number)
    after = judge_round(
        plays_of(moved), ruleset=ruleset, vira=moved_vira, round_number=round_number
    )
    assert after.tie == before.tie
    assert after.winning_side == before.winning_side
    assert after.winner == before.winner


# --------------------------------------------------------------------------------------------
# strength_order is the order judge_round uses
# --------------------------------------------------------------------------------------------


@PROPS
@given(data=st.data(), setup=table(), round_number=st.sampled_from([1, 2, 3]))
def test_strength_order_is_a_total_preorder_consistent_with_judge_round(
    data, setup, round_number
) -> None:
    """/regras#cartas-e-manilhas: every card but the vira has one place in the
    order; for two cards 1x1, the one in the stronger group wins and equal cards tie."""
    ruleset, vira = setup
    order = strength_order(ruleset, vira)
    group_of = {}
    for i, group in enumerate(order):
        assert group, "empty group"
        for card in group:
            assert card not in group_of, "card listed twice"
            group_of[card] = i
    assert set(group_of) == set(playable(ruleset, vira))

    first, second = data.draw(
        st.lists(st.sampled_from(sorted(group_of, key=str)), min_size=2, max_size=2, unique=True),
        label="cards",
    )
    verdict = judge_round(
        [("a", first), ("b", second)], ruleset=ruleset, vira=vira, round_number=round_number
    )
    if group_of[first] < group_of[second]:
        assert verdict.winner == frozenset({"a"})
    elif group_of[first] > group_of[second]:
        assert verdict.winner == frozenset({"b"})
    else:
        assert verdict.tie


@PROPS
@given(setup=table(VARIAVEL))
def test_vira_is_never_in_the_strength_order(setup) -> None:
    """/regras#cartas-e-manilhas: "A vira não é de ninguém e não se joga"."""
    ruleset, vira = setup
    assert all(vira not in group for group in strength_order(ruleset, vira))


# --------------------------------------------------------------------------------------------
# Hands: the sides' names do not matter
# --------------------------------------------------------------------------------------------


@st.composite
def legal_results(draw: st.DrawFn) -> list[str | None]:
    """Round results of a hand, stopping as soon as the hand is decided (maybe earlier)."""
    results: list[str | None] = []
    while len(results) < 3 and not judge_hand(results).decided:
        if results and draw(st.booleans()) and draw(st.booleans()):
            break  # an unfinished hand
        results.append(draw(st.sampled_from(["nos", "eles", None])))
    return results


@PROPS
@given(results=legal_results())
def test_swapping_the_sides_labels_swaps_the_winner(results) -> None:
    """/regras#rodadas-e-empates: the tie rules are the same for both sides."""
    swap = {"nos": "eles", "eles": "nos", None: None}
    verdict = judge_hand(results)
    swapped = judge_hand([swap[r] for r in results])
    assert swapped.decided == verdict.decided
    assert swapped.void == verdict.void
    assert swapped.winner == swap[verdict.winner]
    assert swapped.next_round == verdict.next_round
    # Swapping the team order instead of the results changes nothing at all.
    same = judge_hand(results, teams=("eles", "nos"))
    assert same.winner == verdict.winner
    assert same.decided == verdict.decided


# --------------------------------------------------------------------------------------------
# The score
# --------------------------------------------------------------------------------------------

CONFIGS = st.builds(
    MatchConfig,
    players=st.sampled_from([2, 4]),
    best_of=st.sampled_from([0, 1, 3, 5]),
    first_dealer=st.integers(0, 1),
    special_at=st.sampled_from([10, 11]),
)


@settings(deadline=None, max_examples=examples(120))
@given(config=CONFIGS, data=st.data())
def test_replaying_legal_outcomes_keeps_the_score_between_0_and_12(config, data) -> None:
    """/regras#pontos: "Ganha a partida quem chegar primeiro a 12 pontos; os pontos acima de
    12 não contam", "Os pontos nunca são descontados"."""
    state = MatchState(config)
    hands = 0
    steps = data.draw(st.integers(1, 80), label="steps")
    for _ in range(steps):
        legal = state.legal_outcomes()
        assert legal, "no legal outcome"
        outcome = data.draw(st.sampled_from(legal), label="outcome")
        after = state.apply(outcome)
        if outcome.kind.is_hand:
            hands += 1
        for side in (0, 1):
            assert 0 <= after.points[side] <= 12
        over = after.phase in (Phase.GAME_OVER, Phase.SERIES_OVER)
        assert over == (12 in after.points)
        if over:
            assert after.game_winner is not None
            assert after.points[after.game_winner] == 12
            assert after.points[1 - after.game_winner] < 12
        if outcome.kind in (Kind.PROXIMA_PARTIDA, Kind.NOVA_SERIE):
            assert after.points == (0, 0)
        else:
            # Points are never taken away.
            assert after.points[0] >= state.points[0]
            assert after.points[1] >= state.points[1]
        # The deal moves with every hand dealt, and only then.
        assert after.pe == (config.first_dealer + hands) % config.players
        if config.wins_needed is None:
            assert after.phase is not Phase.SERIES_OVER
        else:
            assert max(after.wins) <= config.wins_needed
            assert (after.phase is Phase.SERIES_OVER) == (max(after.wins) == config.wins_needed)
        state = after


@settings(deadline=None, max_examples=examples(80))
@given(config=CONFIGS, data=st.data())
def test_a_snapshot_restores_every_state_it_was_taken_of(config, data) -> None:
    """The stored checkpoint (MatchState.snapshot) gives back the same state under the same
    config, whatever legal outcomes led to it."""
    state = MatchState(config)
    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        state = state.apply(data.draw(st.sampled_from(state.legal_outcomes()), label="outcome"))
        assert MatchState.restore(config, state.snapshot()) == state


@pytest.mark.parametrize("special_at", [10, 11])
@settings(deadline=None, max_examples=examples(60))
@given(data=st.data())
def test_every_game_of_legal_outcomes_ends(special_at, data) -> None:
    """/regras#pontos: scoring hands always bring a side to 12: a game made only of scoring
    hands ends after at most 12 + 12 of them."""
    state = MatchState(MatchConfig(special_at=special_at))
    for _ in range(24):
        if state.phase is Phase.GAME_OVER:
            break
        scoring = [o for o in state.legal_outcomes() if o.kind is not Kind.ANULADA]
        state = state.apply(data.draw(st.sampled_from(scoring)))
    assert state.phase is Phase.GAME_OVER
    assert 12 in state.points
