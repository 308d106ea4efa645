"""A torneio's single-elimination bracket, as pure values: the draw (byes included), every match
derived from the draw and the winners known so far, and which matches go to which free mesa.

The bracket is never stored: it is rebuilt from the draw and the winners (each read from a
match's own table, or the organiser's word), so an undo that reopens a match takes its result
back out of everything downstream at once. Pairs are positive ids; BYE stands for no pair.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

BYE = 0  # no pair: the other one goes on without playing
THIRD = "3"  # the key of the 3rd-place match
WAITING, PLAYING, OVER = "aguardando", "jogando", "fim"  # a match's state (data-estado)
MIN_PAIRS = 2
MAX_PAIRS = 128


class BracketError(ValueError):
    """A bracket that cannot be drawn or changed so, with its pt-BR reason."""


def key(round_: int, index: int) -> str:
    """A match's key: '<round>-<index>' (both from 1 and 0), or THIRD."""
    return f"{round_}-{index}"


def rounds_for(size: int) -> int:
    """How many rounds a bracket of `size` first-round slots has."""
    return max(1, (size - 1).bit_length())


def seed_order(size: int) -> tuple[int, ...]:
    """The seeds (from 1) of a bracket's first-round slots in the standard order: seed 1 meets
    seed `size`, and the top seeds are as far apart as they can be (1 and 2 meet only in the
    final, 1 to 4 only in the semi-finals, and so on)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return tuple(order)


def draw(pairs: Sequence[int], rng: random.Random) -> tuple[int, ...]:
    """The first round's slots for these pairs, a power of two of them: the pairs in random
    order take the seeds 1, 2, ... and the byes (BYE) the last seeds, placed as standard seeding
    places them, so that no bye meets a bye and the byes' pairs are spread over the bracket
    (two meet only in the round where there are too many of them to keep apart)."""
    if len(pairs) < MIN_PAIRS:
        raise BracketError(f"Inscreva pelo menos {MIN_PAIRS} duplas para sortear a chave.")
    if len(pairs) > MAX_PAIRS:
        raise BracketError(f"A chave tem no máximo {MAX_PAIRS} duplas.")
    if len(set(pairs)) != len(pairs) or any(p <= BYE for p in pairs):
        raise BracketError("Cada dupla entra uma vez na chave.")
    size = 1 << rounds_for(len(pairs))
    seeded = list(pairs)
    rng.shuffle(seeded)
    seeded += [BYE] * (size - len(pairs))
    return tuple(seeded[seed - 1] for seed in seed_order(size))


def swapped(slots: Sequence[int], first: int, second: int) -> tuple[int, ...]:
    """The draw with two pairs' places exchanged (before the first game starts)."""
    if first not in slots or second not in slots or BYE in (first, second):
        raise BracketError("Escolha duas duplas da chave para trocar de lugar.")
    i, j = slots.index(first), slots.index(second)
    changed = list(slots)
    changed[i], changed[j] = second, first
    return tuple(changed)


@dataclass(frozen=True)
class Match:
    """One match of the bracket: its key, round and index, its two pairs (None while a feeder
    is undecided, BYE for none) and its winner once known."""

    key: str
    round: int
    index: int
    a: int | None
    b: int | None
    winner: int | None

    @property
    def bye(self) -> bool:
        """True when one side is a bye: the other goes on without playing."""
        return BYE in (self.a, self.b)

    @property
    def playable(self) -> bool:
        """True when both pairs are known and real: the match can be called to a mesa."""
        return self.a is not None and self.b is not None and not self.bye

    @property
    def pairs(self) -> tuple[int, ...]:
        """The real pairs known to play it."""
        return tuple(p for p in (self.a, self.b) if p is not None and p != BYE)

    @property
    def loser(self) -> int | None:
        """The pair that lost it (BYE when the winner met a bye), None while undecided."""
        if self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Word:
    """What was said of a match: its winner, and the two pairs it was said between (those its
    table was called with, or those the match had when the organiser decided it). A word counts
    only while the bracket has those same pairs in the match: a table whose pairs are no longer
    the bracket's decides nothing."""

    winner: int
    a: int
    b: int


def _decided(a: int | None, b: int | None, said: Word | None) -> int | None:
    """The winner of a match between a and b: a bye's opponent, else what was `said` of it if
    it was said between these very pairs, else None (a word from before a feeder was reopened
    counts for nothing)."""
    if a is None or b is None:
        return None
    if a == BYE or b == BYE:
        return b if a == BYE else a
    if said is None or (said.a, said.b) != (a, b) or said.winner not in (a, b):
        return None
    return said.winner


