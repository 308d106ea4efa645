"""The juiz in a real browser: a ruling's link shared from a named table opens on another phone
with the players' names, and long one-word names wrap inside the juiz's buttons and switches
at 320x568 and 390x844 (every element box within the viewport); screenshots of each page."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.web.common import links

from .pages import tap_on_page

SIZES = [(320, 568), (390, 844)]
MACHINE_IP = "192.168.1.23"  # the LAN address the app finds, in these tests
NAMED = {
    "time_a": "Brabos",
    "time_b": "Patos",
    "jogador_0": "Dani",
    "jogador_1": "Zé",
    "jogador_2": "Carlão",
    "jogador_3": "Bia",
}
LONG = {  # the longest one-word names a table keeps (24 characters), and a long team name
    "time_a": "Invencíveis da Vila Mari",
    "time_b": "Aaaaaaaaaaaaaaaaaaaaaaaa",
    "jogador_0": "Bartolomeuzinhoooooooooo",
    "jogador_1": "Wwwwwwwwwwwwwwwwwwwwwwww",
    "jogador_2": "Maximilianooooooooooooo",
    "jogador_3": "Mmmmmmmmmmmmmmmmmmmmmmmm",
}
# Nós 1 asks for truco, Eles 1 accepts; Nós 1 takes the first two rounds (vira 4♦).
WON = "1:truco,2:aceita,1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"

# Every visible element of the juiz whose box leaves the viewport sideways, and every link or
# button whose text overflows its own box (a name cut with an ellipsis in its box does not).
_OUTSIDE = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('#juiz *')) {
    if (el.closest('.sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '"';
    if (r.left < -0.5 || r.right > innerWidth + 0.5) bad.push('outside: ' + name);
    const cut = getComputedStyle(el).textOverflow === 'ellipsis';
    if (el.matches('a, button') && !cut && el.scrollWidth > el.clientWidth + 1) {
      bad.push('overflows: ' + name);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) bad.push('the page scrolls sideways');
  return bad;
}"""


def submit_named_table(page: Page, base: str, names: dict[str, str]) -> str:
    """Open a table with these names from the home page's form; return the board's URL."""
    page.goto(base + "/")
    page.evaluate(
        """(names) => {
          const form = document.querySelector('input[name=time_a]').form;
          for (const [key, value] of Object.entries(names)) form.elements[key].value = value;
          form.submit();
        }""",
        names,
    )
    page.wait_for_url("**/m/*")
    return page.url


def assert_within(page: Page) -> None:
    """No element of the juiz leaves the viewport and no button's text overflows it."""
    page.evaluate("window.scrollTo(0, 0)")
    bad = page.evaluate(_OUTSIDE)
    assert not bad, bad


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's LAN address, as the app finds it, is MACHINE_IP."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)


