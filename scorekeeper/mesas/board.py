"""A table's board: its log and everything derived from it by folding the active records."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import ACTIVE, UNDONE, Entry, Mesa
from ..rules import MatchState, replay


@dataclass(frozen=True)
class Board:
    """A table's log and everything derived from it."""

    mesa: Mesa
    records: list[Entry]
    active: list[Entry]
    states: list[MatchState]

    @property
    def state(self) -> MatchState:
        """The current state (after every active record)."""
        return self.states[-1]

    @property
    def can_undo(self) -> bool:
        """True when there is an active record to undo."""
        return bool(self.active)

    @property
    def can_redo(self) -> bool:
        """True when an undone record can be brought back."""
        return any(r.status == UNDONE for r in self.records)

    @property
    def last(self) -> Entry | None:
        """The last active record."""
        return self.active[-1] if self.active else None


def board_of(mesa: Mesa, records: list[Entry]) -> Board:
    """The board of records already in memory (ordered by seq)."""
    active = [r for r in records if r.status == ACTIVE]
    states = replay(mesa.match_config, (r.outcome for r in active))
    return Board(mesa, records, active, states)

