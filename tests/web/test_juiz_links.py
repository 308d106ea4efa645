"""Juiz links sent to the group: they carry the table's team and player names (so the ruling
reads "Mão para Brabos", not "Nós"), never the scorer's token, and point at an address the other
phones can open (the LAN or public address, never 127.0.0.1 unless nothing else serves)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.common import links

from .helpers import open_table, play, query_of
from .test_juiz import hooks, text_of, verdict

pytestmark = pytest.mark.sqlite_only

MACHINE_IP = "192.168.1.23"  # what lan_address() answers in these tests
NAMES = {
    "time_a": "Brabos",
    "time_b": "Patos",
    "jogador_0": "Dani",
    "jogador_1": "Zé",
    "jogador_2": "Carlão",
    "jogador_3": "Bia",
}
LINK_NAMES = {
    "nos": "Brabos",
    "eles": "Patos",
    "j1": "Dani",
    "j2": "Zé",
    "j3": "Carlão",
    "j4": "Bia",
}
# Dani asks for truco, Zé accepts; Dani's 3♣ and 2♣ take the first two rounds (vira 4♦).
WON = "1:truco,2:aceita,1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"
PAGES = [
    "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos=" + WON,
    "/juiz/rodada?vira=4o&jogadores=4&jogadas=3p,2c,Ae,Ko",
    "/juiz/mao?rodadas=nos,nos&jogadores=4",
]


@pytest.fixture(autouse=True)
def lan(monkeypatch: pytest.MonkeyPatch, app: Flask) -> None:
    """This machine's LAN address is MACHINE_IP, and no PUBLIC_URL is set."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    app.config["PUBLIC_URL"] = None


def shared(html: str) -> str:
    """The ruling's 'Link desta decisão'."""
    return hooks(html)["compartilhar"][0]["href"]


def from_board(client: FlaskClient, **form: str) -> str:
    """Open a table with these fields and open its juiz (the table then is in the session)."""
    token = open_table(client, **form)
    client.get(f"/m/{token}/juiz")
    return token


@pytest.mark.parametrize("url", PAGES)
def test_a_ruling_shared_from_a_board_carries_the_names(
    client: FlaskClient, app: Flask, url: str
) -> None:
    """Opened from a board named Brabos x Patos (Dani, Zé, Carlão, Bia), each juiz page's
    'Link desta decisão' carries those names as parameters, and not the scorer's token."""
    token = from_board(client, **NAMES)
    link = shared(client.get(url).text)
    params = query_of(link)
    expected = LINK_NAMES if "rodadas=" not in url else {"nos": "Brabos", "eles": "Patos"}
    assert {key: params.get(key) for key in expected} == expected
    assert token not in link


def test_the_shared_link_opened_elsewhere_shows_the_names(app: Flask) -> None:
    """The link opened on another phone (no table in its session) rules the same hand with the
    table's names: "Mão para Brabos", Dani's card, "Vez de" nobody."""
    scorer = app.test_client()
    from_board(scorer, **NAMES)
    link = shared(scorer.get(PAGES[0]).text)
    other = app.test_client()
    html = other.get(link).text
    assert verdict(html)["data-resultado"] == "nos"
    assert "Mão para Brabos: 3 pontos" in html
    reasons = text_of(html, "motivos", "ol")
    assert "Pedido de truco (Dani)" in reasons and "Responde Zé" in reasons
    assert "Nós 1" not in html and "Eles 1" not in html


def test_the_names_of_a_link_stay_on_every_tap(app: Flask) -> None:
    """On a page opened from a link with names (no table), each tap, undo and tab keeps them:
    the hand goes on with the same names."""
    client = app.test_client()
    base = "/juiz/mao?vira=4o&jogadores=4&eventos=&nos=Brabos&eles=Patos&j1=Dani&j2=Zé"
    html = client.get(base).text
    truco = hooks(html)["diz-1-truco"][0]["href"].split("#")[0]
    assert query_of(truco)["j1"] == "Dani" and query_of(truco)["nos"] == "Brabos"
    after = client.get(truco).text
    assert "responde Zé" in text_of(after, "situacao", "section")
    undo = hooks(after)["desfazer"][0]["href"].split("#")[0]
    assert query_of(undo)["j2"] == "Zé"
    nav = re.search(r'<nav class="jz-tabs".*?</nav>', after, re.S)
    assert nav
    tab = re.search(r'<a href="([^"]+)"[^>]*>Rodada</a>', nav.group(0))
    assert tab
    round_tab = client.get(tab.group(1).replace("&amp;", "&")).text
    assert 'data-jogador="Dani"' in round_tab and 'data-jogador="Zé"' in round_tab


