"""A bracket round's clock as the organiser runs it: started, taken back, and at its limit the
rule chosen applied once to every match still playing (the clock's arithmetic is pure, in
clock.py). No Flask request here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, func, select, update

from ...extensions import db
from ...models import ACTIVE, HandRecord, Jogo, Mesa, Torneio
from ...rules import Kind, Outcome, Phase
from ..common.refusals import InputError
from ..mesa.service import append_on
from . import clock
from .access import claim, organiser_torneio, torneio_row
from .reading import TIME, Called, Snapshot, round_of, snapshot
from .word import close_table


def start_round(token: str, revision: int, round_: int, now: datetime | None = None) -> None:
    """The organiser starts a bracket round's clock: its matches have the torneio's minutes
    from now. Refused when it already started or no match of it is ready to play."""
    snap = snapshot(organiser_torneio(token))
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        started = dict(torneio_row(connection, torneio_id).clock or {})
        if snap.bracket is None:
            raise InputError("Sorteie a chave antes de começar uma rodada.")
        if not 1 <= round_ <= snap.bracket.rounds:
            raise InputError("Essa rodada não existe na chave.")
        if clock.started(started, round_) is not None:
            raise InputError("O tempo dessa rodada já começou.")
        ready = [
            m for m in snap.bracket.matches if m.round == round_ and m.playable and m.winner is None
        ]
        if not ready:
            raise InputError(
                "Nenhum jogo dessa rodada está pronto: espere as duplas da rodada anterior."
            )
        started[str(round_)] = clock.stamp(now or datetime.now(UTC))
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(clock=started)
        )


def undo_start(token: str, revision: int, round_: int) -> None:
    """A round's clock taken back while its limit has not come (started by mistake)."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        started = dict(torneio_row(connection, torneio_id).clock or {})
        if clock.started(started, round_) is None:
            raise InputError("O tempo dessa rodada não começou.")
        if clock.applied(started, round_):
            raise InputError("O tempo dessa rodada já acabou e foi aplicado: não dá para desfazer.")
        del started[str(round_)]
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(clock=started)
        )


@dataclass(frozen=True)
class Timed:
    """What the clock does on a read: the rounds whose limit comes now (each with its matches
    still playing), the matches whose next game is put at 11 x 11, and the matches the next
    hand after the limit decided (match key -> pair)."""

    due: Mapping[int, tuple[Called, ...]]
    fresh: tuple[Called, ...]
    decided: Mapping[str, int]

    def __bool__(self) -> bool:
        """True when there is something to write."""
        return bool(self.due or self.fresh or self.decided)


def timed(snap: Snapshot, now: datetime) -> Timed:
    """What the clock has to write now on this torneio (nothing, mostly: no read then)."""
    torneio = snap.torneio
    started = torneio.clock or {}
    if not started:
        return Timed({}, (), {})
    assert snap.bracket is not None
    # the matches still played on their tables between the bracket's pairs: a closed table
    # takes no more writes, a stale one decides nothing (the organiser calls it off)
    playing = {
        k: c
        for k, c in snap.called.items()
        if c.winner is None and c.mesa.closed is None and not c.stale(snap.bracket[k])
    }
    due = {
        r: tuple(c for k, c in playing.items() if round_of(torneio, k) == r)
        for r in clock.due(started, torneio.minutes, now)
    }
    limited = [
        playing[k]
        for name, keys in started.items()
        if name.endswith(clock.APPLIED)
        for k in keys.split()
        if k in playing
    ]
    fresh: list[Called] = []
    decided: dict[str, int] = {}
    for called in limited:
        state = called.state
        if torneio.at_limit == clock.ONZE and state is not None:
            if state.phase is Phase.NORMAL and state.points == (0, 0):
                fresh.append(called)
        elif torneio.at_limit != clock.ONZE:
            side = _next_hand_side(called.mesa)
            if side is not None:
                decided[called.jogo.key] = (called.jogo.pair_a, called.jogo.pair_b)[side]
    return Timed(due, tuple(fresh), decided)


