"""A torneio's bracket as pure values (scorekeeper.domain.torneio.bracket): the draw and its
byes, the words said about matches, the 3rd-place match, the calls to mesas and the calls taken
back; then, as properties, whole evenings of results, overrides and undos on a model of the
service."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.torneio.bracket import (
    BYE,
    THIRD,
    Bracket,
    BracketError,
    Call,
    Word,
    build,
    called_off,
    calls,
    draw,
    key,
    seed_order,
)

from ..profiles import examples

pytestmark = pytest.mark.sqlite_only

PROPS = settings(
    deadline=None, max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow]
)


# --- the draw ------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 41))
def test_the_draw_gives_a_power_of_two_slots_byes_never_meet_byes_every_pair_once(count: int):
    pairs = list(range(1, count + 1))
    for seed in range(5):
        slots = draw(pairs, random.Random(seed))
        size = len(slots)
        assert size & (size - 1) == 0 and size // 2 < count <= size, (count, size)
        assert sorted(p for p in slots if p != BYE) == pairs
        assert slots.count(BYE) == size - count
        assert all((slots[i], slots[i + 1]) != (BYE, BYE) for i in range(0, size, 2)), slots


def test_the_draw_refuses_fewer_than_two_pairs_and_a_pair_twice_in_portuguese():
    with pytest.raises(BracketError, match="pelo menos 2 duplas"):
        draw([7], random.Random(1))
    with pytest.raises(BracketError, match="Cada dupla entra uma vez"):
        draw([1, 2, 2], random.Random(1))


def test_the_draw_is_random_and_so_is_who_passes_on_a_bye():
    seen = {draw(list(range(1, 6)), random.Random(seed)) for seed in range(30)}
    assert len(seen) > 10
    with_bye = {p for slots in seen for i, p in enumerate(slots) if slots[i ^ 1] == BYE}
    assert with_bye == {1, 2, 3, 4, 5}


def test_seeds_go_in_the_standard_order():
    assert seed_order(2) == (1, 2)
    assert seed_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seed_order(16)[:4] == (1, 16, 8, 9)


def byes_under(slots: tuple[int, ...], start: int, size: int) -> int:
    """How many byes the subtree of `size` slots from `start` holds."""
    return slots[start : start + size].count(BYE)


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_byes_are_spread_so_two_meet_only_where_the_bracket_forces_it(count: int, seed: int):
    """Every subtree holds as many byes as its sibling, give or take one: the byes' pairs meet
    each other only in a round with more of them than matches. In the 2nd round, exactly the
    meetings the count forces happen (none while the byes are at most a quarter of the slots)."""
    slots = draw(list(range(1, count + 1)), random.Random(seed))
    size = len(slots)
    width = 2
    while width <= size:
        for start in range(0, size, width):
            left = byes_under(slots, start, width // 2)
            right = byes_under(slots, start + width // 2, width // 2)
            assert abs(left - right) <= 1, (slots, start, width)
        width *= 2
    byes = size - count
    if size >= 4:
        second = [byes_under(slots, start, 4) for start in range(0, size, 4)]
        assert sum(1 for n in second if n == 2) == max(0, byes - size // 4), slots


# --- byes, words, the 3rd place -------------------------------------------------------------------


def test_byes_go_on_by_themselves_and_are_never_called():
    bracket = build((1, BYE, 2, 3), {}, third_place=False)
    assert bracket["1-0"].winner == 1 and not bracket["1-0"].playable
    assert (bracket["2-0"].a, bracket["2-0"].b) == (1, None)
    assert calls(bracket, {}, mesas=4) == {"1-1": 1}
    after = build((1, BYE, 2, 3), {"1-1": Word(3, 2, 3)}, third_place=False)
    assert (after["2-0"].a, after["2-0"].b) == (1, 3) and after["2-0"].playable


def test_a_stale_word_counts_for_nothing():
    slots = (1, 2, 3, 4)
    said = {"1-0": Word(1, 1, 2), "1-1": Word(3, 3, 4), "2-0": Word(1, 1, 3)}
    assert build(slots, said, third_place=False).champion == 1
    reopened = build(slots, {"1-1": Word(3, 3, 4), "2-0": Word(1, 1, 3)}, third_place=False)
    assert (reopened["2-0"].a, reopened["2-0"].b, reopened["2-0"].winner) == (None, 3, None)
    other = build(slots, said | {"1-0": Word(2, 1, 2)}, third_place=False)
    assert (other["2-0"].a, other["2-0"].b) == (2, 3)
    assert other["2-0"].winner is None and other.champion is None


def test_a_word_said_between_other_pairs_crowns_nobody_even_naming_a_pair_of_the_match():
    """The final was played between 1 and 3 and won by 3; then 1's semi-final was won again by
    2: the final is now 2 x 3, and 3's win over 1 says nothing of it (no champion, no vice)."""
    slots = (1, 2, 3, 4)
    said = {"1-0": Word(2, 1, 2), "1-1": Word(3, 3, 4), "2-0": Word(3, 1, 3)}
    bracket = build(slots, said, third_place=False)
    assert (bracket["2-0"].a, bracket["2-0"].b) == (2, 3)
    assert bracket.champion is None and bracket.runner_up is None
    played = build(slots, {**said, "2-0": Word(3, 2, 3)}, third_place=False)
    assert (played.champion, played.runner_up) == (3, 2)


