"""The juiz in a real browser: tap the vira and the cards, get the ruling; screenshots."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect

from .pages import open_table


def pick(page: Page, card: str) -> None:
    """Tap a card in the grid and wait for the grid to come back without it."""
    page.locator(f"a.jz-cell[data-carta='{card}']").click()
    expect(page.locator(f"a.jz-cell[data-carta='{card}']")).to_have_count(0)


def test_tapping_vira_and_cards_gives_the_ruling_with_reasons(
    page: Page, live_server: str
) -> None:
    """seed 000, Valor das cartas e manilhas: vira 7♥ makes the Q manilhas; Q♣ (zap) wins."""
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
    """seed 000, Rodadas e empates: a covered card counts nothing."""
    page.goto(live_server + "/juiz/rodada?jogadores=2&rodada=1&vira=4o")
    expect(page.get_by_test_id("coberta")).to_have_count(0)
    page.goto(live_server + "/juiz/rodada?jogadores=2&rodada=2&vira=4o")
    pick(page, "4p")
    page.get_by_test_id("coberta").click()
    expect(page.get_by_test_id("veredito")).to_have_attribute("data-jogada", "1")
    expect(page.get_by_test_id("motivos")).to_contain_text("coberta não vale nada")


def test_juiz_from_a_board_applies_a_hand_to_the_score(page: Page, live_server: str) -> None:
    """Opened from the board, a decided hand can be recorded with the values legal now."""
    board = open_table(page, live_server)
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
        open_table(page, live_server)
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
