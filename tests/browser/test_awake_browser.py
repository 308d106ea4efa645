"""The screen stays on over plain HTTP: without the Wake Lock API (an insecure context: a name
on the local network, here one Chromium resolves to 127.0.0.1, or the API taken away) the board
plays NoSleep.js's silent video from the first tap; where no video plays either, "Manter a tela
ligada" says so instead of showing on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from ..conftest import require_program
from .conftest import CHROMIUM_ARGS
from .pages import open_table_on_page, wait_until

LAN_NAME = "tento.lan"  # a host on the local network, as far as the browser knows: not secure

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
NO_VIDEO = (
    NO_WAKE_LOCK
    + "HTMLMediaElement.prototype.play = function () {"
    + " return Promise.reject(new DOMException('no', 'NotAllowedError')); };"
)
SIZES = {"320x568": {"width": 320, "height": 568}, "390x844": {"width": 390, "height": 844}}


def scripted_phone(
    browser: Browser, args: dict[str, Any], script: str, size: str = "390x844"
) -> Page:
    """A phone whose browser runs `script` before every page's own."""
    context = browser.new_context(**{**args, "viewport": SIZES[size]})
    context.add_init_script(script)
    return context.new_page()


@pytest.fixture
def pages(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[list[Page]]:
    """The phones a test makes (append them), closed whatever happens."""
    made: list[Page] = []
    yield made
    for page in made:
        page.context.close()


@pytest.fixture(scope="module")
def lan_browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium that resolves LAN_NAME to 127.0.0.1: pages opened by that name are plain HTTP
    from another machine for it (no Wake Lock API, no service worker); closed at the end."""
    browser = playwright.chromium.launch(
        executable_path=require_program("chromium", "chromium"),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
    )
    yield browser
    browser.close()


def test_over_plain_http_on_the_local_network_the_first_tap_starts_the_silent_video(
    lan_browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    """Opened as http://tento.lan:<port>: no secure context and no Wake Lock API; NoSleep.js
    loads, and the first tap on the board plays its video."""
    context = lan_browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        open_table_on_page(page, live_server.replace("127.0.0.1", LAN_NAME))
        assert not page.evaluate("window.isSecureContext")
        assert not page.evaluate("'wakeLock' in navigator")
        wait_until(page, "window.tento.awake.noSleep")
        page.get_by_test_id("tap-a-1").click()
        wait_until(page, "window.tento.awake.how === 'video'")
        assert page.evaluate("!window.tento.awake.noSleep.noSleepVideo.paused")
    finally:
        context.close()


def test_with_the_wake_lock_api_the_board_keeps_the_screen_on_with_it(
    page: Page, live_server: str
) -> None:
    """Where the browser has the Wake Lock API, the board holds a screen wake lock: no video."""
    open_table_on_page(page, live_server)
    wait_until(page, "window.tento.awake.how === 'wakelock'")
    assert page.evaluate("window.tento.awake.noSleep") is None
    assert page.locator("script[src*='nosleep']").count() == 0


def test_without_the_wake_lock_api_the_first_tap_starts_the_silent_video(
    pages: list[Page], browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    """No navigator.wakeLock: NoSleep.js loads, and the first tap on the board plays its video;
    the switch stays on and no note shows."""
    page = scripted_phone(browser, browser_context_args, NO_WAKE_LOCK)
    pages.append(page)
    open_table_on_page(page, live_server)
    wait_until(page, "!!window.tento.awake.noSleep")
    assert page.evaluate("window.tento.awake.how") is None
    page.get_by_test_id("tap-a-1").click()
    wait_until(page, "window.tento.awake.how === 'video'")
    assert page.evaluate("window.tento.awake.noSleep.isEnabled")
    assert page.evaluate("!window.tento.awake.noSleep.noSleepVideo.paused")
    page.get_by_test_id("ajustes").locator("summary").click()
    expect(page.get_by_test_id("tela-ligada")).to_be_checked()
    expect(page.get_by_test_id("tela-nota")).to_be_hidden()


def test_turning_the_switch_off_stops_the_video(
    pages: list[Page], browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    """With the video playing, turning "Manter a tela ligada" off pauses it."""
    page = scripted_phone(browser, browser_context_args, NO_WAKE_LOCK)
    pages.append(page)
    open_table_on_page(page, live_server)
    wait_until(page, "!!window.tento.awake.noSleep")
    page.get_by_test_id("tap-a-1").click()
    wait_until(page, "window.tento.awake.how === 'video'")
    page.get_by_test_id("ajustes").locator("summary").click()
    page.get_by_test_id("tela-ligada").uncheck()
    wait_until(page, "window.tento.awake.noSleep.noSleepVideo.paused")
    assert page.evaluate("window.tento.awake.how") is None


@pytest.mark.parametrize("size", list(SIZES))
def test_where_nothing_keeps_the_screen_on_the_switch_says_so(
    pages: list[Page],
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    shots: Path,
    size: str,
) -> None:
    """No Wake Lock API and no video that plays: after the first tap the switch shows off, can't
    be turned on, and a pt-BR note says this browser does not let the screen stay on."""
    page = scripted_phone(browser, browser_context_args, NO_VIDEO, size)
    pages.append(page)
    open_table_on_page(page, live_server)
    wait_until(page, "!!window.tento.awake.noSleep")
    page.get_by_test_id("tap-a-1").click()
    note = page.get_by_test_id("tela-nota")
    page.get_by_test_id("ajustes").locator("summary").click()
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "Este navegador não deixa manter a tela ligada. "
        "Aumente o tempo da tela nos ajustes do celular."
    )
    expect(page.get_by_test_id("tela-ligada")).not_to_be_checked()
    expect(page.get_by_test_id("tela-ligada")).to_be_disabled()
    panel = page.locator(".prefs-panel").bounding_box()
    assert panel is not None
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= SIZES[size]["width"]
    page.screenshot(path=str(shots / f"tela-nota-{size}.png"))
