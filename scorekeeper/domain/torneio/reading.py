"""What a torneio's pages read: the Snapshot (settings, pairs, mesas, the bracket derived from
the words said on each called match, the matches called), the TV's version, what a match's
own board says of its torneio, and the words of a match closed off its board. No Flask
request here.

The bracket is derived (see bracket.py): a match's winner is the organiser's word if any, else
its table's series winner, each counting only between the pairs it was said of."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select

from ...extensions import db
from ...models import Dupla, Jogo, Mesa, Sumula, Torneio, TorneioMesa
from ...rules import MatchState, Phase
from ..common.writes import same, shaped
from ..mesa import load_board
from . import bracket, clock
from .access import UnknownTorneio, mesa_of_table
from .bracket import Bracket

# Why a match's table takes no more writes (mesa.closed): the organiser's word on the match
# (a W.O. or a result, also its decided_how), the clock's limit, or the match called off.
WO, OVERRIDE, TIME, CANCELED = "wo", "organizador", "tempo", "cancelado"


@dataclass(frozen=True)
class Called:
    """A match called to a mesa: its row, its table and the table's score."""

    jogo: Jogo
    mesa: Mesa
    points: tuple[int, int]
    wins: tuple[int, int]
    # the pair that won it, by the organiser's word or its table's series, as the bracket takes
    # it: None while its pairs are no longer the bracket's (a stale table decides nothing)
    winner: int | None
    special: str  # the table's phase when it is a special hand ('mao_de_onze', ...), else ''
    state: MatchState | None = field(default=None, compare=False)  # its table's, as read

    @property
    def untouched(self) -> bool:
        """True while its table scored nothing (taps all undone count as none)."""
        s = self.state
        return (
            s is not None
            and (s.hands_dealt, s.points, s.wins, s.game_number) == (0, (0, 0), (0, 0), 1)
            and self.jogo.decided is None
        )

    def stale(self, match: bracket.Match) -> bool:
        """True when the bracket no longer has these pairs in this match (a feeder reopened)."""
        return (match.a, match.b) != (self.jogo.pair_a, self.jogo.pair_b)


@dataclass(frozen=True)
class Snapshot:
    """A torneio as its pages show it: settings, pairs, mesas, the derived bracket and the
    matches called (by key)."""

    torneio: Torneio
    pairs: Mapping[int, Dupla]
    mesas: tuple[TorneioMesa, ...]
    bracket: Bracket | None
    called: Mapping[str, Called]
    lines: Mapping[str, tuple[Sumula, ...]]

    def pair_name(self, pair: int | None) -> str:
        """A pair's name as pages show it: its own name, else its players' 'Ana e Beto'."""
        if pair is None:
            return "a definir"
        if pair == bracket.BYE:
            return "folga"
        found = self.pairs.get(pair)
        return pair_label(found) if found is not None else "?"

    def at_mesa(self, number: int) -> Called | None:
        """The undecided match now called to mesa `number` whose table still takes taps, if
        any."""
        for called in self.called.values():
            open_ = called.winner is None and called.mesa.closed is None
            if called.jogo.mesa_number == number and open_:
                return called
        return None

    @property
    def started(self) -> bool:
        """True once a called match has a tap or the organiser's word: the draw is final."""
        return any(c.mesa.revision > 0 or c.jogo.decided is not None for c in self.called.values())


def champions_word(players: int) -> str:
    """'Campeões' for a pair or a trio, 'Campeão' for a player alone (1x1)."""
    return "Campeão" if players == 2 else "Campeões"


def pair_label(pair: Dupla) -> str:
    """'Os Zapeiros', or its players 'Ana e Beto'."""
    return label(pair.name, pair.players)


def label(name: str, players: list[str]) -> str:
    """A pair's name as pages show it: its own name, else its players' 'Ana e Beto'."""
    if name:
        return str(name)
    names = [str(p) for p in players]
    return " e ".join(names) if len(names) <= 2 else f"{', '.join(names[:-1])} e {names[-1]}"


