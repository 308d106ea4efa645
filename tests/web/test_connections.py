"""PostgreSQL connections: no ping before use, and a server that closed every connection (a
restart, `pg_terminate_backend`) never turns the next tap, page or poll into a 500."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from scorekeeper import create_app
from scorekeeper.database import polls_engine
from scorekeeper.extensions import db

from ..pgserver import PgServer, free_port
from .helpers import HX, open_table, scores, view_token

pytestmark = pytest.mark.parametrize("app", ["postgresql"], indirect=True)
PINGS = (";", "SELECT 1")  # what SQLAlchemy's pre-ping sends with psycopg, and elsewhere


def close_every_connection(app: Flask) -> int:
    """Close every other connection to the test database from the server side and wait until
    their backends have exited, as a restart does; the app's pools keep them. How many closed."""
    outside = create_engine(app.config["SQLALCHEMY_DATABASE_URI"], poolclass=NullPool)
    with outside.connect() as connection:
        closed = connection.execute(
            text(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000))"
                " FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar_one()
    outside.dispose()
    return int(closed)


@contextmanager
def connections_made(app: Flask) -> Iterator[list[object]]:
    """The new connections both engines open while the with block runs."""
    made: list[object] = []

    def note(dbapi_connection: object, *_: object) -> None:
        made.append(dbapi_connection)

    with app.app_context():
        engines = [db.engine, polls_engine()]
    for engine in engines:
        event.listen(engine, "connect", note)
    try:
        yield made
    finally:
        for engine in engines:
            event.remove(engine, "connect", note)


def warm(client: FlaskClient, edit: str, view: str) -> None:
    """A page, a tap and polls: both pools hold open connections."""
    assert client.get(f"/m/{edit}").status_code == 200
    assert (
        client.post(
            f"/m/{edit}/marcar", data={"rev": "0", "o": "normal:0:1"}, headers=HX
        ).status_code
        == 200
    )
    assert client.get(f"/v/{view}/placar?rev=1", headers=HX).status_code == 204


def test_a_tap_and_a_board_page_right_after_the_server_closed_every_connection(
    app: Flask, client: FlaskClient
) -> None:
    """With no ping before use, the first requests after PostgreSQL closed every pooled
    connection still answer: the tap counts once, the board page and the polls show it."""
    edit = open_table(client)
    view = view_token(app, edit)
    warm(client, edit, view)
    assert close_every_connection(app) >= 2  # the app's pool and the polls' pool
    with connections_made(app) as made:
        tapped = client.post(f"/m/{edit}/marcar", data={"rev": "1", "o": "normal:1:3"}, headers=HX)
        assert tapped.status_code == 200, tapped.text[:300]
        page = client.get(f"/m/{edit}")
        assert page.status_code == 200 and scores(page.text) == (1, 3)
        assert client.get(f"/v/{view}/placar?rev=2", headers=HX).status_code == 204
        assert client.get(f"/v/{view}/placar?rev=1", headers=HX).status_code == 200
    assert made, "the closed connections were replaced by new ones"


def test_a_tap_and_a_board_page_right_after_postgresql_restarts(
    app: Flask, client: FlaskClient, pg_server: PgServer
) -> None:
    """A real restart (fast shutdown, start again) between two taps: no 500, nothing lost."""
    edit = open_table(client)
    view = view_token(app, edit)
    warm(client, edit, view)
    pg_server.restart()
    tapped = client.post(f"/m/{edit}/marcar", data={"rev": "1", "o": "normal:0:3"}, headers=HX)
    assert tapped.status_code == 200, tapped.text[:300]
    page = client.get(f"/m/{edit}")
    assert page.status_code == 200 and scores(page.text) == (4, 0)
    assert client.get(f"/v/{view}/placar?rev=2", headers=HX).status_code == 204


@contextmanager
def statements_sent(app: Flask) -> Iterator[list[str]]:
    """Every statement the app's engine sends through the driver while the with block runs, pings
    included (a connection's cursors note them from its first checkout on)."""
    sent: list[str] = []

    class Noting(psycopg.Cursor[Any]):
        """A psycopg cursor that notes what it executes."""

        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            """Note the statement, then run it."""
            sent.append(str(query))
            return super().execute(query, params, **options)

    def noting(dbapi_connection: Any, *_: object) -> None:
        dbapi_connection.cursor_factory = Noting

    with app.app_context():
        engine = db.engine
    event.listen(engine, "checkout", noting)
    try:
        yield sent
    finally:
        event.remove(engine, "checkout", noting)


def test_taps_and_pages_use_their_pooled_connection_with_no_ping(
    app: Flask, client: FlaskClient
) -> None:
    """A live pooled connection is used as it is: no new connection and no ping round trip before
    a tap or a board page (the check before use is a local poll of its socket)."""
    edit = open_table(client)
    view = view_token(app, edit)
    warm(client, edit, view)
    with connections_made(app) as made, statements_sent(app) as sent:
        for rev in range(1, 6):
            form = {"rev": str(rev), "o": "anulada"}
            assert client.post(f"/m/{edit}/marcar", data=form, headers=HX).status_code == 200
            assert client.get(f"/m/{edit}").status_code == 200
    assert made == []
    # each tap claims the revision and inserts its record, each page reads the table: 15 at least
    assert len(sent) >= 15 and not [s for s in sent if s.strip() in PINGS], sent


def test_a_tap_whose_connection_is_cut_in_flight_is_sent_again_once_and_counted_once(
    app: Flask, client: FlaskClient
) -> None:
    """The server closes the tap's connection while its write is in flight (as a restart does):
    the write is tried once more on a new connection, answered 200 and counted once."""
    edit = open_table(client)
    warm(client, edit, view_token(app, edit))
    cut: list[int] = []

    def cut_once(connection: Any, cursor: Any, statement: str, *_: object) -> None:
        """Before the first claim of a revision, close this connection from the server."""
        if not cut and statement.lstrip().upper().startswith("UPDATE MESA"):
            cut.append(connection.connection.dbapi_connection.info.backend_pid)
            outside = create_engine(app.config["SQLALCHEMY_DATABASE_URI"], poolclass=NullPool)
            with outside.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid, 10000)"), {"pid": cut[0]})
            outside.dispose()

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", cut_once)
    try:
        tapped = client.post(f"/m/{edit}/marcar", data={"rev": "1", "o": "normal:1:3"}, headers=HX)
    finally:
        event.remove(engine, "before_cursor_execute", cut_once)
    assert cut, "the write's connection was cut"
    assert tapped.status_code == 200 and scores(tapped.text) == (1, 3), tapped.text[:300]
    assert scores(client.get(f"/m/{edit}").text) == (1, 3)


def test_a_database_that_cannot_be_reached_is_a_portuguese_503_never_a_500(
    app: Flask, pg_server: PgServer
) -> None:
    """With the database server gone (a restart still under way), a page and a tap get a pt-BR
    503 with Retry-After, which the board's script retries; nothing is a 500."""
    url = app.config["SQLALCHEMY_DATABASE_URI"].replace(
        f":{pg_server.port}/", f":{free_port()}/"
    )
    down = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": url}).test_client()
    for response in (
        down.get("/m/" + "x" * 32),
        down.post("/m/" + "x" * 32 + "/marcar", data={"rev": "0", "o": "anulada"}, headers=HX),
    ):
        assert response.status_code == 503, response.text[:300]
        assert response.headers["Retry-After"] == "2"
        assert "Tente de novo em instantes" in response.text and 'lang="pt-BR"' in response.text
