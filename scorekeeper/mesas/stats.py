"""A turma's statistics, from its tables' hand records (the log stays the truth).

Each table's records are read once into a small summary (its games, series, mãos de onze, runs
from truco, hands and times), kept in `mesa_summary` with the table's revision: a turma's page
reads the summaries and re-reads only a table whose revision moved on (the one being played).
The summary reads the stored state after each record (its checkpoint), never folding again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import ACTIVE, ENTRY_COLUMNS, Entry, HandRecord, Mesa, MesaSummary, entry
from ..rules import Kind, MatchState
from .board import state_after

SUMMARY_VERSION = 1  # bump when the summary's shape changes: old ones are read again
DEFAULT_TEAMS = ("nós", "eles")
RAN_NOTES = ("correram_truco", "correram_seis", "correram_nove", "correram_doze")


def folded(name: str) -> str:
    """A name as names are matched: NFC, case folded, its runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def summarize(mesa: Mesa, records: Sequence[Entry]) -> dict[str, Any]:
    """What the statistics need from a table, from its active records (in order) and the
    state stored with each."""
    games: list[dict[str, Any]] = []
    series: list[int] = []
    onze = [[0, 0], [0, 0]]  # per side: played, won
    ran = [0, 0]  # per side: times it ran from a truco (or seis, nove, doze)
    hands = 0
    before = MatchState(mesa.match_config)
    worst = [[0, 0, 0], [0, 0, 0]]  # per side, its worst moment: deficit, own points, theirs
    for record in records:
        after = state_after(mesa, record)
        kind = Kind(record.kind)
        hands += kind.is_hand
        if (after.series_number, after.game_number) != (before.series_number, before.game_number):
            worst = [[0, 0, 0], [0, 0, 0]]
        side = record.side if record.side in (0, 1) else None
        if kind is Kind.ONZE_GANHOU and side is not None:
            onze[side][0] += 1
            onze[side][1] += 1
        elif kind is Kind.ONZE_PERDEU and side is not None:
            onze[1 - side][0] += 1
        if record.note in RAN_NOTES and side is not None:
            ran[1 - side] += 1
        for s in (0, 1):
            deficit = after.points[1 - s] - after.points[s]
            if after.game_winner is None and deficit > worst[s][0]:
                worst[s] = [deficit, after.points[s], after.points[1 - s]]
        if after.game_winner is not None and before.game_winner is None:
            winner = after.game_winner
            games.append(
                {
                    "winner": winner,
                    "series": after.series_number,
                    "points": list(after.points),
                    "comeback": worst[winner],
                    "at": record.created_at.isoformat(),
                }
            )
        if after.series_winner is not None and before.series_winner is None:
            series.append(after.series_winner)
        before = after
    return {
        "version": SUMMARY_VERSION,
        "players": mesa.players,
        "names": list(mesa.player_names or []),
        "teams": list(mesa.team_names),
        "best_of": mesa.best_of,
        "opened": mesa.created_at.isoformat(),
        "start": records[0].created_at.isoformat() if records else None,
        "end": records[-1].created_at.isoformat() if records else None,
        "hands": hands,
        "games": games,
        "series": series,
        "onze": onze,
        "ran": ran,
        "points": list(before.points),
        "wins": list(before.wins),
        "totals": list(before.totals),
    }


_RECORDS = HandRecord.__table__
_ACTIVE = (
    select(*ENTRY_COLUMNS)
    .where(_RECORDS.c.mesa_id == bindparam("mesa"), _RECORDS.c.status == ACTIVE)
    .order_by(_RECORDS.c.seq)
)


def _read(mesa: Mesa) -> dict[str, Any]:
    """A table's summary read from its active records."""
    rows = db.session.execute(_ACTIVE, {"mesa": mesa.id})
    return summarize(mesa, [entry(row) for row in rows])


