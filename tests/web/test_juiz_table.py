"""The juiz at the table: what it keeps across rounds, how it names and colours the seats, and
what applying a ruling leaves on the board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers import HX, flashed, open_table, query_of, reasons_of
from .test_juiz import hooks, revision_of, ruling, score, verdict

# Rulings come from the address; applying one is the board's write (test_board runs it on both
# engines).
pytestmark = pytest.mark.sqlite_only

ROUND = "/juiz/rodada?"
STATIC = Path(__file__).resolve().parents[2] / "static" / "css"


def link(html: str, testid: str, index: int = 0) -> str:
    """The href of the element with this test id."""
    return hooks(html)[testid][index]["href"].replace("&amp;", "&")


def switch(html: str, title: str) -> dict[str, str]:
    """A switch's options: label -> href."""
    block = re.search(rf'aria-label="{title}">(.*?)</div>', html, re.S)
    assert block, title
    options = re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', block.group(1))
    return {label: href.replace("&amp;", "&") for href, label in options}


def tab(html: str, label: str) -> str:
    """The href of one of the juiz's tabs."""
    nav = re.search(r'<nav class="jz-tabs".*?</nav>', html, re.S)
    assert nav
    href = re.search(rf'<a href="([^"]+)"[^>]*>{label}</a>', nav.group(0))
    assert href, label
    return href.group(1).replace("&amp;", "&")


def names(html: str) -> list[str]:
    """The players' names in play order."""
    return re.findall(r'data-jogador="([^"]+)"', html)


# --- the vira and the rules stay until the user changes them --------------------------------


def test_recomecar_clears_the_cards_and_keeps_the_vira_and_rules(client: FlaskClient) -> None:
    """'Recomeçar' takes back every card of the round; the vira, deck and round stay."""
    html = client.get(ROUND + "vira=Ko&baralho=limpo&rodada=2&jogadores=2&jogadas=Ap,3c").text
    params = query_of(link(html, "recomecar"))
    assert params["vira"] == "Ko" and params["baralho"] == "limpo" and params["rodada"] == "2"
    assert "jogadas" not in params
    again = client.get(link(html, "recomecar")).text
    assert 'data-carta="Ko"' in again and "veredito" not in hooks(again)
    assert "a vira e toque" not in again and "Toque a carta de" in again


def test_changing_the_round_keeps_the_vira_and_clears_the_cards(client: FlaskClient) -> None:
    """The round switch keeps the vira and rules and starts the other round with no card."""
    html = client.get(ROUND + "vira=7o&manilhas=variavel&jogadores=2&jogadas=3p").text
    for label in ("2ª", "3ª"):
        params = query_of(switch(html, "Rodada")[label])
        assert params["vira"] == "7o" and params["rodada"] == label[0]
        assert "jogadas" not in params


def test_next_round_carries_the_result_and_is_opened_by_the_winner(client: FlaskClient) -> None:
    """After Nós 2 wins round 1, round 2 starts with Nós 2, keeps the mão (Nós 1) where it sits,
    and its 'Anotar na mão' adds round 2 to the result of round 1."""
    html = client.get(ROUND + "vira=4o&jogadores=4&jogadas=2p,Ac,3e,Ko").text
    assert verdict(html)["data-jogada"] == "3"
    second = client.get(switch(html, "Rodada")["2ª"]).text
    assert names(second) == ["Nós 2", "Eles 2", "Nós 1", "Eles 1"]
    assert re.search(r'data-testid="lugar-3".*?jz-mao-tag', second, re.S)
    assert 'data-carta="4o"' in second  # the vira, shown as used in the grid
    played = client.get(switch(html, "Rodada")["2ª"] + "&jogadas=Ap,3c,2o,Kp").text
    assert verdict(played)["data-jogada"] == "2"
    assert "rodadas=nos,eles&" in link(played, "anotar-mao")


def test_trocar_a_vira_clears_only_the_vira(client: FlaskClient) -> None:
    """'Trocar a vira' is offered with a ruling too, and keeps the cards played."""
    html = client.get(ROUND + "vira=3o&jogadores=2&jogadas=4p,3c").text
    href = re.search(r'href="([^"]+)#jz-mesa"[^>]*>Trocar a vira<', html)
    assert href
    params = query_of(href.group(1))
    assert "vira" not in params and params["jogadas"] == "4p,3c"


