"""Tento's benchmark: gunicorn (2 sync workers) on 127.0.0.1 measured with wrk.

Prepares a throw-away database (`flask db upgrade`, then tables made through the models), starts
gunicorn with the bench-only bare route (TENTO_BENCH=1), measures every scenario for a bounded
time, prints a table and writes bench/results.json. See bench/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import signal
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

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.mesas import new_token  # noqa: E402
from scorekeeper.models import Mesa  # noqa: E402

LUA = ROOT / "bench" / "lua"
BROWSER_ENCODING = "gzip, deflate, br"
BUDGETS = {
    "first_load_gzip_bytes": 30 * 1024,
    "tap_response_bytes": 3 * 1024,
    "tap_ratio": 0.3,
    "poll_unchanged_ratio": 0.7,
    "viewers_p99_ms": 100.0,
    "viewers_rps": 500.0,
}
ASSET = re.compile(r'<(?:link|script)\b[^>]*?(?:href|src)="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Setup:
    """What every scenario needs: the server's URL, the session and the tables file."""

    url: str
    cookie: str
    csrf: str
    folder: Path
    database_url: str
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


def server_env(database_url: str) -> dict[str, str]:
    """Production settings on the bench database, plus the bench-only bare route."""
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "SECRET_KEY": "bench", "TENTO_BENCH": "1"})
    return env


def prepare_database(database_url: str, count: int) -> None:
    """`flask db upgrade`, then `count` default tables written through the models."""
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=server_env(database_url), check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    with app.app_context():
        db.session.add_all(
            Mesa(edit_token=new_token(), view_token=new_token()) for _ in range(count)
        )
        db.session.commit()
        db.engine.dispose()


