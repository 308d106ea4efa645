"""The juiz under Truco Mineiro (`variante=mineiro`): fixed manilhas (no vira), 2, 4 or 6
players, the hand worth 2, the ladder 2/4/6/10/12 with truco, seis, dez and doze, the mão de dez
and the mão de ferro, each ruling linking the Mineiro rule book (/regras/mineiro).

The manilhas are fixed: 4 de paus > 7 de copas > ás de espadas > 7 de ouros, then 3 > 2 > A > K >
J > Q > 7 > 6 > 5 > 4.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient

from .test_juiz import hooks, ruling, text_of, verdict

# These pages read no table; the ones opened from a table, and applying, are in
# test_juiz_mineiro_table (on both databases).
pytestmark = pytest.mark.sqlite_only

WHOLE = "/juiz/mao?variante=mineiro&jogadores=2&mao=1&eventos="
WON_TWO_ROUNDS = "1:4p,2:3c,1:7c,2:3o"  # Nós take both rounds with two manilhas
MINEIRO_BOOK = "/regras/mineiro#mineiro-"


def page(client: FlaskClient, url: str) -> str:
    """GET a juiz page that must answer 200; its HTML."""
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    return response.text


def query_lists(href: str) -> dict[str, list[str]]:
    """A link's query parameters."""
    return parse_qs(urlsplit(href.replace("&amp;", "&")).query, keep_blank_values=True)


def rule_links(html: str) -> list[str]:
    """The rule-book links of the ruling's reasons and refusal."""
    return [h.replace("&amp;", "&") for h in re.findall(r'class="jz-rule" href="([^"]+)"', html)]


def own_links(html: str) -> list[str]:
    """Every link to a juiz page the page builds (tabs, switches, cards, undo, words)."""
    hrefs = re.findall(r'href="(/juiz/(?:rodada|mao)?\?[^"#]*)', html)
    return [h.replace("&amp;", "&") for h in hrefs]


# --- every page takes the rule set ------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/juiz?variante=mineiro",
        "/juiz/rodada?variante=mineiro",
        "/juiz/mao?variante=mineiro",
        WHOLE,
    ],
)
def test_every_juiz_page_takes_variante_mineiro_and_says_so(client: FlaskClient, url: str) -> None:
    """Each juiz page answers under Truco Mineiro and names it."""
    html = page(client, url)
    assert "Truco Mineiro" in html


@pytest.mark.parametrize(
    "url", ["/juiz/rodada?variante=mineiro", "/juiz/mao?variante=mineiro", WHOLE]
)
def test_the_rule_set_switch_marks_mineiro_and_links_paulista(
    client: FlaskClient, url: str
) -> None:
    """The switch Truco Paulista | Truco Mineiro: Mineiro on, Paulista a link that names it
    (a juiz opened from a Mineiro table would take an unsaid rule set for the table's)."""
    html = page(client, url)
    switch = hooks(html)["variante"][0]
    assert switch["data-variante"] == "mineiro"
    on = re.search(r'data-testid="variante".*?class="on"[^>]*>([^<]+)<', html, re.S)
    assert on and on.group(1) == "Truco Mineiro"
    paulista = re.search(
        r'data-testid="variante".*?href="([^"]+)"[^>]*>Truco Paulista<', html, re.S
    )
    assert paulista and "variante=paulista" in paulista.group(1)


def test_an_unknown_variante_is_refused_in_portuguese(client: FlaskClient) -> None:
    """variante=gaucho: a clear pt-BR refusal, never a 500."""
    html = page(client, WHOLE.replace("mineiro", "gaucho"))
    assert verdict(html)["data-resultado"] == "invalido"
    assert "Variante desconhecida" in text_of(html, "explicacao")


# --- the round --------------------------------------------------------------------------------


def test_a_mineiro_round_refuses_a_vira_in_portuguese(client: FlaskClient) -> None:
    """Mineiro's manilhas never change: a vira in the link is refused, saying why."""
    html = page(client, "/juiz/rodada?variante=mineiro&vira=4o&jogadas=3p,2c")
    assert verdict(html)["data-resultado"] == "invalido"
    assert "manilhas são fixas" in text_of(html, "explicacao")


def test_a_mineiro_whole_hand_refuses_a_vira_in_portuguese(client: FlaskClient) -> None:
    """The whole hand refuses a vira too."""
    html = page(client, WHOLE.replace("eventos=", "vira=4o&eventos="))
    assert verdict(html)["data-resultado"] == "invalido"
    assert "não há vira" in text_of(html, "explicacao")


