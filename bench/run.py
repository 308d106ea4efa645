"""Tento's benchmark: gunicorn (2 sync workers) on 127.0.0.1 measured with wrk.

Prepares a throw-away database (`flask db upgrade`, default tables, tables with a long log),
starts gunicorn on bench/wsgi.py (Tento's app with the bench's own routes), measures every
scenario in short interleaved rounds (each ratio against the bare run just before it; the median
with its min and max), prints a table and writes bench/results.json. See bench/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine  # noqa: E402

from bench.prepare import (  # noqa: E402
    analyze,
    engine_of,
    migrate,
    new_tables,
    tables_with_history,
    write_tables,
)

LUA = ROOT / "bench" / "lua"
BROWSER_ENCODING = "gzip, deflate, br"
BUDGETS = {
    "first_load_gzip_bytes": 30 * 1024,
    "tap_response_bytes": 3 * 1024,
    "tap_over_write": 0.8,  # a tap against its own write alone, in the same rounds
    "poll_unchanged_ratio": 0.7,
    "viewers_p99_ms": 100.0,
    "viewers_rps": 500.0,
    "history_ratio_10000": 0.9,
}
VIEWER_SECONDS = 15
# How often each watched table scores a hand while its viewers poll, in ms: the budget's run
# (every 15 s, four times the pace of real play, where a hand is dealt, played over up to three
# rounds and scored in a minute or more) and a stress run (every 2.5 s), reported beside it.
HAND_EVERY_MS = {"viewers_1000": 15_000, "viewers_1000_fast": 2_500}
TAPPERS = 10  # the tapping wrk's connections
# A request slower than this counts as a socket error: generous, so that a busy machine shows
# as lower figures, not as errors.
WRK_TIMEOUT = "30s"
ASSET = re.compile(r'<(?:link|script)\b[^>]*?(?:href|src)="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Setup:
    """What every scenario needs: the server's URL, the session, the folder for the tables files
    and an engine on the database to fill them."""

    url: str
    cookie: str
    csrf: str
    folder: Path
    engine: Engine
    server_pid: int


def log(message: str) -> None:
    """Progress on stderr, so that stdout keeps only the results."""
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CACHES = "1"  # TENTO_CACHES for the server: all on unless --caches says otherwise


def server_env(database_url: str) -> dict[str, str]:
    """Production settings on the bench database, with the caches --caches keeps."""
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "SECRET_KEY": "bench", "TENTO_CACHES": CACHES})
    return env


def start_server(
    database_url: str, folder: Path, workers: int
) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn with `workers` sync workers on a free port; waits until it answers."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "sync",
        "--bind", f"127.0.0.1:{port}", "--no-control-socket", "--log-level", "warning",
        "--pythonpath", str(ROOT), "bench.wsgi:create_app()",
    ]  # fmt: skip
    out = (folder / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        command, env=server_env(database_url), stdout=out, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    answering(process, url, "gunicorn did not start: see " + str(folder / "gunicorn.log"))
    return process, url


def answering(process: subprocess.Popen[bytes], url: str, failure: str) -> None:
    """Wait (up to 60 s: generous on a busy machine) for the bare route to answer; a probe that
    times out while the workers boot is tried again. A server that never answers, or whose wait
    is cut short by anything (Ctrl-C included), is stopped before the error goes on."""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(url + "/_bench/bare", timeout=5):
                    return
            except OSError:  # refused, reset or timed out (URLError, TimeoutError are OSErrors)
                time.sleep(0.1)
        raise SystemExit(failure)
    except BaseException:
        stop_server(process)
        raise


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop gunicorn (master and workers, the process group we started)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


def worker_pids(master: int) -> list[int]:
    """The gunicorn master's children (its workers), from /proc."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == master:
            pids.append(int(stat.parent.name))
    return pids


def worker_memory(master: int) -> dict[str, float]:
    """The largest worker's resident memory now (VmRSS) and at its peak so far (VmHWM), in MB."""
    now, peak = 0, 0
    for pid in worker_pids(master):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kb = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", status, re.MULTILINE))
        now = max(now, int(kb.get("VmRSS", 0)))
        peak = max(peak, int(kb.get("VmHWM", 0)))
    return {"worker_rss_mb": round(now / 1024, 1), "worker_peak_mb": round(peak / 1024, 1)}


