"""A torneio played in the browser as a bar plays it: the organiser creates it and registers the
pairs at the door on a phone, draws, and each mesa's phone opens its mesa link once and keeps it
all evening; the bar's TV is open in its own browser. After every step the bracket and the TV
follow within 2 s (the TV polls), the mesa phones go from match to match with "Próximo jogo
desta mesa", and the podium closes the evening.

The whole torneio has 8 pairs on 3 mesas (a full bracket: no byes; the 4th quarter-final waits
for a free mesa). Byes get their own short torneio of 5 pairs. Matches are one game to 12
(formato 1): a +12 (or +3 then +9) tap on the board ends one. The final's round plays on the
clock: its limit is reached by setting the round's start back in the live server's database (no
test sleeps), and the TV, whose poll applies it, shows the final decided in time."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper.domain.torneio import access, clock
from scorekeeper.extensions import db

from ..conftest import require_program
from .conftest import PHONE
from .pages import confirmed, tap_on_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV_SIZE = {"width": 1920, "height": 1080}
FOLLOWS_MS = 2_000  # the TV shows every change within 2 s (it polls every POLL_MS in tests)
PAIRS = [
    ("Ana", "Beto"),
    ("Caio", "Duda"),
    ("Edu", "Fabi"),
    ("Gil", "Hana"),
    ("Ivo", "Jade"),
    ("Kika", "Lia"),
    ("Mano", "Nina"),
    ("Otto", "Pia"),
]


def path_of(url: str) -> str:
    """A shown link's path: links are on the LAN address, the tests' server on 127.0.0.1."""
    return re.sub(r"^https?://[^/]+", "", url)


def create(page: Page, base: str, name: str, mesas: int, pairs: list[tuple[str, str]]) -> None:
    """A torneio (melhor de 1, final too, 3rd place on) created from the home page's link, its
    pairs registered at the door and the bracket drawn, all on the organiser's phone."""
    page.goto(base + "/")
    page.get_by_test_id("torneio-novo").click()
    page.get_by_test_id("torneio-nome").fill(name)
    page.locator("input[name=formato][value='1']").check()
    page.locator("input[name=formato_final][value='1']").check()
    page.get_by_test_id("torneio-mesas").fill(str(mesas))
    page.get_by_test_id("criar-torneio").click()
    expect(page.get_by_test_id("torneio")).to_be_visible()
    form = page.get_by_test_id("inscrever")
    for count, (first, second) in enumerate(pairs, start=1):
        form.get_by_label("Jogador 1").fill(first)
        form.get_by_label("Jogador 2").fill(second)
        form.get_by_role("button", name="Inscrever").click()
        expect(page.get_by_test_id("dupla")).to_have_count(count)
    expect(page.get_by_test_id("dupla").last).to_have_attribute("data-nome", " e ".join(pairs[-1]))
    page.get_by_test_id("sortear").click()
    expect(page.get_by_test_id("sorteio-resumo")).to_have_text(
        f"Sortear a chave com {len(pairs)} duplas?"
    )
    page.get_by_test_id("confirmar-sorteio").click()
    expect(page.get_by_test_id("chave")).to_be_visible()


def match(page: Page, key: str) -> Locator:
    """A match of the bracket shown on a page, by its key ('1-0', … '3-0', '3' the 3rd place)."""
    return page.get_by_test_id("chave").locator(f"[data-testid=jogo][data-key='{key}']")


def names(page: Page, key: str) -> tuple[str, str]:
    """A match's two pairs as the bracket names them."""
    found = match(page, key)
    return (
        found.get_by_test_id("jogo-a").inner_text().strip(),
        found.get_by_test_id("jogo-b").inner_text().strip(),
    )


def shows(
    page: Page,
    key: str,
    estado: str,
    vencedor: str | None = None,
    mesa: int | None = None,
    timeout: float | None = None,
) -> None:
    """The bracket shows a match in this state, with this winner (none when None) and at this
    mesa (none when None)."""
    selector = f"[data-testid=jogo][data-key='{key}'][data-estado='{estado}']"
    selector += f"[data-vencedor='{vencedor}']" if vencedor else ":not([data-vencedor])"
    selector += f"[data-mesa='{mesa}']" if mesa else ":not([data-mesa])"
    expect(page.get_by_test_id("chave").locator(selector)).to_have_count(1, timeout=timeout)


