"""A turma plays three evenings in Chromium (each new table opened with "jogar de novo"), and the
statistics its page shows equal the ones computed here from the hands played."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .pages import press_on_page, side_on_page, tap_on_page

SEATS = ("Ana", "Beto", "Caio", "Duda")  # seats 0 and 2 are side a, 1 and 3 side b
# Three evenings of best-of-3 series: each game a list of (side, points) taps.
EVENINGS = [
    [[("a", 9), ("b", 6), ("a", 3)], [("b", 12)], [("a", 6), ("b", 3), ("a", 6)]],
    [[("b", 9), ("b", 3)], [("a", 3), ("b", 12)]],
    [[("a", 12)], [("b", 3)]],  # the last game is still being played
]


def winners(games: list[list[tuple[str, int]]]) -> list[str]:
    """Who won each finished game, by adding the points up to 12 here."""
    found = []
    for game in games:
        points = {"a": 0, "b": 0}
        for team, value in game:
            points[team] = min(12, points[team] + value)
            if points[team] == 12:
                found.append(team)
    return found


def expected() -> tuple[dict[str, tuple[int, int, int, int]], dict[str, tuple[int, int, int, int]]]:
    """Games and series played and won per player and per pair (names in seat order)."""
    players = {name: [0, 0, 0, 0] for name in SEATS}
    for evening in EVENINGS:
        won = winners(evening)
        series_winner = next((t for t in "ab" if won.count(t) == 2), None)
        for seat, name in enumerate(SEATS):
            team = "ab"[seat % 2]
            players[name][0] += len(won)
            players[name][1] += won.count(team)
            if series_winner:
                players[name][2] += 1
                players[name][3] += series_winner == team
    by_player = {name: (c[0], c[1], c[2], c[3]) for name, c in players.items()}
    pairs = {"Ana e Caio": by_player["Ana"], "Beto e Duda": by_player["Beto"]}
    return by_player, pairs


def shown(page: Page, testid: str, key: str) -> dict[str, tuple[int, int, int, int]]:
    """The statistics rows as the page shows them."""
    rows = page.get_by_test_id(testid)
    found = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        found[row.get_attribute(key) or ""] = tuple(
            int(row.get_attribute(f"data-{name}") or -1)
            for name in ("partidas", "vitorias", "series", "series-vitorias")
        )
    return found


def play_evening(page: Page, games: list[list[tuple[str, int]]]) -> None:
    """Tap every hand of an evening, moving to the next game after each finished one."""
    for number, game in enumerate(games):
        for team, value in game:
            tap_on_page(page, team, f"+{value}")
        finished = number + 1 < len(games)
        if finished and page.get_by_test_id("proxima-partida").count():
            press_on_page(page, "proxima-partida")


def test_a_turma_plays_three_evenings_and_its_statistics_add_up(
    page: Page, live_server: str, shots: Path
) -> None:
    """Three evenings opened with 'jogar de novo': the turma's statistics equal the sums of the
    hands played."""
    page.goto(live_server + "/")
    page.get_by_text("Opções da mesa").click()
    for seat, name in enumerate(SEATS):
        page.fill(f"input[name=jogador_{seat}]", name)
    page.get_by_label("Melhor de 3").check()
    page.get_by_role("button", name="Abrir mesa com essas opções").click()
    page.wait_for_url("**/m/*")
    board = page.url

    page.get_by_test_id("salvar-turma").click()
    page.fill("input[name=nome]", "Truco de quinta")
    page.get_by_role("button", name="Criar turma").click()
    page.wait_for_url("**/turma/*")
    turma = page.url
    expect(page.get_by_test_id("turma")).to_contain_text("Truco de quinta")

    page.goto(board)
    play_evening(page, EVENINGS[0])
    expect(page.get_by_test_id("fim")).to_contain_text("Série para")
    page.get_by_test_id("jogar-de-novo").click()  # at the end of the series, on the board
    page.wait_for_url(lambda url: "/m/" in url and url != board)
    expect(side_on_page(page, "a")).to_contain_text("0")
    play_evening(page, EVENINGS[1])

    page.goto(turma)
    page.get_by_test_id("jogar-de-novo").click()  # from the turma's page
    page.wait_for_url("**/m/*")
    third = page.url
    play_evening(page, EVENINGS[2])

    page.goto(turma)
    players, pairs = expected()
    assert shown(page, "stats-jogador", "data-nome") == players
    assert shown(page, "stats-dupla", "data-nomes") == pairs
    expect(page.get_by_test_id("turma-mesa")).to_have_count(3)
    page.screenshot(path=str(shots / "turma-page.png"), full_page=True)

    watch = page.get_by_test_id("turma-link-assistir").get_attribute("href") or ""
    page.goto(watch.replace(watch.split("/vt/")[0], live_server))
    expect(page.get_by_test_id("score-b")).to_have_text("3")
    html = page.content()
    assert turma.rsplit("/", 1)[1] not in html and third.rsplit("/", 1)[1] not in html
    assert shown(page, "stats-jogador", "data-nome") == players
    page.screenshot(path=str(shots / "turma-assistir.png"), full_page=True)

    image = page.locator("meta[property='og:image']").get_attribute("content") or ""
    answer = page.request.get(image.replace(image.split("/vt/")[0], live_server))
    assert answer.ok and answer.headers["content-type"] == "image/png"
    (shots / "turma-og.png").write_bytes(answer.body())


# Every element of a page that reaches past the viewport's width (nothing should), but what
# .sr-only clips to a pixel (the chart's table for screen readers).
_OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    if (el.closest(".sr-only")) return false;  // clipped to a pixel: for screen readers only
    const box = el.getBoundingClientRect();
    return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
  });
  return wide.map((el) => el.tagName + "." + el.className);
}"""


