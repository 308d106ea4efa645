"""A torneio's round clock, as pure values: when a round the organiser started ends, how long is
left, and what its limit does to a match still playing under the rule chosen at creation.

The clock is kept in the torneio's `clock` JSON: the bracket round (as text) -> when the
organiser started it (ISO, UTC), and '<round>:aplicado' -> when its limit was applied (the
mark that applies it once). No database here: rounds.py reads and writes it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ...rules import Outcome

LIDER, ONZE, PROXIMA = "lider", "onze", "proxima"  # the rules at the limit (service.AT_LIMIT)
APPLIED = ":aplicado"
NEXT_HAND = "tempo esgotado: a próxima mão decide"
TIED = "tempo esgotado: empate, a próxima mão decide"
NEXT_HAND_NOTES = (NEXT_HAND, TIED)  # the log lines after which the next hand decides


def as_utc(text: str) -> datetime:
    """A stored ISO time as an aware UTC datetime (a naive one is UTC)."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def stamp(moment: datetime) -> str:
    """An aware time as the clock stores it: ISO, UTC, to the second."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def started(clock: Mapping[str, str], round_: int) -> datetime | None:
    """When the organiser started this round's clock, None before."""
    text = clock.get(str(round_))
    return as_utc(text) if text else None


def applied(clock: Mapping[str, str], round_: int) -> bool:
    """True once this round's limit was applied to its matches."""
    return f"{round_}{APPLIED}" in clock


def deadline(clock: Mapping[str, str], round_: int, minutes: int) -> datetime | None:
    """When this round's time is up, None before it was started."""
    start = started(clock, round_)
    return None if start is None else start + timedelta(minutes=minutes)


def due(clock: Mapping[str, str], minutes: int, now: datetime) -> list[int]:
    """The rounds whose time is up and whose limit was not applied yet."""
    found = []
    for name in clock:
        if name.isdigit():
            ends = deadline(clock, int(name), minutes)
            if ends is not None and now >= ends and not applied(clock, int(name)):
                found.append(int(name))
    return sorted(found)


def running(clock: Mapping[str, str]) -> bool:
    """True while a started round's limit is still to come (the TV then redraws every
    minute)."""
    return any(name.isdigit() and not applied(clock, int(name)) for name in clock)


def minutes_left(ends: datetime, now: datetime) -> int:
    """Whole minutes left until `ends` (rounded up: 'faltam 1 min' until the end), 0 after."""
    return max(0, math.ceil((ends - now).total_seconds() / 60))


def leader(wins: tuple[int, int], points: tuple[int, int]) -> int | None:
    """The side ahead: more games won, else more points in the game being played; None when
    level on both."""
    for a, b in (wins, points):
        if a != b:
            return 0 if a > b else 1
    return None


@dataclass(frozen=True)
class AtLimit:
    """What the limit does to one match: the side given the match now (or None), the score its
    table is corrected to (or None), and the line written in its log."""

    winner: int | None
    score: tuple[int, int] | None
    reason: str

    @property
    def next_hand(self) -> bool:
        """True when the match goes to whoever wins the next hand."""
        return self.reason in NEXT_HAND_NOTES


def at_limit(
    rule: str,
    wins: tuple[int, int],
    points: tuple[int, int],
    special_at: int,
    names: tuple[str, str],
) -> AtLimit:
    """What the rule does to a match still playing at the limit: 'lider' gives it to the side
    ahead (a tie: the next hand decides); 'onze' puts the game at special_at x special_at
    (11 x 11 at a mão de onze); 'proxima' lets the next hand decide."""
    if rule == LIDER:
        side = leader(wins, points)
        if side is None:
            return AtLimit(None, None, TIED)
        return AtLimit(side, None, f"tempo esgotado: vence quem estava na frente ({names[side]})")
    if rule == ONZE:
        return AtLimit(None, onze_score(points, special_at), onze_reason(special_at))
    if rule == PROXIMA:
        return AtLimit(None, None, NEXT_HAND)
    raise ValueError(rule)


def onze_score(points: tuple[int, int], special_at: int) -> tuple[int, int]:
    """The score a game is corrected to at the limit: each side at least `special_at`."""
    return (max(points[0], special_at), max(points[1], special_at))


def onze_reason(special_at: int) -> str:
    """'tempo esgotado: partida em 11 x 11' (the special hand's score, both sides)."""
    return f"tempo esgotado: partida em {special_at} x {special_at}"


def next_hand_winner(after_note: Iterable[Outcome]) -> int | None:
    """The side that won the first hand scored after the 'next hand decides' line (a void
    hand decides nothing); None while none was."""
    for outcome in after_note:
        if outcome.kind.is_hand and outcome.side is not None and outcome.gain > 0:
            return outcome.side
    return None