def _word(jogo: Jogo, state: MatchState) -> bracket.Word | None:
    """What was said of a called match: the organiser's (or the clock's) word, between the
    pairs the match had then; else its table's series winner, between the pairs it was called
    with; None while neither."""
    if jogo.decided is not None:
        a = jogo.pair_a if jogo.decided_a is None else jogo.decided_a
        b = jogo.pair_b if jogo.decided_b is None else jogo.decided_b
        return bracket.Word(jogo.decided, a, b)
    if state.series_winner is not None:
        pair = (jogo.pair_a, jogo.pair_b)[state.series_winner]
        return bracket.Word(pair, jogo.pair_a, jogo.pair_b)
    return None


def _called(jogo: Jogo, mesa: Mesa, state: MatchState, winner: int | None) -> Called:
    """A called match with its table's score and the winner the bracket takes from it."""
    phase = state.phase.value if state.phase in (Phase.MAO_DE_ONZE, Phase.MAO_DE_FERRO) else ""
    return Called(jogo, mesa, state.points, state.wins, winner, phase, state)


def snapshot(torneio: Torneio) -> Snapshot:
    """Everything a torneio's pages show, read now."""
    pairs = db.session.execute(
        select(Dupla).where(Dupla.torneio_id == torneio.id).order_by(Dupla.id)
    ).scalars()
    mesas = db.session.execute(
        select(TorneioMesa).where(TorneioMesa.torneio_id == torneio.id).order_by(TorneioMesa.number)
    ).scalars()
    rows = db.session.execute(
        select(Jogo, Mesa)
        .join(Mesa, Mesa.id == Jogo.mesa_id)
        .where(Jogo.torneio_id == torneio.id)
        .order_by(Jogo.id)  # in call order
    ).all()
    read = {jogo.key: (jogo, mesa, load_board(mesa).state) for jogo, mesa in rows}
    lines: dict[str, list[Sumula]] = {}
    for line in db.session.execute(
        select(Sumula).where(Sumula.torneio_id == torneio.id).order_by(Sumula.id)
    ).scalars():
        lines.setdefault(line.key, []).append(line)
    built = None
    if torneio.slots is not None:
        words = {k: w for k, (j, _m, s) in read.items() if (w := _word(j, s)) is not None}
        built = bracket.build(torneio.slots, words, torneio.third_place)
    called = {
        k: _called(jogo, mesa, state, _winner(built, k)) for k, (jogo, mesa, state) in read.items()
    }
    kept = {k: tuple(v) for k, v in lines.items()}
    return Snapshot(torneio, {p.id: p for p in pairs}, tuple(mesas), built, called, kept)


def _winner(built: Bracket | None, match_key: str) -> int | None:
    """The winner the bracket has for a called match (None before a draw or for a key it
    does not have)."""
    if built is None:
        return None
    try:
        return built[match_key].winner
    except KeyError:
        return None


_TABLES = Mesa.__table__


_VERSION = select(
    Torneio.view_token,
    Torneio.revision,
    Torneio.clock,
    Torneio.minutes,
    select(func.count(_TABLES.c.id)).where(_TABLES.c.torneio_id == Torneio.id).scalar_subquery(),
    select(func.coalesce(func.sum(_TABLES.c.revision), 0))
    .where(_TABLES.c.torneio_id == Torneio.id)
    .scalar_subquery(),
).where(Torneio.view_token == bindparam("token"))


def version(token: str, now: datetime | None = None) -> str | None:
    """What changes whenever anything a torneio's TV shows changes: its revision, its
    tables' count and revisions' sum and, while a round's clock runs, the minutes it has left
    (so the countdown is redrawn each minute and the limit applied when it comes); None when
    no torneio has this TV token. One indexed read: the TV's unchanged poll is nothing more."""
    if not shaped(token):
        return None
    row = db.session.execute(_VERSION, {"token": token}).first()
    if row is None or not same(row.view_token, token):
        return None
    key = f"{row.revision}.{row[4]}.{row[5]}"
    started = row.clock or {}
    if clock.running(started):
        key += f".{_minutes_key(started, row.minutes, now or datetime.now(UTC))}"
    return key


def _minutes_key(started: dict[str, Any], minutes: int, now: datetime) -> str:
    """The minutes left of each running round, as the TV's poll compares them."""
    left = []
    for name in sorted(n for n in started if n.isdigit() and not clock.applied(started, int(n))):
        ends = clock.deadline(started, int(name), minutes)
        left.append(str(clock.minutes_left(ends, now) if ends else 0))
    return "-".join(left)


