"""A turma too big for a page to show whole: the file of a turma of 5,000 tables (the import's
limit; 4,000 Paulista, 1,000 Mineiro; four players at each, no name seen twice) imported through
/importar-turma on
gunicorn (2 sync workers, production settings), then every turma page fetched: its size, its
time and the workers' memory; then an unrelated table's live fragment timed alone and while
three clients keep fetching the turma's read-only page. See bench/README.md.

    .venv/bin/python bench/turma_large.py [--tables 5000] [--repeat 3] [--database postgresql]
    .venv/bin/python bench/turma_large.py --make-only turma.json   # the file alone
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from datetime import timedelta
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from bench.prepare import engine_of, migrate, new_tables  # noqa: E402
from bench.run import (  # noqa: E402
    BROWSER_ENCODING,
    CSRF,
    postgres_server,
    server_env,
    start_server,
    stop_server,
    worker_memory,
    worker_pids,
)
from scorekeeper import create_app  # noqa: E402
from scorekeeper.domain.mesa import new_token  # noqa: E402
from scorekeeper.domain.turma import transfer  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import ACTIVE, HandRecord, Mesa, Turma, utcnow  # noqa: E402
from scorekeeper.rules import MINEIRO, PAULISTA, MatchConfig, MatchState, Outcome  # noqa: E402

MINEIRO_EVERY = 5  # every fifth table plays Truco Mineiro: the page has both headings
TABLE_EVERY = timedelta(minutes=40)  # one table after another, evening after evening
CLIENTS = 3  # the clients that keep fetching the turma's read-only page


def game_log(config: MatchConfig, rng: random.Random) -> list[Outcome]:
    """One game played to its end, each hand a random legal one that scores (three or four
    records a table: a short evening)."""
    state, log = MatchState(config), []
    while state.game_winner is None:
        scoring = [o for o in state.legal_outcomes() if o.side is not None]
        outcome = rng.choice(scoring)
        log.append(outcome)
        state = state.apply(outcome)
    return log


def record_rows(mesa_id: int, config: MatchConfig, log: list[Outcome], at: Any) -> list[dict]:
    """The records of a table whose log is `log`, with the scores and state after each."""
    state, rows = MatchState(config), []
    for seq, outcome in enumerate(log, start=1):
        state = state.apply(outcome)
        rows.append(
            {
                "mesa_id": mesa_id, "seq": seq, "kind": outcome.kind.value,
                "side": outcome.side, "points": outcome.points, "note": None, "reason": None,
                "status": ACTIVE, "score_a": state.points[0], "score_b": state.points[1],
                "created_at": at, "state": state.snapshot(),
            }
        )  # fmt: skip
    return rows


def make_file(path: Path, tables: int, seed: int = 7) -> int:
    """Write the file of a turma of `tables` tables, every player's name new (Jogador 00001,
    Jogador 00002…): built in a throw-away database and exported as the turma's page does.
    Its size in bytes."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'make.sqlite3'}",
            }
        )
        with app.app_context():
            db.create_all()
            start = utcnow()
            with db.engine.begin() as connection:
                turma_id = connection.execute(
                    insert(Turma.__table__).returning(Turma.__table__.c.id),
                    {
                        "edit_token": new_token(), "view_token": new_token(),
                        "created_at": start, "name": "Turma enorme", "aliases": {},
                    },
                ).scalar_one()  # fmt: skip
                for n in range(tables):
                    mineiro = n % MINEIRO_EVERY == MINEIRO_EVERY - 1
                    settings: dict[str, Any] = (
                        {"variante": "mineiro", "manilhas": "fixa", "deck": "sujo",
                         "special_at": 10}
                        if mineiro else {}
                    )  # fmt: skip
                    config = MatchConfig(
                        players=4, special_at=10 if mineiro else 11,
                        variant=MINEIRO if mineiro else PAULISTA,
                    )  # fmt: skip
                    log = game_log(config, rng)
                    opened = start.replace(microsecond=0) - (tables - n) * TABLE_EVERY
                    mesa = {
                        "edit_token": new_token(), "view_token": new_token(),
                        "created_at": opened, "turma_id": turma_id, "revision": len(log),
                        "player_names": [f"Jogador {4 * n + seat + 1:05d}" for seat in range(4)],
                        **settings,
                    }  # fmt: skip
                    mesa_id = connection.execute(
                        insert(Mesa.__table__).returning(Mesa.__table__.c.id), mesa
                    ).scalar_one()
                    rows = record_rows(mesa_id, config, log, opened)
                    connection.execute(insert(HandRecord.__table__), rows)
            turma = db.session.get_one(Turma, turma_id)
            document = transfer.export_turma(turma)
            db.engine.dispose()
    path.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    return path.stat().st_size


