"""Nothing moves under the thumb: every tap target keeps its box through every event.

At 320x568, 360x640 and 390x844, light and dark, modo mesa on and off: a tap, a note, undo,
redo, a correction, a refused tap (409 and 422), a lost connection and its return, a tap made
offline (its forecast shown at once) and its confirmation, and a live update from another phone
leave every target where it was (±1 px), and nothing covers one (`document.elementFromPoint` at
its centre is the target). Only a change of phase re-lays the board; in every phase the targets,
Desfazer included, are on screen without scrolling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .pages import (
    assert_unmoved,
    geometry,
    next_board,
    open_table_on_page,
    phone_context,
    press_on_page,
    targets_on_screen,
)

SIZES = ((320, 568), (360, 640), (390, 844))
PHONES = [
    pytest.param(
        width, height, scheme, mesa, id=f"{width}x{height}-{scheme}-{'mesa' if mesa else 'normal'}"
    )
    for width, height in SIZES
    for scheme in ("light", "dark")
    for mesa in (False, True)
]
SIDE_TAPS = {f"tap-{side}-{value}" for side in "ab" for value in (1, 3, 6, 9, 12)}
SLOW = 10_000  # ms: a poll (every POLL_MS, see conftest) on a busy machine


def phone_in_mode(
    browser: Browser, width: int, height: int, scheme: str, mesa: bool
) -> BrowserContext:
    """A phone-sized browser context in this colour scheme, with modo mesa remembered when
    asked for."""
    context = phone_context(browser, width, height, color_scheme=scheme)
    if mesa:
        context.add_init_script("localStorage.setItem('tento.mesa', '1')")
    return context


def through(page: Page, event: str, action: Callable[[], None]) -> None:
    """Run one event and check that no target moved and none is covered afterwards."""
    before = geometry(page)
    action()
    assert_unmoved(before, geometry(page), event)


def assert_on_screen(page: Page, width: int, height: int, phase: str) -> None:
    """Every target of the phase, Desfazer included, is on screen unscrolled and uncovered."""
    boxes = targets_on_screen(page, phase, f" at {width}x{height}")
    if phase == "normal":
        assert SIDE_TAPS <= set(boxes), sorted(boxes)
    assert "desfazer" in boxes


def tapped(page: Page, testid: str) -> Callable[[], None]:
    """An event: tap a button of the board and wait for the next board."""
    return lambda: press_on_page(page, testid)


def correct(page: Page, side: int, points: int) -> None:
    """Set a side's points with the 'Corrigir placar' form."""
    page.locator("details.fix summary").click()
    page.locator("select[name=lado]").select_option(str(side))
    page.locator("input[name=pontos]").fill(str(points))
    page.locator("input[name=motivo]").fill("acerto do teste")
    press_on_page(page, "definir-placar")


def refused_illegal(page: Page, testid: str, code: str) -> None:
    """A tap the rules refuse (422): its message goes to the feedback slot."""
    page.evaluate(
        "([id, code]) => { document.querySelector(`[data-testid='${id}']`).value = code; }",
        [testid, code],
    )
    page.get_by_test_id(testid).click()
    expect(page.get_by_test_id("mensagem")).to_be_visible()


def refused_stale(page: Page, other: Page) -> None:
    """Another phone tapped first and this board has not polled yet: 409, then 'descartar'."""
    page.route("**/placar?*", lambda route: route.fulfill(status=204))
    try:
        other.reload()
        press_on_page(other, "tap-b-1")
        page.get_by_test_id("tap-a-1").click()
        expect(page.get_by_test_id("conflito")).to_be_visible()
    finally:
        page.unroute("**/placar?*")


def connection_lost(page: Page) -> None:
    """The network goes away: the slot says so once a poll fails."""
    page.context.set_offline(True)
    expect(page.get_by_test_id("sem-conexao")).to_be_visible(timeout=SLOW)


def connection_back(page: Page) -> None:
    """The network is back: the message clears by itself when a poll succeeds."""
    page.context.set_offline(False)
    expect(page.get_by_test_id("sem-conexao")).to_have_count(0, timeout=SLOW)


