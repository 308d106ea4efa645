"""What each per-process cache (scorekeeper/caches.py) earns: the requests that use it, timed
in-process (Flask test client, a throw-away database) on an app with every cache and on one
with every cache but that one, in interleaved rounds; each gain is the median over the rounds
of (time without the cache / time with it) - 1: how many more of those requests a second the
cache lets a worker serve.

    .venv/bin/python bench/caches.py [--rounds 7] [--per-round 40] [--database postgresql]

A cache that saves less than 10% of its requests' time is not worth its invariant (the team's
rule): the table says which ones are.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from scorekeeper import caches, create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Mesa  # noqa: E402

HX = {"HX-Request": "true", "Accept-Encoding": "br"}
Request = Callable[[], None]


def app_keeping(url: str, kept: frozenset[str]) -> Flask:
    """An app on the bench database keeping only these caches, CSRF off as in the tests."""
    settings = {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "CACHES": kept}
    return create_app({**settings, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})


class Table:
    """A table opened through an app, with what the requests below need of it."""

    def __init__(self, client: FlaskClient, app: Flask, hands: int) -> None:
        """Open a table and play `hands` hands on it (a log of that length)."""
        created = client.post("/mesas")
        self.edit = created.headers["Location"].rsplit("/", 1)[1]
        with app.app_context():
            mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=self.edit)).scalar_one()
            self.view, self.rev = mesa.view_token, mesa.revision
        for _ in range(hands):
            self.tap(client, "anulada")

    def tap(self, client: FlaskClient, code: str) -> None:
        """One tap at the revision the table is at, as the board's script sends it."""
        form = {"rev": str(self.rev), "o": code, "cid": str(uuid.uuid4())}
        response = client.post(f"/m/{self.edit}/marcar", data=form, headers=HX)
        assert response.status_code == 200, response.status_code
        self.rev += 1


def scenarios(writer: FlaskClient, app: Flask, other: FlaskClient) -> dict[str, Request]:
    """The requests each cache serves, on `app` (the measured one) and its client `writer`;
    `other` is a second worker that writes where the measured one only reads."""
    table = Table(writer, app, 40)
    shared = Table(other, app, 40)  # written by the other worker: read here with no kept board

    def tap() -> None:
        table.tap(writer, "anulada")

    def board_after_other_tap() -> None:
        shared.tap(other, "anulada")
        assert writer.get(f"/m/{shared.edit}/placar", headers=HX).status_code == 200

    def four_viewers() -> None:
        table.tap(writer, "anulada")
        for _ in range(4):
            writer.get(f"/v/{table.view}/placar?rev={table.rev - 1}", headers=HX)

    def get(path: str) -> Request:
        return lambda: writer.get(path, headers=HX).close()

    return {
        "tap (board kept by the writing worker)": tap,
        "board fragment after the other worker's tap": board_after_other_tap,
        "a tap and four viewers' changed polls": four_viewers,
        "board page": get(f"/m/{table.edit}"),
        "share page": get(f"/m/{table.edit}/compartilhar"),
        "score image": get(f"/v/{table.view}/imagem.png"),
        "static file (brotli)": get("/static/css/app.css"),
        "unchanged poll": get(f"/v/{table.view}/placar?rev={table.rev}"),
    }


# The requests each cache is for (the others it does not touch).
SERVES = {
    "boards": ("tap (board kept by the writing worker)", "board page"),
    "live": ("a tap and four viewers' changed polls",),
    "log_lines": ("board page", "board fragment after the other worker's tap"),
    "qr_codes": ("share page",),
    "score_images": ("score image",),
    "static_files": ("static file (brotli)",),
    "statements": ("unchanged poll",),
}


def timed(request: Request, count: int) -> float:
    """Milliseconds a request takes, the mean of `count` in a row."""
    start = time.perf_counter()
    for _ in range(count):
        request()
    return (time.perf_counter() - start) * 1000 / count


def figures(runs: dict[str, dict[str, list[float]]], name: str) -> dict[str, float]:
    """A request's median times with and without the cache, and the median round's gain."""
    pairs = zip(runs["without"][name], runs["with"][name], strict=True)
    return {
        "with_ms": round(statistics.median(runs["with"][name]), 3),
        "without_ms": round(statistics.median(runs["without"][name]), 3),
        "gain": round(statistics.median(without / kept - 1 for without, kept in pairs), 3),
    }


def measure(url: str, rounds: int, per_round: int) -> dict[str, dict[str, Any]]:
    """For each cache: its requests' time with every cache and without it, and the gain."""
    out: dict[str, dict[str, Any]] = {}
    for cache in caches.ALL:
        apps = {
            "with": app_keeping(url, caches.NAMES),
            "without": app_keeping(url, caches.NAMES - {cache.name}),
        }
        runs: dict[str, dict[str, list[float]]] = {}
        for label, app in apps.items():
            other = app_keeping(url, caches.NAMES).test_client()
            requests = scenarios(app.test_client(), app, other)
            runs[label] = {name: [] for name in SERVES[cache.name]}
            apps[label] = (app, requests)  # type: ignore[assignment]
        for _ in range(rounds):
            for label in ("with", "without"):
                _app, requests = apps[label]  # type: ignore[misc]
                for name in SERVES[cache.name]:
                    runs[label][name].append(timed(requests[name], per_round))
        out[cache.name] = {name: figures(runs, name) for name in SERVES[cache.name]}
        print(f"{cache.name}: {out[cache.name]}", flush=True)
    return out


def main() -> None:
    """Parse the options, measure every cache, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--per-round", type=int, default=40)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    options = parser.parse_args()
    pg = None
    folder = Path(tempfile.mkdtemp(prefix="tento-bench-caches-"))
    try:
        if options.database == "postgresql":
            from bench.run import postgres_server

            pg = postgres_server()
            pg.start()
            url = pg.url
        else:
            url = f"sqlite:///{folder / 'caches.sqlite3'}"
        with app_keeping(url, caches.NAMES).app_context():
            db.create_all()
        results = measure(url, options.rounds, options.per_round)
    finally:
        if pg is not None:
            pg.stop()
    print(f"\n{'cache':<14}{'request':<48}{'with ms':>9}{'without':>9}{'gain':>8}")
    for name, figures in results.items():
        for request, f in figures.items():
            saved = f"{f['gain']:.0%}"
            print(f"{name:<14}{request:<48}{f['with_ms']:>9}{f['without_ms']:>9}{saved:>8}")


if __name__ == "__main__":
    main()
