"""The rule book in a real browser: a reason's link lands on its section, it reads without
JavaScript, nothing overflows a phone; the Truco Mineiro page and its tabs at 320 x 568 and
390 x 844; screenshots, light and dark."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .pages import open_table_on_page

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
    board = open_table_on_page(page, live_server)
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


# --- Truco Mineiro (/regras/mineiro) --------------------------------------------------------

SIZES = {"320x568": {"width": 320, "height": 568}, "390x844": {"width": 390, "height": 844}}
# Every element whose box sticks out of the viewport's width (left of 0 or right of innerWidth),
# as 'tag.class (left..right)'; a table's cells count as the table.
OUTSIDE = """() => [...document.querySelectorAll('body *')]
  .filter(el => { const r = el.getBoundingClientRect();
                  return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5); })
  .map(el => `${el.tagName.toLowerCase()}.${el.className} (${el.getBoundingClientRect().left}..`
             + `${el.getBoundingClientRect().right})`)"""


def test_the_mineiro_page_fits_a_phone_without_sideways_scrolling(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """At 320 x 568 and 390 x 844, light and dark, no element of the Mineiro page (tabs, table of
    calls, 'diferente do Paulista' marks) sticks out sideways and the page does not scroll
    sideways; the screenshots (top, the truco section, the whole page) are saved to look at."""
    for size, viewport in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=viewport, color_scheme=scheme)
            page = context.new_page()
            try:
                page.goto(live_server + "/regras/mineiro")
                expect(page.get_by_role("heading", name="Regras do truco mineiro")).to_be_visible()
                assert page.evaluate(OUTSIDE) == [], size
                assert page.evaluate(OVERFLOW) <= 0, size
                page.screenshot(path=str(shots / f"regras-mineiro-{size}-{scheme}.png"))
                page.screenshot(
                    path=str(shots / f"regras-mineiro-inteira-{size}-{scheme}.png"),
                    full_page=True,
                )
                page.goto(live_server + "/regras/mineiro#mineiro-truco")
                expect(page.get_by_role("heading", name="4. Truco e aumentos")).to_be_in_viewport()
                page.screenshot(path=str(shots / f"regras-mineiro-truco-{size}-{scheme}.png"))
            finally:
                context.close()


def test_the_paulista_page_with_its_tabs_fits_320_wide(browser: Browser, live_server: str) -> None:
    """The Paulista page, now topped by the Paulista/Mineiro tabs, has no element sticking out
    sideways at 320 x 568."""
    context = browser.new_context(viewport=SIZES["320x568"])
    page = context.new_page()
    try:
        page.goto(live_server + "/regras")
        expect(page.get_by_test_id("regras-abas")).to_be_visible()
        assert page.evaluate(OUTSIDE) == []
        assert page.evaluate(OVERFLOW) <= 0
    finally:
        context.close()


def test_the_tabs_and_a_difference_mark_move_between_the_two_pages(
    page: Page, live_server: str
) -> None:
    """The 'Truco Mineiro' tab opens the Mineiro page (marked current), a Mineiro section's
    'diferente do Paulista' link lands on the Paulista section, and the 'Truco Paulista' tab
    comes back."""
    page.goto(live_server + "/regras")
    page.get_by_test_id("aba-mineiro").click()
    page.wait_for_url("**/regras/mineiro")
    expect(page.get_by_test_id("aba-mineiro")).to_have_attribute("aria-current", "page")
    page.get_by_role("link", name="Paulista: Truco e aumentos").click()
    expect(page).to_have_url(live_server + "/regras#truco")
    expect(page.get_by_role("heading", name="4. Truco e aumentos")).to_be_in_viewport()
    page.get_by_test_id("aba-mineiro").click()
    page.get_by_test_id("aba-paulista").click()
    page.wait_for_url(live_server + "/regras")
