"""A turma that played Truco Paulista and Truco Mineiro, on a phone: each rule set's statistics
under its own heading, the Mineiro trios' cards in Mineiro words, nothing wider than the screen
(at 320x568 and 390x844)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .pages import press_on_page
from .test_turma_browser import _OVERFLOWING

NAMES = ("Ana Beatriz", "Roberto", "Caio", "Maria Eduarda", "Edu", "Fabiana")


def open_from_form(page: Page, base: str, seats: int, mineiro: bool) -> None:
    """Open a table from the home form with the first `seats` names."""
    page.goto(base + "/")
    if mineiro:
        page.get_by_label("Truco Mineiro").check()
        page.get_by_label("3x3").check()
    for seat in range(seats):
        page.fill(f"input[name=jogador_{seat}]", NAMES[seat])
    page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")


@pytest.mark.parametrize("size", [(320, 568), (390, 844)], ids=["320", "390"])
def test_a_turma_of_both_rule_sets_shows_each_apart_on_a_phone(
    page: Page, live_server: str, shots: Path, size: tuple[int, int]
) -> None:
    """A Paulista 2x2 table and a Mineiro 3x3 one saved in one turma, a game won on each: the
    turma's page heads Truco Paulista then Truco Mineiro, each with its own cards (pairs under
    the one, trios and the mão de dez under the other) and fits the screen."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    open_from_form(page, live_server, 4, mineiro=False)
    press_on_page(page, "tap-a-12")
    page.get_by_test_id("salvar-turma").click()
    page.fill("input[name=nome]", f"Quinta {width}")
    page.get_by_role("button", name="Criar turma").click()
    page.wait_for_url("**/turma/*")
    turma = page.url

    open_from_form(page, live_server, 6, mineiro=True)
    press_on_page(page, "tap-b-12")
    page.get_by_test_id("salvar-turma").click()
    page.fill("input[name=link]", turma)
    page.get_by_role("button", name="Salvar nesta turma").click()
    page.wait_for_url("**/turma/*")

    parts = page.locator("section.stats-rules")
    expect(parts).to_have_count(2)
    expect(parts.nth(0).locator("h3")).to_have_text("Truco Paulista")
    expect(parts.nth(1).locator("h3")).to_have_text("Truco Mineiro")
    paulista = page.locator("[data-testid=stats-dupla][data-regras=paulista]")
    expect(paulista).to_have_count(2)
    trio = page.locator("[data-testid=stats-trio][data-nomes='Roberto, Maria Eduarda e Fabiana']")
    expect(trio).to_have_attribute("data-vitorias", "1")
    expect(trio).to_contain_text("Mão de dez")
    expect(page.get_by_test_id("turma-mesa-regras")).to_have_text(
        ["Truco Mineiro", "Truco Paulista"]
    )
    assert page.evaluate(_OVERFLOWING) == []
    page.get_by_test_id("estatisticas").screenshot(path=str(shots / f"turma-regras-{width}.png"))
