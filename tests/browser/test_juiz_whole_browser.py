"""The juiz's whole hand in a real browser: a 2x2 hand with a truco accepted, entered tap by tap,
with no tap target moving under the thumb; screenshots at 390x844 and 320x568."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

SIZES = [(390, 844), (320, 568)]
# Nós 1 asks for truco, Eles 1 accepts; 3♣ takes round 1 for Nós, 2♣ round 2 (vira 4♦: 5s are
# the manilhas).
ROUND_1 = ("3p", "2c", "Ae", "Ko")
ROUND_2 = ("2p", "Ac", "Ke", "Qo")


def box(locator: Locator) -> tuple[float, float, float, float]:
    """Where an element is on the screen (viewport coordinates)."""
    found = locator.bounding_box()
    assert found is not None
    return found["x"], found["y"], found["width"], found["height"]


def same_place(before: tuple[float, ...], after: tuple[float, ...]) -> bool:
    """True when two boxes are the same within 1 px."""
    return all(abs(a - b) <= 1 for a, b in zip(before, after, strict=True))


def settled(page: Page, events: int) -> None:
    """Wait until the page shows a hand of `events` events (the swap is done)."""
    expect(page.locator("#juiz")).to_have_attribute("data-eventos", str(events))


def tap_keeping_targets(page: Page, target: Locator, events: int, watched: list[str]) -> None:
    """Tap `target` and check that the watched regions did not move."""
    before = {selector: box(page.locator(selector)) for selector in watched}
    target.click()
    settled(page, events)
    for selector, where in before.items():
        assert same_place(where, box(page.locator(selector))), selector


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_2x2_hand_with_an_accepted_truco_is_entered_by_tapping(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """Vira, truco, aceita, eight cards: the verdict says Nós, 3 points, rounds nos,nos; from
    the first card to the last, no tap moves the card grid, the call buttons or the undo."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(live_server + "/juiz")
        page.get_by_test_id("juiz-mao-inteira").click()
        expect(page.get_by_test_id("falta")).to_contain_text("Toque a vira")
        page.locator("a.jz-cell[data-carta='4o']").click()
        expect(page.get_by_test_id("falta")).to_contain_text("Toque a carta de Nós 1")
        page.screenshot(path=str(shots / f"juiz-mao-inteira-inicio-{width}.png"))
        expect(page.get_by_test_id("situacao")).to_contain_text("Vez de Nós 1")
        watched = ["[data-testid=cartas]", "[data-testid=falas]", "[data-testid=desfazer]"]
        page.get_by_test_id("diz-1-truco").scroll_into_view_if_needed()
        tap_keeping_targets(page, page.get_by_test_id("diz-1-truco"), 1, watched)
        expect(page.get_by_test_id("situacao")).to_contain_text("responde Eles 1")
        expect(page.locator("a.jz-cell")).to_have_count(0)
        page.screenshot(path=str(shots / f"juiz-mao-inteira-truco-{width}.png"))
        tap_keeping_targets(page, page.get_by_test_id("diz-2-aceita"), 2, watched)
        expect(page.get_by_test_id("situacao")).to_contain_text("A mão vale 3 pontos")
        events = 2
        for card in (*ROUND_1, *ROUND_2[:-1]):
            events += 1
            cell = page.locator(f"a.jz-cell[data-carta='{card}']")
            cell.scroll_into_view_if_needed()
            tap_keeping_targets(page, cell, events, watched)
            expect(page.locator(f".jz-cell.used[data-carta='{card}']")).to_have_count(1)
        page.screenshot(path=str(shots / f"juiz-mao-inteira-rodada2-{width}.png"))
        page.locator(f"a.jz-cell[data-carta='{ROUND_2[-1]}']").click()
        ruling = page.get_by_test_id("veredito")
        expect(ruling).to_have_attribute("data-resultado", "nos")
        expect(ruling).to_have_attribute("data-pontos", "3")
        expect(ruling).to_have_attribute("data-rodadas", "nos,nos")
        expect(page.get_by_test_id("motivos")).to_contain_text("Pedido de truco aceito")
        page.screenshot(path=str(shots / f"juiz-mao-inteira-fim-{width}.png"), full_page=True)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
        assert not overflow
    finally:
        context.close()


def test_desfazer_takes_back_the_last_tap_in_the_browser(page: Page, live_server: str) -> None:
    """'Desfazer último' after a truco brings back Nós 1's buttons and the card grid."""
    page.goto(live_server + "/juiz/mao?vira=4o&jogadores=4&eventos=1:truco")
    expect(page.locator("a.jz-cell")).to_have_count(0)
    page.get_by_test_id("desfazer").click()
    settled(page, 0)
    expect(page.get_by_test_id("diz-1-truco")).to_be_visible()
    expect(page.locator("a.jz-cell[data-carta='3p']")).to_have_count(1)


def test_the_page_works_without_javascript(browser: Browser, live_server: str) -> None:
    """With JavaScript off every tap is a plain link: truco, then aceita, land as events."""
    context = browser.new_context(java_script_enabled=False, locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(live_server + "/juiz/mao?vira=4o&jogadores=4&eventos=")
        page.get_by_test_id("diz-1-truco").click()
        page.get_by_test_id("diz-2-aceita").click()
        expect(page.locator("#juiz")).to_have_attribute("data-eventos", "2")
        expect(page.get_by_test_id("situacao")).to_contain_text("A mão vale 3 pontos")
    finally:
        context.close()
