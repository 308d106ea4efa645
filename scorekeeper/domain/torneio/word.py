"""The organiser's word on a called match: a W.O. or a result (final, closing the match's
table), taken back; a line in its súmula; a match called off; a mesa paused. Each a step on
the torneio's revision. No Flask request here."""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, select, update

from ...extensions import db
from ...models import Dupla, Jogo, Mesa, Sumula, TorneioMesa, utcnow
from ..common.refusals import InputError
from ..mesa.inputs import INT_LIMIT
from .access import claim, organiser_torneio, text_within
from .reading import CANCELED, OVERRIDE, WO, label, snapshot

MAX_NOTE = 200


def decide(token: str, revision: int, match_key: str, pair: int | None, how: str) -> None:
    """The organiser gives a called match to `pair` (a W.O. of the other, or an override of its
    table's result), or takes its word back (pair None). Its word is final. The pair is one of
    the match's pairs as the bracket has them now: after a feeder changed, no longer
    necessarily those its table was called with; the word counts while the bracket has those
    pairs there. The match is then over on its table at once (its writes refused, its revision
    moved on so that its phones learn it), and open again when the word is taken back."""
    if how not in (WO, OVERRIDE, "desfeito"):
        raise InputError("Essa decisão não existe.")
    snap = snapshot(organiser_torneio(token))
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        row = connection.execute(
            select(Jogo.__table__).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if row is None or snap.bracket is None:
            raise InputError("Esse jogo ainda não foi chamado para uma mesa.")
        match = snap.bracket[match_key]
        if pair is not None and (not match.playable or pair not in match.pairs):
            raise InputError("Essa dupla não joga esse jogo.")
        given = pair is not None
        connection.execute(
            update(Jogo.__table__)
            .where(Jogo.id == row.id)
            .values(
                decided=pair,
                decided_how=how if given else None,
                decided_a=match.a if given else None,
                decided_b=match.b if given else None,
            )
        )
        close_table(connection, row.mesa_id, how if given else None)
        write_line(connection, torneio_id, match_key, _decision_line(connection, pair, how))


def close_table(connection: Connection, mesa_id: int, closed: str | None) -> None:
    """A match's table closed (`closed`: why) or open again (None), its revision moved on so
    that its phones' next poll draws it."""
    connection.execute(
        update(Mesa.__table__)
        .where(Mesa.id == mesa_id)
        .values(closed=closed, revision=Mesa.revision + 1)
    )


DECISIONS = {
    WO: "W.O.: {win} {name} ({absent} não se apresentou)",
    OVERRIDE: "O organizador deu a vitória para {name}",
}


def _decision_line(connection: Connection, pair: int | None, how: str) -> str:
    """The súmula's line of an organiser's decision."""
    if pair is None:
        return "O organizador desfez a decisão: vale o placar da mesa"
    row = connection.execute(select(Dupla.name, Dupla.players).where(Dupla.id == pair)).one()
    alone = len(row.players) == 1
    return DECISIONS[how].format(
        name=label(row.name, row.players),
        win="vence" if alone else "vencem",
        absent="o outro jogador" if alone else "a outra dupla",
    )


def write_line(connection: Connection, torneio_id: int, match_key: str, text: str) -> None:
    """A line in a match's súmula."""
    values = {"torneio_id": torneio_id, "key": match_key, "created_at": utcnow(), "text": text}
    connection.execute(insert(Sumula.__table__), values)


def note(token: str, revision: int, match_key: str, text: str) -> None:
    """The organiser's line in a called match's súmula."""
    line = text_within(text, MAX_NOTE, "A anotação")
    if not line:
        raise InputError("Escreva a anotação da súmula.")
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        called = connection.execute(
            select(Jogo.id).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if called is None:
            raise InputError("Esse jogo ainda não foi chamado para uma mesa.")
        write_line(connection, torneio_id, match_key, f"Súmula: {line}")


def call_off(token: str, revision: int, match_key: str) -> None:
    """The organiser calls a match off its mesa (one the bracket no longer has, after a result
    before it was undone): its table is kept closed, its score saved but counting for nothing
    (its phones are sent to the mesa's match now), and the mesa is free for the match the
    bracket has now."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        row = connection.execute(
            select(Jogo.__table__).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if row is None:
            raise InputError("Esse jogo não está em nenhuma mesa.")
        connection.execute(delete(Jogo.__table__).where(Jogo.id == row.id))
        close_table(connection, row.mesa_id, CANCELED)
        line = (
            f"Jogo cancelado pelo organizador na mesa {row.mesa_number}:"
            " o placar fica guardado, mas não conta para a chave"
        )
        write_line(connection, torneio_id, match_key, line)


def set_paused(token: str, revision: int, number: int, paused: bool) -> None:
    """A mesa paused (no match is called to it) or back in play."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        if not 0 < number < INT_LIMIT:
            raise InputError("Essa mesa não existe no torneio.")
        done = connection.execute(
            update(TorneioMesa.__table__)
            .where(TorneioMesa.torneio_id == torneio_id, TorneioMesa.number == number)
            .values(paused=paused)
        )
        if done.rowcount != 1:
            raise InputError("Essa mesa não existe no torneio.")
        # the match playing there goes on; its phone's next poll says the mesa is paused
        connection.execute(
            update(Mesa.__table__)
            .where(
                Mesa.torneio_id == torneio_id,
                Mesa.torneio_mesa == number,
                Mesa.closed.is_(None),
            )
            .values(revision=Mesa.revision + 1)
        )
