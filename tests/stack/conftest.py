"""The hosted stack on 127.0.0.1, as docs/deploy.md sets it up: gunicorn on the throw-away
PostgreSQL behind Caddy and the repository's Caddyfile, HTTPS by Caddy's own internal CA (no
ACME, no admin endpoint, nothing leaves this machine); and Chromium to drive it."""

from __future__ import annotations

import base64
import hashlib
import os
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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

CADDYFILE = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "Caddyfile"
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


@dataclass
class Stack:
    """The running stack: its HTTPS address, the internal CA's root certificate and the
    storage folder of Caddy's certificates."""

    url: str
    root_certificate: Path
    storage: Path

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
    """gunicorn (2 sync workers, PUBLIC_URL and one trusted proxy, as the guide sets them) on a
    new migrated PostgreSQL database, behind Caddy on HTTPS; both stopped by their process
    group at the end, whatever happened."""
    require_program("caddy", "caddy")
    folder = tmp_path_factory.mktemp("stack")
    database = new_database(pg_url, "tento_stack")
    server.upgrade(database)
    https_port = free_port()
    url = f"https://127.0.0.1:{https_port}"
    app = server.start(database, folder, env={"PUBLIC_URL": url, "TRUSTED_PROXIES": "1"})
    try:
        caddy = start_caddy(folder, https_port, app.url.removeprefix("http://"))
        try:
            storage = folder / "storage"
            root = storage / "pki" / "authorities" / "local" / "root.crt"
            running = Stack(url, root, storage)
            wait_for(running, caddy, folder / "caddy.log")
            yield running
        finally:
            processes.stop(caddy)
    finally:
        app.kill(signal.SIGTERM)
