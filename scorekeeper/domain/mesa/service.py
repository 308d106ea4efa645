"""The tables' domain: finding a table by its capability token, opening one, reading its log
as a board, and every write (a compare-and-swap on the revision), undo, redo, notes and link
rotation. No Flask request here: views parse, call these, and present what they return."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import Connection, Dialect, Engine, bindparam, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from ... import caches
from ...database import polls_engine
from ...extensions import db
from ...models import (
    ACTIVE,
    DISCARDED,
    ENTRY_COLUMNS,
    ENTRY_FIELDS,
    UNDONE,
    Entry,
    HandRecord,
    Mesa,
    MesaWrite,
    Torneio,
    Turma,
    entry,
    utcnow,
)
from ...rules import HAND_KINDS, Kind, MatchState, Outcome, RulesError
from .board import (
    ACTIVE_TAIL,
    LOG_ON_BOARD,
    Board,
    assemble,
    number,
    replaced_seq,
    replacing_json,
    state_after,
)
from .inputs import INT_LIMIT
from .refusals import (
    AlreadyApplied,
    MatchOver,
    ReusedClientId,
    StaleRevision,
    UnknownTable,
    ViewOnly,
)
from .settings import (
    NAME_CHANGES,
    SETTING_NAMES,
    TableSettings,
    edit_json,
    edit_of,
    names_changed,
)
from .words import notes_of, record_text

RECENT_LIMIT = 12  # tables a browser remembers on its home page
MAX_RECORDS = 20_000  # records a table may hold: far above any evening, a bound on abuse
TORNEIO_SERIES = "Este jogo é do torneio: a série não recomeça nesta mesa."
TORNEIO_EDIT = (
    "Os nomes e as regras deste jogo são do torneio: aqui só muda quem dá as cartas."
    " Para corrigir o nome de uma dupla, fale com o organizador."
)
FULL_TABLE = (
    "Esta mesa chegou ao limite de 20.000 registros. Abra uma mesa nova para continuar."
)
LAST_HAND_ONLY = "A observação vai só na última mão do placar."
NOT_A_HAND = (
    "A última marcação do placar não é uma mão (é uma correção, uma próxima partida ou uma"
    " edição da mesa): não há mão para trocar. Desfaça-a no placar antes."
)
NOT_THE_LAST = "Essa mão já não é a última do placar: nada foi trocado."
SAME_HAND = "A última mão já está marcada assim: não há o que trocar."
ONLY_A_HAND = "Só uma mão pode ficar no lugar da última mão."
NOTHING_CHANGED = "Nada mudou na mesa: os nomes e as opções são os mesmos."
ASK_NAMES = (
    "Você mudou um nome: diga se é o nome corrigido (erro de digitação) ou se entrou outra"
    " pessoa no lugar."
)
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe gives, and old ones


def new_token() -> str:
    """An unguessable capability token (192 bits from `secrets`)."""
    return secrets.token_urlsafe(24)


_MESA_BY = {
    edit: select(Mesa).where(column == bindparam("token"))
    for edit, column in ((True, Mesa.edit_token), (False, Mesa.view_token))
}


def _token_shaped(token: str) -> bool:
    """True when `token` could be a capability token (what never can is not looked up)."""
    return bool(TOKEN_SHAPE.fullmatch(token))


def find_mesa(token: str, *, edit: bool) -> Mesa | None:
    """The table whose edit (or view) token is `token`, compared in constant time."""
    if not _token_shaped(token):
        return None
    mesa = db.session.execute(_MESA_BY[edit], {"token": token}).scalar_one_or_none()
    if mesa is None:
        return None
    stored = mesa.edit_token if edit else mesa.view_token
    return mesa if hmac.compare_digest(stored.encode(), token.encode()) else None


Holder = TypeVar("Holder", Mesa, Turma, Torneio)


def find_holder(model: type[Holder], token: str, *, edit: bool) -> Holder | None:
    """The row of `model` (a table, a turma, a torneio) whose edit (or view) token is `token`,
    compared in constant time; None for a token nothing holds or that could be none."""
    if not _token_shaped(token):
        return None
    column = model.edit_token if edit else model.view_token
    found = db.session.execute(select(model).where(column == token)).scalar_one_or_none()
    if found is None:
        return None
    stored = found.edit_token if edit else found.view_token
    return found if hmac.compare_digest(stored.encode(), token.encode()) else None


def scorer_table(token: str) -> Mesa:
    """The table of a scorer token; ViewOnly for a viewer's token, else UnknownTable."""
    mesa = find_mesa(token, edit=True)
    if mesa is None:
        raise ViewOnly() if find_mesa(token, edit=False) is not None else UnknownTable()
    return mesa


