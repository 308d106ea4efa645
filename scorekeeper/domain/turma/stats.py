"""A turma's statistics, from its tables' hand records (the log stays the truth).

Each table's records are read into a small summary (its games, series, mãos de onze played,
won and run from, runs from truco, hands and times), kept in `mesa_summary` with the table's
revision; the summary reads the stored state after each record (its checkpoint), never folding
the rules again. It also keeps its own fold at a few records (MARGIN, 2 MARGIN, 4 MARGIN…
active records from the newest): once the table moved on, it is folded on from one that no
write since can have reached, reading only the records after it, so its cost follows the writes
since, not the table's length.

The statistics are a fold of the summaries, table after table in order, into a tally whose size
is the turma's players, pairs (or trios) and rivalries, never its history; each rule set
(Truco Paulista, Truco Mineiro) is counted apart, a tally of its own. Each of its lists is
ranked by `place`. The tally is stored a row per record, and read a page at a time, in
tallies.py.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, date, datetime, timedelta
from functools import cached_property
from itertools import pairwise
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import ACTIVE, ENTRY_COLUMNS, Entry, HandRecord, Mesa, MesaSummary, entry
from ...rules import DEFAULT_SIDES, VARIANTS, Kind, MatchState, Variant
from ..mesa.board import state_after
from ..mesa.settings import (
    NAME_FIXED,
    TableSettings,
    edit_names,
    edit_of,
    folded,
    name_fixes,
    seat_names,
)
from ..mesa.words import LOCAL_TZ

SUMMARY_VERSION = 6  # bump when the summary's shape changes: old ones are read again
MARGIN = 32  # a summary's shallowest checkpoint: this many active records from the newest
NIGHTS = 12  # the newest evenings the tally keeps, game by game, for the turma's chart
NIGHT_SIDES = 8  # the sides one evening's chart draws each apart; the rest share one bar
OTHERS = "(outros)"  # the name of that bar
NIGHT_ENDS = timedelta(hours=6)  # a table opened before 6:00 belongs to the evening before
RAN_NOTES = ("correram_truco", "correram_seis", "correram_nove", "correram_dez", "correram_doze")


@dataclass
class Fold:
    """What `summarize` accumulates over a table's active records, up to the last one folded:
    from the table's start, or resumed from a checkpoint as if every record before it had been
    folded (a checkpoint keeps this, its lists as their lengths: they only grow)."""

    state: MatchState  # after the last record folded
    count: int = 0  # the active records folded
    hands: int = 0
    games: list[dict[str, Any]] = field(default_factory=list)
    series: list[int] = field(default_factory=list)
    # per side, its mãos de onze: played, won, run from (/regras#mao-de-onze)
    onze: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0]])
    ran: list[int] = field(default_factory=lambda: [0, 0])  # noted runs from a truco (seis…)
    # per side, its worst moment in the current game: deficit, own points, theirs
    worst: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0]])
    start: str | None = None
    end: str | None = None
    # who sat where, from the table's start and after each edit: the names and where the
    # counts above stood when they sat down (a player swapped in is credited from then on; a
    # name fixed is fixed in every lineup before)
    lineups: list[dict[str, Any]] = field(default_factory=list)

    def seat(self, settings: TableSettings) -> None:
        """Start counting for the lineup of these settings."""
        self.lineups.append(
            {
                "names": list(settings.player_names),
                "teams": list(settings.teams),
                "players": settings.players,
                "games": len(self.games),
                "series": len(self.series),
                "onze": [list(pair) for pair in self.onze],
                "ran": list(self.ran),
            }
        )

    def add(self, mesa: Mesa, record: Entry) -> None:
        """Fold in the next active record, from the state stored with it."""
        before, after = self.state, state_after(mesa, record)
        kind = Kind(record.kind)
        if kind is Kind.MESA_EDITADA:
            old, new = edit_of(record)
            if edit_names(record) == NAME_FIXED:
                fixes = name_fixes(old, new)
                self.lineups = [lineup_fixed(lu, fixes, new.players) for lu in self.lineups]
            self.seat(new)
        self.count += 1
        self.hands += kind.is_hand
        if (after.series_number, after.game_number) != (before.series_number, before.game_number):
            self.worst = [[0, 0, 0], [0, 0, 0]]
        side = record.side if record.side in (0, 1) else None
        if side is not None:
            self._count_onze(kind, side)
            if record.note in RAN_NOTES:
                self.ran[1 - side] += 1
        for s in (0, 1):
            deficit = after.points[1 - s] - after.points[s]
            if after.game_winner is None and deficit > self.worst[s][0]:
                self.worst[s] = [deficit, after.points[s], after.points[1 - s]]
        if after.game_winner is not None and before.game_winner is None:
            winner = after.game_winner
            self.games.append(
                {
                    "winner": winner,
                    "series": after.series_number,
                    "points": list(after.points),
                    "comeback": list(self.worst[winner]),
                    "at": record.created_at.isoformat(),
                }
            )
        if after.series_winner is not None and before.series_winner is None:
            self.series.append(after.series_winner)
        self.start = self.start or record.created_at.isoformat()
        self.end = record.created_at.isoformat()
        self.state = after

    def _count_onze(self, kind: Kind, side: int) -> None:
        """Count a mão de onze for the side that had 11 (`side` is who scored): played and won,
        played and lost, or run from (the other side scores 1)."""
        if kind is Kind.ONZE_GANHOU:
            self.onze[side][0] += 1
            self.onze[side][1] += 1
        elif kind is Kind.ONZE_PERDEU:
            self.onze[1 - side][0] += 1
        elif kind is Kind.ONZE_CORREU:
            self.onze[1 - side][2] += 1

    def mark(self, record: Entry) -> dict[str, Any]:
        """A checkpoint at `record`, the last one folded: which record it is and this fold."""
        return {
            "at": self.count,
            "id": record.id,
            "seq": record.seq,
            "note": record.note,
            "hands": self.hands,
            "games": len(self.games),
            "series": len(self.series),
            "onze": [list(pair) for pair in self.onze],
            "ran": list(self.ran),
            "worst": [list(moment) for moment in self.worst],
            "lineups": [dict(lineup) for lineup in self.lineups],
        }

    @classmethod
    def resumed(
        cls, mesa: Mesa, summary: Mapping[str, Any], mark: Mapping[str, Any], record: Entry
    ) -> Fold:
        """The fold at a checkpoint `mark` of `summary`, whose record `record` is read again
        (the table's first record, before it, is the summary's too)."""
        return cls(
            state=state_after(mesa, record),
            count=int(mark["at"]),
            hands=int(mark["hands"]),
            games=list(summary["games"][: mark["games"]]),
            series=list(summary["series"][: mark["series"]]),
            onze=[list(pair) for pair in mark["onze"]],
            ran=list(mark["ran"]),
            worst=[list(moment) for moment in mark["worst"]],
            lineups=[dict(lineup) for lineup in mark["lineups"]],
            start=summary["start"],
            end=record.created_at.isoformat(),
        )


def lineup_fixed(
    lineup: Mapping[str, Any], fixes: Mapping[str, str], players: int
) -> dict[str, Any]:
    """A lineup with names fixed (see settings.name_fixes): a name where it sat, whatever its
    seat; a seat with no name, at a table seated as now (`players`). Written where the lineup's
    names are counted from: its players', or its 1x1 teams'."""
    names, teams, seated = lineup["names"], lineup["teams"], int(lineup["players"])
    counted = seat_names(names, teams, seated)
    renamed = [
        fixes.get(folded(name) or (f"#{seat}" if seated == players else ""), name)
        for seat, name in enumerate(counted)
    ]
    if seated == 2 and not (len(names) == 2 and all(names)):  # 1x1 counted by its teams
        teams = [name or DEFAULT_SIDES[side] for side, name in enumerate(renamed)]
    else:
        names = renamed if any(renamed) else []
    return {**lineup, "names": list(names), "teams": list(teams)}


def summarize(
    mesa: Mesa,
    records: Sequence[Entry],
    fold: Fold | None = None,
    marks: Collection[int] = (),
) -> dict[str, Any]:
    """What the statistics need from a table, from its active records (in order) and the
    state stored with each: folded from the table's start, or on from `fold` (a checkpoint's,
    `records` being those after it), with a checkpoint at each count of active records in
    `marks` (under "marks", deepest first)."""
    if fold is None:
        fold = Fold(MatchState(mesa.match_config))
        edits = [r for r in records if r.kind == Kind.MESA_EDITADA.value]
        fold.seat(edit_of(edits[0])[0] if edits else TableSettings.of(mesa))
    kept = []
    for record in records:
        fold.add(mesa, record)
        if fold.count in marks:
            kept.append(fold.mark(record))
    return {
        "version": SUMMARY_VERSION,
        "variante": mesa.match_config.variant.code,
        "players": mesa.players,
        "names": list(mesa.player_names or []),
        "teams": list(mesa.team_names),
        "best_of": mesa.best_of,
        "opened": mesa.created_at.isoformat(),
        "start": fold.start,
        "end": fold.end,
        "hands": fold.hands,
        "games": fold.games,
        "series": fold.series,
        "onze": fold.onze,
        "ran": fold.ran,
        "points": list(fold.state.points),
        "wins": list(fold.state.wins),
        "totals": list(fold.state.totals),
        "count": fold.count,
        "lineups": fold.lineups,
        "marks": kept,
    }


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


_MESAS = Mesa.__table__
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


def sides_of(summary: Mapping[str, Any]) -> tuple[list[str], list[str]] | None:
    """The names on each side of a table, in seat order; None when its players were not named
    (in 1x1 a team's own name counts as its player's, unless it is 'Nós' or 'Eles')."""
    names = summary.get("names") or []
    teams = summary.get("teams") or []
    seats = seat_names(names, teams, int(summary.get("players") or 4))
    if not all(seats):
        return None
    return seats[0::2], seats[1::2]


@dataclass
class Record:
    """Someone's (a player's or a pair's) record in a turma."""

    key: str
    name: str
    games: int = 0
    wins: int = 0
    series: int = 0
    series_wins: int = 0
    streak: int = 0  # now: wins in a row (positive) or losses in a row (negative)
    best_streak: int = 0  # the most games won in a row
    onze_played: int = 0
    onze_won: int = 0
    onze_ran: int = 0  # mãos de onze run from
    ran: int = 0  # noted runs from a truco (or seis, nove, doze)
    comeback: tuple[int, int, int] | None = None  # deficit, own points, theirs
    seq: int = field(default=0, compare=False)  # the order first counted in its list (ties)

    @property
    def onze_had(self) -> int:
        """Mãos de onze this side had: played or run from."""
        return self.onze_played + self.onze_ran

    @property
    def runs(self) -> int:
        """Every run: from a truco (noted) and from a mão de onze."""
        return self.ran + self.onze_ran

    @property
    def rate(self) -> int:
        """Games won as a whole percentage."""
        return round(100 * self.wins / self.games) if self.games else 0

    def count_game(self, won: bool) -> None:
        """One more game played, won or lost: the counts and the streaks move on."""
        self.games += 1
        self.wins += won
        if won:
            self.streak = self.streak + 1 if self.streak > 0 else 1
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
        self.best_streak = max(self.best_streak, self.streak)

    def dump(self) -> dict[str, Any]:
        """This record as JSON (every field, by name)."""
        return {name: getattr(self, name) for name in RECORD_FIELDS}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Record:
        """A record back from its JSON."""
        comeback = data.get("comeback")
        fields = {**data, "comeback": tuple(comeback) if comeback else None}
        return cls(**fields)


