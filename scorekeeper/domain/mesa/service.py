"""The tables' writes: opening a table, every write (a compare-and-swap on the revision,
journaled by its client id), undo, redo, notes, corrections, edits and link rotation. The read
side (a table by its token, its board, its history) is `reading`, whose names are handed on
from here too. No Flask request here: views parse, call these, and present what they return."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

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
    entry,
    utcnow,
)
from ...rules import HAND_KINDS, Kind, MatchState, Outcome, RulesError
from ..common.refusals import MatchOver, StaleRevision, UnknownTable
from ..common.writes import (
    check_journal,
    claim,
    claiming,
    fingerprint,
    journal,
    new_token,
    once_more_if_disconnected,
    shaped,
)
from .board import Board, replaced_seq, replacing_json
from .reading import (
    LastHand,
    LogPage,
    Recent,
    all_records,
    current_revision,
    find_mesa,
    keep_board,
    kept_board,
    last_hand,
    load_board,
    log_page,
    read_board,
    recent_tables,
    remembered,
    scorer_board,
    scorer_table,
    state_before,
    viewer_board,
    viewer_table,
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

# What a table's write is, and the read side it hands on: `service.scorer_board` as before.
__all__ = [
    "ASK_NAMES",
    "MAX_RECORDS",
    "TORNEIO_EDIT",
    "LastHand",
    "LogPage",
    "Recent",
    "Written",
    "add_points",
    "all_records",
    "append_on",
    "current_revision",
    "edit_table",
    "find_mesa",
    "last_hand",
    "load_board",
    "log_page",
    "new_token",
    "open_table",
    "read_board",
    "recent_tables",
    "record_outcome",
    "redo",
    "remembered",
    "replace_last",
    "rotate_links",
    "scorer_board",
    "scorer_table",
    "set_note",
    "undo",
    "viewer_board",
    "viewer_table",
]

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


def open_table(settings: Mapping[str, Any]) -> Mesa:
    """A new table with these settings and two fresh capability tokens."""
    mesa = Mesa(edit_token=new_token(), view_token=new_token(), **settings)
    db.session.add(mesa)
    db.session.commit()
    return mesa


_MESAS, _RECORDS = Mesa.__table__, HandRecord.__table__
# Every write's claim: only on the revision drawn, and only while the table is open (a torneio
# match decided off its board or called off is closed: see domain.torneio.word).
_TOKEN = _MESAS.c.edit_token == bindparam("token")
_CLAIM = claiming(_MESAS, _TOKEN, _MESAS.c.closed.is_(None), returning=_MESAS.c)
_ROTATE = claiming(
    _MESAS,
    _TOKEN,
    returning=_MESAS.c,
    edit_token=bindparam("new_edit"),
    view_token=bindparam("new_view"),
    link_changes=_MESAS.c.link_changes + 1,
)
_CLOSED = select(_MESAS.c.closed).where(_TOKEN)
_OLDEST_UNDONE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == UNDONE)
    .order_by(_RECORDS.c.seq)
    .limit(1)
)


def rotate_links(token: str, revision: int) -> Mesa:
    """New tokens for the table of this scorer token, as a write like any other: only onto the
    revision the page was drawn from, bumping it. The old links stop working at once; of two
    phones rotating at the same time, one does it and the other's old link is gone (404)."""
    if not shaped(token):
        raise UnknownTable()
    new = {"new_edit": new_token(), "new_view": new_token()}
    with db.engine.begin() as connection:
        row = claim(connection, _ROTATE, revision, token=token, **new)
    if row is None:
        scorer_table(token)  # UnknownTable or ViewOnly when the link itself is gone
        raise StaleRevision()
    return Mesa(**row._asdict())


@dataclass(frozen=True)
class Written:
    """What a write returns: the board after it, and the record it touched."""

    board: Board
    record: Entry


Change = Callable[[Connection, Board], Written]


def _write(
    token: str, revision: int, change: Change, what: str, client_id: str | None = None
) -> Written:
    """Bump the revision of the table with this edit token only if it is still `revision`, then
    apply `change`, in one transaction; with a client id, journal it with `what` (the write's
    fingerprint) in the same transaction.

    One conditional UPDATE … RETURNING (the claim) finds the table and takes the write lock
    before anything is read; the board `change` gets is the one this app kept at `revision` or
    else is read under that lock. Nothing reaches the app's caches before the commit: the board
    it leaves is kept once it is done. No row means an unknown token, a stale revision or
    a write already applied: the journal tells the last (AlreadyApplied, or ReusedClientId when
    the id came with another write), the rest raise StaleRevision and the caller tells them
    apart.
    """
    if not shaped(token):
        raise UnknownTable()

    def transaction() -> Written:
        with db.engine.begin() as connection:  # commits, or rolls back on any exception
            row = claim(connection, _CLAIM, revision, token=token)
            if row is None:
                raise StaleRevision()
            mesa = Mesa(**row._asdict())
            before = kept_board(mesa, revision) or read_board(mesa, connection)
            written = change(connection, before)
            if client_id:
                journal(connection, row.id, client_id, row.revision, written.record.id, what)
        return written

    try:
        written = once_more_if_disconnected(transaction)
    except (StaleRevision, IntegrityError):
        if client_id:
            check_journal(token, client_id, what)
        _check_open(token)
        raise
    keep_board(written.board)
    return written


def _check_open(token: str) -> None:
    """MatchOver when the table with this edit token is closed (its torneio match was decided
    off its board or called off); nothing otherwise."""
    with db.engine.connect() as connection:
        closed = connection.execute(_CLOSED, {"token": token}).scalar_one_or_none()
    if closed is not None:
        raise MatchOver()



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
    row = claim(connection, _CLAIM, revision, token=token)
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
        after = state_before(connection, board.mesa, last).apply(outcome)
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
