"""A torneio's matches hand by hand, for its exports: every active record of each match's table
that scored or corrected, with the place (partida, mão) it was played from. Read only when an
export is asked for, never by the TV's poll."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from ...models import ACTIVE, Mesa
from ...rules import HAND_KINDS, Kind, MatchState, Outcome
from ..mesa import all_records, words

EXPORTED_KINDS = HAND_KINDS | {Kind.CORRECAO.value}  # what moved a match's score


@dataclass(frozen=True)
class Hand:
    """A record of a match's table as an export shows it."""

    game: int  # the partida of the series it was played in
    number: int  # the mão of that partida (a correction: the mão it was made before)
    kind: str
    text: str
    side: int | None  # 0: the match's first pair, 1: its second; None for a void hand
    points: int  # what a hand scored for `side` (0 for a void one), what a correction set
    score: tuple[int, int]  # the partida's score after it
    wins: tuple[int, int]  # the partidas each pair had won after it
    at: datetime


def hands(mesa: Mesa, names: tuple[str, str]) -> Iterator[Hand]:
    """The records of a match's table that moved its score, oldest first, each with the place
    it was played from (the place after the active record before it); undone ones left out."""
    place = MatchState(mesa.match_config).place
    wins = (0, 0)
    for record in all_records(mesa):
        if record.status != ACTIVE:
            continue
        before = place
        if record.state is not None:
            place = MatchState.place_of(record.state)
            wins = MatchState.wins_of(record.state)
        if record.kind not in EXPORTED_KINDS:
            continue
        void = record.kind == Kind.ANULADA.value
        outcome = Outcome(Kind(record.kind), record.side, record.points)
        correction = record.kind == Kind.CORRECAO.value
        yield Hand(
            game=before[1],
            number=before[2],
            kind=record.kind,
            text=words.record_text(record, names),
            side=None if void else record.side,
            points=(record.points or 0) if correction else outcome.gain,
            score=(record.score_a, record.score_b),
            wins=wins,
            at=record.created_at,
        )
