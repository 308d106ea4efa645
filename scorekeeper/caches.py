"""Every per-process cache of Tento, in one place: what each keeps, its key, its bound, the
invariant that makes it right, and what it was measured to save. Nothing kept in a process is
the truth (the database is): each cache only spares work, and `TENTO_CACHES=0` (the app's
`CACHES` setting) turns every one off, which changes no page (tests/web/test_caches.py), only
its cost. `TENTO_CACHES=boards,live` keeps only the caches named. A cache stays only while it
earns at least 10% on one of its requests (bench/caches.py measures each; the figures are in
`gain` below and in bench/README.md).

The invariants the caches rely on, held by the domain (domain.mesa.service, domain.common.writes)
and the schema:
- every write moves its table's revision on, in the write's own transaction;
- a cache is filled only outside a write's transaction or after its commit: nothing a
  rolled-back transaction wrote reaches one;
- tokens are never reused (192 random bits), and record ids neither (AUTOINCREMENT on SQLite,
  sequences on PostgreSQL).

Dropped for not earning it: a cache of hand records by id (what never changes of a record),
which saved 9% of a board read where no board was kept, and cost the two-step read it needed
(ids first, then the records missing); the board now reads its records whole in one query.

Two kinds: per-app caches (a dict per Flask app, least recently used out past their bound:
`recall`, `keep`), which may hold data read from the database; and memoised pure functions
(`memo`), whose result depends on their arguments only.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from flask import current_app, has_app_context

Params = ParamSpec("Params")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Cache:
    """A cache as it is written down: its key, its bound, why it is right, what it saves."""

    name: str
    keeps: str
    key: str
    bound: int
    invariant: str
    gain: str


BOARDS = Cache(
    "boards",
    "the board a committed write left, per table",
    "the table's edit token (never reused); checked against the table's revision on use",
    1024,
    "only a committed write keeps a board, and every write moves the revision on: the board "
    "kept at a revision is the table at that revision, whichever process reads it",
    "a tap on the worker that wrote last reads no record: +17-22% taps/s, +6-41% board pages/s",
)
LIVE = Cache(
    "live",
    "the live view's fragment as drawn for a revision",
    "(viewer token, revision, TV layout, script root)",
    1024,
    "a table changes only by a write, and every write moves its revision on",
    "a tap's four viewers' changed polls: +35-49% of them a second",
)
LOG_LINES = Cache(
    "log_lines",
    "a log line's HTML",
    "(record with its status, note and an edit's settings, its number, the team names, the "
    "special hand)",
    4096,
    "pure: the line depends on its arguments only",
    "a board page's thirty log lines cost what one does: +31% pages/s on SQLite, +9% on PG",
)
QR_CODES = Cache(
    "qr_codes",
    "a QR code's SVG",
    "(URL, element id, label)",
    256,
    "pure",
    "the share page draws its codes once per link: 4-8x share pages/s",
)
SCORE_IMAGES = Cache(
    "score_images",
    "the score's and the podium's PNGs and the fonts drawing them",
    "everything drawn (names, points, lines, date, winner, players); font size",
    128,
    "pure",
    "a link previewed by several chats is drawn once: 30-60x score images/s",
)
STATIC_FILES = Cache(
    "static_files",
    "static files' content hashes, compressed bodies and the templates' versioned URLs",
    "(path, modification time, size), (path, version, encoding), (script root, file name)",
    256,
    "pure given the file's stat: a changed file gets a new key; the templates' URLs hold while "
    "no static file changes under a running server (a release restarts it; debug mode looks "
    "every time)",
    "each static file is hashed and compressed at the best level once: 30x static files/s",
)
STATEMENTS = Cache(
    "statements",
    "a poll's SQL compiled for a database driver",
    "(the engine's dialect, scorer or viewer token)",
    16,
    "pure: the statement depends on the dialect only",
    "an unchanged poll on PostgreSQL skips SQLAlchemy's compiling: +60% such polls/s",
)
FORECASTS = Cache(
    "forecasts",
    "the forecast's game table as JSON and its hash (web.mesa.present.forecast_table)",
    "the special-hand threshold (11 or 10)",
    4,
    "pure: the table is the rules engine's answer for every score of a game and every tap",
    "every board names the table by its hash, and the table takes ~20 ms to build: a board "
    "page or tap answer 3.3-3.7 ms instead of 20.7-22.3 ms (test client, SQLite), the "
    "table's own request 0.3 ms instead of 25 ms",
)
TV_BODIES = Cache(
    "tv_bodies",
    "a torneio TV's body (torneio/_tv.html) as drawn for a version",
    "(the token polled, the version read before the body's snapshot, script root)",
    64,
    "the version moves on with every write to the torneio or to one of its tables (its "
    "revision, its tables' count and their revisions' sum), and it is read before the snapshot "
    "the body is drawn from: the body kept under a version shows that version or a later one",
    "the TV and its spectators fetch each version's body once a process instead of once a "
    "screen: see bench/README.md (a torneio under make run)",
)
ALL = (
    BOARDS,
    LIVE,
    LOG_LINES,
    QR_CODES,
    SCORE_IMAGES,
    STATIC_FILES,
    STATEMENTS,
    FORECASTS,
    TV_BODIES,
)
NAMES = frozenset(cache.name for cache in ALL)


def setting(value: str) -> frozenset[str]:
    """The caches a TENTO_CACHES value keeps on: all when unset or '1', none for '0', else the
    comma-separated names (an unknown name is an error, said at start)."""
    text = value.strip()
    if text in ("", "1"):
        return NAMES
    if text == "0":
        return frozenset()
    named = frozenset(part.strip() for part in text.split(",") if part.strip())
    unknown = named - NAMES
    if unknown:
        raise ValueError(f"TENTO_CACHES names no such cache: {', '.join(sorted(unknown))}")
    return named


def enabled(cache: Cache) -> bool:
    """True when the current app keeps this cache (outside an app, every cache is on)."""
    if not has_app_context():
        return True
    return cache.name in current_app.config["CACHES"]


def store(cache: Cache) -> OrderedDict[Any, Any]:
    """The current app's dict for a per-app cache, least recently used first, made on first use."""
    key = f"tento.cache.{cache.name}"
    store: OrderedDict[Any, Any] | None = current_app.extensions.get(key)
    if store is None:
        store = current_app.extensions.setdefault(key, OrderedDict())
    return store


