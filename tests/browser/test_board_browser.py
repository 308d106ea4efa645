"""The scorer's board in a real browser: a whole series, undo/redo, two phones, a network cut."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .pages import open_table_on_page, score_on_page, side_on_page, tap_on_page


def test_a_best_of_three_series_through_mao_de_onze_and_mao_de_ferro(
    page: Page, live_server: str, shots: Path
) -> None:
    """Open a table, play two games (one through the mão de ferro) and win the series."""
    open_table_on_page(page, live_server, series="Melhor de 3")
    tap_on_page(page, "a", "+9")
    tap_on_page(page, "a", "+1")
    tap_on_page(page, "a", "+1")
    score_on_page(page, 11, 0)
    expect(page.get_by_test_id("mao-de-onze")).to_contain_text("sem truco")
    expect(side_on_page(page, "a").get_by_role("button", name="+3", exact=True)).to_have_count(0)
    page.screenshot(path=str(shots / "board-mao-de-onze-390.png"))
    page.get_by_test_id("onze-ganhou").click()
    score_on_page(page, 12, 0)
    expect(page.get_by_test_id("series-a")).to_have_text("1")
    page.get_by_test_id("proxima-partida").click()
    score_on_page(page, 0, 0)
    for team, label in (("a", "+9"), ("a", "+1"), ("b", "+9"), ("b", "+1"), ("a", "+1")):
        tap_on_page(page, team, label)
    page.get_by_test_id("onze-correu").click()
    score_on_page(page, 11, 11)
    expect(page.get_by_test_id("mao-de-ferro")).to_contain_text("sem truco")
    page.screenshot(path=str(shots / "board-mao-de-ferro-390.png"))
    page.get_by_test_id("ferro-a").click()
    expect(page.get_by_test_id("series-a")).to_have_text("2")
    expect(page.get_by_test_id("fim")).to_contain_text("Série para Nós!")
    page.screenshot(path=str(shots / "board-fim-de-serie-390.png"))
    page.get_by_test_id("nova-serie").click()
    score_on_page(page, 0, 0)
    expect(page.get_by_test_id("series-a")).to_have_text("0")


def test_undo_and_redo_move_through_the_log(page: Page, live_server: str) -> None:
    """Undo strikes the hand through in the log; redo brings it back."""
    open_table_on_page(page, live_server)
    tap_on_page(page, "a", "+3")
    tap_on_page(page, "b", "+1")
    expect(page.get_by_test_id("confirmacao")).to_contain_text("Eles +1")
    page.get_by_test_id("desfazer").click()
    score_on_page(page, 3, 0)
    expect(page.locator("[data-testid=registro].undone")).to_have_count(1)
    page.get_by_test_id("refazer").click()
    score_on_page(page, 3, 1)
    expect(page.locator("[data-testid=registro].active")).to_have_count(2)


def test_note_from_the_confirmation_lands_in_the_log(page: Page, live_server: str) -> None:
    """After +3 the confirmation offers 'correram do seis', which the log then shows."""
    open_table_on_page(page, live_server)
    tap_on_page(page, "b", "+3")
    page.get_by_role("button", name="correram do seis").click()
    expect(page.get_by_test_id("historico")).to_contain_text("correram do seis")


def test_two_phones_tapping_the_same_hand_count_it_once(
    browser: Browser, live_server: str
) -> None:
    """A second scorer with the same link taps the same hand: one count, a clear message."""
    first = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    url = open_table_on_page(first, live_server)
    second = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    second.route("**/placar?*", lambda route: route.fulfill(status=204))  # it has not polled yet
    second.goto(url)
    tap_on_page(first, "a", "+3")
    side_on_page(second, "a").get_by_role("button", name="+3", exact=True).click()
    expect(second.get_by_test_id("conflito")).to_contain_text("mudou em outro aparelho")
    score_on_page(second, 3, 0)
    second.get_by_role("button", name="descartar").click()
    expect(second.get_by_test_id("conflito")).to_have_count(0)
    score_on_page(second, 3, 0)
    score_on_page(first, 3, 0)
    second.context.close()
    first.context.close()


def test_scorer_board_follows_another_phone(browser: Browser, live_server: str) -> None:
    """The scorer's board polls: a tap on another phone shows up within seconds."""
    first = browser.new_context().new_page()
    url = open_table_on_page(first, live_server)
    second = browser.new_context().new_page()
    second.goto(url)
    tap_on_page(second, "b", "+6")
    expect(first.get_by_test_id("score-b")).to_have_text("6")
    first.context.close()
    second.context.close()


def test_a_tap_the_network_drops_is_kept_and_sent_when_it_returns(
    page: Page, live_server: str
) -> None:
    """Route abort: the tap waits in the slot ('1 toque esperando conexão') and the board shows
    the score it leads to, marked waiting, with nothing counted yet; once requests get through
    again it lands by itself, once."""
    url = open_table_on_page(page, live_server)
    page.route("**/marcar", lambda route: route.abort())
    side_on_page(page, "a").get_by_role("button", name="+1", exact=True).click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque esperando conexão")
    score_on_page(page, 1, 0)
    expect(page.locator("#board")).to_have_class(re.compile(r"\bprevisto\b"))
    expect(page.locator("[data-testid=registro]")).to_have_count(0)
    page.unroute("**/marcar")
    score_on_page(page, 1, 0)
    expect(page.get_by_test_id("pendentes")).to_have_count(0)
    page.goto(url)
    score_on_page(page, 1, 0)


