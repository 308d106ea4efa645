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
(Truco Paulista, Truco Mineiro) is counted apart, a tally of its own. The tally of the older tables
(all but the newest KEEP_OPEN, the ones still played) is kept in `turma_summary` with the key
that proves it current, checked by one SQL aggregate: a page folds only the newest tables on it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from typing import Any

from sqlalchemy import bindparam, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import (
    ACTIVE,
    ENTRY_COLUMNS,
    Entry,
    HandRecord,
    Mesa,
    MesaSummary,
    Turma,
    TurmaSummary,
    entry,
)
from ..rules import VARIANTS, Kind, MatchState, Variant
from .board import state_after
from .settings import TableSettings, edit_of
from .words import LOCAL_TZ

SUMMARY_VERSION = 5  # bump when the summary's shape changes: old ones are read again
TALLY_VERSION = 5  # bump when the tally's shape or its counting changes: old ones are refolded
KEEP_OPEN = 3  # the newest tables of a turma, folded on every view instead of stored
MARGIN = 32  # a summary's shallowest checkpoint: this many active records from the newest
NIGHTS = 12  # the newest evenings the tally keeps, game by game, for the turma's chart
NIGHT_ENDS = timedelta(hours=6)  # a table opened before 6:00 belongs to the evening before
DEFAULT_TEAMS = ("nós", "eles")
RAN_NOTES = ("correram_truco", "correram_seis", "correram_nove", "correram_dez", "correram_doze")


def folded(name: str) -> str:
    """A name as names are matched: NFC, case folded, its runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


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
    # counts above stood when they sat down (a player swapped in is credited from then on)
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
            self.seat(edit_of(record)[1])
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
_ACTIVE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == ACTIVE)
    .order_by(_RECORDS.c.seq)
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


def _read(mesa: Mesa) -> dict[str, Any]:
    """A table's summary read from all its active records, with its checkpoints."""
    records = [entry(row) for row in db.session.execute(_ACTIVE, {"mesa": mesa.id})]
    return summarize(mesa, records, marks=set(_places(len(records))))


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
    if kept is not None and kept.data.get("version") == SUMMARY_VERSION:
        found = _resumed(mesa, kept)
        if found is not None:
            return found
    return _read(mesa)


def _store_summary(mesa_id: int, revision: int, data: dict[str, Any], *, new: bool) -> None:
    """Keep a table's summary at `revision`: a new row, or over one of an older revision or
    version (a request that read an older state never overwrites a newer one; one of an old
    version is read again once, not on every view)."""
    values = {"mesa_id": mesa_id, "revision": revision, "data": data}
    try:
        with db.engine.begin() as connection:
            if new:
                connection.execute(insert(_SUMMARIES), values)
            else:
                connection.execute(_NEWER_SUMMARY, {"mesa": mesa_id, "rev": revision, "data": data})
    except IntegrityError:  # another request stored it meanwhile
        pass


def summaries(mesas: Sequence[Mesa]) -> dict[int, dict[str, Any]]:
    """Each table's summary by id: the stored one while its revision is the table's, else
    brought up to date (`refreshed`, after the table's revision was) and stored: one query for
    all, plus one read per table that changed (two when its checkpoint is gone). The tables'
    loaded state is kept (the writes are apart)."""
    if not mesas:
        return {}
    ids = [m.id for m in mesas]
    query = select(_SUMMARIES).where(_SUMMARIES.c.mesa_id.in_(ids))
    stored = {row.mesa_id: row for row in db.session.execute(query)}
    found: dict[int, dict[str, Any]] = {}
    for mesa in mesas:
        kept = stored.get(mesa.id)
        if (
            kept is not None
            and kept.revision == mesa.revision
            and kept.data.get("version") == SUMMARY_VERSION
        ):
            found[mesa.id] = kept.data
            continue
        found[mesa.id] = refreshed(mesa, kept)
        _store_summary(mesa.id, mesa.revision, found[mesa.id], new=kept is None)
    return found


