"""Reading and writing a table's log; every write is a compare-and-swap on the revision."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import select, update

from ..extensions import db
from ..models import ACTIVE, DISCARDED, UNDONE, HandRecord, Mesa
from ..rules import Kind, MatchState, Outcome, RulesError, replay

T = TypeVar("T")

MARKERS = (Kind.PROXIMA_PARTIDA.value, Kind.NOVA_SERIE.value)

NOTES: dict[int, tuple[tuple[str, str], ...]] = {
    1: (("simples", "mão simples"), ("correram_truco", "correram do truco")),
    3: (("truco", "truco aceito"), ("correram_seis", "correram do seis")),
    6: (("seis", "seis aceito"), ("correram_nove", "correram do nove")),
    9: (("nove", "nove aceito"), ("correram_doze", "correram do doze")),
    12: (("doze", "doze aceito"),),
}
NOTE_LABELS = {code: label for notes in NOTES.values() for code, label in notes}


class StaleRevision(Exception):
    """The board changed since the client drew it."""


def new_token() -> str:
    """An unguessable capability token (192 bits from `secrets`)."""
    return secrets.token_urlsafe(24)


def find_mesa(token: str, *, edit: bool) -> Mesa | None:
    """The table whose edit (or view) token is `token`, compared in constant time."""
    if not token or len(token) > 64:
        return None
    column = Mesa.edit_token if edit else Mesa.view_token
    mesa = db.session.execute(select(Mesa).where(column == token)).scalar_one_or_none()
    if mesa is None:
        return None
    stored = mesa.edit_token if edit else mesa.view_token
    return mesa if hmac.compare_digest(stored.encode(), token.encode()) else None


@dataclass(frozen=True)
class Board:
    """A table's log and everything derived from it."""

    mesa: Mesa
    records: list[HandRecord]
    active: list[HandRecord]
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
    def last(self) -> HandRecord | None:
        """The last active record."""
        return self.active[-1] if self.active else None


def load_board(mesa: Mesa) -> Board:
    """Read a table's records and fold the active ones through the rules."""
    records = list(
        db.session.execute(
            select(HandRecord).where(HandRecord.mesa_id == mesa.id).order_by(HandRecord.seq)
        ).scalars()
    )
    active = [r for r in records if r.status == ACTIVE]
    states = replay(mesa.match_config, (r.outcome for r in active))
    return Board(mesa, records, active, states)


def _write(mesa: Mesa, revision: int, change: Callable[[], T]) -> T:
    """Bump the revision only if it is still `revision`, then apply `change`, in one transaction."""
    try:
        result = db.session.execute(
            update(Mesa)
            .where(Mesa.id == mesa.id, Mesa.revision == revision)
            .values(revision=Mesa.revision + 1)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleRevision()
        value = change()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    db.session.refresh(mesa)
    return value


def record_outcome(
    mesa: Mesa, revision: int, outcome: Outcome, reason: str | None = None
) -> HandRecord:
    """Append a hand (or correction, or marker) if it is legal now."""

    def change() -> HandRecord:
        board = load_board(mesa)
        after = board.state.apply(outcome)
        for rec in board.records:
            if rec.status == UNDONE:
                rec.status = DISCARDED
        next_seq = (board.records[-1].seq + 1) if board.records else 1
        rec = HandRecord(
            mesa_id=mesa.id,
            seq=next_seq,
            kind=outcome.kind.value,
            side=outcome.side,
            points=outcome.points,
            reason=reason,
            status=ACTIVE,
            score_a=after.points[0],
            score_b=after.points[1],
        )
        db.session.add(rec)
        db.session.flush()
        return rec

    return _write(mesa, revision, change)


def undo(mesa: Mesa, revision: int) -> HandRecord:
    """Mark the last active record undone (with the hand before it if it was a game marker)."""

    def change() -> HandRecord:
        active = load_board(mesa).active
        if not active:
            raise RulesError("Não há mão para desfazer.")
        target = active.pop()
        target.status = UNDONE
        if target.kind in MARKERS and active:
            target = active.pop()
            target.status = UNDONE
        return target

    return _write(mesa, revision, change)


def redo(mesa: Mesa, revision: int) -> HandRecord:
    """Bring back the earliest undone record."""

    def change() -> HandRecord:
        undone = [r for r in load_board(mesa).records if r.status == UNDONE]
        if not undone:
            raise RulesError("Não há mão desfeita para refazer.")
        undone[0].status = ACTIVE
        return undone[0]

    return _write(mesa, revision, change)


def set_note(mesa: Mesa, revision: int, record_id: int, note: str) -> HandRecord:
    """Attach a note on how a normal hand ended (e.g. 'truco aceito') to an active record."""

    def change() -> HandRecord:
        rec = db.session.get(HandRecord, record_id)
        if rec is None or rec.mesa_id != mesa.id or not rec.active:
            raise RulesError("Essa mão não está no placar.")
        allowed = dict(NOTES.get(rec.points or 0, ())) if rec.kind == Kind.NORMAL.value else {}
        if note not in allowed:
            raise RulesError("Essa observação não combina com essa mão.")
        rec.note = note
        return rec

    return _write(mesa, revision, change)

