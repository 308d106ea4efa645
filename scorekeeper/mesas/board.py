"""A table's board: what its pages show, read from its newest records and their stored states.

Every record keeps the match state after it (a checkpoint), so the board starts from the newest
active record's state instead of folding the whole log: its cost does not grow with the table's
history. `board_of` builds the same board by folding every record, as the definition to hold
the checkpoints to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..models import ACTIVE, DISCARDED, UNDONE, Entry, Mesa
from ..rules import Kind, MatchConfig, MatchState

LOG_ON_BOARD = 30  # the newest records the board's log shows; the history page has the rest
CHART_HANDS = 60  # the current game's states the chart draws, at most
ACTIVE_TAIL = max(LOG_ON_BOARD, CHART_HANDS) + 1  # the newest active records a board reads


@dataclass(frozen=True)
class Board:
    """A table and what its pages show: the current state, the newest records (newest first)
    with the 'partida.mão' number of their active hands, the current game's states for the
    chart (oldest first), whether anything can be redone, and how many records it holds."""

    mesa: Mesa
    state: MatchState
    last: Entry | None
    recent: tuple[Entry, ...]
    numbers: Mapping[int, str]
    game: tuple[MatchState, ...]
    can_redo: bool
    size: int

    @property
    def can_undo(self) -> bool:
        """True when there is an active record to undo."""
        return self.last is not None

    def appended(self, record: Entry, after: MatchState) -> Board:
        """The board once `record` (whose state is `after`) is appended, undone ones discarded."""
        kept = tuple(replace(r, status=DISCARDED) if r.status == UNDONE else r for r in self.recent)
        numbers = dict(self.numbers)
        if Kind(record.kind).is_hand:
            numbers[record.id] = number(self.state)
        same_game = _game(after) == _game(self.state)
        game = (*self.game, after)[-CHART_HANDS:] if same_game else (after,)
        return Board(
            self.mesa,
            after,
            record,
            (record, *kept)[:LOG_ON_BOARD],
            MappingProxyType(numbers),
            game,
            False,
            self.size + 1,
        )


def number(before: MatchState) -> str:
    """The 'partida.mão' number of a hand played from this state."""
    return f"{before.game_number}.{before.hand_in_game}"


def _game(state: MatchState) -> tuple[int, int]:
    """Which series and game a state belongs to."""
    return (state.series_number, state.game_number)


def state_after(mesa: Mesa, record: Entry, config: MatchConfig | None = None) -> MatchState:
    """The state stored with a record (its checkpoint), under the table's config (or `config`,
    the same config read once for many records)."""
    if record.state is None:
        raise ValueError(f"record {record.id} has no stored state")
    return MatchState.restore(config or mesa.match_config, list(record.state))


def assemble(
    mesa: Mesa,
    recent: Sequence[Entry],
    active: Sequence[Entry],
    states: Sequence[MatchState],
    can_redo: bool,
) -> Board:
    """A board from the newest records (newest first) and the newest active records with the
    states after them (newest first; all of them when fewer than ACTIVE_TAIL)."""
    initial = MatchState(mesa.match_config)
    complete = len(active) < ACTIVE_TAIL
    numbers: dict[int, str] = {}
    for i, record in enumerate(active):
        if i + 1 < len(active):
            before: MatchState | None = states[i + 1]
        else:
            before = initial if complete else None
        if before is not None and Kind(record.kind).is_hand:
            numbers[record.id] = number(before)
    current = states[0] if states else initial
    game = [s for s in states[:CHART_HANDS] if _game(s) == _game(current)]
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
    """The board of every record in memory (ordered by seq), its states folded from the start:
    what the checkpointed board must equal."""
    active = [r for r in records if r.status == ACTIVE]
    states: list[MatchState] = []
    state = MatchState(mesa.match_config)
    for record in active:
        state = state.apply(record.outcome)
        states.append(state)
    tail = list(reversed(active))[:ACTIVE_TAIL]
    return assemble(
        mesa,
        list(reversed(records)),
        tail,
        list(reversed(states))[:ACTIVE_TAIL],
        any(r.status == UNDONE for r in records),
    )