def forecast_tap(page: Page) -> None:
    """Offline, a tap: the board shows the score it leads to at once, marked waiting."""
    page.wait_for_function("() => window.tento.forecast.ready")
    page.context.set_offline(True)
    page.get_by_test_id("tap-b-1").click()
    expect(page.locator("#board")).to_have_class(re.compile(r"\bprevisto\b"))


def forecast_confirmed(page: Page) -> None:
    """The network is back: the kept tap is sent, and the server's board replaces the forecast."""
    page.context.set_offline(False)
    expect(page.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bprevisto\b"))


def live_update(page: Page, other: Page, action: Callable[[], None]) -> None:
    """Another phone writes; this board follows by polling."""
    rev = page.locator("#board").get_attribute("data-rev")
    other.reload()
    next_board(other, action)
    expect(page.locator("#board")).not_to_have_attribute("data-rev", rev or "", timeout=SLOW)


@pytest.mark.parametrize(("width", "height", "scheme", "mesa"), PHONES)
def test_no_event_moves_or_covers_a_tap_target(
    browser: Browser,
    live_server: str,
    shots: Path,
    contexts: list[BrowserContext],
    width: int,
    height: int,
    scheme: str,
    mesa: bool,
) -> None:
    """Through every event of every phase, the targets stay put, uncovered and on screen."""
    contexts.extend(
        [
            phone_in_mode(browser, width, height, scheme, mesa),
            phone_in_mode(browser, 390, 844, "light", False),
        ]
    )
    page, other = contexts[0].new_page(), contexts[1].new_page()
    url = open_table_on_page(page, live_server)
    other.goto(url)
    tag = f"estavel-{width}x{height}-{scheme}{'-mesa' if mesa else ''}"

    assert_on_screen(page, width, height, "normal")
    through(page, "toque", tapped(page, "tap-a-3"))
    page.screenshot(path=str(shots / f"{tag}-normal.png"))
    note = page.locator(".notes .chip").first
    through(page, "nota", lambda: next_board(page, note.click))
    through(page, "desfazer", tapped(page, "desfazer"))
    through(page, "refazer", tapped(page, "refazer"))
    through(page, "correção", lambda: correct(page, 1, 2))
    through(page, "toque recusado (409)", lambda: refused_stale(page, other))
    page.screenshot(path=str(shots / f"{tag}-conflito.png"))
    through(
        page,
        "descartar",
        lambda: (
            page.get_by_role("button", name="descartar").click(),
            expect(page.get_by_test_id("conflito")).to_have_count(0),
        ),
    )
    through(page, "toque recusado (422)", lambda: refused_illegal(page, "tap-a-3", "normal:0:5"))
    through(page, "sem conexão", lambda: connection_lost(page))
    through(page, "conexão de volta", lambda: connection_back(page))
    through(page, "toque previsto, sem conexão", lambda: forecast_tap(page))
    through(page, "toque previsto confirmado", lambda: forecast_confirmed(page))
    through(
        page,
        "outro celular",
        lambda: live_update(page, other, lambda: other.get_by_test_id("tap-a-1").click()),
    )

    correct(page, 0, 11)  # a change of phase: the mão de onze
    assert_on_screen(page, width, height, "mão de onze")
    page.screenshot(path=str(shots / f"{tag}-onze.png"))
    illegal = "normal:0:3"  # a +3 is no outcome of a special hand or of a finished game
    through(page, "toque recusado (422)", lambda: refused_illegal(page, "onze-ganhou", illegal))
    through(
        page,
        "outro celular",
        lambda: live_update(page, other, lambda: correct(other, 1, 4)),
    )
    through(page, "sem conexão", lambda: connection_lost(page))
    through(page, "conexão de volta", lambda: connection_back(page))

    correct(page, 1, 11)  # the mão de ferro
    assert_on_screen(page, width, height, "mão de ferro")
    page.screenshot(path=str(shots / f"{tag}-ferro.png"))
    through(page, "toque recusado (422)", lambda: refused_illegal(page, "ferro-a", illegal))

    tapped(page, "ferro-a")()  # the game is over
    assert_on_screen(page, width, height, "fim de partida")
    page.screenshot(path=str(shots / f"{tag}-fim.png"))
    through(page, "toque recusado (422)", lambda: refused_illegal(page, "proxima-partida", illegal))
