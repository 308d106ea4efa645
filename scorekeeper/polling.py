"""The fast path of polling: an unchanged board answers 204 after one indexed read of the revision.

The board's and the live view's poll routes (`/m/<token>/placar`, `/v/<token>/placar`) answer
204 when `rev` is still the table's revision. That is most of the traffic (every phone polls every
2 s), so this before-request hook answers it with a single-column read, without loading the table,
the session's ORM objects or the view; every other case (a change, an unknown or tampered token, a
viewer token on the scorer's route) falls through to the view, which stays the reference.
"""

from __future__ import annotations

import hmac

from flask import Flask, Response, request
from sqlalchemy import Connection, bindparam, select

from .extensions import db
from .models import Mesa

POLLS = {
    endpoint: select(Mesa.revision, column).where(column == bindparam("token"))
    for endpoint, column in (
        ("tables.board_fragment", Mesa.edit_token),
        ("share.live_fragment", Mesa.view_token),
    )
}
MAX_TOKEN = 64


def _connect() -> Connection:
    """A pooled connection, with no ORM session: nothing to load or expire. On a database server
    it reads in autocommit, so the one SELECT is one round trip (no BEGIN, no ROLLBACK)."""
    connection = db.engine.connect()
    if connection.dialect.name != "sqlite":  # pysqlite pays for switching, and gains nothing
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
    return connection


def _unchanged_poll() -> Response | None:
    """204 for a poll whose revision is current, else None (the view answers)."""
    statement = POLLS.get(request.endpoint or "")
    if statement is None:
        return None
    token = str((request.view_args or {}).get("token", ""))
    rev = request.args.get("rev")
    if rev is None or not token or len(token) > MAX_TOKEN:
        return None
    with _connect() as connection:
        row = connection.execute(statement, {"token": token}).first()
    if row is None or not hmac.compare_digest(str(row[1]).encode(), token.encode()):
        return None
    if rev != str(row[0]):
        return None
    return Response(status=204)


def init_app(app: Flask) -> None:
    """Answer unchanged polls before the views (registered first, so it runs first)."""
    app.before_request_funcs.setdefault(None, []).insert(0, _unchanged_poll)
