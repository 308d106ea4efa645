"""What importing a turma's file costs: a file of ordinary tables as large as the import page
takes (8 MB), imported in-process (a throw-away SQLite file unless --url), each round under a
secret of its own (so that no round finds the file imported before). Prints the file's size,
tables and records, the time to read it (JSON and checksum), to check it (every value, every
record replayed) and to import it whole (read, check, write), the fastest and the median of
the rounds, and the peak of the memory Python allocated during one import (tracemalloc, in a
round of its own: tracing slows it).

    .venv/bin/python bench/turma_import.py [--megabytes 8] [--rounds 3] [--url postgresql://…]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from bench.prepare import history  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.domain.mesa import service  # noqa: E402
from scorekeeper.domain.turma import transfer, turmas  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.rules import Kind  # noqa: E402

RECORDS = 150  # an evening's table: a melhor de 3 and more, with notes, a fix and an undo
NAMES = ["Ana", "Beto", "Caio", "Duda"]


def evening(app: Flask) -> str:
    """A turma of one table played through the domain as an evening is: its scorer token."""
    with app.app_context():
        settings = {"players": 4, "best_of": 3, "player_names": NAMES}
        token = service.open_table(settings).edit_token
        turma = turmas.create_turma(token, 0, "Truco de quinta").edit_token
    for number, outcome in enumerate(history(RECORDS)):
        with app.app_context():
            board = service.scorer_board(token)
            legal = board.state.legal_outcomes()
            if outcome not in legal:  # a series of 3 ends where the log's games go on
                outcome = legal[0]
            written = service.record_outcome(token, board.mesa.revision, outcome)
            if outcome.kind is Kind.NORMAL and outcome.points == 3:
                revision = written.board.mesa.revision
                written = service.set_note(token, revision, written.record.id, "truco")
            if number == 50:
                written = service.undo(token, written.board.mesa.revision)
                service.redo(token, written.board.mesa.revision)
    return turma


def file_of(app: Flask, turma: str, megabytes: float) -> bytes:
    """The turma's file with its one table repeated until the file is about `megabytes`."""
    with app.app_context():
        document = transfer.export_turma(turmas.scorer_turma(turma))
    table = document["mesas"][0]
    size = len(json.dumps(table, ensure_ascii=False, separators=(",", ":")).encode())
    count = int(megabytes * 1024 * 1024 * 0.98) // size
    document["mesas"] = [copy.deepcopy(table) for _ in range(count)]
    document["conferencia"] = transfer.checksum(document)
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    assert len(data) <= transfer.MAX_BYTES, len(data)
    return data


def timed(rounds: int, call: Callable[[int], Any]) -> list[float]:
    """Each round's seconds."""
    spent = []
    for number in range(rounds):
        start = time.perf_counter()
        call(number)
        spent.append(time.perf_counter() - start)
    return spent


def main() -> None:
    """Build the file, time its import, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--url", help="a database URL (default: a throw-away SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{Path(folder) / 'import.sqlite3'}"
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False}
        )
        with app.app_context():
            db.create_all()
        data = file_of(app, evening(app), args.megabytes)
        document = json.loads(data)
        records = sum(len(t["registros"]) for t in document["mesas"])
        tables = len(document["mesas"])
        print(f"file: {len(data) / 2**20:.2f} MB, {tables} tables, {records} records")

        def read(_round: int) -> None:
            transfer.read_document(data)

        def check(_round: int) -> None:
            transfer.plan(document)

        def whole(number: int) -> None:
            with app.app_context():
                assert not transfer.import_turma(data, f"round-{number}").again

        with app.app_context():
            figures = {
                "read": timed(args.rounds, read),
                "check": timed(args.rounds, check),
            }
        figures["import"] = timed(args.rounds, whole)
        for name, spent in figures.items():
            print(f"{name:>7}: fastest {min(spent):.2f} s, median {statistics.median(spent):.2f} s")
        tracemalloc.start()
        whole(args.rounds)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"   peak: {peak / 2**20:.0f} MB allocated by Python during one import")
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
