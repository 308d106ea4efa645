"""A table's summary as a value: what a turma's statistics keep of one table, folded from its
active records, and what is read back from it. Here the summary's shape (SUMMARY_VERSION) and
its fold (`Fold`, `summarize`), from the table's start or from one of its checkpoints; and
reading one: its sides (`sides_of`), its lineups (`lineup_parts`), its evening (`evening`,
`night_of`). Each table's records are read into a small summary (its games, series, mãos de
onze played, won and run from, runs from truco, hands and times): it reads the stored state
after each record, never folding the rules again.

Where summaries are stored and kept current (the `mesa_summary` rows, their checkpoints) is
stored_summaries.py; what the statistics fold them into, the tally, is tally.py. No query and
no write here."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ...models import Entry, Mesa
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


def sides_of(summary: Mapping[str, Any]) -> tuple[list[str], list[str]] | None:
    """The names on each side of a table, in seat order; None when its players were not named
    (in 1x1 a team's own name counts as its player's, unless it is 'Nós' or 'Eles')."""
    names = summary.get("names") or []
    teams = summary.get("teams") or []
    seats = seat_names(names, teams, int(summary.get("players") or 4))
    if not all(seats):
        return None
    return seats[0::2], seats[1::2]


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


def moment(text: str | None) -> datetime | None:
    """A stored ISO time back into a datetime."""
    return datetime.fromisoformat(text) if text else None


def games_won(games: Iterable[Mapping[str, Any]], side: int) -> int:
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
    games = (games_won(summary["games"], 0), games_won(summary["games"], 1))
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
