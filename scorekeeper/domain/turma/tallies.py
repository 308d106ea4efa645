"""A turma's stored tally: its statistics kept one row per player, pair, trio and head-to-head
of each rule set (`turma_record`), over its tables up to a bound, beside the key that proves
them current (`turma_summary`, checked by one SQL aggregate: the departures, the count and
revisions' sum of those tables, the merged names and the shapes' versions).

A view reads what it shows and no more: the newest KEEP_OPEN tables (the ones still played)
are folded on top of the rows they touch, and a list is read a page at a time by its index
(`Standing.page`), the records those tables changed merged in at their places. So a page costs
the same at 30 tables or 5,000, and so does its memory.

When more than KEEP_OPEN tables lie past the bound, a view stores the older ones (a
compare-and-swap on the stored tally's revision), at most STEP of them: a turma of thousands of
tables (imported, or whose names were just merged) is counted over a few views, each bounded,
its page saying how many of its tables are counted until then.

Every write of the rows moves the stored tally's revision on in its own transaction: a read
that finds the revision unchanged after its last statement read one tally (`read`). No Flask
request here.

The tally itself, its records and how they are counted and ranked, is tally.py; the tables'
summaries it is folded from are mesa_summary.py (the value) and stored_summaries.py (the rows)."""

from __future__ import annotations

import hashlib
import heapq
import json
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal,
    select,
    tuple_,
    update,
)
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import Mesa, Turma, TurmaRecord, TurmaSummary
from ...rules import VARIANTS
from .mesa_summary import SUMMARY_VERSION, joined, lineup_parts
from .stored_summaries import summaries
from .tally import (
    KINDS,
    HeadToHead,
    Merges,
    Night,
    Record,
    RulesTally,
    Tally,
    exported,
    group_kind,
    place,
    rival_key,
    seated_keys,
)

TALLY_VERSION = 7  # bump when the tally's shape or its counting changes: old ones are refolded
KEEP_OPEN = 3  # the newest tables of a turma, folded on every view instead of stored
STEP = 250  # the most tables one view adds to the stored tally
ATTEMPTS = 4  # reads of a tally that another view was storing meanwhile, before one is shown
READ_AT_ONCE = 500  # the rows one statement reads by key, or one chunk of an export
SHORT_LIST = 200  # a list a page reads whole (its rows' places alone), ranking it here

Place = tuple[int, int, str, int]
Item = Record | HeadToHead
T = TypeVar("T")

_MESAS = Mesa.__table__
_TURMAS = Turma.__table__
_TALLIES = TurmaSummary.__table__
_ROWS = TurmaRecord.__table__
_PLACE = (_ROWS.c.order_wins, _ROWS.c.order_rate, _ROWS.c.order_name, _ROWS.c.seq)
_UP_TO = _MESAS.c.id <= bindparam("bound")
# One snapshot: the turma's departures, how many tables it has, and the count and revisions'
# sum of those up to the stored tally's bound (the turma_id index finds them).
_CHECK = select(
    select(_TURMAS.c.departures).where(_TURMAS.c.id == bindparam("turma")).scalar_subquery(),
    func.count(),
    func.coalesce(func.sum(case((_UP_TO, 1), else_=0)), 0),
    func.coalesce(func.sum(case((_UP_TO, _MESAS.c.revision), else_=0)), 0),
).where(_MESAS.c.turma_id == bindparam("turma"))
_AFTER = (
    select(Mesa)
    .where(Mesa.turma_id == bindparam("turma"), Mesa.id > bindparam("bound"))
    .order_by(Mesa.id)
    .limit(bindparam("limit"))
)
_STORED = select(_TALLIES).where(_TALLIES.c.turma_id == bindparam("turma"))
_REVISION = select(_TALLIES.c.revision).where(_TALLIES.c.turma_id == bindparam("turma"))
_SWAP = (
    update(_TALLIES)
    .where(_TALLIES.c.turma_id == bindparam("turma"), _TALLIES.c.revision == bindparam("seen"))
    .values(revision=_TALLIES.c.revision + 1, key=bindparam("key"), data=bindparam("data"))
)
_UPDATE_ROW = (
    update(_ROWS)
    .where(_ROWS.c.id == bindparam("row"))
    .values(
        order_wins=bindparam("order_wins"),
        order_rate=bindparam("order_rate"),
        order_name=bindparam("order_name"),
        data=bindparam("data"),
        shown=bindparam("shown"),
    )
)
_JSON = json.JSONEncoder(ensure_ascii=False)
_OF_LIST = (
    (_ROWS.c.turma_id == bindparam("turma"))
    & (_ROWS.c.rules == bindparam("rules"))
    & (_ROWS.c.kind == bindparam("kind"))
)
_AT = tuple_(bindparam("wins"), bindparam("rate"), bindparam("name"), bindparam("seq"))
_BEFORE = select(func.count()).select_from(_ROWS).where(_OF_LIST, tuple_(*_PLACE) < _AT)
_NAME = _ROWS.c.data["name"].as_string()  # a record's shown name, read alone from its JSON


