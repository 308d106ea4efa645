"""The hosted stack on 127.0.0.1, as docs/deploy.md sets it up: gunicorn on the throw-away
PostgreSQL, its rate-limit counts in a throw-away Redis, behind Caddy and the repository's
Caddyfile, HTTPS by Caddy's own internal CA (no ACME, no admin endpoint, nothing leaves this
machine); and Chromium to drive it."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import socket
import ssl
import struct
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from playwright.sync_api import Browser, Playwright

from .. import processes
from ..browser.conftest import CHROMIUM_ARGS
from ..browser.conftest import browser_context_args as browser_context_args  # the same phones
from ..browser.conftest import shots as shots  # the same folder of screenshots
from ..conftest import require_program
from ..faults import server
from ..pgserver import free_port, new_database

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy"
CADDYFILE = DEPLOY / "Caddyfile"
SETTINGS = DEPLOY / "tento.env"
# Test-only global options in front of the repository's site block: certificates from Caddy's
# internal CA, nothing installed in the system's trust store, no admin endpoint, no redirect
# listener, every file under the test's folder, and only 127.0.0.1 listened on.
GLOBAL_OPTIONS = """{{
	admin off
	local_certs
	skip_install_trust
	auto_https disable_redirects
	default_bind 127.0.0.1
	http_port {http_port}
	https_port {https_port}
	storage file_system {storage}
	servers {{
		protocols h1 h2
	}}
}}
import {caddyfile}
"""
END = "-----END CERTIFICATE-----"
WAIT = 120  # seconds: generous, a busy machine only makes it slower
# One access-log line per request, naming the worker that answered it: "<pid> POST /mesas 303".
ACCESS_LOG = "--access-logfile - --access-logformat '%(p)s %(m)s %(U)s %(s)s'"
OPENING = re.compile(r"^<(\d+)> POST /mesas \d{3}$", re.MULTILINE)
LISTENING = "0A"  # a socket's state in /proc/net/tcp


@dataclass
class Stack:
    """The running stack: its HTTPS address, the internal CA's root certificate, the storage
    folder of Caddy's certificates, gunicorn's address and log, and Redis's port."""

    url: str
    root_certificate: Path
    storage: Path
    upstream: str
    app_log: Path
    redis_port: int

    def redis(self, *command: str) -> str:
        """What redis-cli prints for a command to the stack's Redis (as the guide's check)."""
        return redis_cli(self.redis_port, *command)

    def hold_a_worker(self) -> socket.socket:
        """A connection to gunicorn that sends nothing (a slow phone, which Caddy keeps away
        from the workers), returned once a sync worker has accepted it: that worker waits on it
        until it is closed, and the other one answers everything meanwhile."""
        host, port = self.upstream.split(":")
        connection = socket.create_connection((host, int(port)), timeout=5)
        deadline = time.monotonic() + WAIT
        while waiting_to_be_accepted(int(port)):
            assert time.monotonic() < deadline, "no gunicorn worker accepted the connection"
            time.sleep(0.05)
        return connection

    def workers_of_openings(self, since: int, count: int) -> list[str]:
        """The pid of the worker that answered each of the first `count` openings of a table
        after byte `since` of gunicorn's log, waiting for their lines (a worker logs a request
        after answering it)."""
        deadline = time.monotonic() + WAIT
        while True:
            with self.app_log.open("rb") as log:
                log.seek(since)
                found = OPENING.findall(log.read().decode(errors="replace"))
            if len(found) >= count or time.monotonic() > deadline:
                return found[:count]
            time.sleep(0.1)

    def spki_hash(self) -> str:
        """The base64 SHA-256 of the site certificate's public key, which Chromium is told to
        trust (a certificate error would keep the service worker out)."""
        pem = next((self.storage / "certificates" / "local").glob("*/*.crt")).read_text()
        return base64.b64encode(hashlib.sha256(public_key_info(pem)).digest()).decode()


def der_element(data: bytes, at: int) -> tuple[int, int]:
    """Where the DER element starting at `at` has its content, and where it ends."""
    length, start = data[at + 1], at + 2
    if length & 0x80:
        size = length & 0x7F
        length, start = int.from_bytes(data[start : start + size], "big"), start + size
    return start, start + length


def public_key_info(pem: str) -> bytes:
    """A PEM certificate's SubjectPublicKeyInfo, DER-encoded (the seventh field of its signed
    part, counting the explicit version)."""
    cert = ssl.PEM_cert_to_DER_cert(pem.split(END)[0] + END)  # the first of the chain
    signed, _ = der_element(cert, 0)  # the certificate's first element: its signed part
    at, _ = der_element(cert, signed)
    for _field in range(6):  # version, serial, signature algorithm, issuer, validity, subject
        _, at = der_element(cert, at)
    _, end = der_element(cert, at)
    return cert[at:end]


def guide_settings(url: str, redis_port: int) -> dict[str, str]:
    """The settings of docs/deploy/tento.env, with this test's address and Redis port in place
    of the guide's (the database and the secret key are the test's own)."""
    lines = SETTINGS.read_text().splitlines()
    settings = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert "RATELIMIT_STORAGE_URI" in settings, "tento.env keeps the rate limit's counts nowhere"
    redis = urlsplit(settings["RATELIMIT_STORAGE_URI"])
    assert (redis.scheme, redis.hostname) == ("redis", "127.0.0.1"), redis
    del settings["DATABASE_URL"], settings["SECRET_KEY"]
    settings["PUBLIC_URL"] = url
    settings["RATELIMIT_STORAGE_URI"] = redis._replace(netloc=f"127.0.0.1:{redis_port}").geturl()
    return settings