def viewer_table(token: str) -> Mesa:
    """The table of a viewer token, else UnknownTable."""
    mesa = find_mesa(token, edit=False)
    if mesa is None:
        raise UnknownTable()
    return mesa


def open_table(settings: Mapping[str, Any]) -> Mesa:
    """A new table with these settings and two fresh capability tokens."""
    mesa = Mesa(edit_token=new_token(), view_token=new_token(), **settings)
    db.session.add(mesa)
    db.session.commit()
    return mesa


def rotate_links(token: str, revision: int) -> Mesa:
    """New tokens for the table of this scorer token, as a write like any other: only onto the
    revision the page was drawn from, bumping it. The old links stop working at once; of two
    phones rotating at the same time, one does it and the other's old link is gone (404)."""
    if not _token_shaped(token):
        raise UnknownTable()
    new = {"new_edit": new_token(), "new_view": new_token()}
    with db.engine.begin() as connection:
        row = connection.execute(_ROTATE, {"token": token, "revision": revision, **new}).first()
    if row is None:
        scorer_table(token)  # UnknownTable or ViewOnly when the link itself is gone
        raise StaleRevision()
    return Mesa(**row._asdict())


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
    if not _token_shaped(token):
        return None
    polls = polls_engine()
    row = _server_revision(polls, edit, token) if polls else _local_revision(edit, token)
    if row is None or not hmac.compare_digest(str(row[1]).encode(), token.encode()):
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
_OLDEST_UNDONE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == UNDONE)
    .order_by(_RECORDS.c.seq)
    .limit(1)
)


def _kept_board(mesa: Mesa, revision: int) -> Board | None:
    """The board this app kept for the table at `revision`, on `mesa`; None without one.

    Only a committed write keeps a board, and every write moves the table's revision on: the
    board kept at a revision is the table at that revision, whichever app reads it."""
    kept: Board | None = caches.recall(caches.BOARDS, mesa.edit_token)
    return replace(kept, mesa=mesa) if kept and kept.mesa.revision == revision else None


def _keep_board(board: Board) -> None:
    """Keep a committed write's board, the table's newest, for the next read or write here."""
    caches.keep(caches.BOARDS, board.mesa.edit_token, board)  # a token is never reused


def load_board(mesa: Mesa) -> Board:
    """A table's board: the one this app kept at the table's revision, else read (`read_board`)."""
    return _kept_board(mesa, mesa.revision) or read_board(mesa)


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


@dataclass(frozen=True)
class Written:
    """What a write returns: the board after it, and the record it touched."""

    board: Board
    record: Entry


_MESAS = Mesa.__table__
_ROTATE = (
    update(_MESAS)
    .where(_MESAS.c.edit_token == bindparam("token"), _MESAS.c.revision == bindparam("revision"))
    .values(
        edit_token=bindparam("new_edit"),
        view_token=bindparam("new_view"),
        revision=_MESAS.c.revision + 1,
        link_changes=_MESAS.c.link_changes + 1,
    )
    .returning(*_MESAS.c)
)
# Every write's claim: only on the revision drawn, and only while the table is open (a torneio
# match decided off its board or called off is closed: see domain.torneio.word).
_CLAIM = (
    update(_MESAS)
    .where(
        _MESAS.c.edit_token == bindparam("token"),
        _MESAS.c.revision == bindparam("revision"),
        _MESAS.c.closed.is_(None),
    )
    .values(revision=_MESAS.c.revision + 1)
    .returning(*_MESAS.c)
)
_CLOSED = select(_MESAS.c.closed).where(_MESAS.c.edit_token == bindparam("token"))