def test_a_ruling_shared_from_a_named_table_opens_with_the_names(
    browser: Browser, live_server: str, shots: Path, lan: None
) -> None:
    """On the scorer's phone (the table open on 127.0.0.1) the whole hand's 'Link desta
    decisão' points at the LAN address and carries the names; another phone opening it (no
    table) reads "Mão para Brabos" and Dani's truco, not "Nós 1"."""
    scorer = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    try:
        page = scorer.new_page()
        board = submit_named_table(page, live_server, NAMED)
        page.goto(board + "/juiz")
        page.goto(live_server + "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos=" + WON)
        link = page.get_by_test_id("compartilhar").get_attribute("href") or ""
        parts = urlsplit(link)
        assert parts.netloc.split(":")[0] == MACHINE_IP
        params = {k: v[0] for k, v in parse_qs(parts.query).items()}
        assert (params["nos"], params["eles"], params["j1"], params["j2"]) == (
            "Brabos", "Patos", "Dani", "Zé"
        )
        friend = other.new_page()
        friend.goto(f"{live_server}{parts.path}?{parts.query}")  # the LAN address, in a test
        expect(friend.get_by_test_id("veredito")).to_have_attribute("data-resultado", "nos")
        expect(friend.locator("#jz-verdict-title")).to_have_text("Mão para Brabos: 3 pontos")
        expect(friend.get_by_test_id("motivos")).to_contain_text("Pedido de truco (Dani)")
        expect(friend.locator("#juiz")).not_to_contain_text("Nós 1")
        friend.screenshot(path=str(shots / "juiz-link-com-nomes-390.png"), full_page=True)
    finally:
        scorer.close()
        other.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_long_names_stay_inside_the_juiz_at_phone_widths(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """A table with 24-character one-word names: the round page (its 'Abre a rodada', and from
    round 2 'Quem é o mão' with all four players), the hand page, the whole hand's mão de onze
    buttons and its 'Aplicar ao placar' keep every element box within the viewport (a name
    too long for its box ends in an ellipsis there, never broken inside)."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    try:
        board = submit_named_table(page, live_server, LONG)
        page.goto(board + "/juiz")
        pages = {
            "rodada": "/juiz/rodada?vira=4o&jogadores=4",
            "rodada2": "/juiz/rodada?vira=4o&jogadores=4&rodada=2&jogadas=3p",
            "mao": "/juiz/mao?rodadas=nos&jogadores=4",
            "onze": "/juiz/mao?vira=4o&jogadores=4&especial=onze-eles&eventos=",
            "onze-jogada": "/juiz/mao?vira=4o&jogadores=4&especial=onze-eles&eventos=2:aceita",
            "decidida": "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos=" + WON,
        }
        for name, url in pages.items():
            page.goto(live_server + url)
            expect(page.locator("#juiz")).to_be_visible()
            if name in ("onze", "decidida"):
                page.locator("details.jz-options").evaluate("d => d.open = true")
            shot = shots / f"juiz-nomes-longos-{name}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert_within(page)
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_pair_at_eleven_decides_before_any_card_in_the_browser(
    browser: Browser, live_server: str, shots: Path, width: int, height: int
) -> None:
    """At 11 x 0 the board says "Decidem:" and names the pair; its juiz's whole hand offers only
    the side at eleven's Joga and Corre, no card to tap, until the decision; then the mão's
    cards. Screenshots of the board, the hand before and after the decision, and round 2's
    'Quem é o mão' with every player."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    try:
        board = submit_named_table(page, live_server, NAMED)
        for label in ("+9", "+1", "+1"):
            tap_on_page(page, "a", label)
        onze = page.get_by_test_id("mao-de-onze")
        expect(onze).to_contain_text("Decidem:")
        pair = (onze.text_content() or "").split("Decidem:")[1].strip(" .\n")
        assert sorted(pair.split(" e ")) == ["Carlão", "Dani"]
        page.screenshot(path=str(shots / f"juiz-onze-placar-{width}.png"))
        page.goto(board + "/juiz")
        page.goto(live_server + "/juiz/mao?vira=4o&eventos=")
        expect(page.get_by_test_id("situacao")).to_contain_text(f"Decidem: {pair}.")
        expect(page.locator("a.jz-cell")).to_have_count(0)
        said = page.locator("[data-testid^=diz-]")
        expect(said).to_have_count(2)
        assert all("-aceita" in t or "-corre" in t for t in said.evaluate_all(
            "els => els.map(e => e.dataset.testid)"
        ))
        page.screenshot(path=str(shots / f"juiz-onze-antes-{width}.png"), full_page=True)
        assert_within(page)
        page.locator("[data-testid$=-aceita]").click()
        expect(page.locator("#juiz")).to_have_attribute("data-eventos", "1")
        expect(page.locator("a.jz-cell").first).to_be_visible()
        page.screenshot(path=str(shots / f"juiz-onze-jogada-{width}.png"), full_page=True)
        page.goto(live_server + "/juiz/rodada?vira=4o&rodada=2")
        mao = page.get_by_role("group", name="Quem é o mão").get_by_role("link")
        expect(mao).to_have_count(4)
        page.screenshot(path=str(shots / f"juiz-rodada2-quem-e-o-mao-{width}.png"), full_page=True)
        assert_within(page)
    finally:
        context.close()