@dataclass(frozen=True)
class Evening:
    """One table's evening: its teams' names and, when named, each side's players ('Ana e
    Caio'; None where they are the team's own name), when, the games and series each side
    won, hands, minutes, the score now and the rule set."""

    mesa: Mesa
    teams: tuple[str, str]
    players: tuple[str, str] | None
    games: tuple[int, int]
    series: tuple[int, int]
    hands: int
    start: datetime | None
    minutes: int
    points: tuple[int, int]
    rules: Variant


@dataclass(frozen=True)
class Night:
    """One evening (a calendar day, Brasília time) of a turma with a finished game: the games
    each side (pair, or player in 1x1) won that evening, in the order they first sat."""

    day: date
    wins: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class HeadToHead:
    """Two sides (pairs, or players in 1x1) and the games each won against the other."""

    names: tuple[str, str]
    wins: tuple[int, int]
    seq: int = field(default=0, compare=False)  # the order first counted (ties keep it)


KINDS = ("players", "pairs", "trios", "rivals")  # a rule set's lists, as the tally keeps them


def name_order(name: str) -> str:
    """A shown name as the ranking orders it: casefolded, its UTF-8 in hex (so any database
    collation orders it as Python orders the casefolded names: by code point)."""
    return name.casefold().encode().hex()