def test_the_vira_goes_to_the_hand_page_and_back(client: FlaskClient) -> None:
    """'Anotar na mão' carries the vira and rules; the hand page's links to judge the next round
    and its tabs bring them back to the round page."""
    html = client.get(ROUND + "vira=Jo&baralho=limpo&jogadores=2&jogadas=3p,2c").text
    hand = client.get(link(html, "anotar-mao")).text
    assert verdict(hand)["data-resultado"] == "indecisa"
    judge = client.get(link(hand, "julgar-rodada")).text
    assert 'data-carta="Jo"' in judge and "Toque a carta de" in judge
    assert 'class="on" aria-current="true">Limpo</a>' in judge
    assert 'class="on" aria-current="true">2ª</a>' in judge
    for label in ("Rodada", "Juiz"):
        assert query_of(tab(hand, label))["vira"] == "Jo"
    shared = hooks(hand)["compartilhar"][0]["href"]
    assert "vira=" not in shared and "baralho=" not in shared


def test_the_hand_page_keeps_the_vira_through_its_own_links(client: FlaskClient) -> None:
    """Choosing results, undoing and restarting on the hand page keep the vira for later."""
    html = client.get("/juiz/mao?rodadas=nos&vira=3o").text
    for testid in ("rodada-eles", "desfazer", "recomecar"):
        assert query_of(link(html, testid))["vira"] == "3o"


def test_a_bad_carried_vira_is_dropped_and_the_hand_still_judged(client: FlaskClient) -> None:
    """A vira that cannot be is not carried along; the hand ruling does not depend on it."""
    html = client.get("/juiz/mao?rodadas=nos,nos&vira=4o&baralho=limpo").text
    assert verdict(html)["data-resultado"] == "nos"
    assert "vira" not in query_of(link(html, "desfazer"))


def test_the_tabs_of_the_round_page_keep_the_vira(client: FlaskClient) -> None:
    """From the round page, the Mão and Rodada tabs keep the vira."""
    html = client.get(ROUND + "vira=5c&jogadores=2&jogadas=4p").text
    for label in ("Rodada", "Mão", "Juiz"):
        assert query_of(tab(html, label))["vira"] == "5c"
    fresh = client.get(tab(html, "Rodada")).text
    assert 'data-carta="5c"' in fresh and "Toque a carta de Nós 1 (jogada 1 de 2)" in fresh


def test_htmx_and_plain_get_keep_the_same_vira(client: FlaskClient) -> None:
    """The links an htmx swap gets are the ones a plain GET gets."""
    url = ROUND + "vira=3o&jogadores=2&jogadas=4p,3c"
    assert link(client.get(url, headers=HX).text, "recomecar") == link(
        client.get(url).text, "recomecar"
    )


# --- "Anotar na mão" on every round --------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("rodada=1", ["rodadas=eles"]),
        ("rodada=2&anteriores=empate", ["rodadas=empate,eles"]),
        ("rodada=2", ["rodadas=nos,eles", "rodadas=eles,eles", "rodadas=empate,eles"]),
        (
            "rodada=3",
            ["rodadas=nos,eles,eles", "rodadas=eles,nos,eles", "rodadas=empate,empate,eles"],
        ),
    ],
)
def test_every_round_ruling_can_be_noted_on_the_hand(
    client: FlaskClient, query: str, expected: list[str]
) -> None:
    """Rounds 1, 2 and 3 offer 'Anotar na mão'; without the earlier results, one link for each
    way the hand can have come to this round, each a hand the juiz accepts."""
    html = client.get(ROUND + f"vira=3o&jogadores=2&jogadas=4c,4p&{query}").text
    assert "Anotar na mão" in html
    hrefs = [h["href"] for h in hooks(html)["anotar-mao"]]
    assert [re.search(r"rodadas=[a-z,]+", h).group(0) for h in hrefs] == expected
    for href in hrefs:
        assert ruling(client, href)["data-resultado"] != "invalido"


def test_an_unfinished_round_has_nothing_to_note(client: FlaskClient) -> None:
    """Until the round is ruled there is no result to take to the hand."""
    html = client.get(ROUND + "vira=3o&jogadores=2&rodada=2&jogadas=4c").text
    assert "anotar-mao" not in hooks(html)


# --- seats: the table's names and sides -----------------------------------------------------