def test_the_third_place_match_is_between_the_semi_finals_losers_before_the_final():
    semis = {"1-0": Word(1, 1, 2), "1-1": Word(4, 3, 4)}
    bracket = build((1, 2, 3, 4), semis, third_place=True)
    assert [m.key for m in bracket.matches] == ["1-0", "1-1", THIRD, "2-0"]
    third = bracket[THIRD]
    assert (third.a, third.b, third.winner) == (2, 3, None) and third.playable
    ends = {THIRD: Word(3, 2, 3), "2-0": Word(4, 1, 4)}
    done = build((1, 2, 3, 4), semis | ends, third_place=True)
    assert (done.champion, done.runner_up, done.third) == (4, 1, 3) and done.over
    assert THIRD not in [m.key for m in build((1, 2, 3, 4), {}, third_place=False).matches]


def test_a_semi_won_over_a_bye_gives_its_opponent_third_place():
    waiting = build((1, BYE, 2, 3), {}, third_place=True)
    assert (waiting[THIRD].a, waiting[THIRD].b, waiting[THIRD].winner) == (BYE, None, None)
    bracket = build((1, BYE, 2, 3), {"1-1": Word(2, 2, 3)}, third_place=True)
    assert bracket[THIRD].winner == 3 and not bracket[THIRD].playable
    assert bracket.third == 3
    assert THIRD not in calls(bracket, {}, mesas=4)


# --- calls to mesas -------------------------------------------------------------------------------


def test_calls_go_in_bracket_order_to_the_lowest_free_unpaused_mesa():
    bracket = build(tuple(range(1, 9)), {}, third_place=True)
    assert calls(bracket, {}, mesas=3, paused=[2]) == {"1-0": 1, "1-1": 3}
    assert calls(bracket, {"1-0": 2}, mesas=3) == {"1-1": 1, "1-2": 3}


def test_a_match_waits_when_every_mesa_is_busy_and_goes_to_the_first_mesa_freed():
    slots = tuple(range(1, 9))
    bracket = build(slots, {}, third_place=False)
    assert calls(bracket, {"1-0": 1, "1-1": 2}, mesas=2) == {}
    freed = build(slots, {"1-1": Word(3, 3, 4)}, third_place=False)
    assert calls(freed, {"1-0": 1, "1-1": 2}, mesas=2) == {"1-2": 2}


def test_a_call_whose_pairs_changed_is_taken_back_while_its_table_is_untouched():
    slots = (1, 2, 3, 4)
    bracket = build(slots, {"1-1": Word(3, 3, 4)}, third_place=False)  # 1-0 reopened
    untouched = {"1-0": Call(1, 1, 2, True), "2-0": Call(2, 1, 3, False)}
    assert called_off(bracket, untouched) == ["2-0"]
    touched = {"1-0": Call(1, 1, 2, True), "2-0": Call(2, 1, 3, True)}
    assert called_off(bracket, touched) == []


def test_a_reopened_match_takes_its_mesa_back_from_an_untouched_later_call():
    slots = tuple(range(1, 9))
    bracket = build(slots, {"1-1": Word(3, 3, 4)}, third_place=False)  # 1-0 (mesa 1) reopened
    called = {"1-0": Call(1, 1, 2, True), "1-1": Call(2, 3, 4, True), "1-2": Call(1, 5, 6, False)}
    assert called_off(bracket, called) == ["1-2"]


# --- whole evenings: a model of the service ------------------------------------------------


