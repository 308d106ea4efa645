"""The app bench/ measures: Tento's own app (scorekeeper.create_app, production settings) with
three routes of the bench's beside it, never in the product: the bare route (the ceiling of any
request), the write floor (the ceiling of any write) and the tap's write (the tap view's own
domain call, record_outcome, answered with 2 KB instead of the board: the ceiling of any tap
that answers a board). gunicorn serves `bench.wsgi:create_app()` (bench/run.py)."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from sqlalchemy import bindparam, update

import scorekeeper
from scorekeeper.domain.mesa import (
    AlreadyApplied,
    ReusedClientId,
    StaleRevision,
    UnknownTable,
    record_outcome,
)
from scorekeeper.domain.mesa.inputs import Write
from scorekeeper.extensions import db
from scorekeeper.models import Mesa
from scorekeeper.rules import Outcome, RulesError

SIZE = 2048
ROW = '<li class="entry"><span class="n">{n:02d}</span> Eles +3 · 4 x 7 · 21:{n:02d}</li>\n'


def _fragment() -> bytes:
    """A log-like HTML fragment of exactly SIZE bytes."""
    head, tail = '<div id="board" class="board">\n<ol class="log">\n', "</ol>\n</div>\n"
    rows = ""
    n = 0
    while len((head + rows + ROW.format(n=n) + tail).encode()) <= SIZE:
        rows += ROW.format(n=n)
        n += 1
    body = (head + rows + tail).encode()
    return body + b" " * (SIZE - len(body))


FRAGMENT = _fragment()


def bare() -> Response:
    """A constant 2 KB HTML fragment: Flask and gunicorn with no database and no template."""
    return Response(FRAGMENT, mimetype="text/html")


_MESAS = Mesa.__table__
_BUMP = (
    update(_MESAS)
    .where(_MESAS.c.edit_token == bindparam("token"), _MESAS.c.revision == bindparam("revision"))
    .values(revision=_MESAS.c.revision + 1)
    .returning(_MESAS.c.revision)
)


def write_floor(token: str) -> Response:
    """The least a write can do, posted like a tap (CSRF, form, revision): one conditional
    UPDATE … RETURNING of the table's revision, committed, and the 2 KB fragment (409 when
    the revision moved on). No record, no board, no template."""
    revision = Write.read(request.form).rev
    with db.engine.begin() as connection:
        row = connection.execute(_BUMP, {"token": token, "revision": revision}).first()
    return Response(FRAGMENT, status=200 if row else 409, mimetype="text/html")


def tap_write(token: str) -> Response:
    """A tap's write as the tap view makes it (CSRF, form, outcome, client id; the revision
    claimed, the record and the journal row written, the board kept), answered with the 2 KB
    fragment instead of the board (409 when it was not applied). A tap that answers any board
    costs at least this."""
    write = Write.read(request.form)
    try:
        record_outcome(token, write.rev, Outcome.parse(request.form.get("o")), client_id=write.cid)
    except (AlreadyApplied, ReusedClientId, StaleRevision, UnknownTable, RulesError):
        return Response(FRAGMENT, status=409, mimetype="text/html")
    return Response(FRAGMENT, mimetype="text/html")


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Tento's app with the bench's routes beside its own."""
    app = scorekeeper.create_app(test_config)
    register(app)
    return app


def register(app: Flask) -> None:
    """Add /_bench/bare, /_bench/write/<token> and /_bench/tap/<token> to the app."""
    app.add_url_rule("/_bench/bare", "bench_bare", bare)
    app.add_url_rule("/_bench/write/<token>", "bench_write", write_floor, methods=["POST"])
    app.add_url_rule("/_bench/tap/<token>", "bench_tap", tap_write, methods=["POST"])