_RECORDS = HandRecord.__table__


def _next_hand_side(table: Mesa) -> int | None:
    """The side that won the first hand after the table's 'next hand decides' line, if any."""
    where = (_RECORDS.c.mesa_id == table.id, _RECORDS.c.status == ACTIVE)
    note = (
        select(func.min(_RECORDS.c.seq))
        .where(*where, _RECORDS.c.reason.in_(clock.NEXT_HAND_NOTES))
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(_RECORDS.c.kind, _RECORDS.c.side, _RECORDS.c.points)
        .where(*where, _RECORDS.c.seq > note)
        .order_by(_RECORDS.c.seq)
        .limit(50)
    )
    return clock.next_hand_winner(Outcome(Kind(r.kind), r.side, r.points) for r in rows)


def apply_clock(connection: Connection, snap: Snapshot, timed: Timed, now: datetime) -> None:
    """Write what the clock does, on the torneio's claimed revision: each due round marked
    applied with the matches it met, each of them its rule and a line in its table's log;
    the next games of 'onze' matches at 11 x 11; the matches the next hand decided."""
    torneio = snap.torneio
    started = dict(torneio.clock or {})
    for round_, matches in timed.due.items():
        started[f"{round_}{clock.APPLIED}"] = " ".join(c.jogo.key for c in matches)
        for called in matches:
            _limit(connection, torneio, called)
    for name in [n for n in started if n.endswith(clock.APPLIED)]:
        # a match the next hand decided leaves the mark: the organiser may take it back
        kept = [k for k in started[name].split() if k not in timed.decided]
        started[name] = " ".join(kept)
    connection.execute(
        update(Torneio.__table__).where(Torneio.id == torneio.id).values(clock=started)
    )
    for called in timed.fresh:
        special_at = called.mesa.special_at
        score = clock.onze_score((0, 0), special_at)
        corrections = [Outcome(Kind.CORRECAO, side, score[side]) for side in (0, 1)]
        append_on(
            connection,
            called.mesa.edit_token,
            called.mesa.revision,
            corrections,
            clock.onze_reason(special_at),
        )
    for match_key, pair in timed.decided.items():
        _give(connection, snap.called[match_key].jogo, pair)


def _limit(connection: Connection, torneio: Torneio, called: Called) -> None:
    """The rule at the limit applied to one match still playing, written in its table's log
    (a game over first moves on to the next, where the rule applies)."""
    state = called.state
    assert state is not None
    outcomes: list[Outcome] = []
    points = state.points
    if state.phase is Phase.GAME_OVER:
        outcomes.append(Outcome(Kind.PROXIMA_PARTIDA))
        points = (0, 0)
    table = called.mesa
    action = clock.at_limit(
        torneio.at_limit, state.wins, points, table.special_at, table.team_names
    )
    target = action.score or points
    corrections = [
        Outcome(Kind.CORRECAO, side, target[side])
        for side in (0, 1)
        if target[side] != points[side]
    ]
    outcomes += corrections or [Outcome(Kind.CORRECAO, 0, points[0])]  # the line alone
    append_on(connection, table.edit_token, table.revision, outcomes, action.reason)
    if action.winner is not None:
        _give(connection, called.jogo, (called.jogo.pair_a, called.jogo.pair_b)[action.winner])


def _give(connection: Connection, jogo: Jogo, pair: int) -> None:
    """A match given to a pair by the clock (between the pairs its table was called with), and
    over on its table."""
    connection.execute(
        update(Jogo.__table__)
        .where(Jogo.id == jogo.id)
        .values(decided=pair, decided_how=TIME, decided_a=jogo.pair_a, decided_b=jogo.pair_b)
    )
    close_table(connection, jogo.mesa_id, TIME)