def test_the_link_s_names_win_over_the_session_s_table(client: FlaskClient) -> None:
    """A link that names its players rules in those names, even in a browser that has another
    table in its session."""
    from_board(client, **NAMES)
    html = client.get("/juiz/rodada?vira=4o&jogadores=2&jogadas=3p,2c&nos=Ana&eles=Beto").text
    assert re.findall(r'data-jogador="([^"]+)"', html) in (["Ana 1", "Beto 1"], ["Beto 1", "Ana 1"])
    ruling = text_of(html, "veredito", "section")
    assert "Ana 1" in ruling and "Dani" not in ruling and "Brabos" not in ruling


def test_names_from_a_link_are_cleaned_and_cut_to_a_table_s_lengths(client: FlaskClient) -> None:
    """A link's names lose invisible characters and extra spaces and are cut to 24 characters,
    like a table's; markup in them is shown as text, never run."""
    long = "Invencíveis" + "a" * 60
    url = (
        "/juiz/rodada?vira=4o&jogadores=2&jogadas=3p,2c"
        f"&nos={long}&eles=%E2%80%8B%20<b>Pa\u200btos</b>%20%20x"
    )
    html = client.get(url).text
    assert f"Rodada para {long[:24]}" in html
    params = query_of(shared(html))
    assert params["nos"] == long[:24]
    assert params["eles"] == "<b>Patos</b> x"
    assert "<b>Patos" not in html and "&lt;b&gt;Patos&lt;/b&gt; x" in html


def test_a_link_with_no_names_keeps_the_defaults(client: FlaskClient) -> None:
    """Without a table and without names the shared link has no name parameters."""
    link = shared(client.get(PAGES[1]).text)
    assert not {"nos", "eles", "j1", "j2", "j3", "j4"} & set(query_of(link))


def test_a_1x1_table_names_its_two_players_by_its_team_names(client: FlaskClient) -> None:
    """/regras#mao-de-onze: in 1x1 one player decides: opened from a 1x1 table Zé x Tião at
    11 x 0, the juiz says "Decide: Zé", and the shared link carries both names."""
    token = from_board(client, jogadores="2", time_a="Zé", time_b="Tião")
    play(client, token, "normal:0:9", "normal:0:1", "normal:0:1")
    html = client.get("/juiz/mao?vira=4o&eventos=").text
    assert text_of(html, "situacao", "section").startswith("Decide: Zé.")
    params = query_of(shared(html))
    said = (params.get("j1"), params.get("j2"), params.get("especial"))
    assert said == ("Zé", "Tião", "onze-nos")


@pytest.mark.parametrize("opened_at", ["http://127.0.0.1:5000", "http://localhost:5000"])
def test_a_link_made_on_the_laptop_points_at_its_lan_address(
    client: FlaskClient, opened_at: str
) -> None:
    """Made on the computer itself (127.0.0.1 or localhost), the link and its WhatsApp text
    point at the LAN address the share page uses, which the other phones can open."""
    html = client.get(PAGES[1], base_url=opened_at).text
    link = shared(html)
    assert link.startswith(f"http://{MACHINE_IP}:5000/juiz/rodada?")
    assert "127.0.0.1" not in link and "localhost" not in link
    whatsapp = re.search(r'href="(https://wa\.me/\?text=[^"]+)"', html)
    assert whatsapp and f"{MACHINE_IP}%3A5000%2Fjuiz" in whatsapp.group(1)


def test_a_server_only_this_computer_reaches_keeps_its_own_address(
    client: FlaskClient, app: Flask
) -> None:
    """When the server listens on this computer alone (make run HOST=127.0.0.1), 127.0.0.1 is
    the only address there is: the link keeps it."""
    app.config["SERVES_LAN"] = False
    link = shared(client.get(PAGES[1], base_url="http://127.0.0.1:5000").text)
    assert link.startswith("http://127.0.0.1:5000/juiz/rodada?")


def test_a_public_url_wins_over_the_lan_address(client: FlaskClient, app: Flask) -> None:
    """With PUBLIC_URL set, the links go there."""
    app.config["PUBLIC_URL"] = "https://tento.example.org"
    link = shared(client.get(PAGES[1], base_url="http://127.0.0.1:5000").text)
    assert link.startswith("https://tento.example.org/juiz/rodada?")


def test_the_documented_link_with_names_reads_with_them(client: FlaskClient) -> None:
    """The names example of the juiz links' page: Dani asks for truco, Zé accepts."""
    url = (
        "/juiz/mao?vira=4o&jogadores=4&mao=1&nos=Brabos&eles=Patos&j1=Dani&j2=Zé&j3=Carlão"
        "&j4=Bia&eventos=1:truco,2:aceita"
    )
    html = client.get(url).text
    assert "Pedido de truco aceito (Zé)" in text_of(html, "motivos", "ol")
    assert "Vez de Dani" in text_of(html, "situacao", "section")
