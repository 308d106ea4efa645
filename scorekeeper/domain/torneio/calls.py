"""Calling matches to mesas: reading a torneio syncs it (the clock's limits that came applied,
every playable match called to a free mesa as a new Tento table, every call a reopened feeder
made stale taken back while its table is untouched). No Flask request here."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from ...extensions import db
from ...models import Jogo, Mesa, Torneio, utcnow
from ...rules import variant
from ..common.refusals import StaleRevision
from ..common.writes import new_token
from ..mesa.inputs import MAX_TEAM
from . import bracket
from .access import CLAIM_BY_ID
from .reading import CANCELED, Called, Snapshot, pair_label, snapshot
from .rounds import apply_clock, timed

# A table that another refers to: its rematch, or its copy in a turma.
_REFERRED = select(Mesa.id).where(
    (Mesa.previous_id == bindparam("mesa")) | (Mesa.copied_from_id == bindparam("mesa"))
)


def take_back(
    connection: Connection, jogo_id: int, mesa_id: int, revision: int, closed: str
) -> bool:
    """A call taken back with its table, only while the match is undecided and the table still
    at `revision` (checked in the statements that write): the table is deleted, or, when
    another row refers to it (a rematch, a copy in a turma), kept closed as `closed` and its
    revision moved on so that its phones learn it. False, with nothing written, when the match
    or its table moved on meanwhile (the caller's transaction is then rolled back)."""
    jogo = connection.execute(
        delete(Jogo.__table__).where(Jogo.id == jogo_id, Jogo.decided.is_(None))
    )
    if jogo.rowcount != 1:
        return False
    at = (Mesa.id == mesa_id, Mesa.revision == revision)
    if connection.execute(_REFERRED, {"mesa": mesa_id}).first() is None:
        return connection.execute(delete(Mesa.__table__).where(*at)).rowcount == 1
    kept = connection.execute(
        update(Mesa.__table__).where(*at).values(closed=closed, revision=Mesa.revision + 1)
    )
    return kept.rowcount == 1


def _table_settings(torneio: Torneio, snap: Snapshot, match: bracket.Match) -> dict[str, Any]:
    """The row of the Tento table a match is scored on: fresh tokens, the torneio's rule set
    (its cards, special hand and ferro as the rule set has them) and format, the pairs' names,
    seats alternating between the sides."""
    a, b = snap.pairs[match.a or 0], snap.pairs[match.b or 0]
    final = match.key == bracket.key(snap.bracket.rounds, 0) if snap.bracket else False
    seats: list[str] = []
    if torneio.players > 2:
        for first, second in zip(a.players, b.players, strict=False):
            seats += [str(first), str(second)]
    rules = variant(torneio.variante)
    cards = rules.ruleset()
    return {
        "edit_token": new_token(),
        "view_token": new_token(),
        "revision": 0,
        "created_at": utcnow(),
        "first_dealer": 0,
        "link_changes": 0,
        "variante": rules.code,
        "players": torneio.players,
        "best_of": torneio.final_best_of if final else torneio.best_of,
        "special_at": rules.special_at[0],
        "ferro_mode": rules.ferro_modes[0],
        "deck": cards.deck,
        "manilhas": cards.manilhas,
        "tie_opener": cards.tie_opener,
        "team_a": pair_label(a)[:MAX_TEAM],
        "team_b": pair_label(b)[:MAX_TEAM],
        "player_names": seats if len(seats) == torneio.players else [],
        "torneio_id": torneio.id,
        "torneio_mesa": None,  # set by the call
    }


def _changes(snap: Snapshot) -> tuple[list[Called], dict[str, int]]:
    """What a sync does: the calls to take back (see bracket.called_off; a table is touched
    once it has a tap or the organiser's word) and the new calls."""
    assert snap.bracket is not None
    made = {
        k: bracket.Call(
            c.jogo.mesa_number,
            c.jogo.pair_a,
            c.jogo.pair_b,
            not c.untouched,
        )
        for k, c in snap.called.items()
    }
    off = bracket.called_off(snap.bracket, made)
    kept = {k: call.mesa for k, call in made.items() if k not in off}
    paused = [m.number for m in snap.mesas if m.paused]
    return [snap.called[k] for k in off], bracket.calls(
        snap.bracket, kept, snap.torneio.mesas, paused
    )


class _TouchedMeanwhile(Exception):
    """A table a sync was taking back got a tap (or its match a word) since the sync read it."""


def sync(torneio: Torneio, now: datetime | None = None) -> Snapshot:
    """The torneio's snapshot once the clock's limits that came (by `now`) were applied, every
    playable match has been called to a free mesa (a new Tento table each) and every call made
    stale by a reopened feeder has been called off."""
    now = now or datetime.now(UTC)
    for _attempt in range(4):
        snap = snapshot(torneio)
        if snap.bracket is None:
            return snap
        due = timed(snap, now)
        off, new = ([], {}) if due else _changes(snap)
        if not due and not off and not new:
            return snap
        try:
            with db.engine.begin() as connection:
                claimed = connection.execute(
                    CLAIM_BY_ID, {"torneio": torneio.id, "revision": torneio.revision}
                ).first()
                if claimed is not None and due:
                    apply_clock(connection, snap, due, now)
                elif claimed is not None:
                    _apply_changes(connection, torneio, snap, off, new)
        except (StaleRevision, _TouchedMeanwhile):
            pass  # a table moved on under the limit, or under a call taken back: read again
        db.session.expire_all()
        torneio = db.session.get(Torneio, torneio.id) or torneio
    return snapshot(torneio)


def _apply_changes(
    connection: Connection,
    torneio: Torneio,
    snap: Snapshot,
    off: list[Called],
    new: dict[str, int],
) -> None:
    """Call off the stale matches (their untouched tables go too, or stay closed when another
    row refers to them: a write or a word that came since the sync read them drops the whole
    sync, never the write) and call the new ones."""
    for called in off:
        jogo, mesa = called.jogo, called.mesa
        if not take_back(connection, jogo.id, mesa.id, mesa.revision, CANCELED):
            raise _TouchedMeanwhile()
    assert snap.bracket is not None
    for match_key, number in new.items():
        match = snap.bracket[match_key]
        table = _table_settings(torneio, snap, match) | {"torneio_mesa": number}
        mesa_id = connection.execute(
            insert(Mesa.__table__).returning(Mesa.__table__.c.id), table
        ).scalar_one()
        connection.execute(
            insert(Jogo.__table__),
            {
                "torneio_id": torneio.id,
                "key": match_key,
                "mesa_number": number,
                "mesa_id": mesa_id,
                "pair_a": match.a,
                "pair_b": match.b,
                "called_at": utcnow(),
            },
        )
