"""A Truco Mineiro evening on a small and a common phone (320x568, 390x844): a 2x2 table opened
from the home page plays a whole queda (best of 3) with the Mineiro taps, through the mão de dez
and the mão de ferro (whose winner takes the game), with undo and redo, answers held 300 ms and a
tap kept offline; the live view names the rule set and shows the same score; the juiz opened from
the board starts in Mineiro and its "Regras desta mesa" lead to the Mineiro rule book. A 3x3
table with six names deals round all six seats. At every step nothing under the thumb moves
within a phase, Desfazer is on screen and nothing is wider than the screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .pages import (
    ON_PHONES,
    Boxes,
    assert_unmoved,
    confirmed,
    geometry,
    hold,
    phone_page,
    press_on_page,
    score_on_page,
    targets_on_screen,
)
from .test_whole_evening import FRAME_MS, SLOW, tap_at_once

MINEIRO_TAPS = {f"tap-{side}-{value}" for side in "ab" for value in (2, 4, 6, 10, 12)}
PAULISTA_TAPS = {f"tap-{side}-{value}" for side in "ab" for value in (1, 3, 9)}
NAMES = {
    "time_a": "Galo",
    "time_b": "Raposa",
    "jogador_0": "Tião",
    "jogador_1": "Lia",
    "jogador_2": "Juca",
    "jogador_3": "Nina",
}
TRIO = ("Ana", "Beto", "Caio", "Duda", "Edu", "Fê")

# Every element on the page whose box reaches past the screen's left or right edge.
_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.left < -0.5 || r.right > width + 0.5)) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className} [${el.dataset.testid || ""}]`
        + ` ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return {wide, scrolls: document.documentElement.scrollWidth > width};
}"""


def fits(page: Page, where: str) -> None:
    """No element is wider than the screen, nor does the page scroll sideways."""
    found = page.evaluate(_WIDE)
    assert not found["wide"] and not found["scrolls"], (where, found)


def steady(page: Page, phase: str) -> Boxes:
    """Every target of the phase, Desfazer among them, is on screen unscrolled and uncovered,
    nothing is wider than the screen; the targets' boxes, to compare after the next tap."""
    boxes = targets_on_screen(page, phase)
    assert "desfazer" in boxes, phase
    fits(page, phase)
    return boxes


def shot(page: Page, shots: Path, phase: str) -> None:
    """A screenshot of the page as it is now, named after the phase and the screen."""
    size = page.viewport_size or {}
    page.screenshot(path=str(shots / f"mineiro-noite-{phase}-{size['width']}x{size['height']}.png"))


def quick(page: Page, testid: str) -> None:
    """Tap with the answer held HELD_S: the big score changes within about a frame, and the
    server's board confirms it."""
    elapsed = tap_at_once(page, testid)
    assert elapsed < FRAME_MS, f"{testid}: score shown {elapsed:.0f} ms after the tap"
    confirmed(page, SLOW)


def unmoved(page: Page, event: str, action: Callable[[], None]) -> None:
    """Do something within a phase: every target stays where it was and fits the screen."""
    before = geometry(page)
    action()
    assert_unmoved(before, steady(page, event), event)


def pressed(page: Page, testid: str) -> Callable[[], None]:
    """A tap on a board button that waits for the server's next board."""
    return lambda: press_on_page(page, testid)


def open_mineiro(page: Page, base: str, names: dict[str, str], trios: bool = False) -> str:
    """From the home page: Truco Mineiro (its queda, best of 3, picked with it), the names, 3x3
    when asked; the board's URL."""
    page.goto(base + "/")
    page.get_by_test_id("variante-mineiro").check(force=True)
    expect(page.locator("input[name=serie][value=melhor_de_3]")).to_be_checked()
    if trios:
        page.locator("input[name=jogadores][value='6']").check(force=True)
    for field, value in names.items():
        page.fill(f"input[name={field}]", value)
    fits(page, "the new-table form")
    page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")
    page.wait_for_function("() => window.tento && window.tento.forecast.ready")
    return page.url


