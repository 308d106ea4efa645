"""Browser tests: Debian's Chromium driven by pytest-playwright against a live app on 127.0.0.1."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

from ..conftest import require_program

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# How long an expectation waits for the page to get there: generous, so that a busy machine only
# makes a test slower, never a failure.
EXPECT_TIMEOUT_MS = 20_000
# Boards and live views poll this often (the app's POLL_INTERVAL_MS, 2000 in production): what
# another phone did, a lost connection and its return show up within a fraction of a second.
POLL_MS = 200
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """Launch Debian's Chromium (never a downloaded browser) headless."""
    return {"executable_path": require_program("chromium", "chromium"), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args() -> dict[str, Any]:
    """A phone-sized viewport, Brazilian Portuguese, no service worker: a page's routes (how the
    tests drop or hold a request) miss what a service worker that took the page over sends, and
    it may take over at any moment after the load. The offline test installs one on purpose."""
    return {"viewport": PHONE, "locale": "pt-BR", "service_workers": "block"}


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """The app the live server serves: production settings (CSRF on), a short poll interval and
    its own database. A test reaches into it only for what no browser can do (move a clock)."""
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'live.sqlite3'}",
            "RATELIMIT_ENABLED": False,
            "POLL_INTERVAL_MS": POLL_MS,
        }
    )
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture(scope="session")
def live_server(live_app: Flask) -> Iterator[str]:
    """The live app served on a free port of 127.0.0.1."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def shots() -> Path:
    """The git-ignored folder for screenshots to look at."""
    SHOTS.mkdir(exist_ok=True)
    return SHOTS


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts opened by a test, closed whatever happens."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()
