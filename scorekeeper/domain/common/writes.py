"""The write machinery of every family of the domain (a table, a turma, a torneio), in one
place: the capability tokens and their lookup, the claim every write starts with (a
compare-and-swap on a revision), and the tables' client-id journal (each applied write's id and
fingerprint, so a retry is applied once). No Flask request here."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection, Select, Table, bindparam, insert, select, update
from sqlalchemy.exc import DBAPIError

from ...extensions import db
from ...models import Mesa, MesaWrite, Torneio, Turma
from .refusals import AlreadyApplied, BadLink, ReusedClientId, ViewOnly

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe gives, and old ones


def new_token() -> str:
    """An unguessable capability token (192 bits from `secrets`)."""
    return secrets.token_urlsafe(24)


def shaped(token: str) -> bool:
    """True when `token` could be a capability token (what never can is not looked up)."""
    return bool(TOKEN_SHAPE.fullmatch(token))


def same(stored: str, token: str) -> bool:
    """Constant-time comparison of a stored token with a given one."""
    return hmac.compare_digest(stored.encode(), token.encode())


Holder = TypeVar("Holder", Mesa, Turma, Torneio)

_HOLDER_BY: dict[tuple[type[Any], bool], Select[Any]] = {
    (model, edit): select(model).where(
        (model.edit_token if edit else model.view_token) == bindparam("token")
    )
    for model in (Mesa, Turma, Torneio)
    for edit in (True, False)
}


def find_holder(model: type[Holder], token: str, *, edit: bool) -> Holder | None:
    """The row of `model` (a table, a turma, a torneio) whose edit (or view) token is `token`,
    compared in constant time; None for a token nothing holds or that could be none."""
    if not shaped(token):
        return None
    query = _HOLDER_BY[model, edit]
    found: Holder | None = db.session.execute(query, {"token": token}).scalar_one_or_none()
    if found is None:
        return None
    return found if same(found.edit_token if edit else found.view_token, token) else None


def scorer_holder(model: type[Holder], token: str, unknown: type[BadLink]) -> Holder:
    """The row of `model` a scorer's (an organiser's) token reaches; ViewOnly for its viewer
    token, else `unknown`."""
    found = find_holder(model, token, edit=True)
    if found is None:
        raise ViewOnly() if find_holder(model, token, edit=False) is not None else unknown()
    return found


def viewer_holder(model: type[Holder], token: str, unknown: type[BadLink]) -> Holder:
    """The row of `model` a viewer's token reaches, else `unknown`."""
    found = find_holder(model, token, edit=False)
    if found is None:
        raise unknown()
    return found


def claiming(table: Table, *which: Any, returning: Sequence[Any], **values: Any) -> Any:
    """The claim: the statement that takes the next revision of the row of `table` that `which`
    names (setting `values` with it), only from the revision given (bound as `revision`),
    returning `returning`. It finds the row and takes its write lock before anything is read;
    no row means a stale revision or no such row (or one `which` keeps out)."""
    return (
        update(table)
        .where(*which, table.c.revision == bindparam("revision"))
        .values(revision=table.c.revision + 1, **values)
        .returning(*returning)
    )


def claim(connection: Connection, statement: Any, revision: int, **values: Any) -> Any:
    """Run a claim (`claiming`) from `revision` on this transaction: the row claimed, or None
    (a stale revision or no such row: the caller tells them apart)."""
    return connection.execute(statement, {"revision": revision, **values}).first()


# --- the client-id journal -------------------------------------------------------------------

_JOURNAL = insert(MesaWrite.__table__)
_APPLIED = (
    select(MesaWrite.record_id, MesaWrite.fingerprint)
    .join(Mesa, Mesa.id == MesaWrite.mesa_id)
    .where(Mesa.edit_token == bindparam("token"), MesaWrite.client_id == bindparam("client"))
)

Call = TypeVar("Call")


def fingerprint(*what: object) -> str:
    """What a write was (its route and arguments) as the journal keeps it: a SHA-256 in hex."""
    return hashlib.sha256(repr(what).encode()).hexdigest()


def once_more_if_disconnected(call: Callable[[], Call]) -> Call:
    """`call()`, and once more when the database connection was lost under it (a server
    restart): a write may be sent twice, since the revision it claims and the client-id journal
    apply it once whatever happened to the first attempt."""
    try:
        return call()
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
    return call()


def journal(
    connection: Connection, mesa_id: int, client_id: str, revision: int, record_id: int, what: str
) -> None:
    """Journal an applied write of a table in its own transaction: its client id, the revision
    it made, the record it touched and its fingerprint `what`."""
    row = {
        "mesa_id": mesa_id,
        "client_id": client_id,
        "revision": revision,
        "record_id": record_id,
        "fingerprint": what,
    }
    connection.execute(_JOURNAL, row)


def check_journal(token: str, client_id: str, what: str) -> None:
    """AlreadyApplied when the table with this edit token journaled this write under
    `client_id`, ReusedClientId when it journaled another write under it; nothing when it
    never saw the id."""
    with db.engine.connect() as connection:
        found = connection.execute(_APPLIED, {"token": token, "client": client_id}).first()
    if found is None:
        return
    if found.fingerprint is not None and found.fingerprint != what:
        raise ReusedClientId()
    raise AlreadyApplied(int(found.record_id))