@ON_PHONES
def test_a_mineiro_queda_is_kept_without_anything_moving(
    browser: Browser,
    live_server: str,
    shots: Path,
    contexts: list[BrowserContext],
    width: int,
    height: int,
) -> None:
    """A whole queda of Truco Mineiro at phone sizes: its ladder, the mão de dez, the ferro that
    takes the game, undo and redo, held and offline taps, the live view, the juiz and the rule
    book of the table."""
    page = phone_page(browser, contexts, width, height)
    board = open_mineiro(page, live_server, NAMES)
    expect(page.get_by_test_id("serie")).to_have_text("Melhor de 3 · partida 1")
    expect(page.get_by_test_id("team-a")).to_contain_text("Galo")
    normal = steady(page, "normal")
    assert MINEIRO_TAPS <= normal.keys() and not PAULISTA_TAPS & normal.keys(), sorted(normal)
    shot(page, shots, "normal")

    # Answers held 300 ms: the score at once, the buttons where they were.
    page.route("**/marcar", hold)
    unmoved(page, "tap-a-2 held", lambda: quick(page, "tap-a-2"))
    score_on_page(page, 2, 0)
    expect(page.get_by_test_id("confirmacao")).to_be_visible()
    page.unroute("**/marcar")

    # Offline: the tap moves the big score and waits; back online it lands once.
    page.context.set_offline(True)
    elapsed = tap_at_once(page, "tap-b-4")
    assert elapsed < FRAME_MS, f"offline score shown {elapsed:.0f} ms after the tap"
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque")
    score_on_page(page, 2, 4)
    assert_unmoved(normal, steady(page, "offline"), "the tap kept offline")
    page.context.set_offline(False)
    confirmed(page, SLOW)
    score_on_page(page, 2, 4)
    expect(page.get_by_test_id("historico")).to_contain_text("Histórico (2)")

    # Undo and redo in a normal hand: the score goes back and forth, nothing moves.
    unmoved(page, "desfazer", pressed(page, "desfazer"))
    score_on_page(page, 2, 0)
    unmoved(page, "refazer", pressed(page, "refazer"))
    score_on_page(page, 2, 4)
    unmoved(page, "tap-a-6", lambda: quick(page, "tap-a-6"))
    score_on_page(page, 8, 4)

    # The mão de dez: Nós at 10 decide; it is worth 4, running gives Eles 2.
    quick(page, "tap-a-2")
    score_on_page(page, 10, 4)
    expect(page.get_by_test_id("mao-de-onze")).to_contain_text("Galo")
    dez = steady(page, "dez")
    assert {"onze-ganhou", "onze-perdeu", "onze-correu"} <= dez.keys(), sorted(dez)
    assert not {key for key in dez if key.startswith("tap-a-")}, sorted(dez)
    expect(page.get_by_test_id("onze-ganhou")).to_contain_text("+4")
    shot(page, shots, "dez")
    unmoved(page, "onze-perdeu", lambda: quick(page, "onze-perdeu"))
    score_on_page(page, 10, 8)
    unmoved(page, "desfazer na mão de dez", pressed(page, "desfazer"))
    score_on_page(page, 10, 4)
    unmoved(page, "refazer na mão de dez", pressed(page, "refazer"))
    score_on_page(page, 10, 8)

    # Live, read-only: the rule set named and the same score, no button to tap.
    share = page.context.new_page()
    share.goto(board + "/compartilhar")
    live_path = urlsplit(share.get_by_test_id("link-assistir").inner_text()).path
    share.goto(live_server + live_path)
    expect(share.get_by_test_id("variante")).to_have_text("Truco Mineiro")
    expect(share.get_by_test_id("score-a")).to_have_text("10")
    expect(share.get_by_test_id("score-b")).to_have_text("8")
    assert share.locator("#live button, #live form").count() == 0
    fits(share, "the live view")
    shot(share, shots, "ao-vivo")

    # Eles run from the mão de dez: 10 x 10, the mão de ferro.
    quick(page, "onze-correu")
    score_on_page(page, 10, 10)
    expect(share.get_by_test_id("score-b")).to_have_text("10")
    expect(page.get_by_test_id("mao-de-ferro")).to_contain_text("Quem ganhar leva a partida")
    ferro = steady(page, "ferro")
    assert {"ferro-a", "ferro-b"} <= ferro.keys(), sorted(ferro)
    shot(page, shots, "ferro")
    press_on_page(page, "desfazer")
    score_on_page(page, 10, 8)
    press_on_page(page, "refazer")
    score_on_page(page, 10, 10)
    assert_unmoved(ferro, steady(page, "ferro again"), "undo and redo into the ferro")

    # Eles win the ferro: the game, whatever the hand is worth.
    quick(page, "ferro-b")
    expect(page.get_by_test_id("fim")).to_contain_text("Raposa")
    expect(page.get_by_test_id("series-b")).to_have_text("1")
    over = steady(page, "fim")
    expect(page.get_by_test_id("desfazer")).to_be_in_viewport()
    shot(page, shots, "fim")
    expect(share.get_by_test_id("series-b")).to_have_text("1")

    # Games 2 and 3 to Nós: a mão de dez played and won (10 + 4, capped at 12), then a doze;
    # the queda, 2 x 1.
    for game, taps in ((2, ("tap-a-10", "onze-ganhou")), (3, ("tap-a-12",))):
        press_on_page(page, "proxima-partida")
        expect(page.get_by_test_id("serie")).to_have_text(f"Melhor de 3 · partida {game}")
        assert_unmoved(normal, steady(page, f"game {game}"), f"the start of game {game}")
        for testid in taps:
            quick(page, testid)
        score_on_page(page, 12, 0)
    expect(page.get_by_test_id("series-a")).to_have_text("2")
    expect(page.get_by_test_id("nova-serie")).to_be_visible()
    assert over.keys() - {"proxima-partida"} <= steady(page, "serie").keys()
    shot(page, shots, "queda")
    expect(share.get_by_test_id("series-a")).to_have_text("2")
    share.close()

    # The juiz from the board starts in Mineiro; the table's rules lead to the Mineiro book.
    page.get_by_role("link", name="Juiz", exact=True).click()
    page.wait_for_url("**/juiz")
    switch = page.get_by_test_id("variante")
    expect(switch).to_have_attribute("data-variante", "mineiro")
    expect(switch.locator("[aria-current=true]")).to_have_text("Truco Mineiro")
    rules = page.get_by_test_id("regras-desta-mesa")
    expect(rules).to_contain_text("Regras: Truco Mineiro")
    fits(page, "the juiz")
    shot(page, shots, "juiz")
    hrefs = rules.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs and all(href.startswith("/regras/mineiro#") for href in hrefs), hrefs

    # The rule book from the juiz: Mineiro's, with the table's rules, each line to its section.
    page.get_by_test_id("juiz-regras").click()
    page.wait_for_url("**/regras/mineiro")
    rules = page.get_by_test_id("regras-desta-mesa")
    expect(rules).to_contain_text("Regras: Truco Mineiro")
    fits(page, "the Mineiro rule book with the table's rules")
    rules.get_by_role("link", name="Mão de ferro").click()
    page.wait_for_url("**/regras/mineiro#mineiro-mao-de-ferro")
    expect(page.get_by_role("heading", name="Regras do truco mineiro")).to_be_attached()
    expect(page.locator("#mineiro-mao-de-ferro")).to_be_in_viewport()
    fits(page, "the Mineiro rule book")
    shot(page, shots, "regras")


@ON_PHONES
def test_a_mineiro_3x3_table_deals_round_its_six_seats(
    browser: Browser,
    live_server: str,
    shots: Path,
    contexts: list[BrowserContext],
    width: int,
    height: int,
) -> None:
    """Six names in a Truco Mineiro 3x3: the deal goes to the next seat after each hand, round
    all six and back to the first, the mão always the seat after the pé; nothing moves."""
    names = {"time_a": "Nós", "time_b": "Eles"}
    names |= {f"jogador_{seat}": name for seat, name in enumerate(TRIO)}
    page = phone_page(browser, contexts, width, height)
    open_mineiro(page, live_server, names, trios=True)
    steady(page, "3x3")
    shot(page, shots, "3x3")
    dealers = []
    for hand in range(7):
        short = page.get_by_test_id("vez-curto").inner_text()
        pe, mao = (part.split(": ", 1)[1] for part in short.split(" · "))
        dealers.append(pe)
        assert mao == TRIO[(TRIO.index(pe) + 1) % 6], short
        if hand < 6:
            unmoved(page, f"hand {hand + 1}", pressed(page, f"tap-{'ab'[hand % 2]}-2"))
    assert dealers == [*TRIO, TRIO[0]], dealers
    score_on_page(page, 6, 6)