def write_tables(database_url: str, path: Path, first: int, last: int) -> Path:
    """Tables first..last-1 (by id) as lines 'edit view revision', read fresh from the database."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    with app.app_context():
        rows = db.session.execute(db.select(Mesa).order_by(Mesa.id)).scalars().all()[first:last]
        path.write_text("".join(f"{m.edit_token} {m.view_token} {m.revision}\n" for m in rows))
        db.engine.dispose()
    return path


def start_server(
    database_url: str, folder: Path, workers: int
) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn with `workers` sync workers on a free port; waits until it answers."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "sync",
        "--bind", f"127.0.0.1:{port}", "--no-control-socket", "--log-level", "warning",
        "scorekeeper:create_app()",
    ]  # fmt: skip
    out = (folder / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        command, env=server_env(database_url), stdout=out, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url, 30, "gunicorn did not start: see " + str(folder / "gunicorn.log"))
    return process, url


def wait_until_up(process: subprocess.Popen[bytes], url: str, seconds: float, failure: str) -> None:
    """Wait for the bare route to answer; if it never does, stop the server and exit."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_bench/bare", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    stop_server(process)
    raise SystemExit(failure)


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
    (sync workers must only ever see whole requests: the production set-up of README.md)."""
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
    wait_until_up(process, url, 15, "nginx did not start: see " + str(folder / "nginx-error.log"))
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
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    mode, tables, *extra = args
    command += ["-s", str(LUA / script), setup.url, "--", mode, tables, str(threads), *extra]
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in result.stdout.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise SystemExit(f"wrk failed: {result.stdout}\n{result.stderr}")
    data: dict[str, Any] = json.loads(line[5:])
    seconds_run = data["duration_us"] / 1e6
    errors = data["errors"]
    data["rps"] = round(data["requests"] / seconds_run, 1)
    data["p50_ms"] = round(data["latency_us"]["p50"] / 1000, 2)
    data["p99_ms"] = round(data["latency_us"]["p99"] / 1000, 2)
    data["non_2xx"] = errors["status"]
    data["socket_errors"] = errors["connect"] + errors["read"] + errors["write"] + errors["timeout"]
    return data


def summary(data: dict[str, Any], bare_rps: float | None = None) -> dict[str, Any]:
    """The published fields of one scenario."""
    out = {k: data[k] for k in ("rps", "p50_ms", "p99_ms", "requests", "non_2xx", "socket_errors")}
    if bare_rps:
        out["ratio"] = round(data["rps"] / bare_rps, 3)
    return out


def viewers_with_taps(setup: Setup, tables: Path, seconds: int, viewers: int) -> dict[str, Any]:
    """`viewers` live viewers polling every 2 s while a second wrk taps at about 100 per second,
    through nginx in front of gunicorn (each viewer keeps its connection alive, like a phone)."""
    proxy, proxy_url = start_nginx(setup.folder, setup.url)
    try:
        return _viewers_with_taps(
            Setup(**{**setup.__dict__, "url": proxy_url}), tables, seconds, viewers
        )
    finally:
        stop_server(proxy)


def _viewers_with_taps(setup: Setup, tables: Path, seconds: int, viewers: int) -> dict[str, Any]:
    """The viewers' and the tapper's wrk runs, side by side."""
    taps = subprocess.Popen(
        [
            "wrk", "-t1", "-c10", f"-d{seconds}s", "--timeout", "5s",
            "-H", f"Cookie: {setup.cookie}", "-H", f"X-CSRFToken: {setup.csrf}",
            "-H", "HX-Request: true", "-H", "Content-Type: application/x-www-form-urlencoded",
            "-H", f"Accept-Encoding: {BROWSER_ENCODING}",
            "-s", str(LUA / "paced.lua"), setup.url, "--", "tap", str(tables), "1", "100", "10",
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
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
        **summary(watch),
        "taps_rps": round(tapped["requests"] / tap_seconds, 1),
        "taps_p99_ms": round(tapped["latency_us"]["p99"] / 1000, 2),
        "taps_non_2xx": tapped["errors"]["status"],
    }


def run(setup: Setup, seconds: int, tables: int) -> dict[str, Any]:
    """Every scenario in turn, each with the workers' memory right after it; the ratios are
    against the bare route of the same run."""
    folder, url = setup.folder, setup.database_url
    half = tables // 2
    results: dict[str, Any] = {}

    def scenario(name: str, script: str, args: list[str], bare_rps: float | None) -> None:
        """Run one wrk scenario and keep its summary and the memory after it."""
        data = wrk(setup, script, args, seconds=seconds, connections=8)
        results[name] = {**summary(data, bare_rps), **worker_memory(setup.server_pid)}

    log("bare route ...")
    scenario("bare", "load.lua", ["bare", "-"], None)
    bare_rps = results["bare"]["rps"]
    log("taps ...")
    taps = str(write_tables(url, folder / "taps.txt", 1, half))
    scenario("tap", "load.lua", ["tap", taps], bare_rps)
    current = str(write_tables(url, folder / "current.txt", 1, half))
    log("unchanged polls ...")
    scenario("poll_unchanged", "load.lua", ["poll_unchanged", current], bare_rps)
    log("changed polls ...")
    scenario("poll_changed", "load.lua", ["poll_changed", current], bare_rps)
    log("board pages ...")
    scenario("board_page", "load.lua", ["board", current], bare_rps)
    log("1,000 viewers while taps go on ...")
    watched = write_tables(url, folder / "watched.txt", half, half + 250)
    results["viewers_1000"] = {
        **viewers_with_taps(setup, watched, max(seconds * 2, 10), 1000),
        **worker_memory(setup.server_pid),
    }
    results["memory"] = memory_summary(results)
    return results


def memory_summary(results: dict[str, Any]) -> dict[str, float]:
    """The largest worker's memory after the bare route, its peak over the whole run, and the
    peak's ratio to the bare figure (1.0: the app's pages cost no memory beyond Flask's)."""
    bare = results["bare"]["worker_rss_mb"]
    peak = max(r["worker_peak_mb"] for r in results.values() if "worker_peak_mb" in r)
    return {"bare_worker_rss_mb": bare, "peak_worker_mb": peak, "peak_ratio": round(peak / bare, 2)}


