"""A Truco Mineiro board on a phone: opened from the form, its +2 … +12 buttons and the mão de
dez's on screen, and nothing under the thumb moves on a tap (at 320x568 and 390x844)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .pages import assert_unmoved, geometry, press_on_page, targets_on_screen

MINEIRO_TAPS = {f"tap-{side}-{value}" for side in "ab" for value in (2, 4, 6, 10, 12)}


def tapped(page: Page, testid: str) -> None:
    """Tap a button of the board and wait for the next board."""
    press_on_page(page, testid)


@pytest.mark.parametrize(("width", "height"), [(320, 568), (390, 844)])
def test_a_mineiro_board_keeps_its_buttons_still_through_its_hands(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """Mineiro chosen on the form: the board shows its ladder, every tap of a hand and of the
    mão de dez leaves every target where it was, and both phases fit the screen."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", service_workers="block"
    )
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        page.get_by_label("Truco Mineiro").check()
        assert page.get_by_label("Melhor de 3").is_checked()  # the queda, Mineiro's own
        page.screenshot(path=str(shots / f"mineiro-{width}x{height}-form.png"), full_page=True)
        page.get_by_test_id("nova-mesa").click()
        page.wait_for_url("**/m/*")
        assert "Melhor de 3" in page.locator(".status, #board").first.inner_text()
        targets = set(targets_on_screen(page, "normal"))
        assert MINEIRO_TAPS <= targets and not {"tap-a-1", "tap-a-3", "tap-a-9"} & targets
        page.screenshot(path=str(shots / f"mineiro-{width}x{height}-normal.png"))
        for testid in ("tap-a-2", "tap-b-4", "tap-a-2"):
            before = geometry(page)
            tapped(page, testid)
            assert_unmoved(before, geometry(page), testid)
        assert page.get_by_test_id("score-a").inner_text() == "4"
        tapped(page, "tap-a-6")  # 10 x 4: the mão de dez re-lays the board
        targets = set(targets_on_screen(page, "mão de dez"))
        assert {"onze-ganhou", "onze-perdeu", "onze-correu"} <= targets
        assert "+4" in page.get_by_test_id("onze-ganhou").inner_text()
        page.screenshot(path=str(shots / f"mineiro-{width}x{height}-dez.png"))
        before = geometry(page)
        tapped(page, "onze-correu")  # 10 x 6: still Nós's mão de dez
        assert_unmoved(before, geometry(page), "onze-correu")
        assert page.get_by_test_id("score-b").inner_text() == "6"
    finally:
        context.close()


def test_the_form_offers_a_mineiro_ferro_blind_or_open_only(page: Page, live_server: str) -> None:
    """Choosing Truco Mineiro hides 'no escuro' among the ferro's ways (Paulista shows it)."""
    page.goto(live_server + "/")
    page.get_by_test_id("mais-opcoes").locator("summary").click()
    dark = page.locator("label:has(> input[name=ferro][value=escuro])")
    expect(dark).to_be_visible()
    page.locator("input[name=variante][value=mineiro]").check(force=True)
    expect(dark).to_be_hidden()
    expect(page.locator("label:has(> input[name=ferro][value=claras])")).to_be_visible()