@dataclass
class Evening:
    """A torneio as the service keeps it: the draw, each called match's table winner and the
    organiser's words, the calls (in call order) and the tables touched, the mesas paused."""

    slots: tuple[int, ...]
    third_place: bool
    mesas: int
    table: dict[str, Word] = field(default_factory=dict)
    word: dict[str, Word] = field(default_factory=dict)
    called: dict[str, Call] = field(default_factory=dict)
    tapped: set[str] = field(default_factory=set)
    paused: set[int] = field(default_factory=set)

    def said(self) -> dict[str, Word]:
        """Each match's winner as said: the organiser's word, else its table's."""
        return {**self.table, **self.word}

    def bracket(self) -> Bracket:
        """The bracket derived now."""
        return build(self.slots, self.said(), self.third_place)

    def sync(self) -> None:
        """As the service's sync: stale untouched calls taken back, then the new calls."""
        bracket = self.bracket()
        marked = {
            k: Call(c.mesa, c.a, c.b, k in self.tapped or k in self.word)
            for k, c in self.called.items()
        }
        for gone in called_off(bracket, marked):
            del self.called[gone]
            self.table.pop(gone, None)
        kept = {k: c.mesa for k, c in self.called.items()}
        for match_key, mesa in calls(bracket, kept, self.mesas, self.paused).items():
            match = bracket[match_key]
            assert match.a is not None and match.b is not None
            self.called[match_key] = Call(mesa, match.a, match.b, False)

    def open_matches(self) -> list[str]:
        """Called matches that are playable and undecided now."""
        bracket = self.bracket()
        return [k for k in self.called if bracket[k].playable and bracket[k].winner is None]

    def live(self, match_key: str) -> bool:
        """True when a called match is undecided and still between the pairs it was called
        with (a match whose feeder was reopened waits on hold at its mesa)."""
        match, call = self.bracket()[match_key], self.called[match_key]
        return match.winner is None and (match.a, match.b) == (call.a, call.b)

    def mesa_taken(self, match_key: str) -> bool:
        """True when this match's mesa plays another live match that a sync would not take
        back (one called before it, or one touched)."""
        keys = list(self.called)
        mesa = self.called[match_key].mesa
        return any(
            k != match_key
            and self.called[k].mesa == mesa
            and self.live(k)
            and (keys.index(k) < keys.index(match_key) or k in self.tapped or k in self.word)
            for k in keys
        )

    def step(self, kind: str, pick: int, side: int) -> None:
        """One step of the evening: a table's series won (by one of the pairs it was called
        with), a tap, the organiser's word (W.O. or override) for one of the match's pairs, a
        table's undo of its result, the organiser's word taken back, a mesa paused."""
        bracket = self.bracket()
        keys = list(self.called)
        if kind == "result" and (over := [k for k in keys if k not in self.table]):
            k = over[pick % len(over)]
            call = self.called[k]
            self.table[k] = Word((call.a, call.b)[side], call.a, call.b)
            self.tapped.add(k)
        elif kind == "tap" and keys:
            self.tapped.add(keys[pick % len(keys)])
        elif kind == "override" and (known := [k for k in keys if bracket[k].playable]):
            k = known[pick % len(known)]
            match = bracket[k]
            assert match.a is not None and match.b is not None
            self.word[k] = Word(match.pairs[side], match.a, match.b)
        elif kind in ("undo", "takeback"):
            words = self.table if kind == "undo" else self.word
            # Left out: reopening a match while its mesa plays another after it scored the
            # next one): the mesa would hold two open matches, flagged to the organiser.
            reopenable = [k for k in words if not self.mesa_taken(k)]
            if reopenable:
                del words[reopenable[pick % len(reopenable)]]
        elif kind == "pause":
            self.paused ^= {pick % self.mesas + 1}
        self.sync()

    def finish(self) -> None:
        """Every mesa back in play and every open match decided, on its table when it is live
        and untouched, else by the organiser, until the bracket is over."""
        self.paused.clear()
        for _ in range(4 * len(self.slots) + 8):
            if self.bracket().over:
                return
            for k in self.open_matches():
                call, match = self.called[k], self.bracket()[k]
                if self.live(k) and k not in self.table and k not in self.word:
                    self.table[k] = Word(call.a, call.a, call.b)
                    self.tapped.add(k)
                else:
                    assert match.a is not None and match.b is not None
                    self.word[k] = Word(match.pairs[0], match.a, match.b)
            self.sync()
        raise AssertionError(f"the bracket never ends: {self}")


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["result"] * 3 + ["tap", "override", "undo", "takeback", "pause"]),
        st.integers(0, 63),
        st.integers(0, 1),
    ),
    max_size=60,
)