def place(item: Record | HeadToHead) -> tuple[int, int, str, int]:
    """Where an item stands in its list, ascending: a player (pair, trio) by most wins, the
    best rate, the name, then the order first counted; a head-to-head by the most games
    between the two, then the order first counted."""
    if isinstance(item, HeadToHead):
        return (-sum(item.wins), 0, "", item.seq)
    return (-item.wins, -item.rate, name_order(item.name), item.seq)


RECORD_FIELDS = tuple(f.name for f in fields(Record))


@dataclass(frozen=True)
class Merges:
    """A turma's merged names (`Turma.aliases`): each folded spelling counted as another, named
    by the name chosen (as the statistics showed it when it was chosen). A player merged into
    is shown by that name whatever spelling a table has; any other by their first spelling."""

    aliases: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, aliases: Merges | Mapping[str, Any] | None) -> Merges:
        """The merges a turma's aliases hold (a value that is no name is left out)."""
        if isinstance(aliases, Merges):
            return aliases
        return cls({str(k): v for k, v in (aliases or {}).items() if isinstance(v, str)})

    @cached_property
    def chosen(self) -> dict[str, str]:
        """The name chosen for each key merged into, by that key."""
        return {folded(name): name for name in self.aliases.values()}

    def key(self, name: str) -> str:
        """The key a name as typed is counted under: folded, merges followed (a cycle stops
        where it began)."""
        key = folded(name)
        seen = {key}
        while key in self.aliases and folded(self.aliases[key]) not in seen:
            key = folded(self.aliases[key])
            seen.add(key)
        return key

    def shown(self, key: str, typed: str) -> str:
        """The name the player counted under `key` is shown by: the one chosen when a name was
        merged into theirs, else `typed` (their spelling the tally met first)."""
        return self.chosen.get(key, typed)