def test_the_mineiro_card_picker_shows_forty_cards_and_the_four_fixed_manilhas(
    client: FlaskClient,
) -> None:
    """No vira to pick: the 40 cards, the zap, copas, espadilha and pica-fumo marked."""
    html = page(client, "/juiz/rodada?variante=mineiro")
    cards = re.findall(
        r'<a class="jz-cell[^"]*" href="[^"]*" data-hx="[^"]*" data-carta="(\w+)"', html
    )
    manilhas = re.findall(
        r'class="jz-cell[^"]*manilha" href="[^"]*" data-hx="[^"]*" '
        r'data-carta="(\w+)"',
        html,
    )
    assert len(cards) == 40
    assert sorted(manilhas) == sorted(["4p", "7c", "Ae", "7o"])


def test_the_zap_wins_a_mineiro_round_with_the_fixed_manilhas(client: FlaskClient) -> None:
    """4 de paus beats a 3: the manilhas are fixed, with no vira."""
    attrs = ruling(client, "/juiz/rodada?variante=mineiro&jogadores=2&jogadas=3c,4p")
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "2"


def test_a_mineiro_round_seats_six(client: FlaskClient) -> None:
    """3x3: six plays, the round to the side of the strongest card."""
    url = "/juiz/rodada?variante=mineiro&jogadores=6&jogadas=3p,2c,Kp,Ko,Qp,4p"
    attrs = ruling(client, url)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "6"


def test_six_players_are_refused_in_paulista(client: FlaskClient) -> None:
    """Paulista seats 2 or 4: jogadores=6 is refused there."""
    attrs = ruling(client, "/juiz/rodada?jogadores=6&vira=4o")
    assert attrs["data-resultado"] == "invalido"


# --- a hand from its round results ------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "result", "points"),
    [
        ("/juiz/mao?variante=mineiro&rodadas=nos,nos", "nos", "2"),
        ("/juiz/mao?variante=mineiro&rodadas=empate,empate,empate", "anulada", "0"),
        ("/juiz/mao?rodadas=nos,nos", "nos", "1"),
        ("/juiz/mao?rodadas=empate,empate,empate", "anulada", "0"),
    ],
)
def test_a_hand_from_its_rounds_carries_its_points_in_both_rule_sets(
    client: FlaskClient, url: str, result: str, points: str
) -> None:
    """data-pontos: 2 for a Mineiro hand won, 1 for a Paulista one, 0 for a void hand."""
    attrs = ruling(client, url)
    assert (attrs["data-resultado"], attrs["data-pontos"]) == (result, points)


# --- the whole hand ---------------------------------------------------------------------------


def test_a_mineiro_hand_without_calls_is_worth_two(client: FlaskClient) -> None:
    """Two rounds for Nós, nobody called: 2 points."""
    attrs = ruling(client, WHOLE + WON_TWO_ROUNDS)
    assert (attrs["data-resultado"], attrs["data-pontos"], attrs["data-rodadas"]) == (
        "nos",
        "2",
        "nos,nos",
    )


@pytest.mark.parametrize(
    ("calls", "points"),
    [
        ("1:truco,2:aceita", "4"),
        ("1:truco,2:seis,1:aceita", "6"),
        ("1:truco,2:seis,1:dez,2:aceita", "10"),
        ("1:truco,2:seis,1:dez,2:doze,1:aceita", "12"),
    ],
)
def test_a_mineiro_hand_won_after_each_accepted_call_scores_its_step(
    client: FlaskClient, calls: str, points: str
) -> None:
    """The ladder 4, 6, 10, 12: truco, seis, dez and doze accepted."""
    attrs = ruling(client, WHOLE + calls + "," + WON_TWO_ROUNDS)
    assert (attrs["data-resultado"], attrs["data-pontos"]) == ("nos", points)


@pytest.mark.parametrize(
    ("events", "side", "points"),
    [
        ("1:corre", "eles", "2"),
        ("1:truco,2:corre", "nos", "2"),
        ("1:truco,2:seis,1:corre", "eles", "4"),
        ("1:truco,2:seis,1:dez,2:corre", "nos", "6"),
        ("1:truco,2:seis,1:dez,2:doze,1:corre", "eles", "10"),
    ],
)
def test_running_at_each_mineiro_step_gives_the_value_before_the_call(
    client: FlaskClient, events: str, side: str, points: str
) -> None:
    """Running gives the other side what the hand was worth before the call."""
    attrs = ruling(client, WHOLE + events)
    assert (attrs["data-resultado"], attrs["data-pontos"], attrs["data-rodadas"]) == (
        side,
        points,
        "",
    )