def _shown(item: Item, code: str) -> str:
    """A record as the JSON export writes it."""
    return _JSON.encode(exported(item, VARIANTS[code]))


def record_key(key: str | tuple[str, ...]) -> str:
    """The stored key of a record: the SHA-256 (hex) of its key in the tally (a player's
    folded name, a group's members, a head-to-head's two names), of bounded size."""
    text = _JSON.encode(key if isinstance(key, str) else list(key))  # json.dumps' text
    return hashlib.sha256(text.encode()).hexdigest()


def _data(kind: str, key: str | tuple[str, ...], item: Item) -> dict[str, Any]:
    """A record as its row's JSON."""
    if isinstance(item, HeadToHead):
        return {"names": list(item.names), "wins": list(item.wins), "seq": item.seq}
    if kind == "players":
        return item.dump()
    return {"members": list(key), **item.dump()}


def _loaded(kind: str, data: Mapping[str, Any]) -> tuple[str | tuple[str, ...], Item]:
    """A record and its key in the tally, back from its row's JSON."""
    if kind == "rivals":
        names = (str(data["names"][0]), str(data["names"][1]))
        wins = (int(data["wins"][0]), int(data["wins"][1]))
        return rival_key(names), HeadToHead(names, wins, int(data["seq"]))
    fields = dict(data)
    members = fields.pop("members", None)
    record = Record.load(fields)
    return (record.key if members is None else tuple(members)), record


def _place_of(row: Any) -> Place:
    """Where a stored row stands in its list."""
    return (row.order_wins, row.order_rate, row.order_name, row.seq)


def _first(placed: tuple[Place, Any]) -> Place:
    """The place of a (place, value) pair."""
    return placed[0]


def _held(tally: Tally, code: str, kind: str) -> dict[Any, Any]:
    """The dict of one list's records a rule set's tally holds."""
    part = tally.part(code)
    if kind == "players":
        return part.players
    if kind == "rivals":
        return part.rivals
    return part.groups


@dataclass
class Rows:
    """The stored rows a fold reads: each record put in the tally before the fold touches it,
    with its row's id and where it stood (`places`, by list and stored key). `empty`: the
    tally is built from nothing, no row is read."""

    turma_id: int
    empty: bool
    ids: dict[tuple[str, str, str], int] = field(default_factory=dict)
    places: dict[tuple[str, str], dict[str, Place]] = field(default_factory=dict)

    def load(self, tally: Tally, code: str, kind: str, keys: Collection[Any]) -> None:
        """Put the stored records of these keys in the rule set's tally (those it does not
        hold yet): one statement for up to READ_AT_ONCE of them."""
        held = _held(tally, code, kind)
        wanted = {record_key(k): k for k in keys if k not in held}
        if self.empty or not wanted:
            return
        hashes = list(wanted)
        for start in range(0, len(hashes), READ_AT_ONCE):
            query = select(_ROWS).where(
                _ROWS.c.turma_id == self.turma_id,
                _ROWS.c.rules == code,
                _ROWS.c.kind == kind,
                _ROWS.c.key.in_(hashes[start : start + READ_AT_ONCE]),
            )
            for row in db.session.execute(query):
                key, item = _loaded(kind, row.data)
                held[key] = item
                self.ids[(code, kind, row.key)] = row.id
                self.places.setdefault((code, kind), {})[row.key] = _place_of(row)