_JOURNAL = insert(MesaWrite.__table__)
_APPLIED = (
    select(MesaWrite.record_id, MesaWrite.fingerprint)
    .join(Mesa, Mesa.id == MesaWrite.mesa_id)
    .where(Mesa.edit_token == bindparam("token"), MesaWrite.client_id == bindparam("client"))
)

Change = Callable[[Connection, Board], Written]
Call = TypeVar("Call")


def fingerprint(*what: object) -> str:
    """What a write was (its route and arguments) as the journal keeps it: a SHA-256 in hex."""
    return hashlib.sha256(repr(what).encode()).hexdigest()


def once_more_if_disconnected(call: Callable[[], Call]) -> Call:
    """`call()`, and once more when the database connection was lost under it (a server
    restart): a write may be sent twice, since the revision it claims and the client-id journal
    apply it once whatever happened to the first attempt."""
    try:
        return call()
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
    return call()


def _write(
    token: str, revision: int, change: Change, what: str, client_id: str | None = None
) -> Written:
    """Bump the revision of the table with this edit token only if it is still `revision`, then
    apply `change`, in one transaction; with a client id, journal it with `what` (the write's
    fingerprint) in the same transaction.

    One conditional UPDATE … RETURNING finds the table and takes the write lock before anything
    is read; the board `change` gets is the one this app kept at `revision` or else is read under
    that lock. Nothing reaches the app's caches before the commit: the board it leaves is kept
    once it is done. No row means an unknown token, a stale revision or
    a write already applied: the journal tells the last (AlreadyApplied, or ReusedClientId when
    the id came with another write), the rest raise StaleRevision and the caller tells them
    apart.
    """
    if not _token_shaped(token):
        raise UnknownTable()

    def transaction() -> Written:
        with db.engine.begin() as connection:  # commits, or rolls back on any exception
            row = connection.execute(_CLAIM, {"token": token, "revision": revision}).first()
            if row is None:
                raise StaleRevision()
            mesa = Mesa(**row._asdict())
            before = _kept_board(mesa, revision) or read_board(mesa, connection)
            written = change(connection, before)
            if client_id:
                journal = {
                    "mesa_id": row.id,
                    "client_id": client_id,
                    "revision": row.revision,
                    "record_id": written.record.id,
                    "fingerprint": what,
                }
                connection.execute(_JOURNAL, journal)
        return written

    try:
        written = once_more_if_disconnected(transaction)
    except (StaleRevision, IntegrityError):
        if client_id:
            _check_journal(token, client_id, what)
        _check_open(token)
        raise
    _keep_board(written.board)
    return written


def _check_open(token: str) -> None:
    """MatchOver when the table with this edit token is closed (its torneio match was decided
    off its board or called off); nothing otherwise."""
    with db.engine.connect() as connection:
        closed = connection.execute(_CLOSED, {"token": token}).scalar_one_or_none()
    if closed is not None:
        raise MatchOver()


def _check_journal(token: str, client_id: str, what: str) -> None:
    """AlreadyApplied when this table journaled this write under `client_id`, ReusedClientId
    when it journaled another write under it; nothing when it never saw the id."""
    with db.engine.connect() as connection:
        found = connection.execute(_APPLIED, {"token": token, "client": client_id}).first()
    if found is None:
        return
    if found.fingerprint is not None and found.fingerprint != what:
        raise ReusedClientId()
    raise AlreadyApplied(int(found.record_id))


_INSERT = insert(_RECORDS).returning(*ENTRY_COLUMNS)
_DISCARD_UNDONE = (
    update(_RECORDS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == UNDONE)
    .values(status=DISCARDED)
)
_SET_STATUS = (
    update(_RECORDS)
    .where(_RECORDS.c.id.in_(bindparam("ids", expanding=True)))
    .values(status=bindparam("new_status"))
)
_SET_NOTE = (
    update(_RECORDS).where(_RECORDS.c.id == bindparam("record")).values(note=bindparam("new_note"))
)


