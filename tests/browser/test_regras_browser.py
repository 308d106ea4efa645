"""The rule book in a real browser: a reason's link lands on its section, it reads without
JavaScript, nothing overflows a phone; screenshots at 390 x 844, light and dark."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .pages import open_table

PHONE = {"width": 390, "height": 844}
# The page's width beyond the viewport's (a horizontal scroll on a phone), in CSS pixels.
OVERFLOW = "() => document.documentElement.scrollWidth - innerWidth"


def attach_table(page: Page, base: str) -> None:
    """Open a table from the home page (1x1, baralho limpo, ferro no escuro) and its juiz."""
    page.goto(base + "/")
    page.get_by_text("Opções da mesa").click()
    page.get_by_label("1x1").check()
    page.locator("select[name=baralho]").select_option("limpo")
    page.get_by_label("No escuro (a vira também fica virada)").check()
    page.get_by_role("button", name="Abrir mesa com essas opções").click()
    page.wait_for_url("**/m/*")
    page.goto(page.url + "/juiz")
    page.wait_for_url("**/juiz")


def test_a_sections_link_scrolls_to_it_and_nothing_overflows(page: Page, live_server: str) -> None:
    """/regras#truco shows 'Truco e aumentos' in the viewport, and the page is no wider than a
    390 px phone."""
    page.goto(live_server + "/regras#truco")
    expect(page.get_by_role("heading", name="4. Truco e aumentos")).to_be_in_viewport()
    assert page.evaluate(OVERFLOW) <= 0


def test_the_rule_book_reads_without_javascript(browser: Browser, live_server: str) -> None:
    """With JavaScript off, the sections, the contents' links and the variants all work."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/regras")
        page.get_by_role("link", name="Mão de ferro", exact=True).click()
        expect(page).to_have_url(live_server + "/regras#mao-de-ferro")
        expect(page.get_by_role("heading", name="7. Mão de ferro")).to_be_in_viewport()
        expect(page.locator("[data-variante=ferro-escuro]")).to_be_visible()
    finally:
        context.close()


def test_opened_from_a_board_it_shows_the_tables_rules(page: Page, live_server: str) -> None:
    """After the board's Juiz link, the rule book opens with 'Regras desta mesa' and marks the
    table's ferro mode; 'Voltar ao placar' goes back to the board."""
    board = open_table(page, live_server)
    page.get_by_role("link", name="Juiz").click()
    page.goto(live_server + "/regras")
    block = page.get_by_test_id("regras-desta-mesa")
    expect(block).to_contain_text("Mão de ferro: às cegas (ninguém vê as próprias cartas)")
    expect(page.locator("[data-variante=ferro-cegas] .selo")).to_have_text("nesta mesa")
    page.get_by_test_id("voltar-placar").click()
    page.wait_for_url(board)


def test_screenshots_of_the_rule_book(browser: Browser, live_server: str, shots: Path) -> None:
    """The rule book at 390 x 844 in both schemes: from a table (top and a section with its
    variants) and on its own, saved to look at."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme)
        page = context.new_page()
        try:
            attach_table(page, live_server)
            page.goto(live_server + "/regras")
            expect(page.get_by_test_id("regras-desta-mesa")).to_be_visible()
            page.screenshot(path=str(shots / f"regras-mesa-{scheme}.png"))
            page.screenshot(path=str(shots / f"regras-inteira-{scheme}.png"), full_page=True)
            page.goto(live_server + "/regras#mao-de-ferro")
            expect(page.locator("[data-variante=ferro-escuro] .selo")).to_be_visible()
            page.screenshot(path=str(shots / f"regras-ferro-{scheme}.png"))
            page.goto(live_server + "/regras#truco")
            page.screenshot(path=str(shots / f"regras-truco-{scheme}.png"))
            assert page.evaluate(OVERFLOW) <= 0
        finally:
            context.close()