@pytest.mark.parametrize("size", [(320, 568), (390, 844)], ids=["320", "390"])
def test_a_turma_reads_on_a_phone_and_moves_to_another_tento(
    page: Page, live_server: str, shots: Path, size: tuple[int, int]
) -> None:
    """On a phone the turma's list names each table by its teams and its statistics fit the
    screen (cards, nothing to scroll sideways), counting the mão de onze run from; the turma's
    file, downloaded from its page, imports through the home page's link into a new turma with
    the same statistics, and the same file again imports nothing."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server + "/")
    page.get_by_text("Opções da mesa").click()
    page.fill("input[name=time_a]", "Brabos")
    page.fill("input[name=time_b]", "Patos")
    for seat, name in enumerate(SEATS):
        page.fill(f"input[name=jogador_{seat}]", name)
    page.get_by_role("button", name="Abrir mesa com essas opções").click()
    page.wait_for_url("**/m/*")
    board = page.url
    page.get_by_test_id("salvar-turma").click()
    page.fill("input[name=nome]", f"Quinta {width}")
    page.get_by_role("button", name="Criar turma").click()
    page.wait_for_url("**/turma/*")
    turma = page.url
    page.goto(board)
    for value in ("+9", "+1", "+1"):
        tap_on_page(page, "b", value)  # Patos at 11: a mão de onze
    rev = page.locator("#board").get_attribute("data-rev") or ""
    page.get_by_test_id("onze-correu").click()
    expect(page.locator("#board")).not_to_have_attribute("data-rev", rev)

    page.goto(turma)
    expect(page.get_by_test_id("turma-mesa-times")).to_have_text("Brabos x Patos")
    expect(page.get_by_test_id("turma-mesa-jogadores")).to_have_text("Ana e Caio x Beto e Duda")
    pair = page.locator("[data-testid=stats-dupla][data-nomes='Beto e Duda']")
    expect(pair).to_contain_text("1: jogou 0, ganhou 0, correu de 1")
    assert page.evaluate(_OVERFLOWING) == []
    page.get_by_test_id("estatisticas").screenshot(path=str(shots / f"turma-stats-{width}.png"))
    before = shown(page, "stats-jogador", "data-nome")

    with page.expect_download() as download:
        page.get_by_test_id("exportar-turma").click()
    file = download.value.path()
    page.goto(live_server + "/")
    page.get_by_test_id("importar-turma-link").click()
    page.set_input_files("input[name=arquivo]", file)
    page.get_by_role("button", name="Importar").click()
    page.wait_for_url("**/turma/*?importada=1")
    expect(page.get_by_test_id("turma-importada")).to_be_visible()
    assert page.url.split("?")[0] != turma
    assert shown(page, "stats-jogador", "data-nome") == before
    assert page.evaluate(_OVERFLOWING) == []
    page.screenshot(path=str(shots / f"turma-importada-{width}.png"))

    page.goto(live_server + "/importar-turma")
    page.set_input_files("input[name=arquivo]", file)
    page.get_by_role("button", name="Importar").click()
    expect(page.get_by_test_id("ja-importada")).to_be_visible()
    assert page.evaluate(_OVERFLOWING) == []
    page.screenshot(path=str(shots / f"turma-ja-importada-{width}.png"))