def _credit(record: Record, summary: Mapping[str, Any], side: int) -> None:
    """Count one table's games, series, mãos de onze and runs for whoever sat on `side`."""
    for game in summary["games"]:
        won = game["winner"] == side
        record.count_game(won)
        comeback = tuple(game["comeback"]) if won else None
        if (
            comeback
            and comeback[0] > 0
            and (record.comeback is None or comeback[0] > record.comeback[0])
        ):
            record.comeback = (int(comeback[0]), int(comeback[1]), int(comeback[2]))
    for winner in summary["series"]:
        record.series += 1
        record.series_wins += winner == side
    played, won, ran = summary["onze"][side]
    record.onze_played += played
    record.onze_won += won
    record.onze_ran += ran
    record.ran += summary["ran"][side]


def moment(text: str | None) -> datetime | None:
    """A stored ISO time back into a datetime."""
    return datetime.fromisoformat(text) if text else None


def _count(games: Iterable[Mapping[str, Any]], side: int) -> int:
    """How many of these games `side` won."""
    return sum(game["winner"] == side for game in games)


def night_of(summary: Mapping[str, Any]) -> str:
    """The evening a table belongs to: the day it was opened, Brasília time, a table opened
    before NIGHT_ENDS counting for the evening before (ISO date)."""
    opened = datetime.fromisoformat(summary["opened"]).replace(tzinfo=UTC)
    return (opened.astimezone(LOCAL_TZ) - NIGHT_ENDS).date().isoformat()