# --- measuring on gunicorn -----------------------------------------------------------------


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, int, float, bytes]:
    """One GET read to its last byte: status, bytes, seconds, the body."""
    request = urllib.request.Request(url, headers=headers or {})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:  # a page the code measured does not have: 404
        body, status = error.read(), error.code
    return status, len(body), time.perf_counter() - start, body


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hand a redirect back instead of following it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        """Follow none."""
        return None


def import_file(url: str, data: bytes) -> tuple[str, str, float]:
    """Import the file as a browser does (the form's page for the session and its CSRF token,
    then the upload): the turma's scorer and viewer tokens and the upload's seconds."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    with opener.open(f"{url}/importar-turma", timeout=30) as response:
        token = CSRF.search(response.read().decode())
    assert token, "no CSRF token on the import form"
    boundary = uuid.uuid4().hex
    body = b"".join(
        [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'.encode(),
            token.group(1).encode(),
            f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"arquivo\";"
            f' filename="turma.json"\r\nContent-Type: application/json\r\n\r\n'.encode(),
            data,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    request = urllib.request.Request(
        f"{url}/importar-turma",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    start = time.perf_counter()
    try:
        opener.open(request, timeout=300)
        raise SystemExit("the import did not redirect to the turma's page")
    except urllib.error.HTTPError as error:  # the redirect, not followed
        spent = time.perf_counter() - start
        status, location = error.code, error.headers.get("Location", "")
    edit = re.search(r"/turma/([A-Za-z0-9_-]+)", location)
    assert edit, (status, location)
    page = get(f"{url}/turma/{edit.group(1)}")[3].decode()
    view = re.search(r'href="[^"]*/vt/([A-Za-z0-9_-]+)" data-testid="turma-link-assistir"', page)
    assert view, "no viewer link on the turma's page"
    return edit.group(1), view.group(1), spent


def measure_page(url: str, path: str, repeat: int, master: int) -> dict[str, Any]:
    """A page fetched once (the first view, which may read what no view read before), then
    `repeat` times: its status, size (as sent uncompressed, and gzip), seconds, and the largest
    worker's memory after."""
    status, size, first, _ = get(url + path)
    times = [get(url + path)[2] for _ in range(repeat)]
    wire = get(url + path, {"Accept-Encoding": BROWSER_ENCODING})
    return {
        "status": status,
        "bytes": size,
        "wire_bytes": wire[1],
        "first_s": round(first, 3),
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
        **worker_memory(master),
    }


def counting_views(url: str, path: str) -> list[dict[str, Any]]:
    """The views of the read-only page right after the import, until its statistics count
    every table (the page says 'Contando as mesas' until then): each one's seconds and bytes."""
    views = []
    while True:
        status, size, spent, body = get(url + path)
        counting = b'data-testid="contando-mesas"' in body
        views.append({"status": status, "bytes": size, "s": round(spent, 3), "counting": counting})
        if not counting or len(views) > 100:
            return views


def fragment_times(url: str, path: str, count: int) -> list[float]:
    """`count` fetches of `path`, each one's seconds."""
    return [get(url + path)[2] for _ in range(count)]


def contended(url: str, fragment: str, hog: str, count: int) -> dict[str, float]:
    """An unrelated table's live fragment timed alone, then while CLIENTS clients keep
    fetching `hog` (each as soon as its last answer ended): medians and maxima, in ms."""
    alone = fragment_times(url, fragment, count)
    stop = threading.Event()
    hogged = [0]

    def hammer() -> None:
        while not stop.is_set():
            get(url + hog)
            hogged[0] += 1

    threads = [threading.Thread(target=hammer) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)
        busy = fragment_times(url, fragment, count)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return {
        "alone_median_ms": round(1000 * statistics.median(alone), 1),
        "alone_max_ms": round(1000 * max(alone), 1),
        "busy_median_ms": round(1000 * statistics.median(busy), 1),
        "busy_max_ms": round(1000 * max(busy), 1),
        "hog_requests": hogged[0],
    }