def test_round_one_starts_with_the_boards_mao(client: FlaskClient, app: Flask) -> None:
    """Opened from a board, round 1 starts with the player the board says is the mão."""
    token = open_table(
        client, jogador_0="Ana", jogador_1="Bia", jogador_2="Caio", jogador_3="Duda", pe="1"
    )
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get(ROUND).text
    assert names(html) == ["Caio", "Duda", "Ana", "Bia"]
    assert re.search(r'data-testid="lugar-1".*?jz-mao-tag', html, re.S)


def test_seats_carry_their_side(client: FlaskClient) -> None:
    """Each seat is marked with its side: the first team's players side 0, the others side 1."""
    token = open_table(client, time_a="Ana", time_b="Os Zapeiros")
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get(ROUND + "abre=eles&rodada=2&mao=2").text
    seats = re.findall(
        r'class="jz-slot side-(\d)[^"]*" data-lado="(\d)"[^>]*>\s*'
        r'<span class="jz-slot-label" data-jogador="([^"]+)"',
        html,
    )
    assert all(side == lado for side, lado, _ in seats)
    assert [(side, name) for side, _, name in seats] == [
        ("1", "Os Zapeiros 1"),
        ("0", "Ana 2"),
        ("1", "Os Zapeiros 2"),
        ("0", "Ana 1"),
    ]


def mao_of(html: str) -> str:
    """The name of the player tagged as the hand's mão on the round page."""
    slots = re.findall(r'<li class="jz-slot.*?</li>', html, re.S)
    tagged = [re.search(r'data-jogador="([^"]+)"', slot) for slot in slots if "jz-mao-tag" in slot]
    assert len(tagged) == 1 and tagged[0]
    return tagged[0].group(1)


def test_who_opened_and_who_is_mao_are_chosen_by_name(client: FlaskClient) -> None:
    """From round 2 the page asks who opened the round and who is the mão, by the players'
    names; choosing keeps those names on the same players."""
    html = client.get(ROUND + "vira=3o&rodada=2&jogadores=4").text
    opened = switch(html, "Quem abriu a rodada")
    assert list(opened) == ["Nós 1", "Eles 1", "Nós 2", "Eles 2"]
    after = client.get(opened["Eles 2"]).text
    assert names(after) == ["Eles 2", "Nós 1", "Eles 1", "Nós 2"]
    assert re.search(r'data-testid="lugar-2".*?jz-mao-tag', after, re.S)
    mao = switch(after, "Quem é o mão")
    assert list(mao) == ["Nós 1", "Eles 1", "Nós 2", "Eles 2"]
    swapped = client.get(mao["Eles 1"]).text
    assert names(swapped) == ["Eles 2", "Nós 1", "Eles 1", "Nós 2"]
    assert re.search(r'data-testid="lugar-3".*?jz-mao-tag', swapped, re.S)


@pytest.mark.parametrize("chosen", ["Dani", "Zé", "Carlão", "Bia"])
def test_quem_e_o_mao_offers_every_player_of_the_table(client: FlaskClient, chosen: str) -> None:
    """From round 2, 'Quem é o mão' offers all four players by name; choosing any one of them
    tags that player as the mão and keeps who opened the round and the seating."""
    token = open_table(
        client, jogador_0="Dani", jogador_1="Zé", jogador_2="Carlão", jogador_3="Bia"
    )
    client.get(f"/m/{token}/juiz")
    html = client.get(ROUND + "vira=3o&rodada=2").text
    seating = names(html)
    mao = switch(html, "Quem é o mão")
    assert sorted(mao) == sorted(["Dani", "Zé", "Carlão", "Bia"])
    picked = client.get(mao[chosen]).text
    assert names(picked) == seating
    assert mao_of(picked) == chosen
    assert 'class="on" aria-current="true">' + chosen + "</a>" in picked


def test_side_colours_are_the_boards_own_variables() -> None:
    """juiz.css takes the sides' colours from the board's --a and --b (no copy that can drift),
    and colours seats, side buttons and results with them."""
    css = (STATIC / "juiz.css").read_text()
    board = (STATIC / "app.css").read_text()
    declared = " ".join(re.findall(r"--[ab]:([^;]+);", board))
    values = set(re.findall(r"#[0-9a-fA-F]{3,6}", declared))
    assert len(values) >= 6  # light, dark and sol, for each side
    for value in values:
        assert value.lower() not in css.lower(), value
    for selector, side in (
        (".jz-slot.side-0", "a"),
        (".jz-slot.side-1", "b"),
        (".button.c-nos", "a"),
        (".button.c-eles", "b"),
    ):
        rule = re.search(re.escape(selector) + r"\b[^{}]*\{([^}]*)\}", css)
        assert rule and f"var(--{side})" in rule.group(1), selector


