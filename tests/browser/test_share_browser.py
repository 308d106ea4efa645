"""Ao vivo in a real browser: the share page, a viewer following the score, reconnecting."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from scorekeeper.web.common import links

from .pages import open_table_on_page, tap_on_page

MACHINE_IP = "192.0.2.10"  # a documentation address: nothing here ever connects to it


@pytest.fixture(autouse=True)
def lan(monkeypatch: pytest.MonkeyPatch) -> str:
    """The live server (a thread of this process) finds this LAN address, whatever the machine's."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    return MACHINE_IP


def on_this_machine(link: str, base: str) -> str:
    """A shared link (made for the LAN) as this test's browser reaches it: the same path on base."""
    parts = urlsplit(link)
    assert parts.hostname == MACHINE_IP, link
    return base + parts.path + (f"?{parts.query}" if parts.query else "")


def watch_link_on_page(page: Page, board_url: str) -> str:
    """The viewers' link, read from the share page, as this machine reaches it."""
    page.goto(board_url)
    page.get_by_test_id("compartilhar").click()
    link = page.get_by_test_id("link-assistir").inner_text()
    return on_this_machine(link, board_url.split("/m/")[0])


def csp_errors(page: Page) -> list[str]:
    """Collect the page's Content-Security-Policy complaints as they happen."""
    errors: list[str] = []

    def listen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", listen)
    return errors


def test_share_page_reveals_the_scorer_code_on_mostrar(
    page: Page, live_server: str, shots: Path
) -> None:
    """Both codes render; the scorer's only after 'mostrar', which then reads 'esconder'."""
    errors = csp_errors(page)
    board = open_table_on_page(page, live_server)
    watch_link_on_page(page, board)
    expect(page.get_by_test_id("qr-assistir").locator("svg")).to_be_visible()
    expect(page.get_by_test_id("qr-marcar")).to_be_hidden()
    expect(page.get_by_role("button", name="Copiar link").first).to_be_visible()
    page.screenshot(path=str(shots / "share-390.png"), full_page=True)
    reveal = page.get_by_test_id("mostrar-marcar")
    expect(reveal).to_have_text("mostrar", use_inner_text=True)
    reveal.click()
    expect(page.get_by_test_id("qr-marcar").locator("svg")).to_be_visible()
    expect(reveal).to_have_text("esconder", use_inner_text=True)
    expect(page.get_by_test_id("link-marcar")).to_have_text(on_lan(board))
    page.screenshot(path=str(shots / "share-marcar-390.png"), full_page=True)
    reveal.click()
    expect(page.get_by_test_id("qr-marcar")).to_be_hidden()
    expect(reveal).to_have_text("mostrar", use_inner_text=True)
    box = page.get_by_test_id("qr-assistir").locator("svg").bounding_box()
    assert box and 150 <= box["width"] <= 320, box
    assert errors == []


def on_lan(url: str) -> str:
    """`url` (on 127.0.0.1) with this machine's LAN address in place of the host."""
    parts = urlsplit(url)
    return parts._replace(netloc=f"{MACHINE_IP}:{parts.port}").geturl()


def test_share_page_opened_as_127_shows_lan_codes_and_one_line_about_it(
    page: Page, live_server: str, shots: Path
) -> None:
    """No restart, no command: the codes carry the LAN address and one line says so."""
    board = open_table_on_page(page, live_server)
    page.goto(board + "/compartilhar")
    port = urlsplit(live_server).port
    note = page.get_by_test_id("nota-endereco")
    expect(note).to_have_text(
        f"Os códigos levam ao endereço deste computador na rede local, {MACHINE_IP}:{port}."
    )
    expect(page.get_by_test_id("link-assistir")).to_contain_text(f"http://{MACHINE_IP}:{port}/v/")
    expect(page.locator("main")).not_to_contain_text("HOST=")
    box = note.bounding_box()
    assert box and box["y"] + box["height"] <= 844, box  # seen without scrolling
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(shots / "share-dark-390.png"), full_page=True)


def test_viewer_follows_the_score_and_reconnects(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """A tap shows on the viewer by its next poll; a cut shows 'reconectando…' and heals by
    itself."""
    scorer = browser.new_context().new_page()
    board = open_table_on_page(scorer, live_server)
    viewer = browser.new_context().new_page()
    errors = csp_errors(viewer)
    viewer.goto(watch_link_on_page(scorer, board))
    expect(viewer.get_by_test_id("score-a")).to_have_text("0")
    expect(viewer.locator("#live button, #live form")).to_have_count(0)
    scorer.goto(board)
    tap_on_page(scorer, "a", "+3")
    expect(viewer.get_by_test_id("score-a")).to_have_text("3")
    expect(viewer.get_by_test_id("ultima")).to_contain_text("Nós +3")
    viewer.route("**/placar*", lambda route: route.abort())
    expect(viewer.get_by_test_id("reconectando")).to_have_text("reconectando…")
    expect(viewer.get_by_test_id("reconectando")).to_have_count(1)
    viewer.screenshot(path=str(shots / "live-reconectando-390.png"))
    tap_on_page(scorer, "b", "+1")
    viewer.unroute("**/placar*")
    expect(viewer.get_by_test_id("reconectando")).to_have_count(0)
    expect(viewer.get_by_test_id("score-b")).to_have_text("1")
    assert errors == []
    viewer.context.close()
    scorer.context.close()


def test_modo_tv_and_a_rotated_link(browser: Browser, live_server: str, shots: Path) -> None:
    """The TV layout fills a wide screen; after 'Trocar links' the viewer is told to rescan."""
    scorer = browser.new_context().new_page()
    board = open_table_on_page(scorer, live_server)
    link = watch_link_on_page(scorer, board)
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(link + "?tv=1")
    expect(tv.locator("#live.tv")).to_be_visible()
    height = tv.get_by_test_id("score-a").bounding_box()
    assert height and height["height"] > 200, height
    tv.screenshot(path=str(shots / "live-tv-1280.png"))
    scorer.get_by_test_id("trocar-links").locator("xpath=ancestor::details").locator(
        "summary"
    ).click()
    scorer.get_by_test_id("trocar-links").click()
    expect(scorer.get_by_test_id("links-trocados")).to_be_visible()
    expect(tv.get_by_test_id("reconectando")).to_contain_text("não vale mais")
    tv.context.close()
    scorer.context.close()