def summaries(mesas: Sequence[Mesa]) -> dict[int, dict[str, Any]]:
    """Each table's summary by id: the stored one while its revision is the table's, else read
    again from the records and stored (one query for all, plus one per table that changed)."""
    if not mesas:
        return {}
    ids = [m.id for m in mesas]
    stored = {
        s.mesa_id: s
        for s in db.session.execute(select(MesaSummary).where(MesaSummary.mesa_id.in_(ids)))
        .scalars()
        .all()
    }
    found: dict[int, dict[str, Any]] = {}
    changed = False
    for mesa in mesas:
        kept = stored.get(mesa.id)
        if (
            kept is not None
            and kept.revision == mesa.revision
            and kept.data.get("version") == SUMMARY_VERSION
        ):
            found[mesa.id] = kept.data
            continue
        data = _read(mesa)
        found[mesa.id] = data
        changed = True
        if kept is None:
            db.session.add(MesaSummary(mesa_id=mesa.id, revision=mesa.revision, data=data))
        else:
            kept.revision, kept.data = mesa.revision, data
    if changed:
        try:
            db.session.commit()
        except IntegrityError:  # another request stored the same summary meanwhile
            db.session.rollback()
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
    results: list[bool] = field(default_factory=list)
    onze_played: int = 0
    onze_won: int = 0
    ran: int = 0
    comeback: tuple[int, int, int] | None = None  # deficit, own points, theirs

    @property
    def rate(self) -> int:
        """Games won as a whole percentage."""
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def streak(self) -> int:
        """The current streak: wins in a row (positive) or losses in a row (negative)."""
        if not self.results:
            return 0
        last, count = self.results[-1], 0
        for result in reversed(self.results):
            if result != last:
                break
            count += 1
        return count if last else -count

    @property
    def best_streak(self) -> int:
        """The most games won in a row."""
        best = run = 0
        for result in self.results:
            run = run + 1 if result else 0
            best = max(best, run)
        return best


@dataclass(frozen=True)
class Evening:
    """One table's evening: when, the games and series each side won, hands, minutes."""

    mesa: Mesa
    teams: tuple[str, str]
    games: tuple[int, int]
    series: tuple[int, int]
    hands: int
    start: datetime | None
    minutes: int
    points: tuple[int, int]


@dataclass(frozen=True)
class HeadToHead:
    """Two sides (pairs, or players in 1x1) and the games each won against the other."""

    names: tuple[str, str]
    wins: tuple[int, int]


@dataclass(frozen=True)
class Stats:
    """A turma's statistics: players, pairs, head-to-heads and evenings (newest first)."""

    players: list[Record]
    pairs: list[Record]
    rivals: list[HeadToHead]
    evenings: list[Evening]

    @property
    def names(self) -> dict[str, str]:
        """Every player's folded name and shown name."""
        return {r.key: r.name for r in self.players}


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
        record.games += 1
        record.wins += won
        record.results.append(won)
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
    record.onze_played += summary["onze"][side][0]
    record.onze_won += summary["onze"][side][1]
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


def turma_stats(
    mesas: Sequence[Mesa], found: Mapping[int, Mapping[str, Any]], aliases: Mapping[str, str]
) -> Stats:
    """The statistics of a turma's tables (any order) from their summaries."""
    players: dict[str, Record] = {}
    pairs: dict[frozenset[str], Record] = {}
    rivals: dict[frozenset[str], dict[str, Any]] = {}
    evenings: list[Evening] = []
    for mesa in sorted(mesas, key=lambda m: m.id):
        summary = found[mesa.id]
        games = (_count(summary["games"], 0), _count(summary["games"], 1))
        series = (summary["series"].count(0), summary["series"].count(1))
        start, end = moment(summary["start"]), moment(summary["end"])
        minutes = int((end - start).total_seconds() // 60) if start and end else 0
        seated = sides_of(summary)
        teams = (str(summary["teams"][0]), str(summary["teams"][1]))
        if seated is not None:
            teams = (" e ".join(seated[0]), " e ".join(seated[1]))
        points = (int(summary["points"][0]), int(summary["points"][1]))
        evenings.append(
            Evening(mesa, teams, games, series, summary["hands"], start, minutes, points)
        )
        if seated is None:
            continue
        labels: list[str] = []
        for side, names in enumerate(seated):
            keys = [resolve(aliases, folded(n)) for n in names]
            for key, name in zip(keys, names, strict=True):
                _credit(players.setdefault(key, Record(key, name)), summary, side)
            if len(names) == 2:
                pair_key = frozenset(keys)
                shown = " e ".join(players[k].name for k in keys)
                pair = pairs.setdefault(pair_key, Record(" e ".join(keys), shown))
                _credit(pair, summary, side)
                labels.append(pair.name)
            else:
                labels.append(players[keys[0]].name)
        if labels[0] != labels[1]:
            match = rivals.setdefault(frozenset(labels), {"names": tuple(labels), "wins": {}})
            for game in summary["games"]:
                winner = labels[game["winner"]]
                match["wins"][winner] = match["wins"].get(winner, 0) + 1
    heads = [
        HeadToHead(m["names"], (m["wins"].get(m["names"][0], 0), m["wins"].get(m["names"][1], 0)))
        for m in rivals.values()
    ]
    heads.sort(key=lambda h: -sum(h.wins))
    return Stats(_ranked(players.values()), _ranked(pairs.values()), heads, evenings[::-1])