def joined(names: Sequence[str]) -> str:
    """Names as a side is called: 'Ana', 'Ana e Caio', 'Ana, Caio e Edu'."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} e {names[-1]}"


def evening(
    mesa: Mesa, summary: Mapping[str, Any], sides: tuple[str, str] | None = None
) -> Evening:
    """A table's evening as the turma's list shows it, from its summary: its players as the
    statistics name its sides (`sides`, when given), else as typed."""
    games = (_count(summary["games"], 0), _count(summary["games"], 1))
    series = (summary["series"].count(0), summary["series"].count(1))
    start, end = moment(summary["start"]), moment(summary["end"])
    minutes = int((end - start).total_seconds() // 60) if start and end else 0
    seated = sides_of(summary)
    teams = (str(summary["teams"][0]), str(summary["teams"][1]))
    if sides is None and seated is not None:
        sides = (joined(seated[0]), joined(seated[1]))
    players = None if sides is None or sides == teams else sides
    points = (int(summary["points"][0]), int(summary["points"][1]))
    rules = VARIANTS[str(summary["variante"])]
    return Evening(
        mesa, teams, players, games, series, summary["hands"], start, minutes, points, rules
    )


def lineup_parts(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A table's summary split by lineup: one part per lineup it had, each with the names then
    seated and the games, series, mãos de onze and runs played while they sat; the summary
    itself when its names never changed."""
    lineups = summary.get("lineups") or []
    if len(lineups) <= 1:
        return [summary]
    end = {
        "games": len(summary["games"]),
        "series": len(summary["series"]),
        "onze": summary["onze"],
        "ran": summary["ran"],
    }
    parts: list[Mapping[str, Any]] = []
    for lineup, after in zip(lineups, [*lineups[1:], end], strict=True):
        if _counts(lineup) == _counts(after):
            continue  # nothing played while they sat (a typo fixed): no one to credit
        parts.append(
            {
                **summary,
                "names": lineup["names"],
                "teams": lineup["teams"],
                "players": lineup["players"],
                "games": summary["games"][lineup["games"] : after["games"]],
                "series": summary["series"][lineup["series"] : after["series"]],
                "onze": [
                    [b - a for a, b in zip(lineup["onze"][side], after["onze"][side], strict=True)]
                    for side in (0, 1)
                ],
                "ran": [after["ran"][side] - lineup["ran"][side] for side in (0, 1)],
            }
        )
    return parts


def _counts(where: Mapping[str, Any]) -> tuple[Any, ...]:
    """Where a lineup's counts stood: games, series, mãos de onze and runs."""
    onze = tuple(tuple(pair) for pair in where["onze"])
    return (where["games"], where["series"], onze, tuple(where["ran"]))


Seated = list[tuple[list[str], list[str]]]  # each side's keys and names as they sat


def special_key(rules: Variant) -> str:
    """The exports' keys' start for a rule set's special hands: 'maos_de_onze', 'maos_de_dez'."""
    return "_".join(["maos", *rules.special_name.split()[1:]])


def exported(item: Record | HeadToHead, rules: Variant) -> dict[str, Any]:
    """A record under one rule set as the JSON export names it: a player's (pair's, trio's)
    figures (its special hand in its own words: 'maos_de_dez' in Truco Mineiro), or a
    head-to-head's sides and wins."""
    if isinstance(item, HeadToHead):
        return {"lados": list(item.names), "vitorias": list(item.wins), "regras": rules.name}
    special = special_key(rules)
    return {
        "nome": item.name,
        "regras": rules.name,
        "partidas": item.games,
        "vitorias": item.wins,
        "series": item.series,
        "series_vitorias": item.series_wins,
        special: item.onze_had,
        f"{special}_jogadas": item.onze_played,
        f"{special}_ganhas": item.onze_won,
        f"{special}_corridas": item.onze_ran,
        "correu": item.runs,
        "correu_do_truco": item.ran,
        "melhor_sequencia": item.best_streak,
    }


