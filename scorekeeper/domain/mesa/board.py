"""A table's board: what its pages show, read from its newest records and their stored states.

Every record keeps the match state after it (a checkpoint), so the board starts from the newest
active record's state instead of folding the whole log: its cost does not grow with the table's
history. `board_of` builds the same board by folding every record, as the definition to hold
the checkpoints to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from ...models import ACTIVE, DISCARDED, UNDONE, Entry, Mesa
from ...rules import HAND_KINDS, Kind, MatchState
from .settings import edit_of

LOG_ON_BOARD = 30  # the newest records the board's log shows; the history page has the rest
CHART_HANDS = LOG_ON_BOARD  # the current game's hands the chart draws: its newest, at most
# The newest active records a board reads: the log's, and the one before them (whose place
# numbers the oldest hand shown, and whose score starts the chart of a longer game).
ACTIVE_TAIL = LOG_ON_BOARD + 1
REPLACES = "substitui"  # a hand's record that took the place of another: the other's seq


@dataclass(frozen=True)
class Board:
    """A table and what its pages show: the current state, the newest records (newest first)
    with the 'partida.mão' number of their active hands, the current game's scores for the
    chart (oldest first; more than CHART_HANDS when the game is longer than the chart, the
    first of them its start), whether anything can be redone, and how many records it holds."""

    mesa: Mesa
    state: MatchState
    last: Entry | None
    recent: tuple[Entry, ...]
    numbers: Mapping[int, str]
    game: tuple[tuple[int, int], ...]
    can_redo: bool
    size: int

    @property
    def can_undo(self) -> bool:
        """True when there is an active record to undo."""
        return self.last is not None

    @property
    def played(self) -> bool:
        """True when the table has scored anything: a hand dealt, points, a game or a series
        (edits alone leave it as it opened)."""
        state = self.state
        started = state.hands_dealt or any(state.points) or any(state.totals)
        return bool(started or state.place[:2] != (1, 1))

    def appended(self, record: Entry, after: MatchState) -> Board:
        """The board once `record` (whose state is `after`) is appended, undone ones discarded."""
        kept = tuple(replace(r, status=DISCARDED) if r.status == UNDONE else r for r in self.recent)
        recent = (record, *kept)[:LOG_ON_BOARD]
        numbers = {r.id: self.numbers[r.id] for r in recent[1:] if r.id in self.numbers}
        if record.kind in HAND_KINDS:
            numbers[record.id] = number(self.state.place)
        same_game = after.place[:2] == self.state.place[:2]
        game = (*self.game, after.points)[-ACTIVE_TAIL:] if same_game else (after.points,)
        return Board(
            self.mesa,
            after,
            record,
            recent,
            MappingProxyType(numbers),
            game,
            False,
            self.size + 1,
        )


def number(before: tuple[int, int, int]) -> str:
    """The 'partida.mão' number of a hand played from this place (series, game, hand)."""
    return f"{before[1]}.{before[2]}"


def replacing_json(seq: int) -> str:
    """What a hand recorded in the place of another keeps (in `hand_record.settings`): the
    seq of the hand it replaced, which one undo brings back with it and one redo takes out."""
    return json.dumps({REPLACES: seq})


def replaced_seq(kind: str, kept: str | None) -> int | None:
    """The seq of the hand a record of `kind` keeping `kept` replaced; None for any record
    that replaced none (an edit keeps its settings there, every other record nothing)."""
    if kind not in HAND_KINDS or not kept:
        return None
    try:
        seq = json.loads(kept).get(REPLACES)
    except (ValueError, AttributeError):
        return None
    return seq if type(seq) is int else None


def state_after(mesa: Mesa, record: Entry) -> MatchState:
    """The state stored with a record (its checkpoint), under the table's config."""
    if record.state is None:
        raise ValueError(f"record {record.id} has no stored state")
    return MatchState.restore(mesa.match_config, list(record.state))


def assemble(
    mesa: Mesa,
    recent: Sequence[Entry],
    active: Sequence[Entry],
    current: MatchState,
    can_redo: bool,
) -> Board:
    """A board from the newest records (newest first), the newest active records (newest
    first; all of them when fewer than ACTIVE_TAIL) and the state after the newest of them.

    Only that state is restored: the numbers and the chart read the place stored in each
    record's checkpoint and its scores, so a record costs the same whatever the log's length.
    """
    places = [MatchState.place_of(r.state or ()) for r in active]
    if len(active) < ACTIVE_TAIL:
        places.append(MatchState(mesa.match_config).place)  # before the first record
    shown = {r.id for r in recent[:LOG_ON_BOARD]}
    numbers: dict[int, str] = {}
    for record, before in zip(active, places[1:], strict=False):
        if record.kind in HAND_KINDS and record.id in shown:
            numbers[record.id] = number(before)
    now = current.place[:2]
    game = [
        (r.score_a, r.score_b)
        for r, place in zip(active, places, strict=False)
        if place[:2] == now
    ]
    return Board(
        mesa,
        current,
        active[0] if active else None,
        tuple(recent[:LOG_ON_BOARD]),
        MappingProxyType(numbers),
        tuple(reversed(game)),
        can_redo,
        recent[0].seq if recent else 0,
    )


def board_of(mesa: Mesa, records: Sequence[Entry]) -> Board:
    """The board of every record in memory (ordered by seq), its states folded from the start
    (an edit's record reconfigures the state with the settings it made, the table's first
    settings being those before its first active edit): what the checkpointed board must
    equal."""
    active = [r for r in records if r.status == ACTIVE]
    edits = [edit_of(r) for r in active if r.kind == Kind.MESA_EDITADA.value]
    config = edits[0][0].config if edits else mesa.match_config
    state = MatchState(config)
    folded = []
    for record in active:
        if record.kind == Kind.MESA_EDITADA.value:
            before, after = edit_of(record)
            state = state.reconfigured(after.config, before.teams)
        else:
            state = state.apply(record.outcome)
        folded.append(replace(record, state=tuple(state.snapshot())))
    newest = list(reversed(folded))
    return assemble(
        mesa,
        list(reversed(records)),
        newest[:ACTIVE_TAIL],
        state,
        any(r.status == UNDONE for r in records),
    )
