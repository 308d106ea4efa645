"""A torneio found by its capability tokens (the organiser's, the TV's, a mesa's), and the
claim every organiser's step and every call makes: a compare-and-swap on the torneio's
revision. No Flask request here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, select

from ...extensions import db
from ...models import Mesa, Torneio, TorneioMesa
from ..common import writes
from ..common.refusals import InputError, StaleRevision, UnknownTable
from ..common.writes import claiming, find_holder, same, scorer_holder, shaped


class UnknownTorneio(UnknownTable):
    """No torneio (or mesa of one) has this token."""

    message = "Não achei esse torneio: confira o link."


class StaleTorneio(StaleRevision):
    """The organiser's page was drawn before another step: drawn again, nothing done."""

    message = "O torneio mudou enquanto você decidia: veja como está e faça de novo."


def find_torneio(token: str, *, edit: bool) -> Torneio | None:
    """The torneio whose organiser (or TV) token is `token`, compared in constant time."""
    return find_holder(Torneio, token, edit=edit)


def organiser_torneio(token: str) -> Torneio:
    """The torneio of an organiser token; ViewOnly for the TV's token, else UnknownTorneio."""
    return scorer_holder(Torneio, token, UnknownTorneio)


def viewer_torneio(token: str) -> Torneio:
    """The torneio of a TV token (the organiser's token reads it too)."""
    found = find_torneio(token, edit=False) or find_torneio(token, edit=True)
    if found is None:
        raise UnknownTorneio()
    return found


def mesa_by_token(token: str) -> TorneioMesa:
    """The numbered mesa whose scorer link carries `token`."""
    found = None
    if shaped(token):
        query = select(TorneioMesa).where(TorneioMesa.token == token)
        found = db.session.execute(query).scalar_one_or_none()
    if found is None or not same(found.token, token):
        raise UnknownTorneio()
    return found


def torneio_by_id(torneio_id: int) -> Torneio:
    """The torneio with this id (a mesa's link found it)."""
    found = db.session.get(Torneio, torneio_id)
    if found is None:
        raise UnknownTorneio()
    return found


def mesa_of_table(table: Mesa) -> TorneioMesa:
    """The numbered mesa a torneio match's table was called to (also once it was called
    off)."""
    row = None
    if table.torneio_id is not None and table.torneio_mesa is not None:
        row = db.session.get(TorneioMesa, (table.torneio_id, table.torneio_mesa))
    if row is None:
        raise UnknownTorneio()
    return row


def text_within(value: Any, limit: int, what: str) -> str:
    """A trimmed name of at most `limit` characters, or a pt-BR refusal."""
    text = " ".join(str(value or "").split())
    if len(text) > limit:
        raise InputError(f"{what} muito longo: no máximo {limit} caracteres.")
    return text


_TORNEIOS = Torneio.__table__


# The claim on the torneio's revision, by the organiser's token or (a step the server takes
# by itself, e.g. the clock's limit) by the torneio's id.
_ID = (_TORNEIOS.c.id,)
_CLAIM = claiming(_TORNEIOS, _TORNEIOS.c.edit_token == bindparam("token"), returning=_ID)
CLAIM_BY_ID = claiming(_TORNEIOS, _TORNEIOS.c.id == bindparam("torneio"), returning=_ID)


def claim(connection: Connection, token: str, revision: int) -> int:
    """Take the torneio's next revision for an organiser's step, or StaleTorneio (a token that
    could be none is refused before any statement)."""
    if not shaped(token):
        raise UnknownTorneio()
    row = writes.claim(connection, _CLAIM, revision, token=token)
    if row is None:
        organiser_torneio(token)  # the link itself is wrong: 404
        raise StaleTorneio()
    return int(row.id)


def torneio_row(connection: Connection, torneio_id: int) -> Any:
    """The torneio's row as it is inside this transaction."""
    return connection.execute(select(Torneio.__table__).where(Torneio.id == torneio_id)).one()
