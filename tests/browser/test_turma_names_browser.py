"""A bar's night on a phone: a name edited mid-series asks whether it is a typo fixed or another
person (the question appears once a name is typed, without JavaScript it is always there), and
"juntar nomes" makes the turma read the name chosen. At 320x568 and 390x844: the choices'
targets at least 44 px high, nothing wider than the screen."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .pages import ON_PHONES, phone_context, press_on_page, tap_on_page

SEATS = {"jogador_0": "Zé", "jogador_1": "Tiao", "jogador_2": "Bia", "jogador_3": "Duda"}

# Every visible element of the main region whose box leaves the viewport sideways, and the
# page scrolling sideways.
_OUTSIDE = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('.sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '"';
    if (r.left < -0.5 || r.right > innerWidth + 0.5) bad.push('outside: ' + name);
  }
  if (document.documentElement.scrollWidth > innerWidth) bad.push('the page scrolls sideways');
  return bad;
}"""


def assert_not_wider(page: Page) -> None:
    """Nothing on the page leaves the viewport sideways."""
    bad = page.evaluate(_OUTSIDE)
    assert not bad, bad


def assert_targets(page: Page, selector: str, count: int) -> None:
    """Each of the `count` targets matching `selector` is at least 44 px high, inside the
    screen's width, and what a tap at its centre reaches."""
    targets = page.locator(selector)
    expect(targets).to_have_count(count)
    width = page.viewport_size["width"] if page.viewport_size else 0
    for index in range(count):
        target = targets.nth(index)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box and box["height"] >= 44, (selector, index, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, index, box)
        reached = target.evaluate(
            """(el) => { const r = el.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !!hit && (hit === el || el.contains(hit)); }"""
        )
        assert reached, (selector, index)


def open_named(page: Page, base: str, **names: str) -> str:
    """A best of 3 opened from the home page with these names; the board's URL."""
    page.goto(base + "/")
    for field, name in {**SEATS, **names}.items():
        page.fill(f"input[name={field}]", name)
    page.get_by_label("Melhor de 3").check()
    page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")
    return page.url


def save_in_new_turma(page: Page, board: str) -> str:
    """Save the board's table in a new turma; the turma's URL."""
    page.goto(board)
    page.get_by_test_id("salvar-turma").click()
    page.get_by_label("Nome da turma").fill("Bar do Zé")
    page.get_by_role("button", name="Criar turma").click()
    page.wait_for_url("**/turma/*")
    return page.url


@ON_PHONES
def test_a_name_edited_mid_series_asks_typo_or_another_person(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """After a game and a hand, the edit shows no question until a name is typed; then it
    asks, both choices whole-width targets of 44 px or more, nothing wider than the screen;
    saving without a choice is refused and asks again; "Corrigir o nome" saves, and the
    turma credits the game played before to the new name."""
    size = f"{width}x{height}"
    context = phone_context(browser, width, height, service_workers="block")
    page = context.new_page()
    board = open_named(page, live_server)
    tap_on_page(page, "b", "+12")
    press_on_page(page, "proxima-partida")
    tap_on_page(page, "a", "+3")
    turma = save_in_new_turma(page, board)

    page.goto(board + "/editar")
    question = page.get_by_test_id("nomes-pergunta")
    expect(question).to_be_hidden()
    page.fill("input[name=time_a]", "Os Zapeiros")  # a team's name in 2x2: nobody's
    expect(question).to_be_hidden()
    page.fill("input[name=jogador_1]", "Tião")
    expect(question).to_be_visible()
    assert_targets(page, "[data-testid=nomes-pergunta] label", 2)
    assert_not_wider(page)
    question.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"editar-pergunta-nome-{size}.png"), full_page=True)

    page.get_by_test_id("salvar-mesa").click()
    expect(page.get_by_test_id("mensagem")).to_contain_text("Você mudou um nome")
    expect(question).to_be_visible()
    expect(page.locator("input[name=jogador_1]")).to_have_value("Tião")
    assert_not_wider(page)
    page.screenshot(path=str(shots / f"editar-pergunta-recusa-{size}.png"), full_page=True)
    page.get_by_test_id("nomes-corrigir").click()
    expect(page.locator("input[name=nomes][value=corrigir]")).to_be_checked()
    page.get_by_test_id("salvar-mesa").click()
    page.wait_for_url(board)
    expect(page.get_by_test_id("confirmacao")).to_contain_text("Tiao → Tião")

    page.goto(turma)
    players = page.locator("[data-testid=stats-jogador][data-nome='Tião']")
    expect(players).to_have_attribute("data-partidas", "1")
    expect(page.locator("[data-testid=stats-jogador][data-nome='Tiao']")).to_have_count(0)
    context.close()


