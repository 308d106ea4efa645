"""Start fast, fix later, on a phone: the new table asks names and the series first, a name
field says its limit while typing, and names changed mid-series on an open table show on the
board at once while no tap button moves; undo gives the old names back."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .pages import (
    ON_PHONES,
    assert_unmoved,
    geometry,
    press_on_page,
    score_on_page,
    side_on_page,
    tap_on_page,
)

SEATS = ("Ana", "Beto", "Caio", "Duda")


def start(page: Page, base: str) -> None:
    """Open a best of 3 of four named players from the home page, no option unfolded."""
    page.goto(base + "/")
    expect(page.get_by_test_id("mais-opcoes")).not_to_have_attribute("open", "")
    for seat, name in enumerate(SEATS):
        page.fill(f"input[name=jogador_{seat}]", name)
    page.get_by_label("Melhor de 3").check()
    page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")


@ON_PHONES
def test_names_edited_mid_series_show_at_once_and_no_tap_moves(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """Mid-series, Caio's seat goes to a long-named player and Nós gets a name: the board shows
    them, the score and the series are kept, every tap target is where it was; undo restores
    the old names, still without moving a target."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    size = f"{width}x{height}"
    page.goto(live_server + "/")
    page.screenshot(path=str(shots / f"home-{size}.png"), full_page=True)
    start(page, live_server)
    tap_on_page(page, "a", "+12")
    press_on_page(page, "proxima-partida")
    tap_on_page(page, "b", "+3")
    before = geometry(page)

    page.get_by_test_id("editar-mesa").click()
    page.wait_for_url("**/editar")
    expect(page.locator("input[name=jogador_2]")).to_have_value("Caio")
    page.fill("input[name=time_a]", "Os Zapeiros")
    field = page.locator("input[name=jogador_2]")
    field.fill("")
    field.press_sequentially("Maria Eduarda dos Santos Silva")  # 30 letters: 24 fit
    expect(field).to_have_value("Maria Eduarda dos Santos")
    limit = page.locator("[data-limit-of=jogador_2]")
    expect(limit).to_have_text("24/24")
    expect(limit).to_have_attribute("title", "até 24 letras")
    field.press("Backspace")
    expect(limit).to_have_text("23/24")
    field.press_sequentially("s")
    page.get_by_test_id("nomes-substituir").click()  # Caio left: another person sat down
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"editar-mesa-{size}.png"), full_page=True)
    page.get_by_test_id("salvar-mesa").click()
    page.wait_for_url(lambda url: not url.endswith("/editar"))

    expect(side_on_page(page, "a").locator("h2")).to_have_text("Os Zapeiros")
    expect(page.get_by_test_id("confirmacao")).to_contain_text("Nomes mudados")
    score_on_page(page, 0, 3)
    expect(page.get_by_test_id("serie")).to_have_text("Melhor de 3 · partida 2")
    expect(page.get_by_test_id("series-a")).to_have_text("1")
    page.screenshot(path=str(shots / f"board-editada-{size}.png"))
    assert_unmoved(before, geometry(page), "names edited")

    press_on_page(page, "desfazer")
    expect(side_on_page(page, "a").locator("h2")).to_have_text("Nós")
    score_on_page(page, 0, 3)
    assert_unmoved(before, geometry(page), "edit undone")
    context.close()