@st.composite
def evenings(draw_: st.DrawFn) -> Evening:
    """A drawn torneio of 2 to 40 pairs on 1 to 8 mesas, its first calls made."""
    count = draw_(st.integers(2, 40))
    slots = draw(list(range(1, count + 1)), random.Random(draw_(st.integers(0, 2**32))))
    evening = Evening(slots, draw_(st.booleans()), draw_(st.integers(1, 8)))
    evening.sync()
    return evening


def rebuilt(slots: tuple[int, ...], said: dict[str, Word], third_place: bool) -> dict[str, tuple]:
    """Each match's pairs and winner, computed afresh by recursion over the rounds: the oracle
    the bracket's iterative build is checked against."""
    size = len(slots)
    rounds = size.bit_length() - 1

    def sides(round_: int, index: int) -> tuple[int | None, int | None]:
        if round_ == 1:
            return slots[2 * index], slots[2 * index + 1]
        return winner(round_ - 1, 2 * index), winner(round_ - 1, 2 * index + 1)

    def decided(a: int | None, b: int | None, word: Word | None) -> int | None:
        if a is None or b is None:
            return None
        if BYE in (a, b):
            return a if b == BYE else b
        if word is None or (word.a, word.b) != (a, b):
            return None
        return word.winner if word.winner in (a, b) else None

    def winner(round_: int, index: int) -> int | None:
        a, b = sides(round_, index)
        return decided(a, b, said.get(key(round_, index)))

    found = {}
    for round_ in range(1, rounds + 1):
        for index in range(size >> round_):
            a, b = sides(round_, index)
            found[key(round_, index)] = (a, b, winner(round_, index))
    if third_place and rounds >= 2:
        semis = [(sides(rounds - 1, i), winner(rounds - 1, i)) for i in (0, 1)]
        losers = [None if w is None else (b if w == a else a) for (a, b), w in semis]
        found[THIRD] = (losers[0], losers[1], decided(losers[0], losers[1], said.get(THIRD)))
    return found


def check(evening: Evening) -> None:
    """What holds after every step: the bracket equals the one rebuilt from scratch (from the
    words, by recursion; and from its winners alone), no pair plays two called matches at once,
    no mesa holds two live matches (undecided, between the pairs called)."""
    bracket = evening.bracket()
    said = evening.said()
    assert {m.key: (m.a, m.b, m.winner) for m in bracket.matches} == rebuilt(
        evening.slots, said, evening.third_place
    )
    winners = {m.key: Word(m.winner, m.a, m.b) for m in bracket.matches if m.winner is not None}
    assert build(evening.slots, winners, evening.third_place) == bracket
    playing = [p for k in evening.open_matches() for p in bracket[k].pairs]
    assert len(playing) == len(set(playing)), (playing, evening)
    held = [c.mesa for k, c in evening.called.items() if evening.live(k)]
    assert len(held) == len(set(held)), (held, evening)


@PROPS
@given(evenings(), STEPS)
def test_any_evening_keeps_the_bracket_equal_to_its_rebuild_no_pair_or_mesa_twice(
    evening: Evening, steps: list[tuple[str, int, int]]
):
    check(evening)
    for kind, pick, side in steps:
        evening.step(kind, pick, side)
        check(evening)


@PROPS
@given(evenings(), STEPS)
def test_an_evening_played_out_has_one_champion_who_won_the_final(
    evening: Evening, steps: list[tuple[str, int, int]]
):
    for kind, pick, side in steps:
        evening.step(kind, pick, side)
    evening.finish()
    check(evening)
    bracket = evening.bracket()
    final = bracket.final
    assert bracket.over and bracket.champion is not None
    assert bracket.champion == final.winner and bracket.champion in final.pairs
    lost = {m.loser for m in bracket.matches if m.key != THIRD}
    unbeaten = {p for p in evening.slots if p != BYE} - lost
    assert unbeaten == {bracket.champion}
    assert bracket.runner_up == final.loser
    if evening.third_place and bracket.rounds >= 2:
        semis = {m.loser for m in bracket.matches if m.round == bracket.rounds - 1} - {BYE}
        assert bracket.third in semis
