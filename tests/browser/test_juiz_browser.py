"""The juiz in a real browser: tap the vira and the cards, get the ruling; screenshots."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .pages import open_table_on_page

SCHEMES = {
    "claro": {"color_scheme": "light"},
    "escuro": {"color_scheme": "dark"},
    "sol": {"color_scheme": "light", "tema": "sol"},
}
# The computed value of a colour variable of the page (app.css's --a or --b), as rgb().
RESOLVE = """name => {
  const probe = document.createElement("i");
  document.body.append(probe);
  probe.style.color = getComputedStyle(document.documentElement).getPropertyValue(name);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}"""
BACKGROUND = "el => getComputedStyle(el).backgroundColor"


def pick(page: Page, card: str) -> None:
    """Tap a card in the grid and wait for the grid to come back without it."""
    page.locator(f"a.jz-cell[data-carta='{card}']").click()
    expect(page.locator(f"a.jz-cell[data-carta='{card}']")).to_have_count(0)


def play(page: Page, *cards: str) -> None:
    """Tap the cards of a round in order and wait for the ruling."""
    for card in cards:
        pick(page, card)
    expect(page.get_by_test_id("veredito")).to_be_visible()


def open_named_table(page: Page, base: str, team_a: str, team_b: str) -> str:
    """Open a table with team names from the home page's options; return the board URL."""
    page.goto(base + "/")
    page.get_by_text("Opções da mesa").click()
    page.locator("input[name=time_a]").fill(team_a)
    page.locator("input[name=time_b]").fill(team_b)
    page.get_by_role("button", name="Abrir mesa com essas opções").click()
    page.wait_for_url("**/m/*")
    return page.url


def to_round(page: Page, number: int) -> None:
    """Tap a round in the page's 'Rodada' switch and wait for it."""
    page.locator(".seg[aria-label='Rodada'] a", has_text=f"{number}ª").click()
    expect(page.locator(".seg[aria-label='Rodada'] a.on")).to_have_text(f"{number}ª")


def expect_vira(page: Page, label: str) -> None:
    """The table shows this vira."""
    expect(page.locator(".jz-vira .jz-card")).to_have_attribute("title", label)


def test_card_taps_swap_the_juiz_in_place_and_push_the_address(
    page: Page, live_server: str
) -> None:
    """With JavaScript, a card tap replaces the juiz without loading a page (the grid's one
    htmx handler), the address follows it, and Back returns to the previous state."""
    page.goto(live_server + "/juiz/rodada?jogadores=2")
    page.evaluate("window.tentoKept = 1")
    pick(page, "7c")
    pick(page, "3p")
    assert "jogadas=3p" in page.url and "vira=7c" in page.url
    assert page.evaluate("window.tentoKept") == 1
    page.go_back()
    expect(page.locator("a.jz-cell[data-carta='3p']")).to_have_count(1)


def test_tapping_vira_and_cards_gives_the_ruling_with_reasons(
    page: Page, live_server: str
) -> None:
    """/regras#cartas-e-manilhas: vira 7♥ makes the Q manilhas; Q♣ (zap) wins."""
    page.goto(live_server + "/juiz/rodada?jogadores=2")
    pick(page, "7c")
    pick(page, "3p")
    expect(page.get_by_test_id("falta")).to_be_visible()
    pick(page, "Qp")
    verdict = page.get_by_test_id("veredito")
    expect(verdict).to_have_attribute("data-resultado", "vitoria")
    expect(verdict).to_have_attribute("data-jogada", "2")
    expect(page.get_by_test_id("motivos")).to_contain_text("manilhas são as damas")
    assert "jogadas=3p,Qp" in page.url


def test_a_covered_card_is_offered_from_round_two_and_loses(page: Page, live_server: str) -> None:
    """/regras#carta-coberta: a covered card counts nothing."""
    page.goto(live_server + "/juiz/rodada?jogadores=2&rodada=1&vira=4o")
    expect(page.get_by_test_id("coberta")).to_have_count(0)
    page.goto(live_server + "/juiz/rodada?jogadores=2&rodada=2&vira=4o")
    pick(page, "4p")
    page.get_by_test_id("coberta").click()
    expect(page.get_by_test_id("veredito")).to_have_attribute("data-jogada", "1")
    expect(page.get_by_test_id("motivos")).to_contain_text("coberta não vale nada")