def test_nove_is_no_mineiro_call(client: FlaskClient) -> None:
    """After seis, Mineiro asks dez: nove is refused at its event."""
    attrs = ruling(client, WHOLE + "1:truco,2:seis,1:nove")
    assert attrs["data-resultado"] == "invalido" and attrs["data-evento"] == "3"


def test_the_buttons_offer_the_mineiro_words_and_values(client: FlaskClient) -> None:
    """After seis the caller's side may say dez (worth 10), never nove."""
    html = page(client, WHOLE + "1:truco,2:seis")
    found = hooks(html)
    assert "diz-1-dez" in found and "diz-1-nove" not in found
    assert "Dez!" in html and "vale 10 pontos" in html
    first = page(client, WHOLE)
    assert "vale 4 pontos" in first


def test_the_mao_de_dez_played_and_won_scores_four(client: FlaskClient) -> None:
    """especial=dez-nos: Nós play it and win, 4 points."""
    url = WHOLE.replace("eventos=", "especial=dez-nos&eventos=") + "1:aceita," + WON_TWO_ROUNDS
    attrs = ruling(client, url)
    assert (attrs["data-resultado"], attrs["data-pontos"]) == ("nos", "4")


def test_running_from_the_mao_de_dez_gives_two(client: FlaskClient) -> None:
    """The side at ten runs before playing: the others score 2."""
    url = WHOLE.replace("eventos=", "especial=dez-nos&eventos=") + "1:corre"
    attrs = ruling(client, url)
    assert (attrs["data-resultado"], attrs["data-pontos"]) == ("eles", "2")


def test_the_mao_de_dez_of_eles_is_theirs_to_decide(client: FlaskClient) -> None:
    """especial=dez-eles: the page says mão de dez and Eles decide."""
    html = page(client, WHOLE.replace("eventos=", "especial=dez-eles&eventos="))
    assert "mão de dez" in html and "diz-2-corre" in hooks(html)


def test_onze_is_no_mineiro_special_hand(client: FlaskClient) -> None:
    """especial=onze-nos is Paulista's: refused in Mineiro, naming the dez."""
    html = page(client, WHOLE.replace("eventos=", "especial=onze-nos&eventos="))
    assert verdict(html)["data-resultado"] == "invalido"
    assert "especial=dez-nos" in text_of(html, "explicacao")


def test_the_mineiro_mao_de_ferro_takes_no_call(client: FlaskClient) -> None:
    """especial=ferro: no truco; played, the winner's verdict is the ferro's."""
    base = WHOLE.replace("eventos=", "especial=ferro&eventos=")
    refused = ruling(client, base + "1:truco")
    assert refused["data-resultado"] == "invalido" and refused["data-evento"] == "1"
    won = ruling(client, base + WON_TWO_ROUNDS)
    assert (won["data-resultado"], won["data-pontos"]) == ("nos", "2")


def test_3x3_seats_alternate_nos_and_eles(client: FlaskClient) -> None:
    """Seats 1, 3, 5 are Nós and 2, 4, 6 Eles; the round goes to the 6th seat's side."""
    url = WHOLE.replace("jogadores=2", "jogadores=6") + "1:3p,2:2c,3:Kp,4:Ko,5:Qp,6:4p"
    html = page(client, url)
    assert verdict(html)["data-resultado"] == "indecisa"
    row = text_of(html, "rodada-1", "li")
    assert row.startswith("1ª: Eles")
    names = re.findall(r'class="jz-put-name">([^<]+)<', html)
    assert names[:6] == ["Nós 1", "Eles 1", "Nós 2", "Eles 2", "Nós 3", "Eles 3"]


def test_in_3x3_the_round_winner_opens_the_next(client: FlaskClient) -> None:
    """Seat 6 took the first round: it is seat 6's turn, and seat 1 may not play."""
    url = WHOLE.replace("jogadores=2", "jogadores=6") + "1:3p,2:2c,3:Kp,4:Ko,5:Qp,6:4p,1:Ac"
    attrs = ruling(client, url)
    assert attrs["data-resultado"] == "invalido" and attrs["data-evento"] == "7"


# --- the rule book and the links --------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        WHOLE + "1:truco,2:seis,1:dez,2:corre",
        WHOLE + "1:truco,2:seis,1:nove",
        WHOLE.replace("eventos=", "especial=dez-nos&eventos=") + "1:corre",
        "/juiz/rodada?variante=mineiro&jogadores=2&jogadas=3c,4p",
        "/juiz/mao?variante=mineiro&rodadas=nos,eles,empate",
    ],
)
def test_every_mineiro_reason_links_the_mineiro_rule_book(client: FlaskClient, url: str) -> None:
    """Each reason (and a refusal) links a /regras/mineiro section, never Paulista's."""
    links = rule_links(page(client, url))
    assert links
    assert all(link.startswith(MINEIRO_BOOK) for link in links), links


