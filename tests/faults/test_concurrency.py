"""Against a real server: 50 phones sending the same write with the same revision at once count it
exactly once, and a soak of random taps, undos and redos on 100 tables keeps every score exact."""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, HandRecord, Mesa
from scorekeeper.rules import Kind, Outcome, fold

from ..web.helpers import scores
from .server import Scorer, make_tables, running

PHONES = 50
SOAK_TABLES = 100
SOAK_CLIENTS = 6
SOAK_ACTIONS = 3_000


def stored(app: Flask, edit: str) -> tuple[int, list[HandRecord]]:
    """A table's revision and its records, read straight from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=edit)).scalar_one()
        records = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        ).scalars()
        return mesa.revision, list(records)


def all_at_once(base: str, edit: str, route: str, rev: int, **form: str) -> Counter[int]:
    """PHONES clients, each with its own session, post the same write released by one barrier."""
    phones = [Scorer(base) for _ in range(PHONES)]
    for phone in phones:
        phone.open(edit)
    barrier = threading.Barrier(PHONES, timeout=120)

    def send(phone: Scorer) -> int:
        barrier.wait()
        return phone.post(edit, route, rev, **form).status_code

    with ThreadPoolExecutor(PHONES) as pool:
        return Counter(pool.map(send, phones))


def test_fifty_simultaneous_writes_with_the_same_revision_count_once(
    database_url: str, tmp_path: Path
) -> None:
    """Taps, then undos, then redos, each sent by 50 phones at once: one 200, 49 409s each."""
    [(edit, _)] = make_tables(database_url, 1)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    with running(database_url, tmp_path) as server:
        assert all_at_once(server.url, edit, "marcar", 0, o="normal:0:3") == {200: 1, 409: 49}
        assert all_at_once(server.url, edit, "marcar", 1, o="normal:1:1") == {200: 1, 409: 49}
        assert all_at_once(server.url, edit, "desfazer", 2) == {200: 1, 409: 49}
        assert all_at_once(server.url, edit, "refazer", 3) == {200: 1, 409: 49}
        revision, records = stored(app, edit)
        assert revision == 4
        assert [(r.kind, r.side, r.points, r.status) for r in records] == [
            ("normal", 0, 3, ACTIVE),
            ("normal", 1, 1, ACTIVE),
        ]
        board = Scorer(server.url).get(f"{server.url}/m/{edit}").text
        assert scores(board) == (3, 1)
    with app.app_context():
        db.engine.dispose()


def soak(base: str, tables: list[str], seed: int, actions: int) -> Counter[tuple[str, int]]:
    """One client: random legal taps, undos and redos on random tables; (table, status) counts."""
    rng = random.Random(seed)
    phone = Scorer(base)
    for edit in tables:
        phone.open(edit)
    counts: Counter[tuple[str, int]] = Counter()
    for _ in range(actions):
        edit = rng.choice(tables)
        seen = phone.seen[edit]
        roll = rng.random()
        if roll < 0.7 and seen.buttons:
            response = phone.post(edit, "marcar", seen.rev, o=rng.choice(seen.buttons))
        elif roll < 0.85:
            response = phone.post(edit, "desfazer", seen.rev)
        else:
            response = phone.post(edit, "refazer", seen.rev)
        counts[(edit, response.status_code)] += 1
    return counts


def test_a_soak_of_random_writes_from_several_clients_keeps_every_score_exact(
    database_url: str, tmp_path: Path
) -> None:
    """3,000 random legal taps, undos and redos on 100 tables from 6 clients: no 5xx, every
    revision equals the number of accepted writes, every shown score equals the log's fold."""
    tables = [edit for edit, _ in make_tables(database_url, SOAK_TABLES)]
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    with running(database_url, tmp_path) as server:
        with ThreadPoolExecutor(SOAK_CLIENTS) as pool:
            results = pool.map(
                lambda seed: soak(server.url, tables, seed, SOAK_ACTIONS // SOAK_CLIENTS),
                range(SOAK_CLIENTS),
            )
            counts: Counter[tuple[str, int]] = sum(results, Counter())
        statuses = Counter(status for (_, status), n in counts.items() for _ in range(n))
        assert set(statuses) <= {200, 409, 422}, statuses
        assert statuses[200] > SOAK_ACTIONS // 5, statuses  # the rest mostly 409: contention
        checker = Scorer(server.url)
        for edit in tables:
            revision, records = stored(app, edit)
            assert revision == counts[(edit, 200)], edit
            with app.app_context():
                mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=edit)).scalar_one()
                config = mesa.match_config
            active = [r for r in records if r.status == ACTIVE]
            state = fold(config, [Outcome(Kind(r.kind), r.side, r.points) for r in active])
            checker.open(edit)
            board = checker.get(f"{server.url}/m/{edit}").text
            assert scores(board) == state.points, edit
            assert checker.seen[edit].rev == revision
    with app.app_context():
        db.engine.dispose()
