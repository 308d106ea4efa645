"""The hosted stack over HTTPS (gunicorn, PostgreSQL, Redis, Caddy with its internal
certificate), driven by Chromium as a phone at the table: the screen's wake lock is held, the
service worker takes the board over, Web Share is there, and a reload while offline shows the
taps kept on the phone, which are counted once the network is back. And the guide's check of
the rate limit: its counts land in Redis, one budget for both of gunicorn's workers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, Page, expect

from ..browser.pages import open_table_on_page, score_on_page, tap_on_page, wait_until
from ..faults.server import CSRF
from .conftest import Stack

SLOW = 15_000  # ms: a kept tap is sent again within the retry backoff
# The default OPEN_TABLE_LIMIT's windows for a phone at 127.0.0.1 (Caddy's address, trusted).
MINUTE = "LIMITS:LIMITER/127.0.0.1/abrir/10/1/minute"
DAY = "LIMITS:LIMITER/127.0.0.1/abrir/100/1/day"


@pytest.fixture
def https_phone(
    phone_browser: Browser, browser_context_args: dict[str, Any], stack: Stack
) -> Iterator[Page]:
    """A phone at 390x844 whose service worker installs, closed whatever happens."""
    context = phone_browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    yield context.new_page()
    context.close()


def test_over_https_the_board_keeps_the_screen_on_and_can_share(
    https_phone: Page, stack: Stack
) -> None:
    """A secure context: the board holds a screen wake lock (no NoSleep video loaded), Web Share
    is offered, and a tap through the proxy counts (CSRF and the session cookie over HTTPS)."""
    open_table_on_page(https_phone, stack.url)
    assert https_phone.evaluate("window.isSecureContext")
    assert https_phone.url.startswith(stack.url + "/m/")
    wait_until(https_phone, "window.tento.awake.how === 'wakelock'")
    assert https_phone.evaluate("window.tento.awake.noSleep") is None
    assert https_phone.evaluate("typeof navigator.share") == "function"
    tap_on_page(https_phone, "a", "+3")
    score_on_page(https_phone, 3, 0)


def test_over_https_an_offline_reload_shows_the_kept_taps_and_sends_them_later(
    https_phone: Page, stack: Stack, shots: Path
) -> None:
    """The service worker controls the board; offline, +1 Nós and +3 Eles are kept, a reload
    shows the offline page listing them (never the browser's error page), whose "Tentar de
    novo" tries the board again; with the network back they land: 1 x 3, nothing pending."""
    open_table_on_page(https_phone, stack.url)
    wait_until(
        https_phone, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')"
    )
    https_phone.reload()  # as any later visit: the page loads through the service worker
    wait_until(https_phone, "navigator.serviceWorker.controller")
    https_phone.context.set_offline(True)
    for testid in ("tap-a-1", "tap-b-3"):
        https_phone.get_by_test_id(testid).click()
    expect(https_phone.get_by_test_id("pendentes")).to_contain_text("2 toques")
    https_phone.reload()
    expect(https_phone.get_by_test_id("offline")).to_be_visible()
    expect(https_phone.get_by_test_id("pendentes")).to_contain_text("2 toques guardados")
    expect(https_phone.get_by_test_id("pendentes")).to_contain_text("Vão ser enviados")
    https_phone.screenshot(path=str(shots / "offline-https-390x844.png"))
    board = https_phone.url
    https_phone.get_by_test_id("tentar-de-novo").click()  # still offline: the same board's URL
    expect(https_phone.get_by_test_id("pendentes")).to_contain_text("2 toques guardados")
    assert https_phone.url == board
    https_phone.context.set_offline(False)
    expect(https_phone.get_by_test_id("score-a")).to_have_text("1", timeout=SLOW)
    expect(https_phone.get_by_test_id("score-b")).to_have_text("3", timeout=SLOW)
    expect(https_phone.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)


class Opener:
    """A phone that opens tables over HTTPS with the home page's form (its session and CSRF
    token, a same-origin Referer), without following the redirect to the board."""

    def __init__(self, stack: Stack) -> None:
        """Load the home page once, for the session cookie and the CSRF token."""
        self.url = stack.url
        self.root = str(stack.root_certificate)  # per request: REQUESTS_CA_BUNDLE beats a session's
        self.session = requests.Session()
        home = self.session.get(self.url + "/", verify=self.root, timeout=30)
        match = CSRF.search(home.text)
        assert home.status_code == 200 and match, home.status_code
        self.csrf = match.group(1)

    def post_new_table(self) -> int:
        """POST the home page's "Nova mesa" form; the answer's status."""
        response = self.session.post(
            self.url + "/mesas", data={"csrf_token": self.csrf},
            headers={"Referer": self.url + "/"}, allow_redirects=False, verify=self.root,
            timeout=30,
        )  # fmt: skip
        return response.status_code


def test_over_https_an_opened_table_is_counted_in_redis(stack: Stack, no_counts: None) -> None:
    """The guide's check: after a table is opened over HTTPS, `redis-cli --scan --pattern
    'LIMITS*'` lists the phone's count for each window of the limit, under its own address."""
    assert Opener(stack).post_new_table() == 303
    assert set(stack.redis("--scan", "--pattern", "LIMITS*").split()) == {MINUTE, DAY}
    assert stack.redis("GET", MINUTE) == "1"


def test_both_workers_count_against_one_opening_limit(stack: Stack, no_counts: None) -> None:
    """The default limit, 10 openings a minute, is one budget for a phone whichever of the two
    sync workers answers: 5 tables opened while one worker is held busy (so the other answers),
    then 6 while that other is held, and the 11th opening is refused with a 429."""
    opener = Opener(stack)
    since = stack.app_log.stat().st_size
    with ExitStack() as held:
        first = held.enter_context(stack.hold_a_worker())
        statuses = [opener.post_new_table() for _ in range(5)]
        held.enter_context(stack.hold_a_worker())  # the worker that answered them
        first.close()  # the first worker answers the rest
        statuses += [opener.post_new_table() for _ in range(6)]
    assert statuses == [303] * 10 + [429]
    workers = stack.workers_of_openings(since, 11)
    assert len(workers) == 11
    answered_first, answered_then = set(workers[:5]), set(workers[5:])
    assert len(answered_first) == len(answered_then) == 1 and answered_first != answered_then
