"""The stored summaries: each table's summary (mesa_summary.py) kept in `mesa_summary` with the
table's revision, and brought up to date when the table moved on. A summary also keeps its own
fold at a few records (MARGIN, 2 MARGIN, 4 MARGIN… active records from the newest): once the
table moved on, it is folded on from one that no write since can have reached, reading only the
records after it, so its cost follows the writes since, not the table's length. Many tables'
summaries are read at once (`summaries`), a turma's a chunk at a time (`each_summary`).

The tally folded from these summaries is tally.py, and its stored rows tallies.py."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import ACTIVE, ENTRY_COLUMNS, Entry, HandRecord, Mesa, MesaSummary, entry
from .mesa_summary import SUMMARY_VERSION, Fold, summarize

MARGIN = 32  # a summary's shallowest checkpoint: this many active records from the newest


_RECORDS = HandRecord.__table__
_SUMMARIES = MesaSummary.__table__
_ACTIVE_OF = (
    select(*ENTRY_COLUMNS, _RECORDS.c.mesa_id)
    .where(_RECORDS.c.mesa_id.in_(bindparam("mesas", expanding=True)), _RECORDS.c.status == ACTIVE)
    .order_by(_RECORDS.c.mesa_id, _RECORDS.c.seq)
)
# The active records from a checkpoint's on (the status and seq index finds them), each with the
# table's revision as the same read saw it: the writes made before those records were read.
_REVISION_READ = (
    select(Mesa.__table__.c.revision)
    .where(Mesa.__table__.c.id == bindparam("mesa"))
    .scalar_subquery()
)
_ACTIVE_FROM = (
    select(*ENTRY_COLUMNS, _REVISION_READ)
    .where(
        _RECORDS.c.mesa_id == bindparam("mesa"),
        _RECORDS.c.status == ACTIVE,
        _RECORDS.c.seq >= bindparam("seq"),
    )
    .order_by(_RECORDS.c.seq)
)
# Over a row of an older revision, or of the same one: a summary is stored again at the same
# revision only when the stored one is of an older version (a row that is current is used).
_NEWER_SUMMARY = (
    update(_SUMMARIES)
    .where(_SUMMARIES.c.mesa_id == bindparam("mesa"), _SUMMARIES.c.revision <= bindparam("rev"))
    .values(revision=bindparam("rev"), data=bindparam("data"))
)


def _places(count: int, after: int = 0, kept: Iterable[int] = ()) -> list[int]:
    """Where a summary of `count` active records keeps its checkpoints (counts of active records,
    deepest first). The candidates: the depths MARGIN, 2 MARGIN, 4 MARGIN… among the records
    just folded (past `after`), and the `kept` places (up to it); kept of them: the shallowest,
    the deepest, and each whose next deeper one is more than twice as deep as the last kept. So
    O(log count) checkpoints, and for any number of writes one deeper, at most about twice as
    deep wherever the candidates allow: a summary is brought up to date reading in proportion
    to the writes made since, not to the table's length."""
    depths = {count - at + 1 for at in kept if count - at + 1 >= MARGIN}
    depth = MARGIN
    while count - depth >= after:
        depths.add(depth)
        depth *= 2
    ordered = sorted(depths)
    chosen: list[int] = []
    for depth, deeper in pairwise([*ordered, None]):
        if not chosen or deeper is None or deeper > 2 * chosen[-1]:
            chosen.append(depth)
    return sorted(count - depth + 1 for depth in chosen)


READ_AT_ONCE = 500  # the tables whose records one statement reads (a bound on its size)


def _read_all(mesas: Sequence[Mesa]) -> dict[int, dict[str, Any]]:
    """Tables' summaries read from all their active records, with their checkpoints: one
    statement for up to READ_AT_ONCE tables."""
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(mesas), READ_AT_ONCE):
        chunk = mesas[start : start + READ_AT_ONCE]
        records: dict[int, list[Entry]] = {mesa.id: [] for mesa in chunk}
        for row in db.session.execute(_ACTIVE_OF, {"mesas": list(records)}):
            records[row[-1]].append(entry(row[:-1]))
        for mesa in chunk:
            got = records[mesa.id]
            found[mesa.id] = summarize(mesa, got, marks=set(_places(len(got))))
    return found


def _depth(summary: Mapping[str, Any], mark: Mapping[str, Any]) -> int:
    """The active records from a checkpoint to the newest, itself included, when its summary
    was read. Fewer writes than that leave the checkpoint's record and every one before it as
    they were: a record changes only when undone or, as the newest active one, noted, and
    getting to it takes undoing every active record after it."""
    return int(summary["count"]) - int(mark["at"]) + 1


