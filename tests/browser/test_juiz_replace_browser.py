"""The juiz at the table on a phone: the ruling in the place of the hand tapped, undone and
redone on the board; the juiz's tabs on one row and no name broken inside a word, by the
elements' boxes, at 320 and 390 px; screenshots to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .pages import phone_context, score_on_page

PHONES = {"320": (320, 568), "390": (390, 844)}
NAMES = ("Sebastião Albuquerque", "Maria Aparecida Souza", "Bartolomeu Gusmão Fil", "Ana")
TEAM = "Os Zapeiros do Bairro"
# The juiz's pages with every kind of name box: seats over cards, switches of names, rounds won.
JUIZ_PAGES = {
    "rodada": "/juiz/rodada?vira=4p&jogadas=3o,2c",
    "mao": "/juiz/mao?rodadas=nos,nos",
    "inteira": "/juiz/mao?vira=4o&mao=1&eventos=1:3p,2:2c",
}
NAME_BOXES = (
    ".jz-slot-label, .jz-speaker-name, .jz .seg.bar a, .jz-round strong, .jz-put-name,"
    " .jz-say small"
)

# Each tab's box and whether its text runs out of it.
_TABS = """() => [...document.querySelectorAll('.jz-tabs a')].map(a => {
  const r = a.getBoundingClientRect();
  return {text: a.textContent.trim(), top: r.top, bottom: r.bottom, left: r.left,
          right: r.right, over: a.scrollWidth > a.clientWidth + 1};
})"""
# The name boxes whose box runs out of their parent's or of the page, and the words of any name
# box laid on more than one line (a word broken inside: its range has a box on each line).
_NAMES = """(selector) => {
  const out = {outside: [], broken: []};
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect(), parent = el.parentElement.getBoundingClientRect();
    if (box.width === 0) continue;
    if (box.left < parent.left - 1 || box.right > parent.right + 1 ||
        box.right > document.documentElement.clientWidth) out.outside.push(el.textContent.trim());
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                                        .map(r => Math.round(r.top)));
        if (tops.size > 1) out.broken.push(match[0]);
      }
    }
  }
  return out;
}"""


def open_long_named_table(page: Page, base: str) -> str:
    """Open a 2x2 table whose team and players have long names; the board's URL."""
    page.goto(base + "/")
    page.get_by_text("Opções da mesa").click()
    page.locator("input[name=jogadores][value='4']").check()
    page.locator("input[name=time_a]").fill(TEAM)
    for seat, name in enumerate(NAMES):
        page.locator(f"input[name=jogador_{seat}]").fill(name)
    page.get_by_role("button", name="Abrir mesa com essas opções").click()
    page.wait_for_url("**/m/*")
    return page.url


@pytest.mark.parametrize("size", list(PHONES))
def test_the_juiz_replaces_the_tapped_hand_and_the_board_undoes_and_redoes_it(
    browser: Browser, live_server: str, shots: Path, size: str
) -> None:
    """Nós +3 tapped; the juiz, opened from the board, rules the hand for Eles and its
    'trocar' button puts Eles +3 in its place: the board shows 0 x 3 and says so in its log;
    Desfazer brings back 3 x 0, Refazer 0 x 3."""
    context = phone_context(browser, *PHONES[size])
    try:
        page = context.new_page()
        board = open_long_named_table(page, live_server)
        page.get_by_test_id("tap-a-3").click()
        score_on_page(page, 3, 0)
        page.get_by_role("link", name="Juiz").first.click()
        page.get_by_test_id("juiz-mao").click()
        page.get_by_test_id("rodada-eles").click()
        expect(page.get_by_test_id("falta")).to_contain_text("2ª rodada")  # the first one in
        page.get_by_test_id("rodada-eles").click()
        expect(page.get_by_test_id("veredito")).to_have_attribute("data-resultado", "eles")
        expect(page.get_by_test_id("trocar-qual")).to_have_text(
            f"Trocar a última mão ({TEAM} +3) por esta:"
        )
        page.get_by_test_id("trocar").screenshot(path=str(shots / f"juiz-trocar-{size}.png"))
        page.screenshot(path=str(shots / f"juiz-trocar-pagina-{size}.png"), full_page=True)
        page.get_by_test_id("substituir-3").click()
        page.wait_for_url(board)
        score_on_page(page, 0, 3)
        expect(page.get_by_test_id("registro").first).to_contain_text(
            f"pelo juiz, no lugar de {TEAM} +3"
        )
        page.screenshot(path=str(shots / f"placar-trocado-{size}.png"))
        page.get_by_test_id("desfazer").click()
        score_on_page(page, 3, 0)
        page.get_by_test_id("refazer").click()
        score_on_page(page, 0, 3)
        expect(page.get_by_test_id("refazer")).to_be_disabled()
    finally:
        context.close()


@pytest.mark.parametrize("size", list(PHONES))
def test_the_juiz_tabs_sit_on_one_row_and_no_name_breaks_inside_a_word(
    browser: Browser, live_server: str, shots: Path, size: str
) -> None:
    """On each juiz page opened from a table of long names, the tabs' boxes share one row
    inside the page and no tab's text runs out of it; every name box (a seat, who speaks, a
    switch's segment, a round's winner) stays inside its parent and breaks no word across
    lines."""
    context = phone_context(browser, *PHONES[size])
    try:
        page = context.new_page()
        board = open_long_named_table(page, live_server)
        page.goto(board + "/juiz")
        for name, url in JUIZ_PAGES.items():
            page.goto(live_server + url)
            expect(page.locator(".jz-tabs")).to_be_visible()
            tabs = page.evaluate(_TABS)
            assert len(tabs) == 5, tabs
            width = page.evaluate("document.documentElement.clientWidth")
            assert max(t["top"] for t in tabs) - min(t["top"] for t in tabs) <= 1, tabs
            assert all(t["left"] >= 0 and t["right"] <= width for t in tabs), tabs
            assert not [t["text"] for t in tabs if t["over"]], tabs
            names = page.evaluate(_NAMES, NAME_BOXES)
            assert names == {"outside": [], "broken": []}, (name, names)
            page.screenshot(path=str(shots / f"juiz-{name}-{size}.png"), full_page=True)
    finally:
        context.close()