def fold(tally: Tally, found: Sequence[Mapping[str, Any]], merges: Merges, rows: Rows) -> None:
    """Fold tables' summaries (in the order they were opened) into `tally`, the stored records
    they touch read first: the players and pairs or trios by their names, then the
    head-to-heads, whose keys are the sides' shown names (known once those are read)."""
    wanted: dict[tuple[str, str], set[Any]] = defaultdict(set)
    for summary in found:
        code = str(summary["variante"])
        for part in lineup_parts(summary):
            for keys, _names in seated_keys(part, merges) or []:
                wanted[(code, "players")].update(keys)
                if len(keys) > 1:
                    wanted[(code, group_kind(keys))].add(tuple(sorted(keys)))
    for (code, kind), named in wanted.items():
        rows.load(tally, code, kind, named)
    rivals: dict[str, set[Any]] = defaultdict(set)
    for summary in found:
        code = str(summary["variante"])
        for part in lineup_parts(summary):
            labels = tally.part(code).labels(part, merges)
            if labels is not None and labels[0] != labels[1]:
                rivals[code].add(rival_key(labels))
    for code, sides in rivals.items():
        rows.load(tally, code, "rivals", sides)
    for summary in found:
        tally.add(summary, merges)


def _key(bound: int, tables: int, revisions: int, departures: int, aliases: Any) -> dict[str, Any]:
    """What proves a tally of the tables up to `bound` current (see Turma.departures)."""
    return {
        "version": [TALLY_VERSION, SUMMARY_VERSION],
        "bound": bound,
        "tables": tables,
        "revisions": revisions,
        "departures": departures,
        "aliases": aliases,
    }


def _head(tally: Tally) -> dict[str, Any]:
    """What the stored tally keeps beside its rows: each rule set's chart and counts."""
    return {"rules": {code: part.head() for code, part in tally.ordered()}}


def _headed(data: Mapping[str, Any]) -> Tally:
    """A tally holding no record yet, each rule set's chart and counts as stored."""
    tally = Tally()
    for code, head in data["rules"].items():
        tally.by_rules[str(code)] = RulesTally.headed(head)
    return tally


def _write_rows(connection: Connection, turma_id: int, tally: Tally, rows: Rows) -> None:
    """Write every record the tally holds: over its row, or a new one."""
    changed, new = [], []
    for code, part in tally.ordered():
        for kind in KINDS:
            for key, item in part.entries(kind):
                stored = record_key(key)
                wins, rate, name, seq = place(item)
                values = {"order_wins": wins, "order_rate": rate, "order_name": name}
                values["data"] = _data(kind, key, item)
                values["shown"] = _shown(item, code)
                row = rows.ids.get((code, kind, stored))
                if row is not None:
                    changed.append({"row": row, **values})
                else:
                    new.append(
                        {"turma_id": turma_id, "rules": code, "kind": kind, "key": stored,
                         "seq": seq, **values}
                    )  # fmt: skip
    if changed:
        connection.execute(_UPDATE_ROW, changed)
    if new:
        connection.execute(insert(_ROWS), new)


def _store(
    turma_id: int, seen: int | None, key: dict[str, Any], tally: Tally, rows: Rows
) -> None:
    """Keep a turma's tally: its head and rows, over the stored tally this view read (a
    compare-and-swap on its revision: of two views that read the same, one stores) or as the
    first; built from nothing, the rows of any tally before are deleted first."""
    try:
        with db.engine.begin() as connection:
            data = _head(tally)
            if seen is None:
                values = {"turma_id": turma_id, "revision": 0, "key": key, "data": data}
                connection.execute(insert(_TALLIES), values)
            else:
                swap = {"turma": turma_id, "seen": seen, "key": key, "data": data}
                if connection.execute(_SWAP, swap).rowcount != 1:
                    raise _Lost()
            if rows.empty:
                connection.execute(delete(_ROWS).where(_ROWS.c.turma_id == turma_id))
            _write_rows(connection, turma_id, tally, rows)
    except (IntegrityError, _Lost):  # another view stored first: the next read gets it
        pass


class _Lost(Exception):
    """The stored tally moved on since this view read it: its store rolls back."""