NGINX_CONF = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {folder}/nginx-body;
  proxy_temp_path {folder}/nginx-proxy;
  fastcgi_temp_path {folder}/nginx-fastcgi;
  uwsgi_temp_path {folder}/nginx-uwsgi;
  scgi_temp_path {folder}/nginx-scgi;
  keepalive_timeout 65s;
  keepalive_requests 100000;
  upstream tento {{ server {upstream}; }}
  server {{
    listen {listen};
    location / {{
      proxy_pass http://tento;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
    }}
  }}
}}
"""


def start_nginx(folder: Path, upstream: str) -> tuple[subprocess.Popen[bytes], str]:
    """nginx on a free port, proxying to gunicorn and keeping the clients' connections alive
    (sync workers must only ever see whole requests: the production set-up of docs/deploy.md)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    port = free_port()
    folder.chmod(0o755)
    conf = folder / "nginx.conf"
    conf.write_text(
        NGINX_CONF.format(
            folder=folder, upstream=upstream.split("//")[1], listen=f"127.0.0.1:{port}"
        )
    )
    command = [nginx, "-p", str(folder), "-c", str(conf), "-e", str(folder / "nginx-error.log")]
    process = subprocess.Popen(
        [*command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    answering(process, url, "nginx did not start: see " + str(folder / "nginx-error.log"))
    return process, url


def fetch(
    opener: urllib.request.OpenerDirector, url: str, data: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes, dict[str, str]]:  # fmt: skip
    """One request: status, body as sent on the wire, headers."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with opener.open(request, timeout=10) as response:
        return response.status, response.read(), dict(response.headers)


def session(url: str, edit: str) -> tuple[urllib.request.OpenerDirector, str, str]:
    """A browser-like session: the board page gives the session cookie and the CSRF token."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    _, body, _ = fetch(opener, f"{url}/m/{edit}")
    match = CSRF.search(body.decode())
    assert match, "no CSRF token on the board"
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return opener, cookie, match.group(1)


def page_weight(url: str, edit: str) -> dict[str, Any]:
    """The board's first load (page and every asset it links, plus what the service worker
    fetches when it installs) and a tap's response, as sent compressed."""
    opener, _, csrf = session(url, edit)
    headers = {"X-CSRFToken": csrf, "HX-Request": "true"}
    for i in range(8):  # a board with a log, as in a real game
        rev = re.search(r'data-rev="(\d+)"', fetch(opener, f"{url}/m/{edit}")[1].decode())
        assert rev
        form = f"rev={rev.group(1)}&o=normal:{i % 2}:1".encode()
        fetch(opener, f"{url}/m/{edit}/marcar", form, headers)
    page = fetch(opener, f"{url}/m/{edit}")[1].decode()
    assets = list(dict.fromkeys(a.replace("&amp;", "&") for a in ASSET.findall(page)))
    worker = ["/sw.js", "/offline"]
    sizes: dict[str, dict[str, int]] = {}
    for path in [f"/m/{edit}", *assets, *worker]:
        sizes[path] = {}
        for encoding in ("gzip", "br"):
            _, body, _ = fetch(opener, url + path, headers={"Accept-Encoding": encoding})
            sizes[path][encoding] = len(body)
    first = [f"/m/{edit}", *assets]
    rev = re.search(r'data-rev="(\d+)"', page)
    assert rev
    tap_headers = {**headers, "Accept-Encoding": "gzip"}
    status, tap_body, tap_meta = fetch(
        opener, f"{url}/m/{edit}/marcar", f"rev={rev.group(1)}&o=anulada".encode(), tap_headers
    )
    assert status == 200 and tap_meta.get("Content-Encoding") == "gzip"
    return {
        "first_load_gzip_bytes": sum(sizes[p]["gzip"] for p in first),
        "first_load_br_bytes": sum(sizes[p]["br"] for p in first),
        "service_worker_install_gzip_bytes": sum(sizes[p]["gzip"] for p in worker),
        "tap_response_bytes": len(tap_body),
        "tap_response_uncompressed_bytes": len(gzip.decompress(tap_body)),
        "files": {
            re.sub(r"^/m/.*", "/m/<token>", p.split("?")[0]): s["gzip"] for p, s in sizes.items()
        },
    }


def wrk(
    setup: Setup, script: str, args: list[str], *, seconds: int, connections: int,
    threads: int = 2, compressed: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """Run wrk once and return its JSON summary with rps, p50_ms and p99_ms."""
    headers = {
        "Cookie": setup.cookie,
        "X-CSRFToken": setup.csrf,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    if compressed:
        headers["Accept-Encoding"] = BROWSER_ENCODING
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", WRK_TIMEOUT]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    mode, tables, *extra = args
    command += ["-s", str(LUA / script), setup.url, "--", mode, tables, str(threads), *extra]
    env = {**os.environ, "TENTO_RUN": secrets.token_hex(4)}  # the run's client ids (load.lua)
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, env=env)
    line = next((x for x in result.stdout.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise SystemExit(f"wrk failed: {result.stdout}\n{result.stderr}")
    data: dict[str, Any] = json.loads(line[5:])
    seconds_run = data["duration_us"] / 1e6
    errors = data["errors"]
    data["mode"] = mode
    data["rps"] = round(data["requests"] / seconds_run, 1)
    data["p50_ms"] = round(data["latency_us"]["p50"] / 1000, 2)
    data["p99_ms"] = round(data["latency_us"]["p99"] / 1000, 2)
    data["non_2xx"] = errors["status"]
    data["socket_errors"] = errors["connect"] + errors["read"] + errors["write"] + errors["timeout"]
    return data


def viewers_with_taps(
    setup: Setup, tables: Path, seconds: int, viewers: int, hand_every_ms: int
) -> dict[str, Any]:
    """`viewers` live viewers polling every 2 s while a second wrk taps each of their tables
    about every `hand_every_ms`, through nginx in front of gunicorn (each viewer keeps its
    connection alive, like a phone)."""
    proxy, proxy_url = start_nginx(setup.folder, setup.url)
    try:
        return _viewers_with_taps(
            Setup(**{**setup.__dict__, "url": proxy_url}), tables, seconds, viewers, hand_every_ms
        )
    finally:
        stop_server(proxy)


def _viewers_with_taps(
    setup: Setup, tables: Path, seconds: int, viewers: int, hand_every_ms: int
) -> dict[str, Any]:
    """The viewers' and the tapper's wrk runs, side by side."""
    watched = len(tables.read_text().splitlines())
    pause_ms = hand_every_ms * TAPPERS // watched  # TAPPERS taps every pause: one a table
    taps = subprocess.Popen(
        [
            "wrk", "-t1", f"-c{TAPPERS}", f"-d{seconds}s", "--timeout", WRK_TIMEOUT,
            "-H", f"Cookie: {setup.cookie}", "-H", f"X-CSRFToken: {setup.csrf}",
            "-H", "HX-Request: true", "-H", "Content-Type: application/x-www-form-urlencoded",
            "-H", f"Accept-Encoding: {BROWSER_ENCODING}",
            "-s", str(LUA / "paced.lua"), setup.url, "--",
            "tap", str(tables), "1", str(pause_ms), str(TAPPERS),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TENTO_RUN": secrets.token_hex(4)},
    )  # fmt: skip
    try:
        watch = wrk(
            setup, "viewers.lua", ["poll_unchanged", str(tables), "2000", str(viewers // 2)],
            seconds=seconds, connections=viewers, compressed=False,
        )  # fmt: skip
    finally:
        out, _ = taps.communicate(timeout=seconds + 60)
    line = next(x for x in out.splitlines() if x.startswith("JSON "))
    tapped = json.loads(line[5:])
    tap_seconds = tapped["duration_us"] / 1e6
    return {
        "viewers": viewers,
        "hand_every_ms": hand_every_ms,
        "taps_rps_planned": round(TAPPERS * 1000 / pause_ms, 1),
        **published(watch),
        "taps_rps": round(tapped["requests"] / tap_seconds, 1),
        "taps_p99_ms": round(tapped["latency_us"]["p99"] / 1000, 2),
        "taps_non_2xx": tapped["errors"]["status"],
    }


def published(data: dict[str, Any]) -> dict[str, Any]:
    """The published fields of one wrk run."""
    return {k: data[k] for k in ("rps", "p50_ms", "p99_ms", "requests", "non_2xx", "socket_errors")}


def spread(values: list[float], digits: int) -> tuple[float, float, float]:
    """The median, min and max of repeated measurements, rounded."""
    return (
        round(statistics.median(values), digits),
        round(min(values), digits),
        round(max(values), digits),
    )


def combined(runs: list[dict[str, Any]], ratios: list[float] | None = None) -> dict[str, Any]:
    """Several wrk runs of one scenario as one: the median requests/s and latencies (with the
    min and max requests/s), the totals of requests and errors, and the median ratio with its
    min and max."""
    rps, rps_min, rps_max = spread([r["rps"] for r in runs], 1)
    out: dict[str, Any] = {
        "rps": rps,
        "rps_min": rps_min,
        "rps_max": rps_max,
        "p50_ms": round(statistics.median(r["p50_ms"] for r in runs), 2),
        "p99_ms": round(statistics.median(r["p99_ms"] for r in runs), 2),
        "requests": sum(r["requests"] for r in runs),
        "non_2xx": sum(r["non_2xx"] for r in runs),
        "socket_errors": sum(r["socket_errors"] for r in runs),
        "runs": len(runs),
    }
    if ratios:
        out["ratio"], out["ratio_min"], out["ratio_max"] = spread(ratios, 3)
    return out


# The scenarios compared with the bare route: result name and load.lua's mode.
SCENARIOS = {
    "tap": "tap",
    "tap_write": "tap_write",
    "write_floor": "write_floor",
    "poll_unchanged": "poll_unchanged",
    "poll_changed": "poll_changed",
    "board_page": "board",
}
# Tables with a long log: records -> (slices, tables in a slice). Round n taps slice n (mod the
# slices), so the taps of a whole run add little to any table's log (a few percent at most).
HISTORY = {0: (5, 200), 1_000: (5, 40), 10_000: (2, 16)}
# One connection per wrk thread and per worker: a request that takes a second waits for no other.
HISTORY_CONNECTIONS = 2


@dataclass
class Tables:
    """The prepared tables by id: the scenarios', the write floor's (its writes add no record,
    so they stay off the taps' tables), the watched ones and the history slices."""

    first: int
    scenarios: list[int]
    floor: list[int]
    watched: list[int]
    history: dict[int, list[list[int]]]


def prepare(engine: Engine, count: int) -> Tables:
    """`count` default tables, then the tables with a long log of every HISTORY size."""
    ids = new_tables(engine, count)
    half = count // 2
    slices: dict[int, list[list[int]]] = {}
    for records, (parts, size) in HISTORY.items():
        log(f"  {parts * size} tables with {records:,} records each ...")
        made = tables_with_history(engine, parts * size, records)
        slices[records] = [made[n * size : (n + 1) * size] for n in range(parts)]
    analyze(engine)
    return Tables(ids[0], ids[1:half], ids[half + 250 :], ids[half : half + 250], slices)


def measure(
    setup: Setup, mode: str, ids: list[int] | None, seconds: int, connections: int = 8
) -> dict[str, Any]:
    """One wrk run of a load.lua mode on these tables (their revisions read just before)."""
    listed = "-"
    if ids is not None:
        listed = write_tables(setup.engine, setup.folder / "mesa.txt", ids)
    return wrk(setup, "load.lua", [mode, listed], seconds=seconds, connections=connections)


def ratio(data: dict[str, Any], base: dict[str, Any]) -> float:
    """One run's requests/s over another's; a base run that got no answer at all ends the bench
    (its runs are too short for this machine's load)."""
    if not base["rps"]:
        raise SystemExit(f"a {base['mode']} run got no answer in time: try a longer --seconds")
    return float(data["rps"] / base["rps"])


def interleaved(setup: Setup, tables: Tables, seconds: int, rounds: int) -> dict[str, Any]:
    """Rounds of (bare route, scenario) for every scenario in turn: each ratio is against the
    bare run just before it, so a machine that slows down or speeds up between runs moves both.
    The workers' memory is read after the first bare run and after each scenario's last run."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in ("bare", *SCENARIOS)}
    ratios: dict[str, list[float]] = {name: [] for name in SCENARIOS}
    memory: dict[str, dict[str, float]] = {}
    for number in range(rounds):
        log(f"round {number + 1} of {rounds}: bare route then " + ", ".join(SCENARIOS))
        for name, mode in SCENARIOS.items():
            bare = measure(setup, "bare", None, seconds)
            memory.setdefault("bare", worker_memory(setup.server_pid))
            ids = tables.floor if name == "write_floor" else tables.scenarios
            data = measure(setup, mode, ids, seconds)
            runs["bare"].append(bare)
            runs[name].append(data)
            ratios[name].append(ratio(data, bare))
            memory[name] = worker_memory(setup.server_pid)
    out = {name: {**combined(runs[name], ratios.get(name)), **memory[name]} for name in runs}
    if runs.get("tap") and runs.get("tap_write"):
        # The answer's cost: each round's taps a second over the same round's writes alone (run
        # one after the other, a bare run between them), the median of the rounds.
        pairs = zip(runs["tap"], runs["tap_write"], strict=True)
        over = [tap["rps"] / write["rps"] for tap, write in pairs if write["rps"]]
        median, low, high = spread(over, 3)
        out["tap_over_write"] = {"ratio": median, "ratio_min": low, "ratio_max": high}
    return out


def history(setup: Setup, tables: Tables, seconds: int, rounds: int) -> dict[str, Any]:
    """Taps and board pages on tables with 0, 1,000 and 10,000 records: requests/s and, each
    round, the ratio to the 0-record figure of the same round (sizes in turn up, then down)."""
    sizes = list(HISTORY)
    rps: dict[str, list[dict[str, Any]]] = {}
    ratios: dict[str, list[float]] = {}
    growth: dict[str, list[float]] = {}  # the largest log's figure over the one below it
    for number in range(rounds):
        log(f"history round {number + 1} of {rounds}: taps and board pages, {sizes} records")
        for kind, mode in (("tap", "tap"), ("board", "board")):
            this = {}
            for records in sizes if number % 2 == 0 else sizes[::-1]:
                part = tables.history[records][number % len(tables.history[records])]
                this[records] = measure(setup, mode, part, seconds, HISTORY_CONNECTIONS)
            for records, data in this.items():
                rps.setdefault(f"{kind}_{records}", []).append(data)
                ratios.setdefault(f"{kind}_{records}", []).append(ratio(data, this[0]))
            growth.setdefault(kind, []).append(ratio(this[sizes[-1]], this[sizes[-2]]))
    out: dict[str, Any] = {
        "records": sizes,
        "tables_per_run": {str(n): size for n, (_, size) in HISTORY.items()},
    }
    for key, runs in rps.items():
        kind, records = key.split("_")
        merged = combined(runs, ratios[key])
        out[f"{kind}_rps_{records}"] = merged["rps"]
        out[f"{kind}_p50_ms_{records}"] = merged["p50_ms"]
        if records != "0":
            out[f"{kind}_ratio_{records}"] = merged["ratio"]
            out[f"{kind}_ratio_{records}_min"] = merged["ratio_min"]
            out[f"{kind}_ratio_{records}_max"] = merged["ratio_max"]
    for kind, values in growth.items():
        out[f"{kind}_ratio_{sizes[-1]}_to_{sizes[-2]}"] = round(statistics.median(values), 3)
    every = [run for runs in rps.values() for run in runs]
    out["non_2xx"] = sum(r["non_2xx"] for r in every)
    out["socket_errors"] = sum(r["socket_errors"] for r in every)
    return {**out, **worker_memory(setup.server_pid)}


def memory_summary(results: dict[str, Any]) -> dict[str, float]:
    """The largest worker's memory after the bare route, its peak over the whole run, and the
    peak's ratio to the bare figure (1.0: the app's pages cost no memory beyond Flask's)."""
    bare = results["bare"]["worker_rss_mb"]
    measured = [r for r in results.values() if isinstance(r, dict) and "worker_peak_mb" in r]
    peak = max(r["worker_peak_mb"] for r in measured)
    return {"bare_worker_rss_mb": bare, "peak_worker_mb": peak, "peak_ratio": round(peak / bare, 2)}


def verdicts(results: dict[str, Any]) -> dict[str, bool]:
    """Each budget (BUDGETS, listed in bench/README.md), on the medians: met or not."""
    weight, viewers, past = results["page_weight"], results["viewers_1000"], results["history"]
    return {
        "first_load_gzip_bytes": weight["first_load_gzip_bytes"]
        <= BUDGETS["first_load_gzip_bytes"],
        "tap_response_bytes": weight["tap_response_bytes"] <= BUDGETS["tap_response_bytes"],
        "tap_over_write": results["tap_over_write"]["ratio"] >= BUDGETS["tap_over_write"],
        "poll_unchanged_ratio": results["poll_unchanged"]["ratio"]
        >= BUDGETS["poll_unchanged_ratio"],
        "viewers_p99_ms": viewers["p99_ms"] < BUDGETS["viewers_p99_ms"]
        and viewers["rps"] >= BUDGETS["viewers_rps"] * 0.9  # the first 2 s ramp up
        and viewers["non_2xx"] == 0
        and viewers["socket_errors"] == 0,
        "history_tap_ratio_10000": past["tap_ratio_10000"] >= BUDGETS["history_ratio_10000"],
        "history_board_ratio_10000": past["board_ratio_10000"] >= BUDGETS["history_ratio_10000"],
    }


def ratio_text(r: dict[str, Any], key: str = "ratio") -> str:
    """A median ratio with its min and max, e.g. '0.32 (0.29-0.34)'."""
    return f"{r[key]:.2f} ({r[key + '_min']:.2f}-{r[key + '_max']:.2f})"


def table(results: dict[str, Any]) -> str:
    """The results as a plain-text table (medians; ratios with their min and max)."""
    lines = [
        f"{'scenario':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}   {'ratio (min-max)':<18}"
        f"{'non-2xx':>8}{'RSS MB':>8}"
    ]
    for name in ("bare", *SCENARIOS, *HAND_EVERY_MS):
        if name not in results:
            continue
        r = results[name]
        ratio = ratio_text(r) if "ratio" in r else ""
        lines.append(
            f"{name:<16}{r['rps']:>9.0f}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}   {ratio:<18}"
            f"{r['non_2xx']:>8}{r['worker_rss_mb']:>8.1f}"
        )
    if "tap_over_write" in results:
        lines.append(f"tap over its write alone: {ratio_text(results['tap_over_write'])}")
    if "history" not in results:
        return "\n".join(lines)
    for name in HAND_EVERY_MS:
        v = results[name]
        lines.append(
            f"  ({name}: a hand every {v['hand_every_ms'] / 1000:g} s a table, taps beside the"
            f" viewers {v['taps_rps']:.0f}/s of {v['taps_rps_planned']:.0f}, p99"
            f" {v['taps_p99_ms']} ms)"
        )
    h = results["history"]
    lines.append(f"{'history':<16}" + "".join(f"{n:>22,}" for n in h["records"]) + " records")
    for kind in ("tap", "board"):
        cells = []
        for n in h["records"]:
            ratio = ratio_text(h, f"{kind}_ratio_{n}") if n else ""
            cells.append(f"{h[f'{kind}_rps_{n}']:>6.0f}/s {ratio:>14}")
        lines.append(f"{kind:<16}" + "".join(f"{c:>22}" for c in cells))
    small, large = h["records"][-2], h["records"][-1]
    growth = ", ".join(f"{k} {h[f'{k}_ratio_{large}_to_{small}']:.2f}" for k in ("tap", "board"))
    lines.append(f"growth from {small:,} to {large:,} records (median ratio): {growth}")
    w = results["page_weight"]
    lines.append(
        f"first load {w['first_load_gzip_bytes']} B gzip ({w['first_load_br_bytes']} B br), "
        f"+{w['service_worker_install_gzip_bytes']} B when the service worker installs; "
        f"tap response {w['tap_response_bytes']} B gzip "
        f"({w['tap_response_uncompressed_bytes']} B uncompressed)"
    )
    m = results["memory"]
    lines.append(
        f"largest worker: {m['bare_worker_rss_mb']} MB after the bare route, peak "
        f"{m['peak_worker_mb']} MB over the run ({m['peak_ratio']}x)"
    )
    lines.append(
        "budgets: "
        + ", ".join(f"{k} {'ok' if v else 'MISSED'}" for k, v in results["budgets_met"].items())
    )
    return "\n".join(lines)


def postgres_server() -> Any:
    """A throw-away PostgreSQL server (as in the tests), not started yet."""
    from tests.pgserver import PgServer

    server = PgServer.create()
    if server is None:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
    return server


def main() -> None:
    """Parse the options, run everything, always stop what was started."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every scenario")
    # The history's runs use 2 connections: one slow moment of the machine moves a 3 s run by
    # a fifth (0.72 to 1.12 in one run's rounds), so its medians take more rounds.
    parser.add_argument("--history-rounds", type=int, default=9, help="rounds of the history")
    parser.add_argument("--tables", type=int, default=2000, help="default tables to create")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument(
        "--caches", default="1", help="TENTO_CACHES for the server: 1 (all), 0 (none), or names"
    )
    parser.add_argument(
        "--only", default="", help="comma-separated scenarios to run alone (no history, viewers)"
    )
    parser.add_argument(
        "--history-only", action="store_true", help="the history's rounds alone (noisy: compare)"
    )
    options = parser.parse_args()
    global CACHES
    CACHES = options.caches
    if options.only:
        wanted = set(options.only.split(","))
        for name in [n for n in SCENARIOS if n not in wanted]:
            del SCENARIOS[name]
    for program in ("wrk", "nginx"):
        if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists():
            raise SystemExit(f"{program} not found: apt-get install {program} (make bench does)")
    runs = options.rounds * 2 * len(SCENARIOS) + options.history_rounds * 2 * len(HISTORY)
    log(
        f"{runs} wrk runs of {options.seconds} s, then {len(HAND_EVERY_MS)} runs of"
        f" {VIEWER_SECONDS} s of 1,000 viewers"
    )
    folder = Path(tempfile.mkdtemp(prefix="tento-bench-"))
    pg = None
    process = None
    try:
        if options.database == "postgresql":
            pg = postgres_server()
            pg.start()
            database_url = pg.url
        else:
            database_url = f"sqlite:///{folder / 'bench.sqlite3'}"
        log(f"preparing the tables on {options.database} ...")
        migrate(database_url, server_env(database_url))
        with engine_of(database_url) as engine:
            tables = prepare(engine, options.tables)
            process, url = start_server(database_url, folder, options.workers)
            first = write_tables(engine, folder / "first.txt", [tables.first])
            edit = Path(first).read_text().split()[0]
            _, cookie, csrf = session(url, edit)
            setup = Setup(url, cookie, csrf, folder, engine, process.pid)
            results: dict[str, Any] = {
                "machine": {"cores": os.cpu_count(), "workers": options.workers},
                "database": options.database,
                "seconds_per_run": options.seconds,
                "rounds": options.rounds,
                "history_rounds": options.history_rounds,
            }
            results["caches"] = options.caches
            if options.history_only:
                results["history"] = history(
                    setup, tables, options.seconds, options.history_rounds
                )
                options.only = "history"
            else:
                results.update(interleaved(setup, tables, options.seconds, options.rounds))
            if not options.only:
                results["history"] = history(
                    setup, tables, options.seconds, options.history_rounds
                )
                log("1,000 viewers while taps go on ...")
                watched = Path(write_tables(engine, folder / "watched.txt", tables.watched))
                for name, every in HAND_EVERY_MS.items():
                    results[name] = {
                        **viewers_with_taps(setup, watched, VIEWER_SECONDS, 1000, every),
                        **worker_memory(process.pid),
                    }
                results["memory"] = memory_summary(results)
                results["page_weight"] = page_weight(url, edit)
        if not options.only:
            results["budgets"] = BUDGETS
            results["budgets_met"] = verdicts(results)
    finally:
        if process is not None:
            stop_server(process)
        if pg is not None:
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
    options.out.write_text(json.dumps(results, indent=2) + "\n")
    print(table(results) if not options.only else json.dumps(results, indent=1))
    print(f"written to {options.out}")


if __name__ == "__main__":
    main()
