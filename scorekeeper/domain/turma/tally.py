"""The tally as values: a turma's statistics folded from its tables' summaries (mesa_summary.py),
table after table in order, into records whose number is the turma's players, pairs (or trios)
and rivalries, never its history; each rule set (Truco Paulista, Truco Mineiro) is counted
apart, a tally of its own. Here the records (`Record`, `HeadToHead`, `Night`), how a list is
ranked (`place`), the merged names (`Merges`), the fold (`RulesTally`, `Tally`) and a record as
the JSON export names it (`exported`, stored with each row).

The tally is stored a row per record, and read a page at a time, in tallies.py; nothing here
reads or writes the database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from functools import cached_property
from typing import Any

from ...rules import VARIANTS, Variant
from ..mesa.settings import folded
from .mesa_summary import games_won, joined, lineup_parts, night_of, sides_of

NIGHTS = 12  # the newest evenings the tally keeps, game by game, for the turma's chart
NIGHT_SIDES = 8  # the sides one evening's chart draws each apart; the rest share one bar
OTHERS = "(outros)"  # the name of that bar


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
            next(w for w in wins if w[0] == label)[1] += games_won(games, side)
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
