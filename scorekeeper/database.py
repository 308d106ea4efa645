"""The database server's connections (PostgreSQL): a second engine for the live polls' one read,
and connections the server closed (a restart, an idle timeout) replaced before a request uses
them. SQLite needs neither."""

from __future__ import annotations

import select
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError

from .extensions import db

POLLS = "tento.polls"


def init_engines(app: Flask) -> None:
    """On a database server: a second engine for the polls' read (`current_revision`), and on
    both engines a connection the server closed is replaced when it is checked out.

    The polls engine's connections stay in autocommit and are not reset on return: a poll costs
    one round trip. No engine pings before use (a round trip per request); a restart of the
    server costs no request its connection (see `replace_closed_connections`; a write in flight is
    sent once more, see domain.common.writes.once_more_if_disconnected). SQLite has no
    round trips to save and no connection to lose: polls read on the main engine.
    """
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite"):
        app.extensions[POLLS] = None
        return
    polls = create_engine(url, isolation_level="AUTOCOMMIT", pool_reset_on_return=None)
    app.extensions[POLLS] = polls
    with app.app_context():
        replace_closed_connections(db.engine)
    replace_closed_connections(polls)


def replace_closed_connections(engine: Engine) -> None:
    """On each checkout from `engine`'s pool, make sure the server has not closed the connection
    (a restart, `pg_terminate_backend`, an idle timeout) before a request uses it.

    An idle connection's socket has nothing to read: one non-blocking poll(2) says so, with no
    round trip. Something to read means the server said goodbye (its farewell message, or the end
    of the stream); a ping then tells a dead connection, which the pool replaces by a new one
    (SQLAlchemy's DisconnectionError on checkout), from a live one that got a notice.
    """
    dialect = engine.dialect

    def check(dbapi_connection: Any, *_: object) -> None:
        """Raise DisconnectionError for a connection the server closed."""
        try:
            if quiet(dbapi_connection) or dialect.do_ping(dbapi_connection):
                return
        except dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(str(error)) from error

    event.listen(engine, "checkout", check)


def quiet(dbapi_connection: Any) -> bool:
    """True when a driver connection is open and its socket has nothing to read (poll(2) with
    no wait); the driver's error when it knows the connection is lost."""
    if dbapi_connection.closed:
        return False
    waiting = select.poll()
    waiting.register(dbapi_connection.fileno(), select.POLLIN)
    return not waiting.poll(0)


def polls_engine() -> Engine | None:
    """The current app's polls engine (None on SQLite)."""
    engine: Engine | None = current_app.extensions.get(POLLS)
    return engine
