"""How the cost of a turma's pages grows with its history: GET /turma/<token> (the scorer's
page) and GET /vt/<token> (the read-only page) on turmas of 3, 100 and 1,000 finished tables,
in-process (Flask test client, a throw-away SQLite file), each figure the fastest of several
batches. Two cases per page: nothing changed since the last view, and a tap on the newest table
(the one being played) before every view.

    .venv/bin/python bench/turma.py [--sizes 3 100 1000] [--batches 5] [--per-batch 10]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from sqlalchemy import insert, select  # noqa: E402

from bench.prepare import history, history_rows  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.domain.mesa import new_token  # noqa: E402
from scorekeeper.domain.mesa.service import record_outcome  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import HandRecord, Mesa, Turma, utcnow  # noqa: E402
from scorekeeper.rules import Kind, Outcome  # noqa: E402

FRIENDS = ("Ana", "Beto", "Caio", "Duda", "Eva", "Fábio")
RECORDS = 40  # two whole games per table (won by one side), the third just begun


def mirrored(outcome: Outcome) -> Outcome:
    """The same record for the other side (the game won by side 1 instead)."""
    if outcome.side is None:
        return outcome
    return Outcome(outcome.kind, 1 - outcome.side, outcome.points)


def new_turma(app: Flask, tables: int) -> tuple[str, str, str]:
    """A turma of `tables` finished tables, four of six friends at each (seats rotating), half
    won by each side; its scorer and viewer tokens and its newest table's scorer token."""
    log = history(RECORDS)
    with app.app_context():
        turma = {
            "edit_token": new_token(),
            "view_token": new_token(),
            "created_at": utcnow(),
            "aliases": {},
        }
        with db.engine.begin() as connection:
            turma_id = connection.execute(
                insert(Turma.__table__).returning(Turma.__table__.c.id), turma
            ).scalar_one()
            newest = ""
            for n in range(tables):
                names = [FRIENDS[(n + seat) % len(FRIENDS)] for seat in range(4)]
                newest = new_token()
                mesa = {
                    "edit_token": newest,
                    "view_token": new_token(),
                    "revision": RECORDS,
                    "player_names": names,
                    "turma_id": turma_id,
                }
                mesa_id = connection.execute(
                    insert(Mesa.__table__).returning(Mesa.__table__.c.id), mesa
                ).scalar_one()
                outcomes = log if n % 2 == 0 else [mirrored(o) for o in log]
                connection.execute(insert(HandRecord.__table__), history_rows(mesa_id, outcomes))
    return turma["edit_token"], turma["view_token"], newest


def fastest(batches: int, per_batch: int, request: Callable[[], None]) -> float:
    """The fastest batch's time per request, in milliseconds."""
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(per_batch):
            request()
        best = min(best, (time.perf_counter() - start) / per_batch)
    return best * 1000


def fastest_after_taps(
    app: Flask, batches: int, per_batch: int, table: str, request: Callable[[], None]
) -> float:
    """The fastest batch's time per request, each request after a tap on `table` (the taps not
    timed), in milliseconds."""
    best = float("inf")
    for _ in range(batches):
        spent = 0.0
        for _ in range(per_batch):
            with app.app_context():
                query = select(Mesa.revision).where(Mesa.edit_token == table)
                revision = db.session.execute(query).scalar_one()
                record_outcome(table, revision, Outcome(Kind.ANULADA))
                db.session.remove()
            start = time.perf_counter()
            request()
            spent += time.perf_counter() - start
        best = min(best, spent / per_batch)
    return best * 1000


def getter(client: FlaskClient, path: str) -> Callable[[], None]:
    """A request for `path` that must answer 200."""

    def get() -> None:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)

    return get


def main() -> None:
    """Build the turmas, time their pages, print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 100, 1000])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--per-batch", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'turma.sqlite3'}",
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        print(f"{'tables':>7} {'page':>8} {'unchanged ms':>13} {'after a tap ms':>15}")
        for size in args.sizes:
            edit, view, newest = new_turma(app, size)
            for label, path in (("/turma/", f"/turma/{edit}"), ("/vt/", f"/vt/{view}")):
                get = getter(client, path)
                get()  # the first view reads every table's records once
                unchanged = fastest(args.batches, args.per_batch, get)
                tapped = fastest_after_taps(app, args.batches, args.per_batch, newest, get)
                print(f"{size:>7} {label:>8} {unchanged:>13.2f} {tapped:>15.2f}", flush=True)
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
