"""Reading a table: finding it by a capability token, its board (the one this app kept at its
revision, else read from its newest records), its revision for a poll, a browser's recent
tables, a page of its history, its whole log for the exports. No Flask request here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection, Dialect, Engine, bindparam, select

from ... import caches
from ...database import polls_engine
from ...extensions import db
from ...models import ACTIVE, ENTRY_COLUMNS, UNDONE, Entry, HandRecord, Mesa, entry
from ...rules import HAND_KINDS, MatchState
from ..common.refusals import UnknownTable
from ..common.writes import find_holder, same, scorer_holder, shaped, viewer_holder
from .board import ACTIVE_TAIL, LOG_ON_BOARD, Board, assemble, number, state_after
from .inputs import INT_LIMIT

RECENT_LIMIT = 12  # tables a browser remembers on its home page


def find_mesa(token: str, *, edit: bool) -> Mesa | None:
    """The table whose edit (or view) token is `token`, compared in constant time."""
    return find_holder(Mesa, token, edit=edit)


def scorer_table(token: str) -> Mesa:
    """The table of a scorer token; ViewOnly for a viewer's token, else UnknownTable."""
    return scorer_holder(Mesa, token, UnknownTable)


def viewer_table(token: str) -> Mesa:
    """The table of a viewer token, else UnknownTable."""
    return viewer_holder(Mesa, token, UnknownTable)


def _tokens(stored: object) -> list[str]:
    """The scorer tokens a browser keeps (its session's list), ignoring anything else."""
    return [t for t in stored if isinstance(t, str)] if isinstance(stored, list) else []


def remembered(tokens: object, opened: str, replaced: str | None = None) -> list[str]:
    """A browser's recent scorer tokens after opening `opened` (newest first), or after its
    links were rotated from `replaced` to `opened` (kept in place)."""
    recent = _tokens(tokens)
    if replaced is not None:
        return [opened if t == replaced else t for t in recent]
    return [opened, *(t for t in recent if t != opened)][:RECENT_LIMIT]


@dataclass(frozen=True)
class Recent:
    """A browser's recent tables (in its order, with their boards) and the tokens of those whose
    links were rotated by another phone since (they name no table any more)."""

    tables: list[tuple[Mesa, Board]]
    gone: list[str]


def recent_tables(tokens: object) -> Recent:
    """The tables of a browser's recent scorer tokens: those that still exist, and the rest."""
    wanted = _tokens(tokens)[:RECENT_LIMIT]
    if not wanted:
        return Recent([], [])
    found = db.session.execute(select(Mesa).where(Mesa.edit_token.in_(wanted))).scalars()
    by_token = {m.edit_token: m for m in found}
    tables = [(by_token[t], load_board(by_token[t])) for t in wanted if t in by_token]
    return Recent(tables, [t for t in wanted if t not in by_token])


def scorer_board(token: str) -> Board:
    """The board of the table with this scorer token (ViewOnly, UnknownTable otherwise)."""
    return load_board(scorer_table(token))


def viewer_board(token: str) -> Board:
    """The board of the table with this viewer token (UnknownTable otherwise)."""
    return load_board(viewer_table(token))


_REVISION_BY = {
    edit: select(Mesa.revision, column).where(column == bindparam("token"))
    for edit, column in ((True, Mesa.edit_token), (False, Mesa.view_token))
}


def current_revision(token: str, *, edit: bool) -> int | None:
    """The current revision of the table with this token, None when no table has it: one
    indexed read, no ORM."""
    if not shaped(token):
        return None
    polls = polls_engine()
    row = _server_revision(polls, edit, token) if polls else _local_revision(edit, token)
    if row is None or not same(str(row[1]), token):
        return None
    return int(row[0])


def _local_revision(edit: bool, token: str) -> Any:
    """The (revision, token) row on the main engine (SQLite: no round trip to save)."""
    with db.engine.connect() as connection:
        return connection.execute(_REVISION_BY[edit], {"token": token}).first()


@caches.memo(caches.STATEMENTS)
def _driver_sql(dialect: Dialect, edit: bool) -> str:
    """The poll's statement compiled for a driver."""
    return str(_REVISION_BY[edit].compile(dialect=dialect))


def _server_revision(engine: Engine, edit: bool, token: str) -> Any:
    """The (revision, token) row on the polls engine, straight through the driver: one round trip
    with no per-statement work in SQLAlchemy; a dropped connection is replaced and tried again."""
    statement = _driver_sql(engine.dialect, edit)
    for attempt in range(2):
        connection = engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(statement, {"token": token})
            return cursor.fetchone()
        except engine.dialect.loaded_dbapi.OperationalError:
            connection.invalidate()
            if attempt:
                raise
        finally:
            connection.close()
    return None


_RECORDS = HandRecord.__table__
# A board reads its newest records whole: the log's and the chart's, with their stored states.
_NEWEST = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"))
    .order_by(_RECORDS.c.seq.desc())
    .limit(ACTIVE_TAIL)
)
_NEWEST_ACTIVE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == ACTIVE)
    .order_by(_RECORDS.c.seq.desc())
    .limit(ACTIVE_TAIL)
)


