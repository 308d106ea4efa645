"""Shared fixtures: an app on a throw-away database (SQLite and PostgreSQL) and its client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.database import polls_engine
from scorekeeper.extensions import db

from . import processes
from .pgserver import PACKAGE, PgServer

DATABASES = ["sqlite", "postgresql"]


@pytest.hookimpl(trylast=True)  # after pytest's own teardown of the session's fixtures
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The last line of defence: stop every server, worker and database a test started and its
    teardown left running, so that no process of the run outlives it. A passing run that left
    one fails: every test stops what it starts."""
    left = processes.stop_everything()
    if left:
        print("\nleft running by the tests, now stopped:", *left, sep="\n  ", file=sys.stderr)
        if exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throw-away PostgreSQL server for the whole run; stopped at the end, whatever happens."""
    server = PgServer.create()
    if server is None:
        require_program("initdb", PACKAGE)
    assert server is not None
    try:
        server.start()
    except Exception as error:  # not root and no postgres user, a busy port, ...
        server.stop()
        fail_or_skip(f"PostgreSQL could not start ({error}): the tests on it need {PACKAGE}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_url(pg_server: PgServer) -> str:
    """The URL of the throw-away PostgreSQL database, with the schema."""
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": pg_server.url})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return pg_server.url


def empty_tables(url: str) -> None:
    """Empty every table of a PostgreSQL database and restart its ids."""
    engine = create_engine(url)
    names = ", ".join(table.name for table in db.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()


def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL for the fixture's database parameter: a new SQLite file or the emptied PostgreSQL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        empty_tables(url)
        return url
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """A fresh app on each database, CSRF checks off (see test_csrf) and no rate limit."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url(request, tmp_path),
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    if request.param == "sqlite":
        with app.app_context():
            db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()
        polls = polls_engine()
        if polls is not None:
            polls.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


def require_program(program: str, package: str) -> str:
    """The path of an outside program a test needs; skip naming its package, fail under CI=true."""
    import shutil

    path = shutil.which(program)
    if path:
        return path
    fail_or_skip(
        f"{program} not found: install the Debian package {package} (make test does, as root)"
    )
    raise AssertionError("unreachable")


def fail_or_skip(message: str) -> None:
    """Skip a test that lacks an outside program; with CI=true such a skip is a failure."""
    import os

    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)