def waiting_to_be_accepted(port: int) -> int:
    """How many connections wait in the accept queue of the socket listening on
    127.0.0.1:<port> (Linux's /proc/net/tcp, where a listening socket's rx_queue is that)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        address, port_hex = fields[1].split(":")
        here = socket.inet_ntoa(struct.pack("=I", int(address, 16)))  # as the kernel printed it
        if (here, int(port_hex, 16), fields[3]) == ("127.0.0.1", port, LISTENING):
            return int(fields[4].split(":")[1], 16)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port}")


def redis_cli(port: int, *command: str) -> str:
    """What redis-cli prints for a command to the Redis on 127.0.0.1:<port>."""
    cli = require_program("redis-cli", "redis-server")
    done = subprocess.run(
        [cli, "-h", "127.0.0.1", "-p", str(port), *command],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """redis-server as Debian's package runs it (on 127.0.0.1 only), on a free port, saving
    nothing, its log in `folder`; and its port, once it answers PING."""
    redis = require_program("redis-server", "redis-server")
    port = free_port()
    command = [
        redis, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder), "--save", "",
        "--appendonly", "no",
    ]  # fmt: skip
    log = folder / "redis.log"
    with log.open("wb") as out:
        process = processes.spawn(command, stdout=out, stderr=subprocess.STDOUT, cwd=folder)
    try:
        deadline = time.monotonic() + WAIT
        while not answers_ping(port):
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
    except BaseException:  # never leave a server behind, whatever stopped the wait
        processes.stop(process)
        raise
    return process, port


def answers_ping(port: int) -> bool:
    """Whether the Redis on 127.0.0.1:<port> answers PING."""
    try:
        return redis_cli(port, "ping") == "PONG"
    except subprocess.CalledProcessError:
        return False


def start_caddy(folder: Path, https_port: int, upstream: str) -> subprocess.Popen[bytes]:
    """Caddy on https://127.0.0.1:<https_port> in front of `upstream`, its files in `folder`."""
    caddy = require_program("caddy", "caddy")
    config = folder / "Caddyfile"
    config.write_text(
        GLOBAL_OPTIONS.format(
            http_port=free_port(), https_port=https_port, storage=folder / "storage",
            caddyfile=CADDYFILE,
        )
    )  # fmt: skip
    env = {
        **os.environ,
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "TENTO_SITE": f"https://127.0.0.1:{https_port}",
        "TENTO_UPSTREAM": upstream,
    }
    with (folder / "caddy.log").open("wb") as out:
        return processes.spawn(
            [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
            env=env, stdout=out, stderr=subprocess.STDOUT, cwd=folder,
        )  # fmt: skip


def wait_for(stack: Stack, caddy: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the stack answers its home page over HTTPS, trusting only the internal CA."""
    deadline = time.monotonic() + WAIT
    while True:
        assert caddy.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        root = stack.root_certificate
        try:
            if root.exists() and requests.get(stack.url, verify=str(root), timeout=5).ok:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.2)


@pytest.fixture(scope="module")
def phone_browser(playwright: Playwright, stack: Stack) -> Iterator[Browser]:
    """Debian's Chromium trusting the stack's certificate, with Web Share on as a phone's
    browser has it (desktop Linux builds leave it out); closed at the end."""
    chromium = require_program("chromium", "chromium")
    trust = f"--ignore-certificate-errors-spki-list={stack.spki_hash()}"
    browser = playwright.chromium.launch(
        executable_path=chromium, args=[*CHROMIUM_ARGS, trust, "--enable-features=WebShare"]
    )
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, pg_url: str) -> Iterator[Stack]:
    """Redis, then gunicorn (2 sync workers, with the settings of the guide's tento.env: one
    trusted proxy, the rate limit's counts in that Redis; and an access log naming the worker)
    on a new migrated PostgreSQL database, then Caddy on HTTPS in front; each stopped by its
    process group at the end, whatever happened."""
    require_program("caddy", "caddy")
    folder = tmp_path_factory.mktemp("stack")
    database = new_database(pg_url, "tento_stack")
    server.upgrade(database)
    https_port = free_port()
    url = f"https://127.0.0.1:{https_port}"
    with ExitStack() as cleanup:
        (folder / "redis").mkdir()
        redis, redis_port = start_redis(folder / "redis")
        cleanup.callback(processes.stop, redis)
        env = {**guide_settings(url, redis_port), "GUNICORN_CMD_ARGS": ACCESS_LOG}
        app = server.start(database, folder, env=env)
        cleanup.callback(app.kill, signal.SIGTERM)
        upstream = app.url.removeprefix("http://")
        caddy = start_caddy(folder, https_port, upstream)
        cleanup.callback(processes.stop, caddy)
        storage = folder / "storage"
        root = storage / "pki" / "authorities" / "local" / "root.crt"
        running = Stack(url, root, storage, upstream, app.log, redis_port)
        wait_for(running, caddy, folder / "caddy.log")
        yield running


@pytest.fixture
def no_counts(stack: Stack) -> Iterator[None]:
    """The stack's Redis emptied before and after a test that counts openings: every phone here
    is 127.0.0.1, and the browser's tests open tables too."""
    stack.redis("FLUSHDB")
    yield
    stack.redis("FLUSHDB")
