"""Shared fixtures: an app on a throw-away database (SQLite and PostgreSQL) and its client; the
tiers' markers, set here by folder and database (see tests/README.md); the Hypothesis profile."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket
from sqlalchemy import create_engine, text
from werkzeug.routing import Rule

from scorekeeper import create_app
from scorekeeper.database import polls_engine
from scorekeeper.extensions import db

from . import processes, profiles
from .pgserver import PACKAGE, PgServer

DATABASES = ["sqlite", "postgresql"]
TESTS = Path(__file__).resolve().parent
# What starts real servers, subprocesses of its own or a build (seconds a test), or walks every
# route with hostile values (a minute), by path under tests/; tests/browser/ is marked `browser`
# instead, tests/stack/ (a browser on the hosted stack) both.
SLOW = (
    "faults", "stack", "test_serve.py", "test_cleanup.py", "test_package.py", "test_migrations.py",
    "test_hostile_routes.py",
)  # fmt: skip
BROWSER = ("browser", "stack")
# Files whose module-scoped fixture is expensive (a waitress server, a wheel): under xdist their
# tests stay on one worker, so that the fixture is made once.
ONE_WORKER = ("test_serve.py", "test_package.py", "test_https_stack.py")
DATABASE_PARAMETERS = ("app", "database_url")  # fixtures parametrized over DATABASES

profiles.load()  # before any test module makes its hypothesis settings


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates, kept in memory for the whole run and shared by every app the
    tests make: each test's app has an environment of its own, which would otherwise compile
    every template it renders again (most of a web test's time). A template whose source
    changed is compiled again (Jinja checks its checksum)."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill the bucket with the code compiled before, if any."""
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a template's newly compiled code."""
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()
_create_jinja_environment = Flask.create_jinja_environment


def _sharing_compiled_templates(app: Flask) -> Environment:
    """Flask's environment, sharing the run's compiled templates."""
    environment = _create_jinja_environment(app)
    environment.bytecode_cache = COMPILED_TEMPLATES
    return environment


Flask.create_jinja_environment = _sharing_compiled_templates  # type: ignore[method-assign]

URL_BUILDERS: dict[str, Callable[..., tuple[str, str]]] = {}  # rule shape -> builder
_compile_builder = Rule._compile_builder


Builder = Callable[..., tuple[str, str]]


def _sharing_url_builders(rule: Rule, append_unknown: bool = True) -> Builder:
    """Werkzeug's URL builder of a rule, compiled once for the run: every test's app compiles
    each of its ~90 rules' builders again (most of making an app). A builder is a function of
    the rule's parsed parts, defaults and converter types alone; each rule binds it to itself."""
    converters = sorted((name, type(c).__qualname__) for name, c in rule._converters.items())
    key = repr((rule._trace, sorted((rule.defaults or {}).items()), converters, append_unknown))
    if key not in URL_BUILDERS:
        URL_BUILDERS[key] = _compile_builder(rule, append_unknown)
    return URL_BUILDERS[key]


Rule._compile_builder = _sharing_url_builders  # type: ignore[method-assign]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test for its tier, so that no test file needs to: `browser` under the
    folders in BROWSER, `slow` for the paths in SLOW, `postgresql` for a test on PostgreSQL (its
    `app` or `database_url` parameter, or the server's own fixtures)."""
    for item in items:
        path = Path(str(item.path)).resolve()
        parts = path.relative_to(TESTS).parts if path.is_relative_to(TESTS) else ("",)
        if parts[0] in BROWSER:
            item.add_marker(pytest.mark.browser)
        if parts[0] in SLOW or parts[-1] in SLOW:
            item.add_marker(pytest.mark.slow)
        if parts[-1] in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(parts[-1]))
        params = getattr(item, "callspec", None)
        on_postgresql = params is not None and any(
            params.params.get(name) == "postgresql" for name in DATABASE_PARAMETERS
        )
        if on_postgresql or {"pg_server", "pg_url"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgresql)


@pytest.hookimpl(tryfirst=True)  # before pytest parametrizes the `app` fixture over DATABASES
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `sqlite_only` (a file's `pytestmark`: what it tests does not depend on the
    database engine) gets the `app` fixture on SQLite alone, if it uses it."""
    if "app" in metafunc.fixturenames and metafunc.definition.get_closest_marker("sqlite_only"):
        metafunc.definition.add_marker(pytest.mark.parametrize("app", ["sqlite"], indirect=True))


LEFT_RUNNING = "tento_left_running"  # what an xdist worker stopped, sent to its controller
_LEFT_BY_WORKERS: list[str] = []  # in the controller: what its workers said they stopped


@pytest.hookimpl(trylast=True)  # after pytest's own teardown of the session's fixtures
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The last line of defence: stop every server, worker and database a test started and its
    teardown left running, so that no process of the run outlives it. A passing run that left
    one fails: every test stops what it starts. Under xdist each worker stops what its tests
    left and tells the controller, which says it and fails the run."""
    left = processes.stop_everything()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: sent once this hook is done
        workeroutput[LEFT_RUNNING] = left
        return
    left += _LEFT_BY_WORKERS
    if left:
        print("\nleft running by the tests, now stopped:", *left, sep="\n  ", file=sys.stderr)
        if exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, in its controller
def pytest_testnodedown(node: Any, error: object) -> None:
    """Note what a finished xdist worker stopped at its end (see pytest_sessionfinish)."""
    _LEFT_BY_WORKERS.extend(getattr(node, "workeroutput", {}).get(LEFT_RUNNING, []))


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


@pytest.fixture(scope="session")
def sqlite_schema(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database with the schema, made once a worker and copied for each test."""
    path = tmp_path_factory.mktemp("schema") / "schema.sqlite3"
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return path


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """A fresh app on each database, CSRF checks off (see test_csrf) and no rate limit."""
    url = database_url(request, tmp_path)
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("sqlite_schema"), tmp_path / "test.sqlite3")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()
        polls = polls_engine()
        if polls is not None:
            polls.dispose()


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    """An app with CSRF checks on, as in production, on a throw-away SQLite file of its own and
    with no PUBLIC_URL, whatever the environment says."""
    app = create_app(
        {
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite3'}",
            "PUBLIC_URL": None,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


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
