"""A big turma on a phone: its page shows the first places of each list with a link to the
rest, a list's own pages step on and back, and "juntar nomes" asks for typed names; nothing
reaches past the screen's width."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.domain.mesa import service
from scorekeeper.domain.turma import turmas
from scorekeeper.rules import Kind, Outcome
from scorekeeper.web.turma import present

from .test_turma_browser import _OVERFLOWING

TABLES = 60  # four new players at each: 240 players, more than the merge form lists


def listed_turma(app: Flask, name: str) -> str:
    """A turma of TABLES tables (every fifth Truco Mineiro), four players at each never seen
    at another, each game won at once by one side; its scorer token."""
    token = ""
    for n in range(TABLES):
        settings: dict[str, object] = {
            "player_names": [f"Jogadora {4 * n + seat + 1:03d}" for seat in range(4)]
        }
        if n % 5 == 4:
            settings.update(variante="mineiro", manilhas="fixa", deck="sujo", special_at=10)
        with app.app_context():
            table = service.open_table(settings).edit_token
            if not token:
                token = turmas.create_turma(table, 0, name).edit_token
            else:
                turmas.join_turma(table, 0, token)
            board = service.scorer_board(table)
            side = n % 2
            legal = board.state.legal_outcomes()
            hands = [o for o in legal if o.side == side and o.kind is Kind.NORMAL]
            best = max(hands, key=lambda o: o.points or 0)
            outcome = Outcome(best.kind, side, best.points)
            service.record_outcome(table, board.mesa.revision, outcome)
    return token


@pytest.mark.parametrize("size", [(320, 568), (390, 844)], ids=["320", "390"])
def test_a_big_turmas_lists_read_and_page_on_a_phone(
    page: Page, live_server: str, live_app: Flask, shots: Path, size: tuple[int, int]
) -> None:
    """On a phone, a turma of 240 players shows each list's first places and 'Ver todos os…'
    under it; the list's pages show 50 places each, 'Próximos' and 'Anteriores' step through
    them; the merge form has two text fields. Nothing reaches past the screen's width."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    turma = f"{live_server}/turma/{listed_turma(live_app, f'Grande {width}')}"
    page.goto(turma)
    expect(page.get_by_test_id("stats-jogador")).to_have_count(2 * present.STATS_ON_PAGE)
    assert page.evaluate(_OVERFLOWING) == []
    page.get_by_test_id("estatisticas").screenshot(path=str(shots / f"turma-grande-{width}.png"))
    merge = page.get_by_test_id("juntar-nomes")
    expect(merge.locator("input[name=de]")).to_be_visible()
    expect(page.get_by_test_id("juntar-digitar")).to_be_visible()
    merge.locator("xpath=..").screenshot(path=str(shots / f"turma-grande-juntar-{width}.png"))

    everyone = page.locator("[data-testid=ver-todos-jogadores][data-regras=paulista]")
    expect(everyone).to_have_text("Ver todos os 192 jogadores →")
    everyone.click()
    page.wait_for_url("**/estatisticas/jogadores?regras=paulista")
    cards = page.get_by_test_id("stats-jogador")
    expect(cards).to_have_count(present.LIST_PAGE)
    expect(cards.first).to_have_attribute("data-lugar", "1")
    expect(page.get_by_test_id("lista-resumo")).to_have_text(
        f"Grande {width} · Truco Paulista · 192 no total · página 1 de 4"
    )
    assert page.evaluate(_OVERFLOWING) == []
    page.screenshot(path=str(shots / f"turma-lista-{width}.png"))
    page.get_by_test_id("lista-proxima").click()
    expect(cards.first).to_have_attribute("data-lugar", "51")
    assert page.evaluate(_OVERFLOWING) == []
    page.get_by_test_id("lista-proxima").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"turma-lista-2-{width}.png"))
    page.get_by_test_id("lista-anterior").click()
    expect(cards.first).to_have_attribute("data-lugar", "1")

    page.goto(turma)
    page.locator("[data-testid=ver-todos-confrontos][data-regras=paulista]").click()
    expect(page.get_by_test_id("confronto")).to_have_count(48)  # the Paulista tables
    assert page.evaluate(_OVERFLOWING) == []
    page.screenshot(path=str(shots / f"turma-confrontos-{width}.png"))
    page.get_by_test_id("voltar-turma-fim").click()
    expect(page.get_by_test_id("estatisticas")).to_be_visible()
