"""A torneio found by its capability tokens (the organiser's, the TV's, a mesa's), and the
claim every organiser's step and every call makes: a compare-and-swap on the torneio's
revision. No Flask request here."""

from __future__ import annotations

import hmac
from typing import Any

from sqlalchemy import Connection, bindparam, select, update

from ...extensions import db
from ...models import Mesa, Torneio, TorneioMesa
from ...rules import RulesError
from ..mesa.refusals import StaleRevision, UnknownTable, ViewOnly
from ..mesa.service import TOKEN_SHAPE, find_holder


class UnknownTorneio(UnknownTable):
    """No torneio (or mesa of one) has this token."""

    message = "Não achei esse torneio: confira o link."


class StaleTorneio(StaleRevision):
    """The organiser's page was drawn before another step: drawn again, nothing done."""

    message = "O torneio mudou enquanto você decidia: veja como está e faça de novo."


def shaped(token: str) -> bool:
    """True when `token` could be a capability token."""
    return bool(TOKEN_SHAPE.fullmatch(token))


def same(stored: str, token: str) -> bool:
    """Constant-time comparison of a stored token with a given one."""
    return hmac.compare_digest(stored.encode(), token.encode())


def find_torneio(token: str, *, edit: bool) -> Torneio | None:
    """The torneio whose organiser (or TV) token is `token`, compared in constant time."""
    return find_holder(Torneio, token, edit=edit)


def organiser_torneio(token: str) -> Torneio:
    """The torneio of an organiser token; ViewOnly for the TV's token, else UnknownTorneio."""
    found = find_torneio(token, edit=True)
    if found is None:
        raise ViewOnly() if find_torneio(token, edit=False) is not None else UnknownTorneio()
    return found


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
        raise RulesError(f"{what} muito longo: no máximo {limit} caracteres.")
    return text


_TORNEIOS = Torneio.__table__


def _claiming(which: Any) -> Any:
    """The statement that takes the next revision of the torneio `which` names, only from the
    revision given, returning its id (no row: a stale revision or no such torneio)."""
    return (
        update(_TORNEIOS)
        .where(which, _TORNEIOS.c.revision == bindparam("revision"))
        .values(revision=_TORNEIOS.c.revision + 1)
        .returning(_TORNEIOS.c.id)
    )


_CLAIM = _claiming(_TORNEIOS.c.edit_token == bindparam("token"))


CLAIM_BY_ID = _claiming(_TORNEIOS.c.id == bindparam("torneio"))


def claim(connection: Connection, token: str, revision: int) -> int:
    """Take the torneio's next revision for an organiser's step, or StaleTorneio (a token that
    could be none is refused before any statement)."""
    if not shaped(token):
        raise UnknownTorneio()
    row = connection.execute(_CLAIM, {"token": token, "revision": revision}).first()
    if row is None:
        organiser_torneio(token)  # the link itself is wrong: 404
        raise StaleTorneio()
    return int(row.id)


def torneio_row(connection: Connection, torneio_id: int) -> Any:
    """The torneio's row as it is inside this transaction."""
    return connection.execute(select(Torneio.__table__).where(Torneio.id == torneio_id)).one()