@ON_PHONES
def test_without_javascript_the_edit_asks_and_saves_another_person(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """With JavaScript off the question is on the form from the start; "Entrou outra pessoa"
    saves with a plain post, and the board shows the new name."""
    size = f"{width}x{height}"
    scripted = phone_context(browser, width, height, service_workers="block")
    page = scripted.new_page()
    board = open_named(page, live_server)
    tap_on_page(page, "a", "+3")
    scripted.close()
    context = phone_context(
        browser, width, height, java_script_enabled=False, service_workers="block"
    )
    page = context.new_page()
    page.goto(board + "/editar")
    expect(page.get_by_test_id("nomes-pergunta")).to_be_visible()
    page.fill("input[name=jogador_0]", "Rui")
    page.get_by_test_id("nomes-substituir").click()
    assert_targets(page, "[data-testid=nomes-pergunta] label", 2)
    assert_not_wider(page)
    page.screenshot(path=str(shots / f"editar-pergunta-sem-js-{size}.png"), full_page=True)
    page.get_by_test_id("salvar-mesa").click()
    page.wait_for_url(board)
    expect(page.get_by_test_id("confirmacao")).to_contain_text("Zé → Rui")
    context.close()


@ON_PHONES
def test_juntar_nomes_makes_the_turma_read_the_name_chosen(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """Tião played the first table, Sebastião the second: "Contar Tião como Sebastião" leaves
    no "Tião" in the statistics, the pair and the chart read "Sebastião e Duda", the merge's
    fields are targets of 44 px or more and nothing is wider than the screen."""
    size = f"{width}x{height}"
    context = phone_context(browser, width, height, service_workers="block")
    page = context.new_page()
    first = open_named(page, live_server, jogador_1="Tião")
    tap_on_page(page, "a", "+12")
    turma = save_in_new_turma(page, first)
    page.get_by_test_id("jogar-de-novo").click()
    page.wait_for_url("**/m/*")
    page.get_by_test_id("editar-mesa").click()
    page.fill("input[name=jogador_1]", "Sebastião")  # before any hand: no question
    expect(page.get_by_test_id("nomes-pergunta")).to_have_count(0)
    page.get_by_test_id("salvar-mesa").click()
    page.wait_for_url(lambda url: not url.endswith("/editar"))
    tap_on_page(page, "b", "+12")

    page.goto(turma)
    form = page.get_by_test_id("juntar-nomes")
    form.locator("select[name=de]").select_option(label="Tião")
    form.locator("select[name=para]").select_option(label="Sebastião")
    assert_targets(page, "[data-testid=juntar-nomes] select, [data-testid=juntar-nomes] button", 3)
    assert_not_wider(page)
    form.get_by_role("button", name="Juntar").click()
    page.wait_for_url(turma)

    stats = page.get_by_test_id("estatisticas")
    expect(stats).not_to_contain_text("Tião")
    sebastiao = page.locator("[data-testid=stats-jogador][data-nome='Sebastião']")
    expect(sebastiao).to_have_attribute("data-partidas", "2")
    pair = "[data-testid=stats-dupla][data-nomes='Sebastião e Duda']"
    expect(page.locator(pair)).to_have_count(1)
    bar = "[data-testid=grafico-barra][data-nome='Sebastião e Duda']"
    expect(page.locator(bar)).to_have_count(1)
    assert_not_wider(page)
    stats.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"turma-juntar-nomes-{size}.png"), full_page=True)
    context.close()
