"""The hosted stack over HTTPS (gunicorn, PostgreSQL, Caddy with its internal certificate), driven
by Chromium as a phone at the table: the screen's wake lock is held, the service worker takes the
board over, Web Share is there, and a reload while offline shows the taps kept on the phone,
which are counted once the network is back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ..browser.pages import open_table, score, tap, wait_until
from .conftest import Stack

SLOW = 15_000  # ms: a kept tap is sent again within the retry backoff


@pytest.fixture
def phone(
    phone_browser: Browser, browser_context_args: dict[str, Any], stack: Stack
) -> Iterator[Page]:
    """A phone at 390x844 whose service worker installs, closed whatever happens."""
    context = phone_browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    yield context.new_page()
    context.close()


def test_over_https_the_board_keeps_the_screen_on_and_can_share(phone: Page, stack: Stack) -> None:
    """A secure context: the board holds a screen wake lock (no NoSleep video loaded), Web Share
    is offered, and a tap through the proxy counts (CSRF and the session cookie over HTTPS)."""
    open_table(phone, stack.url)
    assert phone.evaluate("window.isSecureContext")
    assert phone.url.startswith(stack.url + "/m/")
    wait_until(phone, "window.tento.awake.how === 'wakelock'")
    assert phone.evaluate("window.tento.awake.noSleep") is None
    assert phone.evaluate("typeof navigator.share") == "function"
    tap(phone, "a", "+3")
    score(phone, 3, 0)


def test_over_https_an_offline_reload_shows_the_kept_taps_and_sends_them_later(
    phone: Page, stack: Stack, shots: Path
) -> None:
    """The service worker controls the board; offline, +1 Nós and +3 Eles are kept, a reload
    shows the offline page listing them (never the browser's error page), whose "Tentar de
    novo" tries the board again; with the network back they land: 1 x 3, nothing pending."""
    open_table(phone, stack.url)
    wait_until(phone, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')")
    phone.reload()  # as any later visit: the page loads through the service worker
    wait_until(phone, "navigator.serviceWorker.controller")
    phone.context.set_offline(True)
    for testid in ("tap-a-1", "tap-b-3"):
        phone.get_by_test_id(testid).click()
    expect(phone.get_by_test_id("pendentes")).to_contain_text("2 toques")
    phone.reload()
    expect(phone.get_by_test_id("offline")).to_be_visible()
    expect(phone.get_by_test_id("pendentes")).to_contain_text("2 toques guardados")
    expect(phone.get_by_test_id("pendentes")).to_contain_text("Vão ser enviados")
    phone.screenshot(path=str(shots / "offline-https-390x844.png"))
    board = phone.url
    phone.get_by_test_id("tentar-de-novo").click()  # still offline: the same board's address
    expect(phone.get_by_test_id("pendentes")).to_contain_text("2 toques guardados")
    assert phone.url == board
    phone.context.set_offline(False)
    expect(phone.get_by_test_id("score-a")).to_have_text("1", timeout=SLOW)
    expect(phone.get_by_test_id("score-b")).to_have_text("3", timeout=SLOW)
    expect(phone.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)
