"""A torneio under `make run`'s server (waitress) on 127.0.0.1: 32 pairs on 16 mesas, every mesa
tapping, a TV and 100 spectators polling the TV's state every 2 s. Measures the p50/p99 of the
taps and of the polls, and the server's CPU. See bench/README.md ("A torneio under make run").

    .venv/bin/python bench/torneio.py [--seconds 60] [--paces 25000,2000] [--spectators 100]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.prepare import migrate  # noqa: E402
from bench.run import free_port, log, postgres_server  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.domain.torneio import access, calls, reading, setup, word  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

POLL_S = 2.0  # the TV's and the spectators' poll (torneio.views.POLL_MS)
BROWSER_ENCODING = "gzip, deflate, br"
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"|name="csrf_token" value="([^"]+)"')
BOARD_REV = re.compile(r'id="board"[^>]*data-rev="(\d+)"')
VERSION = re.compile(r'data-versao="([^"]+)"')
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Samples:
    """What one kind of request measured: latencies (ms), answers by status."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, ms: float, status: int) -> None:
        """One answered request."""
        with self.lock:
            self.latencies.append(ms)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def summary(self, seconds: float) -> dict[str, Any]:
        """Count, rate, p50/p99/max and statuses."""
        found = sorted(self.latencies)
        if not found:
            return {"requests": 0}

        def at(q: float) -> float:
            return round(found[min(len(found) - 1, int(q * len(found)))], 1)

        return {
            "requests": len(found),
            "rps": round(len(found) / seconds, 1),
            "p50_ms": round(statistics.median(found), 1),
            "p99_ms": at(0.99),
            "max_ms": round(found[-1], 1),
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
        }