# --- applying a ruling: where it came from ---------------------------------------------------


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"lado": "1", "pontos": "3"}, "Os Zapeiros +3 · pelo juiz"),
        ({"lado": "0", "pontos": "12"}, "Ana +12 · pelo juiz"),
        ({"tipo": "anulada"}, "Mão anulada · pelo juiz"),
    ],
)
def test_applied_ruling_records_its_origin_and_says_so(
    client: FlaskClient, app: Flask, form: dict[str, str], message: str
) -> None:
    """'Aplicar ao placar' stores 'pelo juiz' as the record's reason and flashes a confirmation
    naming the side, the points and the juiz before the redirect to the board."""
    token = open_table(client, time_a="Ana", time_b="Os Zapeiros")
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    data = {"rev": str(revision_of(app, token)), **form}
    response = client.post("/juiz/aplicar", data=data)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/m/{token}")
    assert reasons_of(app, token) == ["pelo juiz"]
    assert flashed(client) == [message]
    assert message in client.get(response.headers["Location"]).text


def test_refused_apply_flashes_nothing_and_records_nothing(
    client: FlaskClient, app: Flask
) -> None:
    """A stale apply answers 409 on the juiz page, with no record and no confirmation waiting."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    data = {"rev": str(revision_of(app, token) + 1), "lado": "0", "pontos": "3"}
    assert client.post("/juiz/aplicar", data=data).status_code == 409
    assert reasons_of(app, token) == [] and flashed(client) == []
    assert score(app, token) == (0, 0)


def test_a_refused_apply_keeps_the_vira_on_the_page(client: FlaskClient, app: Flask) -> None:
    """The apply form carries the kept vira, so a refusal's page still has it."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=nos,nos&vira=3o").text
    assert 'name="vira" value="3o"' in html
    data = {"rev": "999", "lado": "0", "pontos": "3", "rodadas": "nos,nos"}
    refused = client.post("/juiz/aplicar", data={**data, "vira": "3o"})
    assert refused.status_code == 409
    assert query_of(link(refused.text, "desfazer"))["vira"] == "3o"


def test_earlier_results_that_ended_the_hand_are_not_carried(client: FlaskClient) -> None:
    """Two rounds won by one side end the hand: round 3 does not take them as its past, and asks
    how the hand got there instead."""
    html = client.get(ROUND + "vira=3o&jogadores=2&rodada=3&anteriores=nos,nos&jogadas=4c,4p").text
    hrefs = [h["href"] for h in hooks(html)["anotar-mao"]]
    assert len(hrefs) == 3
    assert all(ruling(client, href)["data-resultado"] != "invalido" for href in hrefs)
    first = client.get(ROUND + "vira=3o&jogadores=2&jogadas=4p,3c").text
    second = client.get(switch(first, "Rodada")["2ª"] + "&jogadas=4c,3p").text
    assert query_of(switch(second, "Rodada")["3ª"]).get("anteriores") is None


def test_back_to_round_one_the_mao_opens_again(client: FlaskClient) -> None:
    """From round 2 (Eles 2 opened, Nós 1 the mão), round 1 starts again with the mão."""
    html = client.get(ROUND + "vira=3o&rodada=2&jogadores=4&abre=eles&mao=2").text
    assert names(html) == ["Eles 2", "Nós 1", "Eles 1", "Nós 2"]
    first = client.get(switch(html, "Rodada")["1ª"]).text
    assert names(first) == ["Nós 1", "Eles 1", "Nós 2", "Eles 2"]
    assert 'data-carta="3o"' in first


def test_an_impossible_mao_seat_is_explained_never_a_500(client: FlaskClient) -> None:
    """A link whose assento_mao is no seat of the table gets the ruling's refusal in
    Portuguese, with the page (status 200)."""
    response = client.get(ROUND + "vira=3o&rodada=2&jogadores=2&assento_mao=4")
    assert response.status_code == 200
    assert verdict(response.text)["data-resultado"] == "invalido"
    assert "use assento_mao=1 a assento_mao=2" in response.text