def _set_status(connection: Connection, record: Entry, status: str) -> None:
    """Store a new status for a record."""
    connection.execute(_SET_STATUS, {"ids": [record.id], "new_status": status})


def _append(
    connection: Connection,
    board: Board,
    outcome: Outcome,
    after: MatchState,
    reason: str | None = None,
    settings: str | None = None,
) -> Entry:
    """Insert the table's next record (its state `after`), undone ones discarded first; the
    record as a read gives it back."""
    if board.can_redo:
        connection.execute(_DISCARD_UNDONE, {"mesa": board.mesa.id})
    draft = Entry(
        id=0,  # given by the INSERT
        seq=board.size + 1,
        kind=outcome.kind.value,
        side=outcome.side,
        points=outcome.points,
        note=None,
        reason=reason,
        status=ACTIVE,
        score_a=after.points[0],
        score_b=after.points[1],
        created_at=utcnow(),
        state=tuple(after.snapshot()),
        settings=settings,
    )
    values = {name: getattr(draft, name) for name in ENTRY_FIELDS if name != "id"}
    values["state"] = after.snapshot()
    row = connection.execute(_INSERT, {**values, "mesa_id": board.mesa.id}).one()
    return entry(row)  # as a read gives it back


_SET_SETTINGS = (
    update(_MESAS)
    .where(_MESAS.c.id == bindparam("mesa"))
    .values({name: bindparam(f"new_{name}") for name in SETTING_NAMES})
    .returning(*_MESAS.c)
)


def _set_settings(connection: Connection, mesa: Mesa, settings: TableSettings) -> Mesa:
    """Store a table's settings (its names and options); the table as it is then."""
    values = {f"new_{name}": value for name, value in settings.columns().items()}
    row = connection.execute(_SET_SETTINGS, {"mesa": mesa.id, **values}).one()
    return Mesa(**row._asdict())


def _append_outcome(
    connection: Connection, board: Board, outcome: Outcome, reason: str | None
) -> Written:
    """Append a record of `outcome` to the board if it is legal now, undone ones discarded."""
    if board.size >= MAX_RECORDS:
        raise RulesError(FULL_TABLE)
    if board.mesa.torneio_id is not None and outcome.kind is Kind.NOVA_SERIE:
        raise RulesError(TORNEIO_SERIES)
    after = board.state.apply(outcome)
    record = _append(connection, board, outcome, after, reason=reason)
    return Written(board.appended(record, after), record)


def record_outcome(
    token: str,
    revision: int,
    outcome: Outcome,
    reason: str | None = None,
    client_id: str | None = None,
) -> Written:
    """Append a hand (or correction, or marker) if it is legal now; undone hands are discarded."""

    def change(connection: Connection, board: Board) -> Written:
        return _append_outcome(connection, board, outcome, reason)

    what = fingerprint("marcar", outcome.kind.value, outcome.side, outcome.points, reason)
    return _write(token, revision, change, what, client_id)


def append_on(
    connection: Connection, token: str, revision: int, outcomes: Sequence[Outcome], reason: str
) -> Board:
    """Append `outcomes` (each with `reason`) to the table with this edit token on another
    domain's transaction, only if it is still at `revision` (StaleRevision else: the caller's
    transaction rolls back); the board after them. Nothing is kept in the app's caches: the
    revision moved on, so the next read reads."""
    row = connection.execute(_CLAIM, {"token": token, "revision": revision}).first()
    if row is None:
        raise StaleRevision()
    board = read_board(Mesa(**row._asdict()), connection)
    for outcome in outcomes:
        board = _append_outcome(connection, board, outcome, reason).board
    return board


def add_points(
    token: str,
    revision: int,
    side: int,
    amount: int,
    reason: str,
    client_id: str | None = None,
) -> Written:
    """Correct a side's points by adding `amount` (a negative one takes away) to the score the
    board shows at this revision: the same correction as setting the sum."""

    def change(connection: Connection, board: Board) -> Written:
        points = board.state.points[side] + amount
        try:
            return _append_outcome(connection, board, Outcome(Kind.CORRECAO, side, points), reason)
        except RulesError as refused:
            name = board.mesa.team_names[side]
            raise RulesError(f"Somando {amount}, {name} ficaria com {points}. {refused}") from None

    what = fingerprint("somar", side, amount, reason)
    return _write(token, revision, change, what, client_id)


