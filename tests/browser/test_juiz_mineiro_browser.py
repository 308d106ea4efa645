"""A Truco Mineiro whole hand in a real browser, at 320x568 and 390x844: no vira to pick (the
manilhas are fixed), truco, seis and dez called and accepted, eight cards; the rule-set switch,
the call buttons, the card grid and the verdict stay inside the screen's width and no tap moves
them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .test_juiz_whole_browser import box, settled, tap_keeping_targets

SIZES = [(320, 568), (390, 844)]
CALLS = ("diz-1-truco", "diz-2-seis", "diz-1-dez", "diz-2-aceita")
# The zap (4 de paus) takes round 1 for Nós 1, copas (7 de copas) round 2.
CARDS = ("4p", "3c", "Kp", "Ko", "7c", "3o", "Qp", "Qo")
WATCHED = ["[data-testid=cartas]", "[data-testid=falas]", "[data-testid=desfazer]"]
INSIDE = ["[data-testid=variante]", "[data-testid=falas]", "[data-testid=cartas]"]


def inside(page: Page, locator: Locator, width: int) -> None:
    """The element's box lies within the viewport's width."""
    x, _, w, _ = box(locator)
    assert x >= 0 and x + w <= width + 0.5, (x, w, width)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_mineiro_hand_called_up_to_dez_is_entered_by_tapping(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """Truco, seis, dez, aceita, then eight cards: Nós score 10; every tap target fits the
    screen and stays in place."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(live_server + "/juiz?variante=mineiro")
        expect(page.get_by_test_id("variante")).to_contain_text("Truco Mineiro")
        page.get_by_test_id("juiz-mao-inteira").click()
        expect(page.locator("#juiz")).to_have_attribute("data-eventos", "0")
        assert "variante=mineiro" in page.url
        expect(page.get_by_test_id("falta")).to_contain_text("Toque a carta de Nós 1")
        expect(page.locator("a.jz-cell.manilha")).to_have_count(4)
        page.screenshot(path=str(shots / f"juiz-mineiro-inicio-{width}.png"))
        for selector in INSIDE:
            inside(page, page.locator(selector), width)
        events = 0
        page.get_by_test_id("diz-1-truco").scroll_into_view_if_needed()
        for call in CALLS:
            events += 1
            watched = WATCHED if events > 1 else WATCHED[:2]
            tap_keeping_targets(page, page.get_by_test_id(call), events, watched)
        expect(page.get_by_test_id("situacao")).to_contain_text("A mão vale 10 pontos")
        page.screenshot(path=str(shots / f"juiz-mineiro-dez-{width}.png"))
        for card in CARDS[:-1]:
            events += 1
            cell = page.locator(f"a.jz-cell[data-carta='{card}']")
            cell.scroll_into_view_if_needed()
            tap_keeping_targets(page, cell, events, WATCHED)
            for selector in INSIDE[1:]:
                inside(page, page.locator(selector), width)
        page.locator(f"a.jz-cell[data-carta='{CARDS[-1]}']").click()
        ruling = page.get_by_test_id("veredito")
        expect(ruling).to_have_attribute("data-resultado", "nos")
        expect(ruling).to_have_attribute("data-pontos", "10")
        expect(ruling).to_have_attribute("data-rodadas", "nos,nos")
        inside(page, ruling, width)
        links = page.locator("[data-testid=motivos] a.jz-rule")
        assert links.count() > 0
        for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))"):
            assert href.startswith("/regras/mineiro#mineiro-"), href
        page.screenshot(path=str(shots / f"juiz-mineiro-fim-{width}.png"), full_page=True)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
        assert not overflow
        settled(page, events + 1)
    finally:
        context.close()