@dataclass(frozen=True)
class Bracket:
    """Every match of a drawn torneio, in the order they are called: round by round, the 3rd
    place match before the final."""

    matches: tuple[Match, ...]
    rounds: int

    def __getitem__(self, match_key: str) -> Match:
        """The match with this key."""
        for match in self.matches:
            if match.key == match_key:
                return match
        raise KeyError(match_key)

    @property
    def final(self) -> Match:
        """The last match."""
        return self[key(self.rounds, 0)]

    @property
    def champion(self) -> int | None:
        """The winner of the final, once known."""
        return self.final.winner

    @property
    def runner_up(self) -> int | None:
        """The loser of the final, once known."""
        loser = self.final.loser
        return None if loser == BYE else loser

    @property
    def third(self) -> int | None:
        """The winner of the 3rd-place match, once known (None without one)."""
        for match in self.matches:
            if match.key == THIRD:
                return None if match.winner == BYE else match.winner
        return None

    @property
    def over(self) -> bool:
        """True when every match has its winner."""
        return all(match.winner is not None for match in self.matches)

    def playing(self, pair: int) -> list[Match]:
        """The undecided playable matches of this pair."""
        return [m for m in self.matches if m.playable and m.winner is None and pair in m.pairs]


def build(slots: Sequence[int], said: Mapping[str, Word], third_place: bool) -> Bracket:
    """The bracket from the draw and the words said so far (by each match's table or the
    organiser, keyed by match): byes go on by themselves, a word about a match whose pairs
    changed counts for nothing."""
    rounds = rounds_for(len(slots))
    matches: list[Match] = []
    sides: list[int | None] = list(slots)
    semis: list[Match] = []
    for round_ in range(1, rounds + 1):
        winners: list[int | None] = []
        for index in range(len(sides) // 2):
            a, b = sides[2 * index], sides[2 * index + 1]
            match = Match(
                key(round_, index),
                round_,
                index,
                a,
                b,
                _decided(a, b, said.get(key(round_, index))),
            )
            winners.append(match.winner)
            if round_ == rounds - 1:
                semis.append(match)
            if round_ == rounds and third_place and rounds >= 2:
                matches.append(_third(semis, said, round_))
            matches.append(match)
        sides = winners
    return Bracket(tuple(matches), rounds)


def _third(semis: Sequence[Match], said: Mapping[str, Word], round_: int) -> Match:
    """The 3rd-place match between the semi-finals' losers (a semi won over a bye gives none)."""
    a, b = (None if semi.winner is None else semi.loser for semi in semis)
    return Match(THIRD, round_, -1, a, b, _decided(a, b, said.get(THIRD)))


def state_of(match: Match, called: bool) -> str:
    """A match's state as pages show it: over, playing at a mesa, or waiting."""
    if match.winner is not None:
        return OVER
    return PLAYING if called else WAITING


@dataclass(frozen=True)
class Call:
    """A match called to a mesa: the mesa, the pairs it was called with, and whether its table
    was touched since (a tap, or the organiser's word): a touched call is never taken back."""

    mesa: int
    a: int
    b: int
    touched: bool


def called_off(bracket: Bracket, called: Mapping[str, Call]) -> list[str]:
    """The untouched calls to take back (`called` in call order): a match whose pairs changed
    since its call (a feeder reopened), and a match called to a mesa that a match called
    before it holds again (reopened by an undo after its mesa had moved on)."""
    off: list[str] = []
    held: set[int] = set()
    for match_key, call in called.items():
        match = bracket[match_key]
        moved = (match.a, match.b) != (call.a, call.b)
        if not call.touched and (moved or (match.winner is None and call.mesa in held)):
            off.append(match_key)
        elif match.winner is None:
            held.add(call.mesa)
    return off


def calls(
    bracket: Bracket, called: Mapping[str, int], mesas: int, paused: Iterable[int] = ()
) -> dict[str, int]:
    """New calls (match key -> mesa number): the playable undecided matches not yet called, in
    bracket order, each to the lowest free mesa (1..mesas) that is not paused; a mesa is busy
    while it holds an undecided match, and a match waits while a pair of it still plays another."""
    busy = {mesa for k, mesa in called.items() if bracket[k].winner is None}
    free = [n for n in range(1, mesas + 1) if n not in busy and n not in set(paused)]
    playing = {p for k in called for p in bracket[k].pairs if bracket[k].winner is None}
    made: dict[str, int] = {}
    for match in bracket.matches:
        if not free:
            break
        if match.key in called or not match.playable or match.winner is not None:
            continue
        if playing.intersection(match.pairs):
            continue
        made[match.key] = free.pop(0)
        playing.update(match.pairs)
    return made