def recall(cache: Cache, key: Any) -> Any:
    """The value kept under `key` (made the most recently used), or None (also when off)."""
    if not enabled(cache):
        return None
    entries = store(cache)
    value = entries.pop(key, None)  # taken out and put back: a thread dropping it costs a miss
    if value is not None:
        entries[key] = value
    return value


def keep(cache: Cache, key: Any, value: Any) -> None:
    """Keep `value` under `key`, dropping the least recently used past the cache's bound."""
    if not enabled(cache):
        return
    entries = store(cache)
    entries[key] = value
    while len(entries) > cache.bound:
        try:
            entries.popitem(last=False)
        except KeyError:  # another thread emptied it meanwhile
            break


def memo(cache: Cache) -> Callable[[Callable[Params, Result]], Callable[Params, Result]]:
    """Memoise a pure function under `cache` (its bound, least recently used out); with the cache
    off in the current app, the function runs every time."""

    def decorate(function: Callable[Params, Result]) -> Callable[Params, Result]:
        cached = functools.lru_cache(maxsize=cache.bound)(function)

        @functools.wraps(function)
        def call(*args: Params.args, **kwargs: Params.kwargs) -> Result:
            if enabled(cache):
                return cached(*args, **kwargs)
            return function(*args, **kwargs)

        return call

    return decorate