_SEQ = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.seq == bindparam("seq"))
)


def _replaced(connection: Connection, mesa: Mesa, record: Entry, status: str) -> Entry | None:
    """The hand `record` was recorded in the place of, when it is one such and that hand's
    record is older, a hand with its state and of `status` (discarded while `record` is active,
    active while it is undone); None otherwise."""
    seq = replaced_seq(record.kind, record.settings)
    if seq is None or seq >= record.seq:
        return None
    row = connection.execute(_SEQ, {"mesa": mesa.id, "seq": seq}).first()
    found = entry(row) if row is not None else None
    if found is None or found.kind not in HAND_KINDS or found.state is None:
        return None
    return found if found.status == status else None


def _state_before(connection: Connection, mesa: Mesa, record: Entry) -> MatchState:
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
    return LastHand(last, _state_before(db.session.connection(), board.mesa, last))


def replace_last(
    token: str,
    revision: int,
    record_id: int,
    outcome: Outcome,
    reason: str,
    note: str | None = None,
    client_id: str | None = None,
) -> Written:
    """Record `outcome` in the place of the board's last hand (record `record_id`), as played
    on the state that hand was: one write, which one undo takes back whole (the replaced hand
    comes back) and one redo makes again. The replaced hand's record is discarded and the new
    one keeps its seq (`replacing_json`); its reason says who replaced which hand, then how
    the hand went ('pelo juiz, no lugar de Nós +3 · truco aceito'). Refused in pt-BR when the
    last record is not a hand, not that one, or already `outcome`, and when `outcome` is no
    hand (a correction or a marker)."""

    def change(connection: Connection, board: Board) -> Written:
        last = board.last
        if last is None or last.kind not in HAND_KINDS:
            raise RulesError(NOT_A_HAND)
        if last.id != record_id:
            raise RulesError(NOT_THE_LAST)
        if not outcome.kind.is_hand:  # its undo must find the hand it replaced
            raise RulesError(ONLY_A_HAND)
        if outcome == last.outcome:
            raise RulesError(SAME_HAND)
        if board.size >= MAX_RECORDS:
            raise RulesError(FULL_TABLE)
        after = _state_before(connection, board.mesa, last).apply(outcome)
        replaced = f"{reason}, no lugar de {record_text(last, board.mesa.team_names)}"
        said = " · ".join(part for part in (replaced, note) if part)
        _set_status(connection, last, DISCARDED)
        record = _append(
            connection, board, outcome, after, reason=said, settings=replacing_json(last.seq)
        )
        return Written(read_board(board.mesa, connection), record)

    what = fingerprint(
        "trocar", record_id, outcome.kind.value, outcome.side, outcome.points, reason, note
    )
    return _write(token, revision, change, what, client_id)


def undo(token: str, revision: int, client_id: str | None = None) -> Written:
    """Mark the last active record undone: one recorded step, which one redo brings back. A
    hand recorded in the place of another (`replace_last`) is one step with it: the other comes
    back."""

    def change(connection: Connection, board: Board) -> Written:
        if board.last is None:
            raise RulesError("Não há mão para desfazer.")
        _set_status(connection, board.last, UNDONE)
        replaced = _replaced(connection, board.mesa, board.last, DISCARDED)
        if replaced is not None:  # the hand it took the place of comes back
            _set_status(connection, replaced, ACTIVE)
        mesa = board.mesa
        if board.last.kind == Kind.MESA_EDITADA.value:
            mesa = _set_settings(connection, mesa, edit_of(board.last)[0])
        return Written(read_board(mesa, connection), replace(board.last, status=UNDONE))

    return _write(token, revision, change, fingerprint("desfazer"), client_id)


