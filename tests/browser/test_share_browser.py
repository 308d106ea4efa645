"""Ao vivo in a real browser: the share page, a viewer following the score, reconnecting."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from .pages import open_table, tap


def watch_link(page: Page, board_url: str) -> str:
    """The viewers' link, read from the share page."""
    page.goto(board_url)
    page.get_by_test_id("compartilhar").click()
    return page.get_by_test_id("link-assistir").inner_text()


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
    """Both codes render; the scorer's only after 'mostrar'; copy buttons show with JS on."""
    errors = csp_errors(page)
    board = open_table(page, live_server)
    watch_link(page, board)
    expect(page.get_by_test_id("qr-assistir").locator("svg")).to_be_visible()
    expect(page.get_by_test_id("qr-marcar")).to_be_hidden()
    expect(page.get_by_role("button", name="Copiar link").first).to_be_visible()
    expect(page.get_by_test_id("dica-rede-local")).to_contain_text("make run HOST=0.0.0.0")
    page.screenshot(path=str(shots / "share-390.png"), full_page=True)
    page.get_by_test_id("mostrar-marcar").click()
    expect(page.get_by_test_id("qr-marcar").locator("svg")).to_be_visible()
    expect(page.get_by_test_id("link-marcar")).to_have_text(board)
    box = page.get_by_test_id("qr-assistir").locator("svg").bounding_box()
    assert box and 150 <= box["width"] <= 320, box
    assert errors == []


def test_viewer_follows_the_score_and_reconnects(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """A tap shows on the viewer within 2 s; a cut shows 'reconectando…' and heals by itself."""
    scorer = browser.new_context().new_page()
    board = open_table(scorer, live_server)
    viewer = browser.new_context().new_page()
    errors = csp_errors(viewer)
    viewer.goto(watch_link(scorer, board))
    expect(viewer.get_by_test_id("score-a")).to_have_text("0")
    expect(viewer.locator("#live button, #live form")).to_have_count(0)
    scorer.goto(board)
    tap(scorer, "a", "+3")
    expect(viewer.get_by_test_id("score-a")).to_have_text("3", timeout=3000)
    expect(viewer.get_by_test_id("ultima")).to_contain_text("Nós +3")
    viewer.route("**/placar*", lambda route: route.abort())
    expect(viewer.get_by_test_id("reconectando")).to_have_text("reconectando…", timeout=5000)
    expect(viewer.get_by_test_id("reconectando")).to_have_count(1)
    viewer.screenshot(path=str(shots / "live-reconectando-390.png"))
    tap(scorer, "b", "+1")
    viewer.unroute("**/placar*")
    expect(viewer.get_by_test_id("reconectando")).to_have_count(0, timeout=5000)
    expect(viewer.get_by_test_id("score-b")).to_have_text("1")
    assert errors == []
    viewer.context.close()
    scorer.context.close()


def test_modo_tv_and_a_rotated_link(browser: Browser, live_server: str, shots: Path) -> None:
    """The TV layout fills a wide screen; after 'Trocar links' the viewer is told to rescan."""
    scorer = browser.new_context().new_page()
    board = open_table(scorer, live_server)
    link = watch_link(scorer, board)
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
    expect(tv.get_by_test_id("reconectando")).to_contain_text("não vale mais", timeout=5000)
    tv.context.close()
    scorer.context.close()