def tv_shows(
    tv: Page, key: str, estado: str, vencedor: str | None = None, mesa: int | None = None
) -> None:
    """The TV's bracket follows within 2 s."""
    shows(tv, key, estado, vencedor, mesa, timeout=FOLLOWS_MS)


def tv_score(tv: Page, mesa: int, placar: str, pairs: tuple[str, str] | None = None) -> None:
    """The TV shows a mesa's live score (and who plays there) within 2 s."""
    card = tv.locator(f"[data-testid=tv-mesa][data-mesa='{mesa}']")
    expect(card).to_have_attribute("data-placar", placar, timeout=FOLLOWS_MS)
    for pair in pairs or ():
        expect(card).to_contain_text(pair, timeout=FOLLOWS_MS)


def playing(board: Page, pairs: tuple[str, str]) -> None:
    """A mesa's phone shows the board of the match between these pairs, in this order."""
    expect(board.get_by_test_id("team-a").locator("h2")).to_have_text(pairs[0])
    expect(board.get_by_test_id("team-b").locator("h2")).to_have_text(pairs[1])


def next_at_mesa(board: Page) -> None:
    """At the end of a match, the mesa's phone taps 'Próximo jogo desta mesa'."""
    expect(board.get_by_test_id("fim")).to_be_visible()
    board.get_by_test_id("torneio-proximo").click()


def round_ends(app: Flask, organiser: Page, round_: int) -> str:
    """When a started round's time is up, as HH:MM in the bar's time zone (America/Sao_Paulo),
    from its start as stored."""
    with app.app_context():
        torneio = access.find_torneio(organiser.url.rsplit("/", 1)[-1], edit=True)
        assert torneio is not None
        begun = clock.started(torneio.clock, round_)
        assert begun is not None
        ends = begun + timedelta(minutes=torneio.minutes)
    return ends.astimezone(ZoneInfo("America/Sao_Paulo")).strftime("%H:%M")


def time_up(app: Flask, organiser: Page, round_: int) -> datetime:
    """A started round's clock set back in the live server's database as if started its minutes
    and one more ago: its limit has come (no test sleeps); the new start."""
    with app.app_context():
        torneio = access.find_torneio(organiser.url.rsplit("/", 1)[-1], edit=True)
        assert torneio is not None
        begun = clock.started(torneio.clock, round_)
        assert begun is not None
        earlier = begun - timedelta(minutes=torneio.minutes + 1)
        torneio.clock = {**torneio.clock, str(round_): clock.stamp(earlier)}
        db.session.commit()
    return earlier


