"""A whole evening at one table, as a new group plays it, on a small and a common phone: opened
with the names said first, taps whose score shows at once (answers held 300 ms), a tap kept
offline that moves the big score, the names edited mid-series (the series and the taps kept in
place), the table saved in a turma and linked back, a juiz ruling shared with the names, and the
result shared without Web Share, the board never leaving."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .pages import (
    ON_PHONES,
    assert_unmoved,
    confirmed,
    geometry,
    hold,
    press_on_page,
    score_on_page,
)

FRAME_MS = 50  # the score on screen within about a frame of the tap
SLOW = 10_000  # ms: a retry or a poll on a busy machine

# In the page: when the last tap happened and when the big score first changed after it.
WATCH = """() => {
  const seen = window.seen = {tap: null, score: null};
  const shown = () => document.querySelector("[data-testid=score-a]").textContent +
    document.querySelector("[data-testid=score-b]").textContent;
  let before = shown();
  document.addEventListener("click", () => { seen.tap = performance.now(); seen.score = null;
    before = shown(); }, true);
  new MutationObserver(() => {
    if (seen.tap !== null && seen.score === null && shown() !== before) {
      seen.score = performance.now();
    }
  }).observe(document.getElementById("main"), {subtree: true, childList: true,
    characterData: true});
}"""



def tap_at_once(page: Page, testid: str) -> float:
    """Tap and return how long (ms, in the page) the big score took to change."""
    page.evaluate(WATCH)
    page.get_by_test_id(testid).click()
    page.wait_for_function("() => window.seen.score !== null")
    elapsed = page.evaluate("() => window.seen.score - window.seen.tap")
    assert isinstance(elapsed, int | float)
    return float(elapsed)


@ON_PHONES
def test_a_whole_evening_without_a_stumble(
    browser: Browser,
    live_server: str,
    shots: Path,
    contexts: list[BrowserContext],
    width: int,
    height: int,
) -> None:
    """Each step of the evening as a player expects it, at phone sizes."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", service_workers="block"
    )
    contexts.append(context)
    page = context.new_page()
    size = f"{width}x{height}"

    # Start fast: the names and the series first, the rest folded away.
    page.goto(live_server + "/")
    expect(page.get_by_test_id("mais-opcoes")).not_to_have_attribute("open", "")
    for name, value in (("time_a", "Patos"), ("time_b", "Brabos"), ("jogador_0", "Zé"),
                        ("jogador_1", "Dani"), ("jogador_2", "Bia"), ("jogador_3", "Carlão")):
        page.fill(f"input[name={name}]", value)
    page.locator("input[name=serie][value=melhor_de_3]").check(force=True)
    page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")
    board = page.url
    expect(page.get_by_test_id("team-a")).to_contain_text("Patos")
    expect(page.get_by_test_id("serie")).to_contain_text("Melhor de 3")
    page.wait_for_function("() => window.tento && window.tento.forecast.ready")
    before = geometry(page)

    # The score at once, with every answer held 300 ms.
    page.route("**/marcar", hold)
    elapsed = tap_at_once(page, "tap-a-3")
    assert elapsed < FRAME_MS, f"score shown {elapsed:.0f} ms after the tap"
    confirmed(page, SLOW)
    score_on_page(page, 3, 0)
    page.unroute("**/marcar")

    # Offline: the tap moves the big score and waits; back online it lands once.
    context.set_offline(True)
    elapsed = tap_at_once(page, "tap-b-1")
    assert elapsed < FRAME_MS, f"offline score shown {elapsed:.0f} ms after the tap"
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque")
    score_on_page(page, 3, 1)
    page.screenshot(path=str(shots / f"noite-offline-{size}.png"))
    context.set_offline(False)
    confirmed(page, SLOW)
    score_on_page(page, 3, 1)

    # The names fixed mid-series: the score, the series and every target stay where they were.
    page.get_by_test_id("editar-mesa").click()
    page.fill("input[name=time_a]", "Patos Reais")
    page.fill("input[name=jogador_0]", "Zeca")
    page.get_by_test_id("nomes-corrigir").click()  # a typo: Zeca played every hand
    page.get_by_test_id("salvar-mesa").click()
    page.wait_for_url(board)
    expect(page.get_by_test_id("confirmacao")).to_contain_text("Nomes mudados")
    expect(page.get_by_test_id("team-a")).to_contain_text("Patos Reais")
    expect(page.get_by_test_id("serie")).to_contain_text("Melhor de 3 · partida 1")
    score_on_page(page, 3, 1)
    assert_unmoved(before, geometry(page), "the edit of the names")

    # Saved in a turma, the board links back to it.
    page.get_by_test_id("salvar-turma").click()
    page.get_by_label("Nome da turma").fill("Quinta")
    page.get_by_role("button", name="Criar turma").click()
    page.wait_for_url("**/turma/*")
    page.goto(board)
    expect(page.get_by_test_id("ver-turma")).to_have_text("Na turma Quinta")

    # A juiz ruling opened from the board carries the table's names in its link.
    page.goto(board + "/juiz")
    page.goto(live_server + "/juiz/mao")
    link = page.get_by_test_id("compartilhar").get_attribute("href") or ""
    params = {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}
    assert (params.get("nos"), params.get("eles")) == ("Patos Reais", "Brabos"), link

    # The game won, the result shared without Web Share: the board stays where it is.
    page.goto(board)
    assert page.evaluate("typeof navigator.share") == "undefined"
    lan = re.compile(r"^https?://(?!127\.0\.0\.1)[^/]+/v/")
    context.route(lan, lambda route: route.fulfill(body="ao vivo", content_type="text/plain"))
    press_on_page(page, "tap-a-12")
    confirmed(page, SLOW)
    expect(page.get_by_test_id("compartilhar-resultado")).to_be_visible()
    with context.expect_page() as opened:
        page.get_by_test_id("compartilhar-resultado").click()
    opened.value.close()
    assert page.url == board
    whatsapp = page.get_by_test_id("whatsapp").get_attribute("href") or ""
    assert whatsapp.startswith("https://wa.me/?text="), whatsapp
    assert "Patos%20Reais" in whatsapp, whatsapp
    expect(page.get_by_test_id("desfazer")).to_be_in_viewport()
    page.screenshot(path=str(shots / f"noite-fim-{size}.png"))