def seated_keys(summary: Mapping[str, Any], merges: Merges) -> Seated | None:
    """Each side's players of a table (or of one lineup of it): the keys they are counted
    under (folded, merges followed) and their names as typed; None when they were not named."""
    seated = sides_of(summary)
    if seated is None:
        return None
    return [([merges.key(n) for n in names], names) for names in seated]


def group_kind(members: Sequence[str]) -> str:
    """The list a group of players is counted in: pairs (2x2) or trios (3x3)."""
    return "pairs" if len(members) == 2 else "trios"


@dataclass
class RulesTally:
    """One rule set's statistics folded so far, table after table in the order they were
    opened: players, and pairs or trios, by their (resolved, folded) names, head-to-heads by
    the two sides' shown names. Its size is the turma's people, never its history.

    It holds the records a fold touched: all of them when folded from nothing, or those a
    stored tally's rows gave it (put in before the fold: see tallies.py). A record it does
    not hold is new, counted next in its list (`counts`: how many each list holds in all)."""

    players: dict[str, Record] = field(default_factory=dict)
    groups: dict[tuple[str, ...], Record] = field(default_factory=dict)  # pairs and trios
    rivals: dict[tuple[str, ...], HeadToHead] = field(default_factory=dict)
    nights: list[dict[str, Any]] = field(default_factory=list)  # the newest NIGHTS, oldest first
    dropped: str = ""  # the newest evening left out of `nights` (a table of it or older is too)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    def add_night(self, day: str, labels: Sequence[str], games: Sequence[Any]) -> None:
        """Count a table's finished games on its evening's chart, keeping the newest NIGHTS."""
        if not games or day <= self.dropped:
            return
        night = next((n for n in self.nights if n["day"] == day), None)
        if night is None:
            night = {"day": day, "wins": []}
            self.nights.append(night)
            self.nights.sort(key=lambda n: str(n["day"]))
        wins = night["wins"]
        for side, label in enumerate(labels):
            drawn = [w[0] for w in wins]
            if label not in drawn and len(set(drawn) - {OTHERS}) >= NIGHT_SIDES:
                label = OTHERS  # the night already draws as many sides as fit: one bar for the rest
            if label not in drawn:
                wins.append([label, 0])
            next(w for w in wins if w[0] == label)[1] += _count(games, side)
        while len(self.nights) > NIGHTS:
            self.dropped = str(self.nights.pop(0)["day"])

    def _next(self, kind: str) -> int:
        """The place a new record of `kind` takes in its list's order of first counting."""
        self.counts[kind] += 1
        return self.counts[kind] - 1

    def _player(self, key: str, name: str) -> Record:
        """The record of the player counted under `key` (a new one named `name` if none)."""
        found = self.players.get(key)
        if found is None:
            found = self.players[key] = Record(key, name, seq=self._next("players"))
        return found

    def labels(self, part: Mapping[str, Any], merges: Merges) -> list[str] | None:
        """How a table's (or lineup's) two sides are named in its head-to-head and chart: the
        pair's or trio's shown name, or the player's in 1x1 (records made for whoever is new,
        named as `merges` show them); None when its players were not named."""
        seated = seated_keys(part, merges)
        if seated is None:
            return None
        labels = []
        for keys, names in seated:
            players = [
                self._player(key, merges.shown(key, name))
                for key, name in zip(keys, names, strict=True)
            ]
            if len(keys) > 1:
                members = tuple(sorted(keys))
                group = self.groups.get(members)
                if group is None:
                    shown = joined([p.name for p in players])
                    seq = self._next(group_kind(members))
                    group = self.groups[members] = Record(" e ".join(keys), shown, seq=seq)
                labels.append(group.name)
            else:
                labels.append(players[0].name)
        return labels

    def add(self, summary: Mapping[str, Any], merges: Merges) -> None:
        """Fold in one more table (the next one opened), from its summary: each lineup it had
        (names edited mid-table) credited with what happened while it sat."""
        for part in lineup_parts(summary):
            self._add_part(part, merges)

    def _add_part(self, summary: Mapping[str, Any], merges: Merges) -> None:
        """Fold in a table's games, or the part of them one lineup played."""
        labels = self.labels(summary, merges)
        seated = seated_keys(summary, merges)
        if labels is None or seated is None:
            return
        for side, (keys, _names) in enumerate(seated):
            for key in keys:
                _credit(self.players[key], summary, side)
            if len(keys) > 1:
                _credit(self.groups[tuple(sorted(keys))], summary, side)
        if labels[0] != labels[1]:
            self.add_night(night_of(summary), labels, summary["games"])
            match = self.rival(labels)
            wins = list(match.wins)
            for game in summary["games"]:
                wins[match.names.index(labels[game["winner"]])] += 1
            self.rivals[rival_key(labels)] = HeadToHead(match.names, (wins[0], wins[1]), match.seq)

    def rival(self, labels: Sequence[str]) -> HeadToHead:
        """The head-to-head of these two sides (a new one, named in this order, if none)."""
        key = rival_key(labels)
        found = self.rivals.get(key)
        if found is None:
            names = (labels[0], labels[1])
            found = self.rivals[key] = HeadToHead(names, (0, 0), self._next("rivals"))
        return found

    def entries(self, kind: str) -> list[tuple[Any, Record | HeadToHead]]:
        """The records of one list this tally holds, each with its key, in no order."""
        if kind == "players":
            return list(self.players.items())
        if kind == "rivals":
            return list(self.rivals.items())
        return [(k, r) for k, r in self.groups.items() if group_kind(k) == kind]

    def ranked(self, kind: str) -> list[Record | HeadToHead]:
        """One list this tally holds, ranked (see `place`)."""
        return sorted((item for _key, item in self.entries(kind)), key=place)

    def chart(self) -> list[Night]:
        """The newest NIGHTS evenings with a finished game, oldest first."""
        return [
            Night(date.fromisoformat(n["day"]), tuple((str(w[0]), int(w[1])) for w in n["wins"]))
            for n in self.nights
        ]

    def head(self) -> dict[str, Any]:
        """What this tally keeps beside its records, as JSON: the chart, the evening dropped
        from it and how many records each list holds."""
        return {"nights": self.nights, "dropped": self.dropped, "counts": self.counts}

    @classmethod
    def headed(cls, data: Mapping[str, Any]) -> RulesTally:
        """A tally holding no record yet, from what `head` kept."""
        return cls(
            nights=[
                {"day": str(n["day"]), "wins": [[str(w[0]), int(w[1])] for w in n["wins"]]}
                for n in data["nights"]
            ],
            dropped=str(data["dropped"]),
            counts={kind: int(data["counts"].get(kind, 0)) for kind in KINDS},
        )


def rival_key(labels: Sequence[str]) -> tuple[str, ...]:
    """The key of the head-to-head of two sides named so (either order)."""
    return tuple(sorted(labels))


@dataclass
class Tally:
    """A turma's statistics folded so far, each rule set's apart: a Paulista game never
    counts with a Mineiro one (their points, special hands and calls differ)."""

    by_rules: dict[str, RulesTally] = field(default_factory=dict)  # by the rule set's code

    def add(self, summary: Mapping[str, Any], merges: Merges | Mapping[str, Any]) -> None:
        """Fold in one more table (the next one opened) into its rule set's tally, its names
        counted as `merges` (or a turma's aliases) say."""
        self.part(str(summary["variante"])).add(summary, Merges.of(merges))

    def part(self, code: str) -> RulesTally:
        """The tally of one rule set (an empty one if none was folded yet)."""
        return self.by_rules.setdefault(code, RulesTally())

    def ordered(self) -> list[tuple[str, RulesTally]]:
        """The rule sets' tallies in VARIANTS' order (Paulista first)."""
        return [(code, self.by_rules[code]) for code in VARIANTS if code in self.by_rules]