def test_a_tap_refused_for_an_expired_form_is_kept_and_sent_after_a_reload(
    page: Page, live_server: str
) -> None:
    """A tap whose form the server no longer accepts (here: a forged CSRF token, as after the
    session was lost) asks for a reload instead of blaming the network and counts nothing; it
    is kept, and the reloaded page sends it with a good token."""
    url = open_table_on_page(page, live_server)
    page.evaluate(
        """() => {
          document.body.setAttribute('hx-headers', JSON.stringify({'X-CSRFToken': 'forjado'}));
          for (const i of document.querySelectorAll('[name=csrf_token]')) i.value = 'forjado';
        }"""
    )
    side_on_page(page, "a").get_by_role("button", name="+3", exact=True).click()
    expect(page.get_by_test_id("recarregue")).to_have_text(
        "toque não registrado — recarregue a página"
    )
    expect(page.get_by_test_id("sem-conexao")).to_have_count(0)
    score_on_page(page, 0, 0)
    page.get_by_role("button", name="recarregar").click()
    score_on_page(page, 3, 0)
    page.goto(url)
    score_on_page(page, 3, 0)
    expect(page.locator("[data-testid=registro]")).to_have_count(1)


def test_board_fits_320_and_390_wide_with_big_targets_in_light_and_dark(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """No sideways scrolling from 320 px, tap targets at least 48 px, score at least 96 px tall."""
    for scheme in ("light", "dark"):
        for width in (320, 390):
            context = browser.new_context(
                viewport={"width": width, "height": 844}, color_scheme=scheme
            )
            page = context.new_page()
            open_table_on_page(page, live_server)
            tap_on_page(page, "a", "+3")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            for button in page.locator("#board button:visible").all():
                box = button.bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, button.inner_text()
            for hook in ("tap-a-1", "tap-b-12", "desfazer", "anulada"):
                box = page.get_by_test_id(hook).bounding_box()
                assert box and box["height"] >= 48 and box["width"] >= 48, hook
            if width == 390:
                assert (page.get_by_test_id("score-a").bounding_box() or {}).get("height", 0) >= 96
            page.screenshot(path=str(shots / f"board-{scheme}-{width}.png"))
            context.close()


def test_modo_mesa_turns_one_side_and_is_remembered(
    page: Page, live_server: str, shots: Path
) -> None:
    """Modo mesa: side A turned 180 degrees; the choice survives a reload."""
    open_table_on_page(page, live_server)
    page.get_by_test_id("ajustes").locator("summary").click()
    page.get_by_test_id("modo-mesa").check()
    transform = "getComputedStyle(document.querySelector('.side-a')).transform"
    assert page.evaluate(transform) != "none"
    page.reload()
    assert page.evaluate(transform) != "none"
    assert page.evaluate("getComputedStyle(document.querySelector('.side-b')).transform") == "none"
    page.screenshot(path=str(shots / "board-modo-mesa-390.png"))


def test_theme_switch_is_remembered(page: Page, live_server: str) -> None:
    """Tema 'sol' (high contrast) stays chosen after a reload."""
    open_table_on_page(page, live_server)
    page.get_by_test_id("ajustes").locator("summary").click()
    page.get_by_test_id("tema").get_by_role("button", name="Sol").click()
    page.reload()
    assert page.evaluate("document.documentElement.dataset.tema") == "sol"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(255, 255, 255)"


def test_keyboard_alone_can_tap(page: Page, live_server: str) -> None:
    """Everything works from a keyboard: focus a +1 button and press Enter."""
    open_table_on_page(page, live_server)
    side_on_page(page, "b").get_by_role("button", name="+1", exact=True).focus()
    page.keyboard.press("Enter")
    score_on_page(page, 0, 1)
    expect(page.locator("#anuncio")).to_have_text("Nós 0, Eles 1")


def test_home_with_its_options_open_fits_320_wide(browser: Browser, live_server: str) -> None:
    """The folded-away options of a new table fit a 320 px phone without sideways scrolling."""
    context = browser.new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    page.goto(live_server + "/")
    page.get_by_text("Opções da mesa").click()
    expect(page.get_by_label("Melhor de 3")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    context.close()


def test_a_finished_game_offers_its_picture_to_download_without_pushing_desfazer_away(
    browser: Browser, live_server: str, shots: Path
) -> None:
    """At a game's end the board offers 'Baixar imagem do placar', a PNG of the score, under
    Desfazer (which stays on screen at 320x568 and 390x844); nothing overflows sideways."""
    for width, height in ((320, 568), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        open_table_on_page(page, live_server)
        tap_on_page(page, "a", "+12")
        link = page.get_by_test_id("baixar-imagem")
        expect(link).to_be_visible()
        href = link.get_attribute("href") or ""
        assert href.endswith("/imagem.png") and link.get_attribute("download")
        answer = page.request.get(live_server + href)
        assert answer.ok and answer.headers["content-type"] == "image/png"
        for hook in ("baixar-imagem", "desfazer", "proxima-partida"):
            box = page.get_by_test_id(hook).bounding_box()
            assert box is not None and box["height"] >= 44, hook
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, hook
            assert hook == "baixar-imagem" or box["y"] + box["height"] <= height, hook
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"board-fim-imagem-{width}.png"))
        context.close()