@dataclass
class Standing:
    """A turma's statistics as a view reads them: the stored tally's rows (`stored`: whether
    they hold the current tally, revision `revision`) under the records of the newest tables,
    folded on top (`tally`, with where the rows it replaces stood, `places`); `counted` of the
    turma's `count` tables are in."""

    turma_id: int
    revision: int | None
    stored: bool
    tally: Tally
    places: dict[tuple[str, str], dict[str, Place]]
    counted: int
    count: int

    @property
    def complete(self) -> bool:
        """True when every table of the turma is counted."""
        return self.counted == self.count

    def codes(self) -> list[str]:
        """The rule sets counted, Paulista first."""
        return [code for code, _part in self.tally.ordered()]

    def total(self, code: str, kind: str) -> int:
        """How many records one list holds."""
        part = self.tally.by_rules.get(code)
        return part.counts[kind] if part is not None else 0

    def nights(self, code: str) -> list[Night]:
        """A rule set's chart: its newest evenings with a finished game, oldest first."""
        part = self.tally.by_rules.get(code)
        return part.chart() if part is not None else []

    def _list(self, code: str, kind: str) -> Any:
        """The rows of one list."""
        return (
            (_ROWS.c.turma_id == self.turma_id)
            & (_ROWS.c.rules == code)
            & (_ROWS.c.kind == kind)
        )

    def _touched(self, code: str, kind: str) -> dict[str, Item]:
        """The records of one list the newest tables touched, by stored key."""
        part = self.tally.by_rules.get(code)
        return {} if part is None else {record_key(k): i for k, i in part.entries(kind)}

    def page(self, code: str, kind: str, start: int, size: int) -> list[tuple[int, Item]]:
        """The records of one list at places start+1 … start+size (each with its place), the
        records the newest tables touched each where it now stands: a short list's places
        read whole, a long one's rows about those places (by the index) and how many stand
        before each touched record."""
        touched = self._touched(code, kind)
        if not self.stored:
            ranked = sorted(touched.values(), key=place)
            return [(start + 1 + n, item) for n, item in enumerate(ranked[start : start + size])]
        if self.total(code, kind) <= SHORT_LIST:
            return self._short_page(code, kind, start, size, touched)
        olds = sorted(self.places.get((code, kind), {}).values())
        news = sorted(place(item) for item in touched.values())
        reach = len(touched)
        first = max(0, start - reach)
        query = (
            select(_ROWS)
            .where(self._list(code, kind))
            .order_by(*_PLACE)
            .offset(first)
            .limit(size + 2 * reach)
        )
        placed: list[tuple[int, int, Item]] = []
        for index, row in enumerate(db.session.execute(query)):
            if row.key in touched:
                continue
            at = _place_of(row)
            where = first + index - bisect_left(olds, at) + bisect_left(news, at)
            if start <= where < start + size:
                placed.append((where, index, _loaded(kind, row.data)[1]))
        for n, item in enumerate(touched.values()):
            at = place(item)
            where = self._before(code, kind, at) - bisect_left(olds, at) + bisect_left(news, at)
            if start <= where < start + size:
                placed.append((where, -1 - n, item))
        return [(where + 1, item) for where, _n, item in sorted(placed, key=lambda p: p[:2])]

    def _short_page(
        self, code: str, kind: str, start: int, size: int, touched: Mapping[str, Item]
    ) -> list[tuple[int, Item]]:
        """A page of a short list: every row's place read (no record), the touched records
        put among them, then the records of the rows on the page read."""
        rows = db.session.execute(
            select(_ROWS.c.key, *_PLACE).where(self._list(code, kind))
        ).all()
        ranked: list[tuple[Place, str | Item]] = [
            ((row[1], row[2], row[3], row[4]), row[0]) for row in rows if row[0] not in touched
        ]
        ranked += [(place(item), item) for item in touched.values()]
        shown = sorted(ranked, key=_first)[start : start + size]
        wanted = [found for _at, found in shown if isinstance(found, str)]
        records: dict[str, Item] = {}
        if wanted:
            query = select(_ROWS.c.key, _ROWS.c.data).where(
                self._list(code, kind), _ROWS.c.key.in_(wanted)
            )
            records = {key: _loaded(kind, data)[1] for key, data in db.session.execute(query)}
        return [
            (start + 1 + n, records[found] if isinstance(found, str) else found)
            for n, (_at, found) in enumerate(shown)
        ]

    def _before(self, code: str, kind: str, at: Place) -> int:
        """How many rows of one list stand before the place `at` (by the index)."""
        values = {"turma": self.turma_id, "rules": code, "kind": kind}
        values.update(zip(("wins", "rate", "name", "seq"), at, strict=True))
        return int(db.session.execute(_BEFORE, values).scalar_one())

    def each(self, code: str, kind: str) -> Iterator[Item]:
        """Every record of one list, ranked: the rows read READ_AT_ONCE at a time by the index,
        the records the newest tables touched merged in."""
        for _at, item in self._each(code, kind, _ROWS.c.data, lambda _k, i: i):
            yield item if isinstance(item, Record | HeadToHead) else _loaded(kind, item)[1]

    def each_shown(self, code: str, kind: str) -> Iterator[str]:
        """Every record of one list, ranked, as the JSON export writes it (for the exports,
        which stream them: a row's text as stored)."""
        for _at, shown in self._each(code, kind, _ROWS.c.shown, lambda k, i: _shown(i, code)):
            yield shown

    def _each(
        self, code: str, kind: str, column: Any, made: Callable[[Any, Item], Any]
    ) -> Iterator[tuple[Place, Any]]:
        """Every record of one list, ranked, as its place and a value: a row's `column`, or
        `made` of a record the newest tables touched (its key and itself)."""
        part = self.tally.by_rules.get(code)
        touched = {} if part is None else {record_key(k): (k, i) for k, i in part.entries(kind)}
        ranked = sorted(((place(i), made(k, i)) for k, i in touched.values()), key=_first)
        if not self.stored:
            yield from ranked
            return
        rows = self._rows_of(code, kind, column, set(touched))
        yield from heapq.merge(rows, ranked, key=_first)

    def _rows_of(
        self, code: str, kind: str, column: Any, skipped: set[str]
    ) -> Iterator[tuple[Place, Any]]:
        """The rows of one list in order, as their place and `column`, but those of the keys
        skipped: READ_AT_ONCE a statement, by the index."""
        after: Place | None = None
        while True:
            query = select(*_PLACE, _ROWS.c.key, column).where(self._list(code, kind))
            if after is not None:
                query = query.where(tuple_(*_PLACE) > tuple_(*map(literal, after)))
            rows = db.session.execute(query.order_by(*_PLACE).limit(READ_AT_ONCE)).all()
            for row in rows:
                if row[4] not in skipped:
                    yield (row[0], row[1], row[2], row[3]), row[5]
            if len(rows) < READ_AT_ONCE:
                return
            after = (rows[-1][0], rows[-1][1], rows[-1][2], rows[-1][3])

    def players(self, keys: Collection[str]) -> dict[str, str]:
        """Which of these keys are players counted under some rule set, each with the name it
        is shown by (under the first rule set, Paulista first, that counts it)."""
        found: dict[str, str] = {}
        for code in self.codes():
            found |= {k: n for k, n in self.shown(code, "players", keys).items() if k not in found}
        return found

    def shown(self, code: str, kind: str, keys: Collection[Any]) -> dict[Any, str]:
        """The names the records of these keys (players' names, groups' members) of one list
        are shown by, those the list holds: the newest tables' records, then the rows (one
        statement for READ_AT_ONCE of them)."""
        part = self.tally.by_rules.get(code)
        held = {} if part is None else _held(self.tally, code, kind)
        found = {key: held[key].name for key in keys if key in held}
        wanted = {record_key(key): key for key in keys if key not in found}
        if not self.stored or not wanted:
            return found
        hashes = list(wanted)
        for start in range(0, len(hashes), READ_AT_ONCE):
            query = select(_ROWS.c.key, _NAME).where(
                self._list(code, kind), _ROWS.c.key.in_(hashes[start : start + READ_AT_ONCE])
            )
            for stored, name in db.session.execute(query):
                found[wanted[stored]] = str(name)
        return found

    def sides(
        self, parts: Sequence[tuple[str, Mapping[str, Any]]], merges: Merges
    ) -> list[tuple[str, str] | None]:
        """How the statistics name the two sides of these tables or lineups (each with its
        rule set's code): each side's pair or trio by the name its record is shown by, a 1x1
        player by theirs (one that no record holds yet, by its players' names as shown); None
        where the players were not named. One statement per list for the lot, the players
        read only where no pair or trio names the side."""
        seated = [(code, seated_keys(part, merges)) for code, part in parts]
        groups: dict[tuple[str, str], set[Any]] = defaultdict(set)
        for code, sides in seated:
            for keys, _names in sides or []:
                if len(keys) > 1:
                    groups[(code, group_kind(keys))].add(tuple(sorted(keys)))
        shown = {where: self.shown(*where, keys) for where, keys in groups.items()}
        players: dict[str, set[Any]] = defaultdict(set)
        for code, sides in seated:
            for keys, _names in sides or []:
                if len(keys) == 1 or tuple(sorted(keys)) not in shown[(code, group_kind(keys))]:
                    players[code].update(keys)
        known = {code: self.shown(code, "players", keys) for code, keys in players.items()}
        found: list[tuple[str, str] | None] = []
        for code, sides in seated:
            labels = [
                self._label(code, keys, names, shown, known.get(code, {}), merges)
                for keys, names in sides or []
            ]
            found.append((labels[0], labels[1]) if labels else None)
        return found

    @staticmethod
    def _label(
        code: str,
        keys: Sequence[str],
        names: Sequence[str],
        groups: Mapping[tuple[str, str], Mapping[Any, str]],
        players: Mapping[str, str],
        merges: Merges,
    ) -> str:
        """One side's name: its pair's or trio's record's, else its players' (as their records
        name them, else as `merges` show what was typed)."""
        if len(keys) > 1:
            group = groups[(code, group_kind(keys))].get(tuple(sorted(keys)))
            if group is not None:
                return group
        shown = [players.get(k) or merges.shown(k, n) for k, n in zip(keys, names, strict=True)]
        return joined(shown)

    def names(self, limit: int) -> dict[str, str] | None:
        """Every player's key and shown name, whatever rule set they played; None when the
        lists hold more than `limit` players in all (too many to list)."""
        if sum(self.total(code, "players") for code in self.codes()) > limit:
            return None
        names: dict[str, str] = {}
        for code in self.codes():
            for record in self.each(code, "players"):
                assert isinstance(record, Record)
                names.setdefault(record.key, record.name)
        return names