def kept_board(mesa: Mesa, revision: int) -> Board | None:
    """The board this app kept for the table at `revision`, on `mesa`; None without one.

    Only a committed write keeps a board, and every write moves the table's revision on: the
    board kept at a revision is the table at that revision, whichever app reads it."""
    kept: Board | None = caches.recall(caches.BOARDS, mesa.edit_token)
    return replace(kept, mesa=mesa) if kept and kept.mesa.revision == revision else None


def keep_board(board: Board) -> None:
    """Keep a committed write's board, the table's newest, for the next read or write here."""
    caches.keep(caches.BOARDS, board.mesa.edit_token, board)  # a token is never reused


def load_board(mesa: Mesa) -> Board:
    """A table's board: the one this app kept at the table's revision, else read (`read_board`)."""
    return kept_board(mesa, mesa.revision) or read_board(mesa)


def read_board(mesa: Mesa, connection: Connection | None = None) -> Board:
    """A table's board (on a write's `connection`, else the session's) from its newest records
    and their stored states: one indexed read of what the log and the chart show, and a second
    for the newest active records only when an undone or discarded record is among the newest.
    The same for the first hand and the ten-thousandth.

    Undone records are always the newest (an undo takes the newest active record, a new record
    discards every undone one first), so the newest record says whether anything can be redone.
    """
    connection = connection or db.session.connection()
    values = {"mesa": mesa.id}
    newest = [entry(row) for row in connection.execute(_NEWEST, values)]
    if all(record.status == ACTIVE for record in newest):
        active = newest
    else:
        active = [entry(row) for row in connection.execute(_NEWEST_ACTIVE, values)]
    undone = bool(newest) and newest[0].status == UNDONE
    current = state_after(mesa, active[0]) if active else MatchState(mesa.match_config)
    return assemble(mesa, newest[:LOG_ON_BOARD], active, current, undone)


HISTORY_PAGE = 100  # records a page of the history shows


@dataclass(frozen=True)
class LogPage:
    """A page of a table's whole log: its records (newest first), the 'partida.mão' number of
    their active hands, and the seq to ask for the next, older page (None on the last)."""

    mesa: Mesa
    records: tuple[Entry, ...]
    numbers: Mapping[int, str]
    older: int | None


_PAGE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.seq < bindparam("before"))
    .order_by(_RECORDS.c.seq.desc())
    .limit(HISTORY_PAGE + 1)
)
_ACTIVE_BEFORE = (
    select(*ENTRY_COLUMNS)
    .where(
        _RECORDS.c.mesa_id == bindparam("mesa"),
        _RECORDS.c.status == ACTIVE,
        _RECORDS.c.seq < bindparam("before"),
    )
    .order_by(_RECORDS.c.seq.desc())
    .limit(1)
)


_ALL = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"))
    .order_by(_RECORDS.c.seq)
)


def all_records(mesa: Mesa) -> Iterator[Entry]:
    """Every record of a table in order (active, undone and discarded), read as it streams
    (the exports)."""
    return (entry(row) for row in db.session.execute(_ALL, {"mesa": mesa.id}))


def log_page(token: str, before: int | None = None) -> LogPage:
    """A page of the whole log of the table with this scorer token: the records older than
    `before` (from the newest), read by index whatever the table's size."""
    mesa = scorer_table(token)
    connection = db.session.connection()
    newest = INT_LIMIT - 1  # past any seq, and still a 32-bit integer
    values = {"mesa": mesa.id, "before": min(before, newest) if before is not None else newest}
    rows = [entry(row) for row in connection.execute(_PAGE, values)]
    records, more = rows[:HISTORY_PAGE], len(rows) > HISTORY_PAGE
    active = [r for r in records if r.status == ACTIVE]
    numbers: dict[int, str] = {}
    if active:
        earlier = connection.execute(
            _ACTIVE_BEFORE, {"mesa": mesa.id, "before": active[-1].seq}
        ).first()
        befores = [MatchState.place_of(r.state or ()) for r in active[1:]]
        initial = MatchState(mesa.match_config).place
        befores.append(MatchState.place_of(earlier.state) if earlier else initial)
        for record, place in zip(active, befores, strict=True):
            if record.kind in HAND_KINDS:
                numbers[record.id] = number(place)
    older = records[-1].seq if more and records else None
    return LogPage(mesa, tuple(records), MappingProxyType(numbers), older)


def state_before(connection: Connection, mesa: Mesa, record: Entry) -> MatchState:
    """The state an active record was recorded on: the one stored with the active record
    before it, else the table's first."""
    row = connection.execute(_ACTIVE_BEFORE, {"mesa": mesa.id, "before": record.seq}).first()
    return state_after(mesa, entry(row)) if row is not None else MatchState(mesa.match_config)


@dataclass(frozen=True)
class LastHand:
    """A board's last record when it is a hand, and the state it was played on (what a hand
    recorded in its place is played on)."""

    record: Entry
    before: MatchState


def last_hand(board: Board) -> LastHand | None:
    """The board's last record with the state it was played on, when that record is a hand
    (not a correction, a marker or an edit); None otherwise. One indexed read."""
    last = board.last
    if last is None or last.kind not in HAND_KINDS:
        return None
    return LastHand(last, state_before(db.session.connection(), board.mesa, last))