def test_juiz_from_a_board_applies_a_hand_to_the_score(page: Page, live_server: str) -> None:
    """Opened from the board, a decided hand can be recorded with the values legal now."""
    board = open_table_on_page(page, live_server)
    page.get_by_role("link", name="Juiz").click()
    page.get_by_test_id("juiz-mao").click()
    page.get_by_test_id("rodada-eles").click()
    expect(page.get_by_test_id("falta")).to_contain_text("2ª rodada")
    page.get_by_test_id("rodada-eles").click()
    expect(page.get_by_test_id("veredito")).to_have_attribute("data-resultado", "eles")
    page.get_by_test_id("aplicar-3").click()
    page.wait_for_url(board)
    expect(page.get_by_test_id("score-b")).to_have_text("3")


def test_screenshots_of_every_page_light_and_dark(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """Board, live view, share page and juiz at 390 x 844 in both schemes, saved to look at."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        page = context.new_page()
        open_table_on_page(page, live_server)
        page.get_by_test_id("tap-a-3").click()
        expect(page.get_by_test_id("score-a")).to_have_text("3")
        page.screenshot(path=str(shots / f"board-{scheme}.png"))
        page.get_by_test_id("compartilhar").click()
        page.screenshot(path=str(shots / f"share-{scheme}.png"), full_page=True)
        live = urlsplit(page.get_by_test_id("link-assistir").inner_text()).path
        page.goto(live_server + live)  # the link carries the LAN address; this is 127.0.0.1
        expect(page.get_by_test_id("score-a")).to_have_text("3")
        assert page.locator("#live button, #live form").count() == 0
        page.screenshot(path=str(shots / f"live-{scheme}.png"))
        page.goto(live_server + "/juiz/rodada?vira=3o&rodada=2&jogadores=4&jogadas=4p,X,3c,2o")
        expect(page.get_by_test_id("veredito")).to_be_visible()
        page.screenshot(path=str(shots / f"juiz-{scheme}.png"))
        context.close()


def test_the_vira_stays_across_rounds_and_restarts_and_every_round_is_noted(
    page: Page, live_server: str
) -> None:
    """From a board: the vira tapped in round 1 stays for rounds 2 and 3 and after 'Recomeçar';
    each ruled round offers 'Anotar na mão', and the hand page gets the three results."""
    open_named_table(page, live_server, "Ana", "Os Zapeiros")
    page.locator("header nav").get_by_role("link", name="Juiz").click()
    page.get_by_test_id("juiz-rodada").click()
    pick(page, "7c")
    play(page, "3p", "Qp", "2o", "4o")  # the zap, for Ana's side
    expect(page.get_by_test_id("veredito")).to_contain_text("Rodada para Ana")
    expect(page.get_by_test_id("anotar")).to_contain_text("Anotar na mão")
    to_round(page, 2)
    expect_vira(page, "7 de copas")
    expect(page.get_by_test_id("veredito")).to_have_count(0)
    play(page, "4p", "Qc", "5p", "6p")
    expect(page.get_by_test_id("veredito")).to_contain_text("Rodada para Os Zapeiros")
    expect(page.get_by_test_id("anotar")).to_contain_text("Anotar na mão")
    page.get_by_test_id("recomecar").click()
    expect(page.get_by_test_id("veredito")).to_have_count(0)
    expect_vira(page, "7 de copas")
    play(page, "4p", "Qc", "5p", "6p")
    to_round(page, 3)
    expect_vira(page, "7 de copas")
    play(page, "Ap", "Ac", "Ke", "Ko")
    expect(page.get_by_test_id("anotar")).to_contain_text("Anotar na mão")
    page.get_by_test_id("anotar-mao").click()
    expect(page.locator(".jz-round strong")).to_have_text(["Ana", "Os Zapeiros", "Empate"])
    expect(page.get_by_test_id("veredito")).to_contain_text("Mão para Ana")
    assert "vira=7c" in page.url


def test_rounds_two_and_three_can_be_noted_without_the_earlier_ones(
    page: Page, live_server: str
) -> None:
    """Opened straight at round 2 or 3, the ruling asks how the earlier rounds went instead."""
    for number in (2, 3):
        page.goto(live_server + f"/juiz/rodada?jogadores=2&rodada={number}&vira=3o")
        play(page, "4p", "3c")
        expect(page.get_by_test_id("anotar")).to_contain_text("Anotar na mão")
        expect(page.get_by_test_id("anotar-mao")).to_have_count(3)
    page.get_by_test_id("anotar-mao").first.click()
    expect(page.get_by_test_id("veredito")).to_have_attribute("data-resultado", "nos")


@pytest.mark.parametrize("tema", list(SCHEMES))
def test_seats_and_side_buttons_wear_the_boards_side_colours(
    browser: Browser, live_server: str, tema: str
) -> None:
    """In every theme a seat of each side, and the hand page's side buttons, have the colour
    the board gives that side (app.css's --a and --b)."""
    scheme = SCHEMES[tema]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, color_scheme=scheme["color_scheme"]
    )
    if "tema" in scheme:
        context.add_init_script(f"localStorage.setItem('tento.tema', '{scheme['tema']}')")
    page = context.new_page()
    try:
        board = open_named_table(page, live_server, "Ana", "Os Zapeiros")
        page.goto(board + "/juiz")  # the juiz opened from the board
        page.goto(live_server + "/juiz/rodada?vira=3o")
        assert page.evaluate("document.documentElement.dataset.tema") == scheme.get("tema")
        side_a, side_b = page.evaluate(RESOLVE, "--a"), page.evaluate(RESOLVE, "--b")
        assert side_a != side_b
        seats = page.locator(".jz-slot")
        expect(seats).to_have_count(4)
        for i in range(4):
            seat = seats.nth(i)
            name = seat.locator(".jz-slot-label").get_attribute("data-jogador") or ""
            color = seat.locator(".jz-slot-label").evaluate(BACKGROUND)
            assert color == (side_a if name.startswith("Ana") else side_b), (name, color)
        page.goto(live_server + "/juiz/mao")
        assert page.get_by_test_id("rodada-nos").evaluate(BACKGROUND) == side_a
        assert page.get_by_test_id("rodada-eles").evaluate(BACKGROUND) == side_b
        page.goto(board)
        assert page.get_by_test_id("tap-a-1").evaluate(BACKGROUND) == side_a
        assert page.get_by_test_id("tap-b-1").evaluate(BACKGROUND) == side_b
    finally:
        context.close()


def test_without_javascript_the_vira_stays_and_rounds_are_noted(
    browser: Browser, live_server: str
) -> None:
    """With JavaScript off every tap is a plain link: the vira survives a restart and a change
    of round, and the ruling offers 'Anotar na mão'."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/juiz/rodada?jogadores=2")
        for card in ("Kp", "3c", "Ac"):
            page.locator(f"a.jz-cell[data-carta='{card}']").click()
        expect(page.get_by_test_id("veredito")).to_be_visible()
        expect(page.get_by_test_id("anotar-mao")).to_be_visible()
        page.get_by_test_id("recomecar").click()
        expect_vira(page, "rei (K) de paus")
        page.locator(".seg[aria-label='Rodada'] a", has_text="3ª").click()
        expect_vira(page, "rei (K) de paus")
        assert re.search(r"rodada=3", page.url) and "vira=Kp" in page.url
    finally:
        context.close()


def test_screenshots_of_the_juiz_at_the_table(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """The juiz at 390 x 844, light and dark: picking, a ruled round, round 2 asking how the hand
    got there, and a hand ruled from a board with its apply panel; saved to look at."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        page = context.new_page()
        board = open_named_table(page, live_server, "Ana", "Os Zapeiros")
        page.goto(board + "/juiz")  # the juiz opened from the board
        page.goto(live_server + "/juiz/rodada?vira=7c&jogadas=3p")
        expect(page.get_by_test_id("falta")).to_be_visible()
        page.screenshot(path=str(shots / f"juiz-escolha-{scheme}.png"))
        page.goto(live_server + "/juiz/rodada?vira=7c&jogadas=3p,Qp,2o,4o")
        page.get_by_test_id("anotar").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"juiz-rodada-{scheme}.png"))
        page.goto(live_server + "/juiz/rodada?rodada=2&vira=7c&jogadas=4p,Qc,5p,6p")
        page.get_by_test_id("anotar").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"juiz-rodada2-{scheme}.png"))
        page.goto(live_server + "/juiz/mao?rodadas=nos,eles,nos")
        page.get_by_test_id("aplicar").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"juiz-mao-{scheme}.png"))
        page.get_by_test_id("aplicar-3").click()
        page.wait_for_url(board)
        page.screenshot(path=str(shots / f"juiz-aplicado-{scheme}.png"))
        context.close()