def redo(token: str, revision: int, client_id: str | None = None) -> Written:
    """Bring back the record the last undo took (the earliest undone one); a hand recorded in
    the place of another takes its place again."""

    def change(connection: Connection, board: Board) -> Written:
        row = connection.execute(_OLDEST_UNDONE, {"mesa": board.mesa.id}).first()
        if row is None:
            raise RulesError("Não há mão desfeita para refazer.")
        record = entry(row)
        _set_status(connection, record, ACTIVE)
        replaced = _replaced(connection, board.mesa, record, ACTIVE)
        if replaced is not None:  # it takes that hand's place again
            _set_status(connection, replaced, DISCARDED)
        mesa = board.mesa
        if record.kind == Kind.MESA_EDITADA.value:
            mesa = _set_settings(connection, mesa, edit_of(record)[1])
        return Written(read_board(mesa, connection), replace(record, status=ACTIVE))

    return _write(token, revision, change, fingerprint("refazer"), client_id)


def set_note(
    token: str, revision: int, record_id: int, note: str, client_id: str | None = None
) -> Written:
    """Attach a note on how a normal hand ended (e.g. 'truco aceito') to the newest active
    record, the only one the board offers notes for: a record's note changes only while it is
    the newest (the turma's summaries rely on it)."""

    def change(connection: Connection, board: Board) -> Written:
        record = board.last
        if record is None or record.id != record_id:
            raise RulesError(LAST_HAND_ONLY)
        allowed = dict(notes_of(board.state.config.variant, record.points))
        if record.kind != Kind.NORMAL.value or note not in allowed:
            raise RulesError("Essa observação não combina com essa mão.")
        connection.execute(_SET_NOTE, {"record": record.id, "new_note": note})
        return Written(read_board(board.mesa, connection), replace(record, note=note))

    return _write(token, revision, change, fingerprint("nota", record_id, note), client_id)


def edit_table(
    token: str,
    revision: int,
    settings: Mapping[str, Any],
    dealer: int,
    client_id: str | None = None,
    names: str | None = None,
) -> Written:
    """Change an open table's names, seating, series and house options, as a write like any
    other and a record in its log (undone and redone as a hand is): `settings` are the table's
    columns but the first dealer, `dealer` the seat that deals the next hand. The games played
    are kept; settings under which they could not have been played are refused in pt-BR, and
    so is an edit that changes nothing. When it changes a name the statistics count on a table
    that has played, `names` says how (settings.NAME_CHANGES: a typo fixed, or another person
    seated), kept in its record; refused in pt-BR when missing."""

    def change(connection: Connection, board: Board) -> Written:
        if board.size >= MAX_RECORDS:
            raise RulesError(FULL_TABLE)
        before = TableSettings.of(board.mesa)
        players = int(settings["players"])
        if not 0 <= dealer < players:
            raise RulesError("Quem dá as cartas deve ser um dos jogadores da mesa.")
        first = (dealer - board.state.hands_dealt) % players
        # A table keeps its rule set: the games played were scored by it.
        kept: dict[str, Any] = {"variante": before.variante}
        if board.mesa.torneio_id is not None:  # a torneio's match keeps its format
            kept |= {"players": before.players, "best_of": before.best_of}
        after = TableSettings.read({**settings, **kept, "first_dealer": first})
        if after == before:
            raise RulesError(NOTHING_CHANGED)
        if board.mesa.torneio_id is not None and after != replace(before, first_dealer=first):
            raise RulesError(TORNEIO_EDIT)  # a torneio's names and rules are the torneio's
        asked = board.played and names_changed(before, after)
        if asked and names not in NAME_CHANGES:
            raise RulesError(ASK_NAMES)
        state = board.state.reconfigured(after.config, before.teams)
        outcome = Outcome(Kind.MESA_EDITADA)
        text = edit_json(before, after, names if asked else None)
        record = _append(connection, board, outcome, state, settings=text)
        mesa = _set_settings(connection, board.mesa, after)
        return Written(read_board(mesa, connection), record)

    columns = sorted((name, repr(value)) for name, value in settings.items())
    what = fingerprint("editar", columns, dealer, *([names] if names else []))
    return _write(token, revision, change, what, client_id)