@dataclass(frozen=True)
class TableMatch:
    """What a torneio match's own board says of its torneio: the torneio's name, the mesa, the
    match's round, its súmula, when its round ends (aware, UTC; None before it started) and,
    once the match was decided off the board or called off, how (`closed`: WO, OVERRIDE, TIME,
    CANCELED; None while open) and to whom (`given_to`: the pair as pages name it, '?' when
    none is known). The board says it in words (web/mesa/present.py)."""

    name: str
    mesa: int
    mesa_token: str
    title: str
    lines: tuple[str, ...]
    ends: datetime | None
    closed: str | None = None
    given_to: str = "?"


def given_to(table: Mesa, jogo: Jogo | None) -> str:
    """The pair a closed match's table was given to, as pages name it ('?' when none is known,
    or the table is open: then nothing is read)."""
    if table.closed is None or jogo is None or jogo.decided is None:
        return "?"
    pair = db.session.get(Dupla, jogo.decided)
    return pair_label(pair) if pair is not None else "?"


def match_of_table(table: Mesa) -> TableMatch | None:
    """The torneio match a table is scored for (or was, once called off), None for an
    ordinary table."""
    if table.torneio_id is None:
        return None
    torneio = db.session.get(Torneio, table.torneio_id)
    try:
        mesa = mesa_of_table(table)
    except UnknownTorneio:
        return None
    if torneio is None:
        return None
    jogo = db.session.execute(select(Jogo).where(Jogo.mesa_id == table.id)).scalar_one_or_none()
    closed, given = table.closed, given_to(table, jogo)
    if jogo is None:  # called off: the mesa plays another match now
        return TableMatch(
            torneio.name, mesa.number, mesa.token, "Jogo cancelado", (), None, closed, given
        )
    lines = db.session.execute(
        select(Sumula.text)
        .where(Sumula.torneio_id == torneio.id, Sumula.key == jogo.key)
        .order_by(Sumula.id)
    ).scalars()
    rounds = bracket.rounds_for(len(torneio.slots or ()))
    title = round_title(jogo.key, rounds)
    ends = None
    if table.closed is None:
        ends = clock.deadline(torneio.clock or {}, round_of(torneio, jogo.key), torneio.minutes)
    return TableMatch(
        torneio.name, mesa.number, mesa.token, title, tuple(lines), ends, closed, given
    )


@dataclass(frozen=True)
class TableNews:
    """What a torneio match's board says of its mesa and torneio as it is scored: whether the
    organiser paused the mesa (no match is called to it after this one), and, on the final's
    board once the torneio has its champions, their name."""

    paused: bool
    champions: str | None


def table_news(table: Mesa, series_over: bool) -> TableNews | None:
    """The news of a torneio match's board; None for an ordinary table. The champions are read
    only on a finished final's board."""
    if table.torneio_id is None or table.torneio_mesa is None:
        return None
    mesa = db.session.get(TorneioMesa, (table.torneio_id, table.torneio_mesa))
    paused = bool(mesa and mesa.paused)
    champions = None
    torneio = db.session.get(Torneio, table.torneio_id)
    if series_over and torneio is not None and torneio.slots:
        final = bracket.key(bracket.rounds_for(len(torneio.slots)), 0)
        jogo = db.session.execute(select(Jogo).where(Jogo.mesa_id == table.id)).scalar_one_or_none()
        if jogo is not None and jogo.key == final:
            snap = snapshot(torneio)
            if snap.bracket is not None and snap.bracket.champion is not None:
                champions = snap.pair_name(snap.bracket.champion)
    return TableNews(paused, champions)


def round_title(match_key: str, rounds: int) -> str:
    """'Final', 'Semifinal', 'Quartas de final', 'Oitavas de final', 'Disputa do 3º lugar' or
    '1ª rodada' for a match key."""
    if match_key == bracket.THIRD:
        return "Disputa do 3º lugar"
    round_ = int(match_key.split("-")[0])
    left = rounds - round_
    names = {0: "Final", 1: "Semifinal", 2: "Quartas de final", 3: "Oitavas de final"}
    return names.get(left, f"{round_}ª rodada")


def round_of(torneio: Torneio, match_key: str) -> int:
    """The bracket round of a match (the 3rd place is played with the final)."""
    if match_key == bracket.THIRD:
        return bracket.rounds_for(len(torneio.slots or ()))
    return int(match_key.split("-")[0])