def sides_of(summary: Mapping[str, Any]) -> tuple[list[str], list[str]] | None:
    """The names on each side of a table, in seat order; None when its players were not named
    (in 1x1 a team's own name counts as its player's, unless it is 'Nós' or 'Eles')."""
    names = [str(n) for n in summary.get("names") or []]
    players = int(summary.get("players") or 4)
    if len(names) == players and all(names):
        return names[0::2], names[1::2]
    teams = [str(t) for t in summary.get("teams") or []]
    if players == 2 and len(teams) == 2 and not {folded(t) for t in teams} & set(DEFAULT_TEAMS):
        return [teams[0]], [teams[1]]
    return None


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
        """This record as JSON."""
        return asdict(self)

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


@dataclass(frozen=True)
class Counted:
    """One rule set's statistics in a turma: its players, pairs (2x2), trios (3x3) and
    head-to-heads, and the games won on its newest NIGHTS evenings (oldest first)."""

    rules: Variant
    players: list[Record]
    pairs: list[Record]
    trios: list[Record]
    rivals: list[HeadToHead]
    nights: list[Night] = field(default_factory=list)


@dataclass(frozen=True)
class Stats:
    """A turma's statistics, each rule set it played counted apart (in VARIANTS' order,
    Paulista first), and the evenings of the tables it was asked with (newest first)."""

    parts: list[Counted]
    evenings: list[Evening]

    @property
    def names(self) -> dict[str, str]:
        """Every player's folded name and shown name, whatever rule set they played."""
        names: dict[str, str] = {}
        for part in self.parts:
            for record in part.players:
                names.setdefault(record.key, record.name)
        return names


def resolve(aliases: Mapping[str, str], key: str) -> str:
    """The name a folded name is counted as, following merges (a cycle stops where it began)."""
    seen = {key}
    while key in aliases and aliases[key] not in seen:
        key = aliases[key]
        seen.add(key)
    return key


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


def _ranked(records: Iterable[Record]) -> list[Record]:
    """Most wins first, then the best rate, then by name."""
    return sorted(records, key=lambda r: (-r.wins, -r.rate, r.name.casefold()))


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