def _standing(turma: Turma, *, settle: bool) -> Standing | None:
    """One read of a turma's statistics; None when it stored the tables past the stored
    bound first (up to STEP: when more than KEEP_OPEN lie there and `settle`), or tried to
    (another view may have stored first): they must be read again."""
    aliases = dict(turma.aliases or {})
    merges = Merges.of(aliases)
    row = db.session.execute(_STORED, {"turma": turma.id}).first()
    bound = int(row.key.get("bound", 0)) if row is not None else 0
    found = db.session.execute(_CHECK, {"turma": turma.id, "bound": bound}).one()
    departures, count, tables, revisions = (int(v or 0) for v in found)
    current = row is not None and row.key == _key(bound, tables, revisions, departures, aliases)
    if not current:
        bound, tables, revisions = 0, 0, 0
    tally = _headed(row.data) if current and row is not None else Tally()
    rows = Rows(turma.id, empty=not current)
    seen = None if row is None else int(row.revision)
    waiting = count - tables
    if waiting > KEEP_OPEN and settle:
        newer = _tables_after(turma.id, bound, min(STEP, waiting - KEEP_OPEN))
        read = summaries(newer)
        fold(tally, [read[m.id] for m in newer], merges, rows)
        key = _key(
            newer[-1].id,
            tables + len(newer),
            revisions + sum(m.revision for m in newer),
            departures,
            aliases,
        )
        _store(turma.id, seen, key, tally, rows)
        return None
    if waiting <= KEEP_OPEN:  # else more than a step waits: what is stored, alone
        newer = _tables_after(turma.id, bound, KEEP_OPEN)
        read = summaries(newer)
        fold(tally, [read[m.id] for m in newer], merges, rows)
        tables += len(newer)
    return Standing(turma.id, seen, current, tally, rows.places, tables, count)