def verdicts(results: dict[str, Any]) -> dict[str, bool]:
    """Each budget of DESIGN.md: met or not."""
    weight, viewers = results["page_weight"], results["viewers_1000"]
    return {
        "first_load_gzip_bytes": weight["first_load_gzip_bytes"]
        <= BUDGETS["first_load_gzip_bytes"],
        "tap_response_bytes": weight["tap_response_bytes"] <= BUDGETS["tap_response_bytes"],
        "tap_ratio": results["tap"]["ratio"] >= BUDGETS["tap_ratio"],
        "poll_unchanged_ratio": results["poll_unchanged"]["ratio"]
        >= BUDGETS["poll_unchanged_ratio"],
        "viewers_p99_ms": viewers["p99_ms"] < BUDGETS["viewers_p99_ms"]
        and viewers["rps"] >= BUDGETS["viewers_rps"] * 0.9  # the first 2 s ramp up
        and viewers["non_2xx"] == 0
        and viewers["socket_errors"] == 0,
    }


def table(results: dict[str, Any]) -> str:
    """The results as a plain-text table."""
    lines = [
        f"{'scenario':<16}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}{'non-2xx':>9}"
        f"{'RSS MB':>9}"
    ]
    for name in ("bare", "tap", "poll_unchanged", "poll_changed", "board_page", "viewers_1000"):
        r = results[name]
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else ""
        lines.append(
            f"{name:<16}{r['rps']:>10.0f}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}{ratio:>8}"
            f"{r['non_2xx']:>9}{r['worker_rss_mb']:>9.1f}"
        )
    v = results["viewers_1000"]
    lines.append(f"  (taps beside the viewers: {v['taps_rps']:.0f}/s, p99 {v['taps_p99_ms']} ms)")
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


def postgres_url(folder: Path) -> tuple[str, Any]:
    """A throw-away PostgreSQL server (as in the tests) and the URL of its database."""
    from tests.pgserver import PgServer

    server = PgServer.create()
    if server is None:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
    server.start()
    return server.url, server


def main() -> None:
    """Parse the options, run everything, always stop what was started."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="length of each wrk run")
    parser.add_argument("--tables", type=int, default=2000, help="tables to create")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    options = parser.parse_args()
    for program in ("wrk", "nginx"):
        if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists():
            raise SystemExit(f"{program} not found: apt-get install {program} (make bench does)")
    folder = Path(tempfile.mkdtemp(prefix="tento-bench-"))
    pg = None
    process = None
    try:
        if options.database == "postgresql":
            database_url, pg = postgres_url(folder)
        else:
            database_url = f"sqlite:///{folder / 'bench.sqlite3'}"
        log(f"preparing {options.tables} tables on {options.database} ...")
        prepare_database(database_url, options.tables)
        process, url = start_server(database_url, folder, options.workers)
        first = write_tables(database_url, folder / "first.txt", 0, 1).read_text().split()
        _, cookie, csrf = session(url, first[0])
        setup = Setup(url, cookie, csrf, folder, database_url, process.pid)
        results: dict[str, Any] = {
            "machine": {"cores": os.cpu_count(), "workers": options.workers},
            "database": options.database,
            "seconds_per_run": options.seconds,
        }
        results.update(run(setup, options.seconds, options.tables))
        results["page_weight"] = page_weight(url, first[0])
        results["budgets"] = BUDGETS
        results["budgets_met"] = verdicts(results)
    finally:
        if process is not None:
            stop_server(process)
        if pg is not None:
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
    options.out.write_text(json.dumps(results, indent=2) + "\n")
    print(table(results))
    print(f"written to {options.out}")


if __name__ == "__main__":
    main()
