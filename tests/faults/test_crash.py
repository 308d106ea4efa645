"""Against a real server: SIGKILL in the middle of a stream of taps loses no acknowledged tap and
keeps nothing that was refused; the restarted server goes on from there."""

from __future__ import annotations

import random
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import requests
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa
from scorekeeper.rules import Outcome

from ..web.helpers import scores
from .server import Scorer, make_tables, running, start

TABLES = 5
KILL_AFTER = 60  # acknowledged taps before the kill
STALE_EVERY = 7  # every 7th tap (all tables in turn) carries an old revision: refused


@dataclass(frozen=True)
class Sent:
    """One tap sent: the table, the revision it carried, the outcome, and what came back."""

    edit: str
    rev: int
    code: str
    status: int | None  # None: no answer (the server died with the request in flight)


def stream(scorer: Scorer, tables: list[str], log: list[Sent], stop: threading.Event) -> None:
    """Tap random legal outcomes round the tables until the server stops answering."""
    rng = random.Random(7)
    n = 0
    while not stop.is_set():
        edit = tables[n % len(tables)]
        n += 1
        seen = scorer.seen[edit]
        stale = n % STALE_EVERY == 0 and seen.rev > 0
        rev = seen.rev - 1 if stale else seen.rev
        code = rng.choice(seen.buttons)
        try:  # a tap that timed out is sent again with its client id (Scorer.post)
            status: int | None = scorer.post(edit, "marcar", rev, o=code).status_code
        except requests.RequestException:  # refused or cut: the kill
            status = None
        log.append(Sent(edit, rev, code, status))
        if status is None:
            return
        assert status in ((409,) if stale else (200, 422)), (status, code)


def revision_and_outcomes(
    app: Flask, edit: str
) -> tuple[int, list[tuple[str, int | None, int | None]]]:
    """A table's revision and the outcomes of its records, from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=edit)).scalar_one()
        rows = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        ).scalars()
        return mesa.revision, [(r.kind, r.side, r.points) for r in rows]


def outcome(code: str) -> tuple[str, int | None, int | None]:
    """A tap's value as the stored (kind, side, points)."""
    parsed = Outcome.parse(code)
    return parsed.kind.value, parsed.side, parsed.points


def test_sigkill_mid_stream_keeps_every_acknowledged_tap_and_nothing_else(
    database_url: str, tmp_path: Path
) -> None:
    """Kill gunicorn (master and workers) with SIGKILL while taps stream in, start it again: each
    table's log is exactly its 200-answered taps, plus at most the one tap left unanswered."""
    tables = [edit for edit, _ in make_tables(database_url, TABLES)]
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    server = start(database_url, tmp_path)
    log: list[Sent] = []
    stop = threading.Event()
    try:
        scorer = Scorer(server.url)
        for edit in tables:
            scorer.open(edit)
        streamer = threading.Thread(target=stream, args=(scorer, tables, log, stop))
        streamer.start()
        deadline = time.monotonic() + 300  # generous: a busy machine only makes it slower
        while sum(s.status == 200 for s in log) < KILL_AFTER and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(random.Random(3).uniform(0, 0.05))
        server.kill(signal.SIGKILL)
        streamer.join(timeout=120)
    finally:
        stop.set()
        server.kill(signal.SIGKILL)
    assert sum(s.status == 200 for s in log) >= KILL_AFTER
    assert log[-1].status is None, "the stream should have been cut by the kill"
    in_flight = log[-1]
    for edit in tables:
        acknowledged = [outcome(s.code) for s in log if s.edit == edit and s.status == 200]
        revision, stored = revision_and_outcomes(app, edit)
        if edit == in_flight.edit and stored != acknowledged:
            assert stored == [*acknowledged, outcome(in_flight.code)], edit
        else:
            assert stored == acknowledged, edit
        assert revision == len(stored)
    with running(database_url, tmp_path) as restarted:
        checker = Scorer(restarted.url)
        for edit in tables:
            revision, _ = revision_and_outcomes(app, edit)
            seen = checker.open(edit)
            assert seen.rev == revision
            response = checker.post(edit, "marcar", revision, o=seen.buttons[0])
            assert response.status_code == 200
        board = checker.get(f"{restarted.url}/m/{tables[0]}").text
        assert all(0 <= s <= 12 for s in scores(board))
    with app.app_context():
        db.engine.dispose()