def _tables_after(turma_id: int, bound: int, limit: int) -> list[Mesa]:
    """The turma's tables opened after the table `bound`, oldest first, at most `limit`."""
    query = _AFTER.params(turma=turma_id, bound=bound, limit=limit)
    return list(db.session.execute(query).scalars())


def read(turma: Turma, view: Callable[[Standing], T]) -> T:
    """What `view` makes of the turma's statistics, all read from one stored tally: read
    again when the tally's revision moved on while it was read (another view stored one).
    The first read may store a step of the tally (see the module's docstring)."""
    for attempt in range(ATTEMPTS):
        found = _standing(turma, settle=attempt == 0)
        if found is None:
            continue
        shown = view(found)
        if not found.stored:
            return shown
        now = db.session.execute(_REVISION, {"turma": turma.id}).scalar_one_or_none()
        if now == found.revision:
            return shown
    return view(_settled(turma, settle=False))


def _settled(turma: Turma, *, settle: bool) -> Standing:
    """A read of the turma's statistics, storing steps of its tally while `settle` and more
    than KEEP_OPEN tables wait past the stored bound (each step moves the bound on)."""
    while True:
        found = _standing(turma, settle=settle)
        if found is not None:
            return found


def standing(turma: Turma) -> Standing:
    """The turma's statistics for a reader that streams them (the exports): every table
    counted first (the stored tally brought up to date a step at a time), then read once. A
    tally stored while it streams changes none of the records it shows: the tables stored
    are the newest ones, folded on top here already."""
    return _settled(turma, settle=True)


__all__ = ["KEEP_OPEN", "STEP", "Standing", "read", "standing"]