def evening(mesa: Mesa, summary: Mapping[str, Any]) -> Evening:
    """A table's evening as the turma's list shows it, from its summary."""
    games = (_count(summary["games"], 0), _count(summary["games"], 1))
    series = (summary["series"].count(0), summary["series"].count(1))
    start, end = moment(summary["start"]), moment(summary["end"])
    minutes = int((end - start).total_seconds() // 60) if start and end else 0
    seated = sides_of(summary)
    teams = (str(summary["teams"][0]), str(summary["teams"][1]))
    players = None
    if seated is not None and [[t] for t in teams] != [list(side) for side in seated]:
        players = (joined(seated[0]), joined(seated[1]))
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


@dataclass
class RulesTally:
    """One rule set's statistics folded so far, table after table in the order they were
    opened: players, and pairs or trios, by their (resolved, folded) names, head-to-heads by
    the two sides' shown names. Its size is the turma's people, never its history."""

    players: dict[str, Record] = field(default_factory=dict)
    groups: dict[tuple[str, ...], Record] = field(default_factory=dict)  # pairs and trios
    rivals: dict[tuple[str, ...], dict[str, Any]] = field(default_factory=dict)
    nights: list[dict[str, Any]] = field(default_factory=list)  # the newest NIGHTS, oldest first
    dropped: str = ""  # the newest evening left out of `nights` (a table of it or older is too)

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
            if label not in [w[0] for w in wins]:
                wins.append([label, 0])
            next(w for w in wins if w[0] == label)[1] += _count(games, side)
        while len(self.nights) > NIGHTS:
            self.dropped = str(self.nights.pop(0)["day"])

    def add(self, summary: Mapping[str, Any], aliases: Mapping[str, str]) -> None:
        """Fold in one more table (the next one opened), from its summary: each lineup it had
        (names edited mid-table) credited with what happened while it sat."""
        for part in lineup_parts(summary):
            self._add_part(part, aliases)

    def _add_part(self, summary: Mapping[str, Any], aliases: Mapping[str, str]) -> None:
        """Fold in a table's games, or the part of them one lineup played."""
        seated = sides_of(summary)
        if seated is None:
            return
        labels: list[str] = []
        for side, names in enumerate(seated):
            keys = [resolve(aliases, folded(n)) for n in names]
            for key, name in zip(keys, names, strict=True):
                _credit(self.players.setdefault(key, Record(key, name)), summary, side)
            if len(names) > 1:
                shown = joined([self.players[k].name for k in keys])
                group = self.groups.setdefault(
                    tuple(sorted(keys)), Record(" e ".join(keys), shown)
                )
                _credit(group, summary, side)
                labels.append(group.name)
            else:
                labels.append(self.players[keys[0]].name)
        if labels[0] != labels[1]:
            self.add_night(night_of(summary), labels, summary["games"])
            match = self.rivals.setdefault(
                tuple(sorted(labels)), {"names": list(labels), "wins": [0, 0]}
            )
            for game in summary["games"]:
                match["wins"][match["names"].index(labels[game["winner"]])] += 1

    def stats(self, rules: Variant) -> Counted:
        """The statistics this tally holds, ranked, as those of `rules`."""
        heads = [HeadToHead(tuple(m["names"]), tuple(m["wins"])) for m in self.rivals.values()]
        heads.sort(key=lambda h: -sum(h.wins))
        nights = [
            Night(date.fromisoformat(n["day"]), tuple((str(w[0]), int(w[1])) for w in n["wins"]))
            for n in self.nights
        ]
        pairs = [r for k, r in self.groups.items() if len(k) == 2]
        trios = [r for k, r in self.groups.items() if len(k) > 2]
        players = _ranked(self.players.values())
        return Counted(rules, players, _ranked(pairs), _ranked(trios), heads, nights)

    def dump(self) -> dict[str, Any]:
        """This tally as JSON (lists, in the order folded: the ranking's ties keep it)."""
        return {
            "players": [r.dump() for r in self.players.values()],
            "groups": [{"members": list(k), **r.dump()} for k, r in self.groups.items()],
            "rivals": [{"names": m["names"], "wins": m["wins"]} for m in self.rivals.values()],
            "nights": self.nights,
            "dropped": self.dropped,
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> RulesTally:
        """A tally back from its JSON."""
        tally = cls()
        for item in data["players"]:
            record = Record.load(item)
            tally.players[record.key] = record
        for item in data["groups"]:
            fields = dict(item)
            members = tuple(fields.pop("members"))
            tally.groups[members] = Record.load(fields)
        for item in data["rivals"]:
            names = [str(n) for n in item["names"]]
            tally.rivals[tuple(sorted(names))] = {"names": names, "wins": list(item["wins"])}
        tally.nights = [
            {"day": str(n["day"]), "wins": [[str(w[0]), int(w[1])] for w in n["wins"]]}
            for n in data["nights"]
        ]
        tally.dropped = str(data["dropped"])
        return tally


@dataclass
class Tally:
    """A turma's statistics folded so far, each rule set's apart: a Paulista game never
    counts with a Mineiro one (their points, special hands and calls differ)."""

    by_rules: dict[str, RulesTally] = field(default_factory=dict)  # by the rule set's code

    def add(self, summary: Mapping[str, Any], aliases: Mapping[str, str]) -> None:
        """Fold in one more table (the next one opened) into its rule set's tally."""
        self.by_rules.setdefault(str(summary["variante"]), RulesTally()).add(summary, aliases)

    def stats(self, evenings: list[Evening]) -> Stats:
        """The statistics this tally holds, each rule set played apart, with these evenings."""
        parts = [tally.stats(VARIANTS[code]) for code, tally in self._ordered()]
        return Stats(parts, evenings)

    def _ordered(self) -> list[tuple[str, RulesTally]]:
        """The rule sets' tallies in VARIANTS' order (Paulista first)."""
        return [(code, self.by_rules[code]) for code in VARIANTS if code in self.by_rules]

    def dump(self) -> dict[str, Any]:
        """This tally as JSON: each rule set's by its code."""
        return {code: tally.dump() for code, tally in self._ordered()}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Tally:
        """A tally back from its JSON."""
        return cls({str(code): RulesTally.load(part) for code, part in data.items()})


def turma_stats(
    mesas: Sequence[Mesa], found: Mapping[int, Mapping[str, Any]], aliases: Mapping[str, str]
) -> Stats:
    """The statistics of these tables (any order) folded from their summaries, with every
    table's evening: the whole history, read again (the exports, and the cache's measure)."""
    ordered = sorted(mesas, key=lambda m: m.id)
    tally = Tally()
    for mesa in ordered:
        tally.add(found[mesa.id], aliases)
    return tally.stats([evening(m, found[m.id]) for m in reversed(ordered)])


# --- the stored tally ------------------------------------------------------------------------

_MESAS = Mesa.__table__
_TURMAS = Turma.__table__
_TALLIES = TurmaSummary.__table__
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
)
_SWAP = (
    update(_TALLIES)
    .where(_TALLIES.c.turma_id == bindparam("turma"), _TALLIES.c.revision == bindparam("seen"))
    .values(revision=_TALLIES.c.revision + 1, key=bindparam("key"), data=bindparam("data"))
)


@dataclass(frozen=True)
class Current:
    """A turma's statistics over all its tables, and how many tables it holds."""

    tally: Tally
    count: int


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


def _store_tally(turma_id: int, seen: int | None, key: dict[str, Any], tally: Tally) -> None:
    """Keep a turma's tally: a new row, or over the row this request read (a compare-and-swap
    on its revision: of two requests that read the same row, one stores)."""
    values = {"key": key, "data": tally.dump()}
    try:
        with db.engine.begin() as connection:
            if seen is None:
                connection.execute(
                    insert(_TALLIES), {"turma_id": turma_id, "revision": 0, **values}
                )
            else:
                connection.execute(_SWAP, {"turma": turma_id, "seen": seen, **values})
    except IntegrityError:  # another request stored one meanwhile
        pass


def current(turma: Turma) -> Current:
    """A turma's statistics, its cost flat in its history: the stored tally of its older tables
    while its key holds (one SQL aggregate says so), the newer ones folded on top, and the
    tally stored again with the settled ones (all but the newest KEEP_OPEN) when they moved on.

    Every stored key is made from the very rows folded (their count and revisions' sum), with
    the departures read no later than those rows and the aliases used: a key that matches later
    proves the tally current, whatever requests raced to store it."""
    aliases = dict(turma.aliases or {})
    row = db.session.execute(select(_TALLIES).where(_TALLIES.c.turma_id == turma.id)).first()
    bound = int(row.key.get("bound", 0)) if row is not None else 0
    found = db.session.execute(_CHECK, {"turma": turma.id, "bound": bound}).one()
    departures, count, tables, revisions = (int(v or 0) for v in found)
    if row is not None and row.key == _key(bound, tables, revisions, departures, aliases):
        tally = Tally.load(row.data)
    else:
        tally, bound, tables, revisions = Tally(), 0, 0, 0
    newer = list(db.session.execute(_AFTER, {"turma": turma.id, "bound": bound}).scalars())
    labels = [m.revision for m in newer]
    read = summaries(newer)
    settled = max(0, len(newer) - KEEP_OPEN)
    for mesa in newer[:settled]:
        tally.add(read[mesa.id], aliases)
    if settled:
        key = _key(
            newer[settled - 1].id,
            tables + settled,
            revisions + sum(labels[:settled]),
            departures,
            aliases,
        )
        _store_tally(turma.id, None if row is None else row.revision, key, tally)
    for mesa in newer[settled:]:
        tally.add(read[mesa.id], aliases)
    return Current(tally, count)
