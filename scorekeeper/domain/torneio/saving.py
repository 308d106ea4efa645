"""A pair's torneio matches saved in its turma: each finished match's table copied, with every
record, as an ordinary table of the turma (its statistics count it). Once per turma: the copy
keeps the table it came from (`mesa.copied_from_id`, unique in a turma), so saving twice, or
from two phones at once, copies once. No Flask request here."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import Dupla, HandRecord, Jogo, Mesa, Torneio, Turma
from ..common.refusals import InputError
from ..common.writes import new_token
from ..mesa import load_board
from ..turma.turmas import NOT_FOUND, VIEW_LINK, find_turma, new_turma_values, token_in_link
from .access import UnknownTorneio, find_torneio
from .reading import pair_label

_MESAS, _RECORDS, _TURMAS = Mesa.__table__, HandRecord.__table__, Turma.__table__
NOTHING = "Essa dupla ainda não terminou nenhum jogo com placar para salvar."
# What a copy does not keep: ids, tokens, its place in the torneio (it is an ordinary table).
LEFT_OUT = (
    "id", "edit_token", "view_token", "turma_id", "previous_id", "torneio_id", "torneio_mesa",
    "closed",
)  # fmt: skip


@dataclass(frozen=True)
class PairMatches:
    """A pair of a torneio and the tables of its matches played to the end."""

    torneio: Torneio
    pair: int
    name: str
    tables: tuple[Mesa, ...]


def pairs(view_token: str) -> tuple[Torneio, list[tuple[int, str]]]:
    """A torneio (by its TV's link) and its pairs' ids and names."""
    torneio = find_torneio(view_token, edit=False)
    if torneio is None:
        raise UnknownTorneio()
    found = db.session.execute(
        select(Dupla).where(Dupla.torneio_id == torneio.id).order_by(Dupla.id)
    ).scalars()
    return torneio, [(p.id, pair_label(p)) for p in found]


def pair_matches(view_token: str, pair: int) -> PairMatches:
    """The finished matches a pair played, read from the TV's link (refused for another)."""
    torneio = find_torneio(view_token, edit=False)
    if torneio is None:
        raise UnknownTorneio()
    rows = db.session.execute(
        select(Jogo, Mesa)
        .join(Mesa, Mesa.id == Jogo.mesa_id)
        .where(Jogo.torneio_id == torneio.id, (Jogo.pair_a == pair) | (Jogo.pair_b == pair))
        .order_by(Jogo.called_at, Jogo.id)
    ).all()
    found = db.session.get(Dupla, pair)
    if found is None or found.torneio_id != torneio.id:
        raise UnknownTorneio()
    tables = tuple(mesa for _jogo, mesa in rows if load_board(mesa).state.series_winner is not None)
    return PairMatches(torneio, pair, pair_label(found), tables)


def _turma(link: str, name: str) -> tuple[Turma | None, dict[str, object] | None]:
    """The turma of a pasted scorer link, or the values of a new one named `name`."""
    if link.strip():
        token = token_in_link(link)
        turma = find_turma(token, edit=True)
        if turma is None:
            raise InputError(VIEW_LINK if find_turma(token, edit=False) else NOT_FOUND)
        return turma, None
    return None, new_turma_values(name)


def _copy(connection: Connection, source: Mesa, turma_id: int) -> None:
    """The table copied into the turma with every record (ids and tokens new)."""
    row = connection.execute(select(_MESAS).where(_MESAS.c.id == source.id)).one()._asdict()
    values = {k: v for k, v in row.items() if k not in LEFT_OUT}
    values |= {
        "edit_token": new_token(),
        "view_token": new_token(),
        "turma_id": turma_id,
        "copied_from_id": source.id,
    }
    copy_id = connection.execute(insert(_MESAS).returning(_MESAS.c.id), values).scalar_one()
    records = connection.execute(
        select(_RECORDS).where(_RECORDS.c.mesa_id == source.id).order_by(_RECORDS.c.seq)
    ).all()
    copied = [{**r._asdict(), "mesa_id": copy_id} for r in records]
    for record in copied:
        del record["id"]
    if copied:
        connection.execute(insert(_RECORDS), copied)


def save_in_turma(view_token: str, pair: int, link: str, name: str) -> Turma:
    """The pair's finished matches copied into the turma of a pasted scorer link (or a new
    turma named `name`): each once, however often it is asked."""
    found = pair_matches(view_token, pair)
    if not found.tables:
        raise InputError(NOTHING)
    turma, new = _turma(link, name)
    with db.engine.begin() as connection:
        if turma is None:
            assert new is not None
            turma_id = connection.execute(insert(_TURMAS).returning(_TURMAS.c.id), new).scalar_one()
        else:
            turma_id = turma.id
        have = set(
            connection.execute(
                select(_MESAS.c.copied_from_id).where(_MESAS.c.turma_id == turma_id)
            ).scalars()
        )
        for table in found.tables:
            if table.id not in have:
                try:
                    with connection.begin_nested():
                        _copy(connection, table, turma_id)
                except IntegrityError:  # another phone copied it meanwhile
                    continue
        connection.execute(
            update(_TURMAS).where(_TURMAS.c.id == turma_id).values(revision=_TURMAS.c.revision + 1)
        )
    saved = db.session.get(Turma, turma_id)
    assert saved is not None
    db.session.refresh(saved)
    return saved
