"""Flask extensions, created once and bound to the app in create_app."""

import select
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, request
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for the models."""


# Objects stay usable after commit: a view reads the table it just opened or rotated, no reload.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
htmx = Htmx()
compress = Compress()
# Only opening tables and turmas is limited (one count for every way to open one); taps, polls
# and pages never are.
limiter = Limiter(key_func=get_remote_address)
OPENING = "abrir"  # the shared limit's scope: a new table, "jogar de novo", a new turma
_LIMITED: set[str] = set()  # the views with a limit ('module.qualname'): no other request waits
View = TypeVar("View", bound=Callable[..., Any])
Key = TypeVar("Key")
Value = TypeVar("Value")


def _name(view: Callable[..., Any]) -> str:
    """A view's 'module.qualname'."""
    return f"{view.__module__}.{view.__qualname__}"


def _opening_limit() -> str:
    """The configured limit on opening tables and turmas, e.g. '10 per minute; 100 per day'."""
    return str(current_app.config["OPEN_TABLE_LIMIT"])


def opening_limit(exempt_when: Callable[[], bool] | None = None) -> Callable[[View], View]:
    """The shared limit on opening tables and turmas (OPEN_TABLE_LIMIT: every view that opens
    one counts against the same per-address budget), and the view remembered as limited: every
    other request skips the limiter's work (resolving limits costs about 0.4 ms a request)."""

    def decorate(view: View) -> View:
        _LIMITED.add(_name(view))
        shared = limiter.shared_limit(_opening_limit, scope=OPENING, exempt_when=exempt_when)
        return shared(view)  # type: ignore[return-value]

    return decorate


@limiter.request_filter
def _unlimited() -> bool:
    """True (the request is exempt) unless its view has a limit."""
    view = current_app.view_functions.get(request.endpoint or "")
    return view is None or _name(view) not in _LIMITED

POLLS = "tento.polls"


def init_engines(app: Flask) -> None:
    """On a database server: a second engine for the polls' read (`current_revision`), and on
    both engines a connection the server closed is replaced when it is checked out.

    The polls engine's connections stay in autocommit and are not reset on return: a poll costs
    one round trip. No engine pings before use (a round trip per request); a restart of the
    server costs no request its connection (see `replace_closed_connections`; a write in flight is
    sent once more, see mesas.service.once_more_if_disconnected). SQLite has no
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


RECORDS = "tento.records"


def app_cache(name: str) -> OrderedDict[Any, Any]:
    """The current app's cache called `name` (in this worker), least recently used first, made
    on first use."""
    cache: OrderedDict[Any, Any] | None = current_app.extensions.get(name)
    if cache is None:
        cache = current_app.extensions.setdefault(name, OrderedDict())
    return cache


def recall(cache: OrderedDict[Key, Value], key: Key) -> Value | None:
    """A cached value, made the most recently used (taken out and put back: another thread
    dropping it meanwhile only costs a miss)."""
    value = cache.pop(key, None)
    if value is not None:
        cache[key] = value
    return value


def trim(cache: OrderedDict[Any, Any], limit: int) -> None:
    """Drop a cache's least recently used entries past `limit`."""
    while len(cache) > limit:
        try:
            cache.popitem(last=False)
        except KeyError:  # another thread emptied it meanwhile
            break


def known_records() -> OrderedDict[int, Any]:
    """The current app's cache of hand records by id (what of a record never changes once
    written; see mesas.service)."""
    return app_cache(RECORDS)


def polls_engine() -> Engine | None:
    """The current app's polls engine (None on SQLite)."""
    engine: Engine | None = current_app.extensions.get(POLLS)
    return engine