def test_the_mao_de_dez_reason_links_its_section(client: FlaskClient) -> None:
    """Running from the mão de dez cites #mineiro-mao-de-dez."""
    url = WHOLE.replace("eventos=", "especial=dez-nos&eventos=") + "1:corre"
    assert "/regras/mineiro#mineiro-mao-de-dez" in rule_links(page(client, url))


@pytest.mark.parametrize(
    "url",
    [
        WHOLE + "1:truco,2:seis",
        "/juiz/rodada?variante=mineiro&jogadores=6&jogadas=3p",
        "/juiz/rodada?variante=mineiro&jogadores=2&jogadas=3c,4p",
        "/juiz/mao?variante=mineiro&jogadores=6&rodadas=nos",
    ],
)
def test_every_link_a_mineiro_page_builds_keeps_the_rule_set(client: FlaskClient, url: str) -> None:
    """Tabs, switches, cards, words and undo stay in Mineiro (except the switch to Paulista,
    which names it)."""
    html = page(client, url)
    links = own_links(html)
    paulista = [link for link in links if query_lists(link).get("variante") != ["mineiro"]]
    assert len(links) > 5
    assert len(paulista) == 1, paulista
    assert query_lists(paulista[0])["variante"] == ["paulista"]


def test_the_mineiro_share_link_keeps_the_rule_set(client: FlaskClient) -> None:
    """The link to share a Mineiro ruling reopens it under Mineiro."""
    html = page(client, WHOLE + "1:truco,2:corre")
    share = hooks(html)["compartilhar"][0]["href"]
    assert query_lists(share)["variante"] == ["mineiro"]
    again = ruling(
        client, urlsplit(share.replace("&amp;", "&"))._replace(scheme="", netloc="").geturl()
    )
    assert (again["data-resultado"], again["data-pontos"]) == ("nos", "2")


@pytest.mark.parametrize(
    "url",
    [
        "/juiz/rodada?vira=4o&jogadores=4&jogadas=3p",
        "/juiz/mao?jogadores=4&rodadas=nos",
        "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos=1:truco",
    ],
)
def test_paulista_links_stay_without_variante(client: FlaskClient, url: str) -> None:
    """A Paulista page's links never spell a rule set, except its rule-set switch (which names
    each: a juiz opened from a Mineiro table takes an unsaid one for the table's)."""
    links = own_links(page(client, url))
    queries = [query_lists(link) for link in links]
    said = sorted(query["variante"][0] for query in queries if "variante" in query)
    assert said == ["mineiro", "paulista"]


def test_the_verdict_points_to_the_mineiro_rule_book(client: FlaskClient) -> None:
    """'Cada motivo leva à regra no livro de regras': the Mineiro book under Mineiro."""
    html = page(client, WHOLE + "1:truco,2:corre")
    assert '<a href="/regras/mineiro">livro de regras</a>' in html
    paulista = page(client, "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos=1:truco,2:corre")
    assert '<a href="/regras">livro de regras</a>' in paulista


def test_a_mineiro_round_is_noted_on_a_mineiro_hand(client: FlaskClient) -> None:
    """'Anotar na mão' after a Mineiro round opens the hand under Mineiro (worth 2 once won)."""
    html = page(client, "/juiz/rodada?variante=mineiro&jogadores=2&jogadas=4p,3c")
    note = re.search(r'href="(/juiz/mao\?[^"]+)"[^>]*>Anotar na mão', html)
    assert note
    hand = note.group(1).replace("&amp;", "&")
    assert query_lists(hand)["variante"] == ["mineiro"]
    attrs = ruling(client, hand.replace("rodadas=nos", "rodadas=nos,nos"))
    assert (attrs["data-resultado"], attrs["data-pontos"]) == ("nos", "2")


@pytest.mark.parametrize("url", ["/juiz?variante=mineiro", "/juiz/rodada?variante=mineiro"])
def test_the_mineiro_reference_has_no_vira_table(client: FlaskClient, url: str) -> None:
    """No vira in Mineiro: the reference shows the fixed manilhas, not the vira table."""
    found = hooks(page(client, url))
    assert "fixas" in found and "tabela-vira" not in found
    assert "tabela-vira" in hooks(page(client, url.replace("variante=mineiro", "vira=4o")))