def run(options: argparse.Namespace) -> dict[str, Any]:
    """Make the file, start the server, import, measure; stop everything whatever happens."""
    folder = Path(tempfile.mkdtemp(prefix="tento-turma-large-"))
    pg = process = None
    try:
        file = folder / "turma.json"
        started = time.perf_counter()
        size = make_file(file, options.tables)
        print(f"file: {size:,} bytes, {options.tables} tables"
              f" ({time.perf_counter() - started:.0f} s to make)", file=sys.stderr)
        if options.database == "postgresql":
            pg = postgres_server()
            pg.start()
            database_url = pg.url
        else:
            database_url = f"sqlite:///{folder / 'bench.sqlite3'}"
        migrate(database_url, server_env(database_url))
        with engine_of(database_url) as engine:
            other = new_tables(engine, 1, revision=0)[0]
            view_of_other = engine.connect().execute(
                Mesa.__table__.select().where(Mesa.__table__.c.id == other)
            ).one().view_token
        process, url = start_server(database_url, folder, 2)
        master = process.pid
        for _ in range(4):  # each worker has drawn a page: the baseline
            get(f"{url}/v/{view_of_other}")
        results: dict[str, Any] = {
            "tables": options.tables,
            "database": options.database,
            "file_bytes": size,
            "workers": len(worker_pids(master)),
            "baseline": worker_memory(master),
        }
        bare = fragment_times(url, "/_bench/bare", 20)
        results["bare_ms"] = round(1000 * statistics.median(bare), 2)
        edit, view, spent = import_file(url, file.read_bytes())
        results["import_s"] = round(spent, 2)
        results["after_import"] = worker_memory(master)
        results["counting"] = counting_views(url, f"/vt/{view}")
        results["after_counting"] = worker_memory(master)
        pages = [
            f"/turma/{edit}",
            f"/vt/{view}",
            f"/turma/{edit}/exportar.csv",
            f"/turma/{edit}/exportar.json",
            f"/vt/{view}/exportar.csv",
            f"/vt/{view}/exportar.json",
            f"/vt/{view}/imagem.png",
            f"/turma/{edit}/estatisticas/jogadores?pagina=200",
            f"/vt/{view}/estatisticas/duplas?regras=mineiro&pagina=20",
            f"/vt/{view}/estatisticas/confrontos?regras=paulista&pagina=80",
            *(p.format(edit=edit, view=view) for p in options.extra),
        ]
        results["pages"] = {}
        for path in pages:
            found = measure_page(url, path, options.repeat, master)
            results["pages"][path.replace(edit, "<t>").replace(view, "<v>")] = found
            print(json.dumps({path.replace(edit, "<t>").replace(view, "<v>"): found}),
                  file=sys.stderr, flush=True)
        results["contention"] = contended(
            url, f"/v/{view_of_other}/placar?rev=999", f"/vt/{view}", options.fragments
        )
        results["end"] = worker_memory(master)
    finally:
        if process is not None:
            stop_server(process)
        if pg is not None:
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> None:
    """Parse the options; make the file alone, or run it all and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=transfer.MAX_TABLES)
    parser.add_argument("--repeat", type=int, default=3, help="fetches of a page after the first")
    parser.add_argument("--fragments", type=int, default=20, help="fragments timed alone and busy")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--extra", nargs="*", default=[], help="more paths ({edit}, {view})")
    parser.add_argument("--make-only", type=Path, help="write the file there and stop")
    parser.add_argument("--out", type=Path, help="write the figures there as JSON")
    options = parser.parse_args()
    if options.make_only:
        print(f"{make_file(options.make_only, options.tables):,} bytes")
        return
    results = run(options)
    text = json.dumps(results, indent=1)
    if options.out:
        options.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