class Client:
    """One phone: a keep-alive connection, its cookie, answers decoded as a browser does."""

    def __init__(self, port: int) -> None:
        """A connection to the server on 127.0.0.1."""
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = ""

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str, float]:
        """Status, headers, decoded body and the time taken (ms); reconnects once if the
        server closed the connection."""
        sent = {"Accept-Encoding": BROWSER_ENCODING, **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (0, 1):
            started = time.perf_counter()
            try:
                self.connection.request(method, path, body=body, headers=sent)
                response = self.connection.getresponse()
                raw = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
                continue
            took = (time.perf_counter() - started) * 1000
            answer = {k.lower(): v for k, v in response.getheaders()}
            if "set-cookie" in answer:
                self.cookie = answer["set-cookie"].split(";", 1)[0]
            return response.status, answer, decoded(raw, answer), took
        raise AssertionError("unreachable")


def decoded(raw: bytes, headers: dict[str, str]) -> str:
    """A body as the browser reads it."""
    encoding = headers.get("content-encoding", "")
    if encoding == "br":
        raw = brotli.decompress(raw)
    elif encoding == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")


@dataclass(frozen=True)
class Torneio:
    """The bench's torneio: its organiser's and TV's tokens and its mesas' tokens."""

    edit: str
    view: str
    mesas: tuple[str, ...]


def prepare_torneio(database_url: str, pairs: int, mesas: int) -> Torneio:
    """A torneio of `pairs` pairs on `mesas` mesas, best of 3, drawn (its matches are called by
    the first read of the TV)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        torneio = setup.create_torneio(setup.Settings(name="Torneio do bench", mesas=mesas))
        edit, revision = torneio.edit_token, torneio.revision
        for n in range(pairs):
            names = [f"Jogador {2 * n + 1}", f"Jogador {2 * n + 2}"]
            setup.register(edit, revision, names, "", "")
            revision += 1
        setup.draw_bracket(edit, revision)
        snap = reading.snapshot(access.viewer_torneio(torneio.view_token))
        return Torneio(edit, torneio.view_token, tuple(m.token for m in snap.mesas))


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def resident_mb(pid: int) -> float:
    """A process's resident memory (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Mesa(threading.Thread):
    """The scorer's phone at one mesa: opens the mesa's link, then taps every `every` seconds
    (a random phase, +-25%) the table's current revision: +1 for each side in turn to 8 x 8,
    then void hands, so the match is never decided and every mesa stays in play."""

    def __init__(self, port: int, token: str, samples: Samples, stop: threading.Event) -> None:
        """A phone at the mesa with this link."""
        super().__init__(daemon=True)
        self.client = Client(port)
        self.token, self.samples, self.stop = token, samples, stop
        self.every = 25.0
        self.board, self.csrf, self.rev = "", "", 0
        self.run_id = secrets.token_hex(4)
        self.taps = 0

    def open(self) -> None:
        """The mesa's link, then the board it leads to: its scorer token, CSRF token, revision."""
        status, headers, _body, _ms = self.client.request("GET", f"/tm/{self.token}")
        assert status == 303, status
        self.board = headers["location"].rsplit("/", 1)[1]
        status, _headers, body, _ms = self.client.request("GET", f"/m/{self.board}")
        assert status == 200, status
        found = CSRF.search(body)
        rev = BOARD_REV.search(body)
        assert found and rev, "no CSRF token or revision on the board"
        self.csrf, self.rev = found.group(1) or found.group(2), int(rev.group(1))

    def tap(self) -> None:
        """One tap at the current revision, timed."""
        code = f"normal:{self.rev % 2}:1" if self.rev < 16 else "anulada"
        self.taps += 1
        cid = f"{self.run_id}-{self.taps:04x}-4000-8000-{secrets.token_hex(6)}"
        body = f"rev={self.rev}&o={code}&cid={cid}"
        headers = {"X-CSRFToken": self.csrf, "HX-Request": "true"}
        status, _h, _body, ms = self.client.request(
            "POST", f"/m/{self.board}/marcar", body, headers
        )
        self.samples.add(ms, status)
        if status == 200:
            self.rev += 1
        else:
            self.open()

    def run(self) -> None:
        """Tap at the pace set until stopped."""
        self.stop.wait(random.uniform(0, self.every))
        while not self.stop.is_set():
            self.tap()
            self.stop.wait(self.every * random.uniform(0.75, 1.25))


class Poller(threading.Thread):
    """A screen on the TV's link (the bar's TV, or a spectator's phone): polls its state every
    POLL_S seconds from a random phase, following the version as htmx does."""

    def __init__(self, port: int, view: str, samples: Samples, stop: threading.Event) -> None:
        """A screen following the torneio with this TV token."""
        super().__init__(daemon=True)
        self.client = Client(port)
        self.view, self.samples, self.stop = view, samples, stop
        self.version = ""

    def load(self) -> None:
        """The TV page, for its version."""
        status, _h, body, _ms = self.client.request("GET", f"/tv/{self.view}")
        assert status == 200, status
        found = VERSION.search(body)
        assert found
        self.version = found.group(1)

    def run(self) -> None:
        """Poll until stopped, on a fixed beat as htmx's `every 2s`."""
        beat = time.monotonic() + random.uniform(0, POLL_S)
        while not self.stop.wait(max(0.0, beat - time.monotonic())):
            path = f"/tv/{self.view}/estado?v={self.version}"
            status, _h, body, ms = self.client.request("GET", path, headers={"HX-Request": "true"})
            self.samples.add(ms, status)
            if status == 200:
                found = VERSION.search(body)
                self.version = found.group(1) if found else self.version
            beat += POLL_S
            while beat < time.monotonic():  # a beat missed while waiting is skipped, as a timer
                beat += POLL_S


def measure(
    port: int, pid: int, torneio: Torneio, every: float, spectators: int, seconds: int
) -> dict[str, Any]:
    """One run at a pace: every mesa tapping every `every` seconds, the TV and the spectators
    polling; the taps' and polls' figures and the server's CPU over `seconds`."""
    stop = threading.Event()
    taps, tv, crowd = Samples(), Samples(), Samples()
    mesas = [Mesa(port, token, taps, stop) for token in torneio.mesas]
    for mesa in mesas:
        mesa.every = every
        mesa.open()
    screens = [Poller(port, torneio.view, tv, stop)]
    screens += [Poller(port, torneio.view, crowd, stop) for _ in range(spectators)]
    for screen in screens:
        screen.load()
    for thread in (*mesas, *screens):
        thread.start()
    time.sleep(min(5.0, every))  # everyone started at a random phase: skip the first beats
    for found in (taps, tv, crowd):
        with found.lock:
            found.latencies.clear()
            found.statuses.clear()
    cpu, client_cpu, started = cpu_seconds(pid), time.process_time(), time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    used, client_used = cpu_seconds(pid) - cpu, time.process_time() - client_cpu
    stop.set()
    for thread in (*mesas, *screens):
        thread.join(timeout=70)
    return {
        "tap_every_s": every,
        "seconds": round(elapsed, 1),
        "taps": taps.summary(elapsed),
        "tv_polls": tv.summary(elapsed),
        "spectator_polls": crowd.summary(elapsed),
        "server_cpu_percent": round(100 * used / elapsed, 1),  # of one core
        "server_rss_mb": round(resident_mb(pid), 1),
        "client_cpu_percent": round(100 * client_used / elapsed, 1),
    }


def timed(call: Any, repeat: int) -> float:
    """The median CPU time of `call` (ms) over `repeat` calls."""
    found = []
    for _ in range(repeat):
        started = time.process_time()
        call()
        found.append((time.process_time() - started) * 1000)
    return round(statistics.median(found), 2)


def costs(database_url: str, torneio: Torneio, repeat: int) -> dict[str, float]:
    """The CPU of one request in-process (Flask's test client, one thread, no server): the TV's
    unchanged poll (204), its changed poll (the whole TV: as served, and drawn every time, with
    no kept body), and its parts apart (the sync and snapshot, which load every match's board,
    and the presenting and render), on the torneio as the load left it."""
    from flask import render_template

    from scorekeeper import caches
    from scorekeeper.web.torneio import present

    settings = {"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"}
    app = create_app(settings)
    client = app.test_client()
    # every cache but the TV's bodies (where there is one): a changed poll drawn every time
    drawing = create_app({**settings, "CACHES": ",".join(sorted(caches.NAMES - {"tv_bodies"}))})
    view = torneio.view
    version = VERSION.search(client.get(f"/tv/{view}").get_data(as_text=True))
    assert version
    unchanged, changed = f"/tv/{view}/estado?v={version.group(1)}", f"/tv/{view}/estado?v=0"
    assert client.get(unchanged).status_code == 204 and client.get(changed).status_code == 200

    def snap() -> Any:
        return calls.sync(access.viewer_torneio(view))

    with app.test_request_context(changed):
        shown = snap()
        render = timed(
            lambda: render_template(
                "torneio/_tv.html", version="0", poll_ms=2000, **present.context(shown)
            ),
            repeat,
        )
        return {
            "poll_unchanged_ms": timed(lambda: client.get(unchanged), repeat),
            "poll_changed_ms": timed(lambda: client.get(changed), repeat),
            "poll_changed_drawn_ms": timed(lambda: drawing.test_client().get(changed), repeat),
            "sync_snapshot_ms": timed(snap, repeat),
            "present_and_render_ms": render,
            "matches_called": len(shown.called),
        }


def to_the_final(database_url: str, torneio: Torneio) -> None:
    """Every match before the final and the 3rd-place match given by W.O. to its first pair,
    round after round, so that the TV shows a bracket played to its last matches."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        while True:
            snap = calls.sync(access.viewer_torneio(torneio.view))
            assert snap.bracket is not None
            last = snap.bracket.rounds
            open_ = [
                c
                for c in snap.called.values()
                if c.winner is None and not c.jogo.key.startswith(f"{last}-") and c.jogo.key != "3"
            ]
            if not open_:
                return
            for called in open_:
                db.session.expire_all()
                revision = access.viewer_torneio(torneio.view).revision
                word.decide(torneio.edit, revision, called.jogo.key, called.jogo.pair_a, "wo")


def start_waitress(database_url: str, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`make run`'s server (scorekeeper.serve: waitress, 4 threads) on 127.0.0.1."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench"}
    out = (folder / "waitress.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            Client(port).request("GET", "/")
            return process, port
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("waitress did not start: see " + str(folder / "waitress.log"))


def main() -> None:
    """Parse the options, run every pace, print and write the figures; always stop the server."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60, help="measured seconds of each pace")
    parser.add_argument(
        "--paces", default="25,2", help="seconds between a mesa's taps, one run each (25: real)"
    )
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=32)
    parser.add_argument("--mesas", type=int, default=16)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "torneio-results.json")
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tento-torneio-bench-"))
    pg = process = None
    try:
        if options.database == "postgresql":
            pg = postgres_server()
            pg.start()
            database_url = pg.url
        else:
            database_url = f"sqlite:///{folder / 'bench.sqlite3'}"
        migrate(database_url, {**os.environ, "DATABASE_URL": database_url})
        torneio = prepare_torneio(database_url, options.pairs, options.mesas)
        process, port = start_waitress(database_url, folder)
        Client(port).request("GET", f"/tv/{torneio.view}")  # calls the first matches
        results: dict[str, Any] = {
            "database": options.database,
            "pairs": options.pairs,
            "mesas": options.mesas,
            "spectators": options.spectators,
            "cores": os.cpu_count(),
            "runs": [],
        }
        for pace in options.paces.split(","):
            every = float(pace)
            log(f"every mesa tapping every {every:g} s, {options.seconds} s ...")
            run = measure(port, process.pid, torneio, every, options.spectators, options.seconds)
            results["runs"].append(run)
            log(json.dumps(run))
        process.terminate()
        process.wait(timeout=20)
        log("in-process costs ...")
        results["in_process_cpu"] = costs(database_url, torneio, 50)
        log(json.dumps(results["in_process_cpu"]))
        to_the_final(database_url, torneio)
        results["in_process_cpu_at_the_final"] = costs(database_url, torneio, 50)
        log(json.dumps(results["in_process_cpu_at_the_final"]))
        options.out.write_text(json.dumps(results, indent=1) + "\n")
        print(table(results))
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
        if pg is not None:
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)


def table(results: dict[str, Any]) -> str:
    """The runs as a Markdown table."""
    lines = [
        "| tap every | taps/s | tap p50 / p99 ms | TV p50 / p99 ms | spectators/s | 200s"
        " | spectator p50 / p99 ms | server CPU |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in results["runs"]:
        taps, tv, crowd = run["taps"], run["tv_polls"], run["spectator_polls"]
        changed = crowd.get("statuses", {}).get("200", 0) / max(1, crowd.get("requests", 0))
        lines.append(
            f"| {run['tap_every_s']:g} s | {taps.get('rps', 0)} | {taps.get('p50_ms')} /"
            f" {taps.get('p99_ms')} | {tv.get('p50_ms')} / {tv.get('p99_ms')} |"
            f" {crowd.get('rps', 0)} | {changed:.0%} | {crowd.get('p50_ms')} /"
            f" {crowd.get('p99_ms')} | {run['server_cpu_percent']}% |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