def _resumed(mesa: Mesa, kept: Any) -> dict[str, Any] | None:
    """A stored summary row `kept` brought up to date: folded on from its shallowest checkpoint
    deeper than the writes made since, reading only the active records from it on; None when
    it has none such, or the read finds the checkpoint's record gone or noted since, or more
    writes made by then (the revision the read saw)."""
    summary = kept.data
    writes = mesa.revision - kept.revision
    usable = [m for m in summary["marks"] if _depth(summary, m) > writes]
    if not usable:
        return None
    mark = usable[-1]  # the shallowest
    rows = db.session.execute(_ACTIVE_FROM, {"mesa": mesa.id, "seq": mark["seq"]}).all()
    records = [entry(row[:-1]) for row in rows]
    if (
        not records
        or (records[0].id, records[0].note) != (mark["id"], mark["note"])
        or rows[0][-1] - kept.revision >= _depth(summary, mark)
    ):
        return None
    at = int(mark["at"])
    deeper = {int(m["at"]): m for m in summary["marks"] if m["at"] <= at}
    places = _places(at + len(records) - 1, at, deeper)
    fold = Fold.resumed(mesa, summary, mark, records[0])
    found = summarize(mesa, records[1:], fold, set(places))
    found["marks"] = [deeper[p] for p in places if p in deeper] + found["marks"]
    return found


def refreshed(mesa: Mesa, kept: Any | None) -> dict[str, Any]:
    """A table's summary brought up to date from its stored row `kept` (None without one):
    folded on from a checkpoint (`_resumed`), else read again from every active record."""
    found = _resumed_if_kept(mesa, kept)
    return found if found is not None else _read_all([mesa])[mesa.id]


def _resumed_if_kept(mesa: Mesa, kept: Any | None) -> dict[str, Any] | None:
    """A stored summary row of this version brought up to date (`_resumed`); else None."""
    if kept is not None and kept.data.get("version") == SUMMARY_VERSION:
        return _resumed(mesa, kept)
    return None


def _store_summaries(found: Sequence[tuple[int, int, dict[str, Any], bool]]) -> None:
    """Keep tables' summaries, each (table id, revision, summary, new): new rows, or over rows
    of an older revision or version (a request that read an older state never overwrites a
    newer one; one of an old version is read again once, not on every view). One transaction
    for all, or one for each new row when another request stored one of them meanwhile."""
    new = [{"mesa_id": i, "revision": r, "data": d} for i, r, d, is_new in found if is_new]
    old = [{"mesa": i, "rev": r, "data": d} for i, r, d, is_new in found if not is_new]
    if old:
        with db.engine.begin() as connection:
            connection.execute(_NEWER_SUMMARY, old)
    if not new:
        return
    try:
        with db.engine.begin() as connection:
            connection.execute(insert(_SUMMARIES), new)
    except IntegrityError:  # another request stored one of them meanwhile
        for values in new:
            try:
                with db.engine.begin() as connection:
                    connection.execute(insert(_SUMMARIES), values)
            except IntegrityError:
                pass


def summaries(mesas: Sequence[Mesa]) -> dict[int, dict[str, Any]]:
    """Each table's summary by id: the stored one while its revision is the table's, else
    brought up to date (from a checkpoint, else read again from all its records: one
    statement for many tables) and stored: one query for all the stored ones, plus one read
    per table that changed, and one transaction to store them. The tables' loaded state is
    kept (the writes are apart)."""
    if not mesas:
        return {}
    ids = [m.id for m in mesas]
    stored: dict[int, Any] = {}
    for start in range(0, len(ids), READ_AT_ONCE):
        chunk = ids[start : start + READ_AT_ONCE]
        query = select(_SUMMARIES).where(_SUMMARIES.c.mesa_id.in_(chunk))
        stored.update((row.mesa_id, row) for row in db.session.execute(query))
    found: dict[int, dict[str, Any]] = {}
    whole: list[Mesa] = []
    for mesa in mesas:
        kept = stored.get(mesa.id)
        if (
            kept is not None
            and kept.revision == mesa.revision
            and kept.data.get("version") == SUMMARY_VERSION
        ):
            found[mesa.id] = kept.data
            continue
        resumed = _resumed_if_kept(mesa, kept)
        if resumed is None:
            whole.append(mesa)
        else:
            found[mesa.id] = resumed
    found.update(_read_all(whole))
    _store_summaries(
        [
            (mesa.id, mesa.revision, found[mesa.id], mesa.id not in stored)
            for mesa in mesas
            if not (stored.get(mesa.id) is not None and found[mesa.id] is stored[mesa.id].data)
        ]
    )
    return found


# A chunk of a turma's tables, oldest first from a table on, each with its stored summary.
_TABLES_AND_SUMMARIES = (
    select(Mesa, _SUMMARIES.c.revision, _SUMMARIES.c.data)
    .outerjoin(_SUMMARIES, _SUMMARIES.c.mesa_id == Mesa.id)
    .where(Mesa.turma_id == bindparam("turma"), Mesa.id > bindparam("after"))
    .order_by(Mesa.id)
    .limit(bindparam("size"))
)
CHUNK = 500  # the tables a reader of a whole turma reads at once


def each_summary(turma_id: int, size: int = CHUNK) -> Iterator[tuple[Mesa, dict[str, Any]]]:
    """Every table of a turma, oldest first, with its summary (brought up to date and stored
    where its table moved on): `size` tables a statement, each with its stored summary."""
    after = 0
    while True:
        rows = db.session.execute(
            _TABLES_AND_SUMMARIES, {"turma": turma_id, "after": after, "size": size}
        ).all()
        stale = [
            mesa
            for mesa, revision, data in rows
            if revision != mesa.revision or (data or {}).get("version") != SUMMARY_VERSION
        ]
        found = summaries(stale)
        for mesa, _revision, data in rows:
            yield mesa, found.get(mesa.id) or data
        if len(rows) < size:
            return
        after = rows[-1][0].id