@pytest.fixture
def opened(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts a test opens (the organiser's, each mesa's phone, the TV), all closed."""
    contexts: list[BrowserContext] = []
    yield contexts
    for context in contexts:
        context.close()


def new_page(browser: Browser, opened: list[BrowserContext], viewport: dict[str, int]) -> Page:
    """A page in a browser context of its own: its own phone or screen."""
    context = browser.new_context(viewport=viewport, locale="pt-BR", service_workers="block")
    opened.append(context)
    return context.new_page()


def test_a_torneio_of_8_pairs_on_3_mesas_from_the_mesas_links_with_the_tv_following(
    browser: Browser, live_app: Flask, live_server: str, opened: list[BrowserContext]
) -> None:
    """Two pairs swapped before the first game, quarter-finals on 3 mesas (the 4th waits), a
    W.O., an override, an undo that reopens a finished match (its result and the call it set
    off taken back), a paused mesa, a free mesa's page following its next call, the 3rd place
    and the final on the clock, the final decided in time when it reaches its limit, the
    podium."""
    base = live_server
    org = new_page(browser, opened, PHONE)
    create(org, base, "Copa da Sinuca", 3, PAIRS)
    links = {
        n: path_of(
            org.locator(f"[data-testid=mesa-link][data-mesa='{n}']").get_attribute("href") or ""
        )
        for n in (1, 2, 3)
    }
    tv = new_page(browser, opened, TV_SIZE)
    tv.goto(base + path_of(org.get_by_test_id("tv-link").get_attribute("href") or ""))
    expect(tv.get_by_test_id("tv")).to_have_count(1)
    drawn = {k: names(org, k) for k in ("1-0", "1-1")}

    # Before the first game starts the organiser swaps two pairs of the draw: the calls follow.
    org.locator("select[name=de]").select_option(label=drawn["1-0"][0])
    org.locator("select[name=para]").select_option(label=drawn["1-1"][0])
    org.get_by_role("button", name="Trocar", exact=True).click()
    expect(match(org, "1-0").get_by_test_id("jogo-a")).to_have_text(drawn["1-1"][0])
    expect(match(org, "1-1").get_by_test_id("jogo-a")).to_have_text(drawn["1-0"][0])
    q = {k: names(org, k) for k in ("1-0", "1-1", "1-2", "1-3")}

    # The quarter-finals are called in bracket order to mesas 1, 2, 3; the 4th waits.
    for n, key in ((1, "1-0"), (2, "1-1"), (3, "1-2")):
        shows(org, key, "jogando", mesa=n)
        tv_score(tv, n, "0-0", q[key])
    shows(org, "1-3", "aguardando")
    expect(tv.get_by_test_id("proxima-chamada")).to_contain_text(f"{q['1-3'][0]} x {q['1-3'][1]}")
    mesa = {}
    for n, key in ((1, "1-0"), (2, "1-1"), (3, "1-2")):
        mesa[n] = new_page(browser, opened, PHONE)
        mesa[n].goto(base + links[n])
        playing(mesa[n], q[key])

    # Mesa 1 plays its quarter-final to 12: each tap on the TV within 2 s (and the organiser's
    # page offers to show it); then the waiting quarter-final is called to mesa 1 and its phone
    # goes there.
    expect(org.get_by_test_id("novidades")).to_have_count(0)
    tap_on_page(mesa[1], "a", "+3", confirm=True)
    tv_score(tv, 1, "3-0")
    org.get_by_test_id("novidades").get_by_role("link").click()
    expect(org.locator("[data-testid=mesa][data-mesa='1']")).to_contain_text("3-0")
    expect(org.locator("form.trocar")).to_have_count(0)  # a game started: the draw stays
    tv_shows(tv, "1-0", "jogando", mesa=1)
    tap_on_page(mesa[1], "a", "+9", confirm=True)
    tv_shows(tv, "1-0", "fim", q["1-0"][0], mesa=1)
    tv_shows(tv, "1-3", "jogando", mesa=1)
    tv_score(tv, 1, "0-0", q["1-3"])
    next_at_mesa(mesa[1])
    playing(mesa[1], q["1-3"])

    # The organiser gives a W.O. at mesa 2: a semi-final is called to it; its phone, still on
    # the board of the match decided for it, says so and moves on to the match called there.
    org.reload()
    found = match(org, "1-1")
    found.locator("summary").click()
    found.get_by_test_id("wo-b").click()
    shows(org, "1-1", "fim", q["1-1"][1], mesa=2)
    expect(match(org, "1-1")).to_contain_text("W.O.")
    semi_1 = (q["1-0"][0], q["1-1"][1])
    shows(org, "2-0", "jogando", mesa=2)
    assert names(org, "2-0") == semi_1
    tv_shows(tv, "1-1", "fim", q["1-1"][1], mesa=2)
    tv_shows(tv, "2-0", "jogando", mesa=2)
    tv_score(tv, 2, "0-0", semi_1)
    playing(mesa[2], semi_1)
    expect(mesa[2].get_by_test_id("mensagem")).to_contain_text("acabou por W.O.")

    # Mesa 3 ends its quarter-final; nothing is playable for it, so its phone shows the free
    # mesa's page.
    tap_on_page(mesa[3], "a", "+12", confirm=True)
    tv_shows(tv, "1-2", "fim", q["1-2"][0], mesa=3)
    next_at_mesa(mesa[3])
    expect(mesa[3].get_by_test_id("mesa-livre")).to_have_attribute("data-mesa", "3")
    expect(tv.locator("[data-testid=tv-mesa][data-mesa='3']")).not_to_have_attribute(
        "data-placar", re.compile(".*"), timeout=FOLLOWS_MS
    )

    # The organiser overrides that result: the other pair goes on.
    org.reload()
    found = match(org, "1-2")
    found.locator("summary").click()
    found.get_by_test_id("dar-b").click()
    shows(org, "1-2", "fim", q["1-2"][1], mesa=3)
    expect(match(org, "1-2")).to_contain_text("decidido pelo organizador")
    tv_shows(tv, "1-2", "fim", q["1-2"][1], mesa=3)

    # Mesa 1 ends the last quarter-final: the 2nd semi-final is called to mesa 1 (the lowest
    # free); then an undo on that finished board reopens it: its result and the call it set
    # off (not started yet) are taken back.
    tap_on_page(mesa[1], "b", "+12", confirm=True)
    tv_shows(tv, "1-3", "fim", q["1-3"][1], mesa=1)
    tv_shows(tv, "2-1", "jogando", mesa=1)
    rev = mesa[1].locator("#board").get_attribute("data-rev")
    mesa[1].get_by_test_id("desfazer").click()
    expect(mesa[1].locator("#board")).not_to_have_attribute("data-rev", rev or "")
    confirmed(mesa[1])
    tv_shows(tv, "1-3", "jogando", mesa=1)
    tv_shows(tv, "2-1", "aguardando")
    tv_score(tv, 1, "0-0", q["1-3"])
    org.reload()
    shows(org, "1-3", "jogando", mesa=1)
    shows(org, "2-1", "aguardando")
    # Played again, the other way round this time.
    tap_on_page(mesa[1], "a", "+3", confirm=True)
    tv_score(tv, 1, "3-0")
    tap_on_page(mesa[1], "a", "+9", confirm=True)
    semi_2 = (q["1-2"][1], q["1-3"][0])
    tv_shows(tv, "1-3", "fim", q["1-3"][0], mesa=1)
    tv_shows(tv, "2-1", "jogando", mesa=1)
    tv_score(tv, 1, "0-0", semi_2)
    next_at_mesa(mesa[1])
    playing(mesa[1], semi_2)

    # The organiser pauses mesa 1 (its semi-final plays on): the next calls skip it.
    org.reload()
    org.locator("[data-testid=mesa][data-mesa='1']").get_by_test_id("pausar-mesa").click()
    expect(org.locator("[data-testid=mesa][data-mesa='1']")).to_contain_text("Voltar a chamar")

    # Both semi-finals end: the 3rd place and the final are called to mesas 2 and 3 (mesa 1 is
    # paused); mesa 3's free page follows its call by itself.
    tap_on_page(mesa[2], "a", "+12", confirm=True)
    tv_shows(tv, "2-0", "fim", semi_1[0], mesa=2)
    tap_on_page(mesa[1], "b", "+12", confirm=True)
    tv_shows(tv, "2-1", "fim", semi_2[1], mesa=1)
    final, third = (semi_1[0], semi_2[1]), (semi_1[1], semi_2[0])
    tv_shows(tv, "3", "jogando", mesa=2)
    tv_shows(tv, "3-0", "jogando", mesa=3)
    tv_score(tv, 2, "0-0", third)
    tv_score(tv, 3, "0-0", final)
    expect(tv.locator("[data-testid=tv-mesa][data-mesa='1']")).not_to_have_attribute(
        "data-placar", re.compile(".*")
    )
    next_at_mesa(mesa[2])
    playing(mesa[2], third)
    playing(mesa[3], final)
    next_at_mesa(mesa[1])
    expect(mesa[1].get_by_test_id("mesa-livre")).to_have_attribute("data-mesa", "1")
    expect(mesa[1].get_by_test_id("mesa-pausada")).to_be_visible()

    # The organiser starts the last round's clock (the 3rd place and the final): the TV counts
    # down, and the mesas' boards say until when the round plays.
    org.reload()
    org.locator("[data-testid=comecar-rodada][data-rodada='3']").click()
    expect(org.locator("[data-testid=relogio][data-rodada='3']")).to_be_visible()
    expect(org.get_by_test_id("comecar-rodada")).to_have_count(0)
    ends = round_ends(live_app, org, 3)
    expect(tv.get_by_test_id("tv-relogio")).to_have_text(
        re.compile(rf"Final: termina às {ends} · faltam (89|90) min"), timeout=FOLLOWS_MS
    )
    for board in (mesa[2], mesa[3]):
        board.reload()
        expect(board.get_by_test_id("tempo-rodada")).to_have_text(f"Tempo da rodada: até {ends}")

    # The 3rd place ends; the final is at 3 x 0 when the round reaches its limit: under the rule
    # 'lider' the TV's next read gives it to the pair ahead, decided in time, with a line in its
    # mesa's log. The podium on the TV, the organiser's page and the mesas.
    tap_on_page(mesa[2], "b", "+12", confirm=True)
    tv_shows(tv, "3", "fim", third[1], mesa=2)
    expect(tv.get_by_test_id("campeao")).to_have_count(0)
    tap_on_page(mesa[3], "a", "+3", confirm=True)
    tv_score(tv, 3, "3-0", final)
    time_up(live_app, org, 3)
    tv_shows(tv, "3-0", "fim", final[0], mesa=3)
    expect(match(tv, "3-0")).to_contain_text("decidido no tempo")
    expect(tv.get_by_test_id("tv-relogio")).to_have_count(0)
    expect(tv.get_by_test_id("campeao")).to_have_attribute(
        "data-nome", final[0], timeout=FOLLOWS_MS
    )
    expect(tv.get_by_test_id("vice")).to_have_attribute("data-nome", final[1])
    expect(tv.get_by_test_id("terceiro")).to_have_attribute("data-nome", third[1])
    org.reload()
    expect(org.get_by_test_id("campeao")).to_have_attribute("data-nome", final[0])
    expect(org.get_by_test_id("jogo").and_(org.locator("[data-estado=fim]"))).to_have_count(8)
    expect(match(org, "3-0")).to_contain_text("decidido no tempo")
    mesa[3].reload()
    expect(mesa[3].locator("[data-testid=registro].active").first).to_contain_text(
        f"tempo esgotado: vence quem estava na frente ({final[0]})"
    )
    expect(mesa[3].get_by_test_id("score-a")).to_have_text("3")  # the score is left as it was
    mesa[3].get_by_test_id("torneio-mesa").click()
    expect(mesa[3].get_by_test_id("campeao")).to_have_attribute("data-nome", final[0])


def test_a_torneio_of_5_pairs_passes_3_on_byes_and_calls_what_can_be_played(
    browser: Browser, live_server: str, opened: list[BrowserContext]
) -> None:
    """5 pairs in a bracket of 8: 3 pairs pass the 1st round without playing (no bye meets a
    bye); the one real match and the semi-final between two byes' winners are called; once the
    real match ends, the other semi-final is called to its mesa."""
    base = live_server
    org = new_page(browser, opened, PHONE)
    create(org, base, "Copa da Folga", 2, PAIRS[:5])
    tv = new_page(browser, opened, TV_SIZE)
    tv.goto(base + path_of(org.get_by_test_id("tv-link").get_attribute("href") or ""))
    first = org.locator("[data-testid=jogo][data-rodada='1']")
    expect(first).to_have_count(4)
    real = ""
    for index in range(4):
        found = first.nth(index)
        key = found.get_attribute("data-key") or ""
        a, b = names(org, key)
        if "folga" not in (a, b):
            real = key
            continue
        assert (a, b) != ("folga", "folga")
        shows(org, key, "fim", b if a == "folga" else a)
        expect(found).to_contain_text("passa direto")
    pairs = names(org, real)
    shows(org, real, "jogando", mesa=1)
    # The semi-final between two byes' winners is called to mesa 2; the other one waits.
    semis = org.locator("[data-testid=jogo][data-rodada='2']")
    expect(semis.and_(org.locator("[data-estado=jogando][data-mesa='2']"))).to_have_count(1)
    expect(semis.and_(org.locator("[data-estado=aguardando]"))).to_have_count(1)
    expect(org.locator("[data-testid=jogo][data-estado=jogando]")).to_have_count(2)

    phone = new_page(browser, opened, PHONE)
    phone.goto(
        base
        + path_of(org.locator("[data-testid=mesa-link][data-mesa='1']").get_attribute("href") or "")
    )
    playing(phone, pairs)
    tap_on_page(phone, "a", "+12", confirm=True)
    tv_shows(tv, real, "fim", pairs[0], mesa=1)
    expect(tv.locator("[data-testid=jogo][data-rodada='2'][data-estado=jogando]")).to_have_count(
        2, timeout=FOLLOWS_MS
    )
    next_at_mesa(phone)
    expect(phone.get_by_test_id("team-a")).to_be_visible()


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, PHONE], ids=["320", "390"])
def test_a_wo_closes_the_match_on_its_mesas_phone_which_moves_on_by_itself(
    browser: Browser,
    live_server: str,
    opened: list[BrowserContext],
    shots: Path,
    size: dict[str, int],
) -> None:
    """A W.O. on the match a mesa's phone is scoring: within one poll the board drops its taps
    and says why, with a button to the mesa's match that fits the screen; then the phone opens
    the match called to the mesa now by itself, saying what became of the one before."""
    base = live_server
    org = new_page(browser, opened, PHONE)
    create(org, base, f"Copa do W.O. {size['width']}", 1, PAIRS[:3])
    phone = new_page(browser, opened, size)
    phone.goto(
        base
        + path_of(org.locator("[data-testid=mesa-link][data-mesa='1']").get_attribute("href") or "")
    )
    key = org.locator("[data-testid=jogo][data-mesa='1']").first.get_attribute("data-key") or ""
    pairs = names(org, key)
    playing(phone, pairs)
    tap_on_page(phone, "a", "+3", confirm=True)
    found = match(org, key)
    found.locator("summary").click()
    found.get_by_test_id("wo-b").click()
    shows(org, key, "fim", pairs[1], mesa=1)
    closed = phone.get_by_test_id("jogo-encerrado")
    expect(closed).to_contain_text(f"W.O.: o organizador deu este jogo para {pairs[1]}")
    phone.screenshot(path=str(shots / f"torneio-wo-encerrado-{size['width']}.png"))
    assert phone.locator("#board .tap").count() == 0
    button = phone.get_by_test_id("ir-para-a-mesa").bounding_box()
    assert button is not None
    assert 0 <= button["x"] and button["x"] + button["width"] <= size["width"]
    assert button["height"] >= 44  # a thumb's target
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"]
    final = names(
        org, org.locator("[data-testid=jogo][data-mesa='1']").last.get_attribute("data-key") or ""
    )
    expect(phone.get_by_test_id("team-a").locator("h2")).to_have_text(final[0], timeout=10_000)
    expect(phone.get_by_test_id("mensagem")).to_contain_text("acabou por W.O.")
    phone.screenshot(path=str(shots / f"torneio-wo-proximo-{size['width']}.png"))


def test_the_tv_announces_the_latest_call_large_and_may_sound_it(
    browser: Browser, live_server: str, opened: list[BrowserContext], shots: Path
) -> None:
    """At 1920x1080 the latest call reads at 48 px or more; a TV opened after it shows it too;
    the TV offers to sound each call, and once allowed a new call plays its sound."""
    base = live_server
    org = new_page(browser, opened, PHONE)
    create(org, base, "Copa da TV", 2, PAIRS[:4])
    tv = new_page(browser, opened, TV_SIZE)
    tv.goto(base + path_of(org.get_by_test_id("tv-link").get_attribute("href") or ""))
    call = tv.get_by_test_id("tv-chamada")
    expect(call).to_contain_text("Mesa 2")
    size = tv.locator(".tv-chamada-texto").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 48, size
    tv.evaluate(
        """() => { window.sounds = 0; const C = window.AudioContext;
        window.AudioContext = function () { const c = new C();
          const make = c.createOscillator.bind(c);
          c.createOscillator = () => { window.sounds += 1; return make(); }; return c; }; }"""
    )
    tv.get_by_test_id("tv-som").click()
    expect(tv.get_by_test_id("tv-som")).to_have_attribute("aria-pressed", "true")
    before = tv.evaluate("window.sounds")
    links = {
        n: path_of(
            org.locator(f"[data-testid=mesa-link][data-mesa='{n}']").get_attribute("href") or ""
        )
        for n in (1, 2)
    }
    for n in (1, 2):
        phone = new_page(browser, opened, PHONE)
        phone.goto(base + links[n])
        tap_on_page(phone, "a", "+12", confirm=True)
    expect(call).to_contain_text("Final", timeout=FOLLOWS_MS)
    tv.wait_for_function(f"window.sounds > {before}")
    tv.screenshot(path=str(shots / "torneio-tv-chamada-1920.png"))
    late = new_page(browser, opened, TV_SIZE)
    late.goto(tv.url)
    expect(late.get_by_test_id("tv-chamada")).to_contain_text("Final")


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, PHONE], ids=["320", "390"])
def test_pairs_sign_up_from_their_phones_and_the_draw_takes_the_present_ones_once_asked(
    browser: Browser,
    live_server: str,
    opened: list[BrowserContext],
    shots: Path,
    size: dict[str, int],
) -> None:
    """The sign-up link from the organiser's page: pairs register themselves on their phones
    (one registered twice is refused, saying who is in); the organiser marks three present,
    'Sortear a chave' asks first and names the pair left out; the bracket has the three; each
    mesa's QR code, read off the screen by zbar, is the mesa's link."""
    base = live_server
    org = new_page(browser, opened, size)
    org.goto(base + "/torneio/novo")
    org.get_by_test_id("torneio-nome").fill(f"Copa das Inscrições {size['width']}")
    org.get_by_test_id("torneio-mesas").fill("2")
    org.get_by_test_id("criar-torneio").click()
    org.get_by_test_id("inscricao-abrir").click()
    signup = path_of(org.get_by_test_id("inscricao-link").get_attribute("href") or "")
    phone = new_page(browser, opened, size)
    phone.goto(base + signup)
    for first, second in PAIRS[:4]:
        phone.get_by_label("Jogador 1").fill(first)
        phone.get_by_label("Jogador 2").fill(second)
        phone.get_by_test_id("confirmar-inscricao").click()
        expect(phone.get_by_test_id("inscrita")).to_contain_text(f"{first} e {second}")
    phone.get_by_label("Jogador 1").fill(PAIRS[0][1].upper())
    phone.get_by_label("Jogador 2").fill(PAIRS[0][0])
    phone.get_by_test_id("confirmar-inscricao").click()
    expect(phone.get_by_test_id("mensagem")).to_contain_text("já estão inscritos")
    expect(phone.get_by_test_id("inscrita")).to_have_count(0)  # the last one's word is gone
    box = phone.get_by_test_id("confirmar-inscricao").bounding_box()
    assert box and box["height"] >= 44 and box["x"] + box["width"] <= size["width"]
    phone.screenshot(path=str(shots / f"torneio-inscricao-{size['width']}.png"))
    org.reload()
    expect(org.get_by_test_id("dupla")).to_have_count(4)
    for index in range(3):
        org.get_by_test_id("dupla").nth(index).get_by_test_id("marcar-presente").click()
        expect(
            org.get_by_test_id("dupla").nth(index).get_by_test_id("marcar-presente")
        ).to_have_attribute("aria-pressed", "true")
    org.get_by_test_id("sortear").click()
    expect(org.get_by_test_id("sorteio-de-fora")).to_contain_text(" e ".join(PAIRS[3]))
    org.screenshot(path=str(shots / f"torneio-sorteio-confirmar-{size['width']}.png"))
    org.get_by_test_id("confirmar-sorteio").click()
    expect(org.get_by_test_id("chave")).to_be_visible()
    expect(org.get_by_test_id("chave")).not_to_contain_text(" e ".join(PAIRS[3]))
    assert org.evaluate("document.documentElement.scrollWidth") <= size["width"]
    zbar = require_program("zbarimg", "zbar-tools")
    qr = org.locator("[data-testid=mesa-qr][data-mesa='1'] svg")
    qr.scroll_into_view_if_needed()
    picture = shots / f"torneio-mesa-qr-{size['width']}.png"
    qr.screenshot(path=str(picture))
    read = subprocess.run(
        [zbar, "--raw", "-q", str(picture)], capture_output=True, text=True, timeout=60
    )
    link = org.locator("[data-testid=mesa-link][data-mesa='1']").get_attribute("href")
    assert read.stdout.strip() == link
