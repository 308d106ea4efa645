"""A real Tento server for the fault tests: gunicorn with 2 sync workers on 127.0.0.1, production
settings (CSRF on), the schema made once by `flask db upgrade` before it starts; and its clients."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from scorekeeper import create_app
from scorekeeper.domain.mesa import new_token
from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .. import processes
from ..pgserver import free_port

# Generous: on a loaded machine a request may wait long for a worker; none should wait this long.
REQUEST_TIMEOUT = 30
# A request that timed out is sent again: a page is only read, and a write carries its client id,
# so a write whose first answer was lost is recognised by the table, never applied twice. A
# timed-out write's outcome is thus known from the answer to its retry.
ATTEMPTS = 3
HX = {"HX-Request": "true"}


def server_env(database_url: str) -> dict[str, str]:
    """The environment of a production-like server on the given database."""
    env = {k: v for k, v in os.environ.items() if k not in ("TENTO_CACHES", "OPEN_TABLE_LIMIT")}
    env.update({"DATABASE_URL": database_url, "SECRET_KEY": "fault-tests", "PYTHONUNBUFFERED": "1"})
    return env


def upgrade(database_url: str) -> None:
    """`flask db upgrade`: the schema, once, before any worker starts."""
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=server_env(database_url),
        check=True,
        capture_output=True,
        timeout=120,
    )


def make_tables(database_url: str, count: int) -> list[tuple[str, str]]:
    """`count` new default tables written straight to the database: (edit, view) tokens each."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    tokens = [(new_token(), new_token()) for _ in range(count)]
    with app.app_context():
        db.session.add_all(Mesa(edit_token=e, view_token=v) for e, v in tokens)
        db.session.commit()
        db.engine.dispose()
    return tokens


@dataclass
class Server:
    """A running gunicorn: its process group, its URL and its log."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send a signal to the master and its workers (the process group we started); whatever
        is left of the group after 15 s, or after the master exits, is killed."""
        processes.stop(self.process, sig, wait=15)


def start(
    database_url: str, folder: Path, workers: int = 2, env: dict[str, str] | None = None
) -> Server:
    """Start gunicorn (2 sync workers) on a free port, with `env` added to the production-like
    environment, and wait until it answers."""
    port = free_port()
    log = folder / f"gunicorn-{port}.log"
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "sync",
        "--bind", f"127.0.0.1:{port}", "--no-control-socket", "--timeout", "120",
        "scorekeeper:create_app()",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = processes.spawn(
            command, env={**server_env(database_url), **(env or {})}, stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    server = Server(process, f"http://127.0.0.1:{port}", log)
    try:
        return _answering(server)
    except BaseException:  # never leave a server behind, whatever stopped the wait
        server.kill()
        raise


def _answering(server: Server) -> Server:
    """Wait (up to 120 s, generous on a busy machine) until the server answers GET /."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {server.log.read_text()[-2000:]}")
        try:
            if requests.get(server.url + "/", timeout=5).status_code == 200:
                return server
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer: {server.log.read_text()[-2000:]}")


@contextmanager
def running(database_url: str, folder: Path, workers: int = 2) -> Iterator[Server]:
    """A server for the duration of a with block; always killed at the end."""
    server = start(database_url, folder, workers)
    try:
        yield server
    finally:
        server.kill(signal.SIGTERM)


BOARD_REV = re.compile(r'id="board"[^>]*data-rev="(\d+)"')
BUTTON = re.compile(r'name="o" value="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Seen:
    """What a client last saw of a table: its revision and its legal tap buttons."""

    rev: int
    buttons: list[str]


def read_board(html: str) -> Seen:
    """The revision and tap buttons of a board page or fragment."""
    match = BOARD_REV.search(html)
    assert match, html[:500]
    return Seen(int(match.group(1)), BUTTON.findall(html))


@dataclass
class Scorer:
    """A phone with the scorer link: a session cookie, its CSRF token, what it saw of each table."""

    base: str
    session: requests.Session = field(default_factory=requests.Session)
    csrf: str = ""
    seen: dict[str, Seen] = field(default_factory=dict)

    def open(self, edit: str) -> Seen:
        """Load a board page (and the session's CSRF token)."""
        response = self.get(f"{self.base}/m/{edit}")
        assert response.status_code == 200, response.status_code
        match = CSRF.search(response.text)
        assert match
        self.csrf = match.group(1)
        self.seen[edit] = read_board(response.text)
        return self.seen[edit]

    def get(self, url: str) -> requests.Response:
        """GET a page, again if it timed out."""
        return self._send("GET", url)

    def post(
        self, edit: str, route: str, rev: int, cid: str | None = None, **form: str
    ) -> requests.Response:
        """POST to a board route as htmx does (CSRF header, a client id: new unless given),
        remembering the board it answers; sent again with the same client id if it timed out."""
        response = self._send(
            "POST",
            f"{self.base}/m/{edit}/{route}",
            data={"rev": str(rev), "cid": cid or str(uuid.uuid4()), **form},
            headers={**HX, "X-CSRFToken": self.csrf},
            allow_redirects=False,
        )
        if response.status_code in (200, 409, 422):
            self.seen[edit] = read_board(response.text)
        return response

    def _send(self, method: str, url: str, **options: Any) -> requests.Response:
        """One request, sent up to ATTEMPTS times while it times out; a refused or cut
        connection (a killed server) is raised at once."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return self.session.request(method, url, timeout=REQUEST_TIMEOUT, **options)
            except requests.Timeout:
                if attempt == ATTEMPTS:
                    raise
        raise AssertionError("unreachable")
