"""The juiz's whole hand (`/juiz/mao?eventos=...`): the shareable verdict, hostile input, the
taps that build the hand (cards, calls, answers, undo) and applying a decided hand to the board.

With the vira 4 de ouros the manilhas are the 5s: 3 > 2 > A > K > J > Q > 7 > 6 > 4 below them.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import Code, Reason, Section, word

from .helpers import HX, open_table, records
from .test_juiz import hooks, revision_of, ruling, score, text_of, verdict

# Rulings come from the address; applying one is the board's write (test_board runs it on both
# engines).
pytestmark = pytest.mark.sqlite_only

HAND = "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos="
TRUCO_WON = "1:truco,2:aceita,1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"


def href(html: str, testid: str) -> str:
    """The link of the element with this test id, as the browser would follow it."""
    return hooks(html)[testid][0]["href"].replace("&amp;", "&").split("#")[0]


def events_of(url: str) -> str:
    """The `eventos` of a juiz link."""
    return parse_qs(urlsplit(url).query, keep_blank_values=True)["eventos"][0]


# --- the verdict's attributes -----------------------------------------------------------------


def test_a_hand_won_after_an_accepted_truco_scores_three(client: FlaskClient) -> None:
    """Two rounds for Nós after truco aceito: nos, 3 points, both rounds listed."""
    attrs = ruling(client, HAND + TRUCO_WON)
    assert attrs["data-resultado"] == "nos"
    assert attrs["data-pontos"] == "3"
    assert attrs["data-rodadas"] == "nos,nos"
    assert "data-evento" not in attrs


def test_running_from_the_seis_gives_the_three_the_truco_was_worth(client: FlaskClient) -> None:
    """/regras#correr: running from seis gives the side that asked the value before it."""
    attrs = ruling(client, HAND + "1:truco,2:seis,1:corre")
    said = (attrs["data-resultado"], attrs["data-pontos"], attrs["data-rodadas"])
    assert said == ("eles", "3", "")


def test_three_tied_rounds_void_the_hand_with_no_points(client: FlaskClient) -> None:
    """/regras#rodadas-e-empates: all three rounds tied, the hand is void and scores 0."""
    tied = "1:3p,2:3c,3:4p,4:4c,1:2p,2:2c,3:6p,4:6c,1:Ap,2:Ac,3:7p,4:7c"
    attrs = ruling(client, HAND + tied)
    assert attrs["data-resultado"] == "anulada"
    assert attrs["data-pontos"] == "0"
    assert attrs["data-rodadas"] == "empate,empate,empate"


def test_an_unfinished_hand_is_undecided_and_lists_its_finished_rounds(
    client: FlaskClient,
) -> None:
    """One round for Eles, the second under way: indecisa, 0 points, 'eles'."""
    attrs = ruling(client, HAND + "1:4p,2:3c,3:6p,4:7o,2:Ac")
    assert attrs["data-resultado"] == "indecisa"
    assert attrs["data-pontos"] == "0"
    assert attrs["data-rodadas"] == "eles"


def test_the_first_illegal_event_is_named_by_its_position(client: FlaskClient) -> None:
    """A card out of turn at event 2: invalido, data-evento=2, the rule in words, and the refusal
    links to the rule-book section it applies."""
    response = client.get(HAND + "1:3p,3:2c,2:Ac")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "invalido"
    assert attrs["data-evento"] == "2"
    assert attrs["data-pontos"] == "0"
    said = text_of(response.text, "explicacao")
    assert said.startswith("Jogada 2 (3:2c):")
    assert word(Reason(Code.CARD_OUT_OF_TURN, seat=3, other=2)) in said
    assert 'href="/regras#rodadas-e-empates"' in re.search(
        r'data-testid="explicacao">(.*?)</p>', response.text, re.S
    ).group(1)


def test_a_call_out_of_turn_is_refused_at_its_position(client: FlaskClient) -> None:
    """/regras#truco: only the seat whose turn it is may ask; Eles 1 asking first is event 1."""
    attrs = ruling(client, HAND + "2:truco")
    assert (attrs["data-resultado"], attrs["data-evento"]) == ("invalido", "1")


def test_any_opponent_may_answer_with_resposta_qualquer(client: FlaskClient) -> None:
    """/regras#truco: with the variant resposta=qualquer Eles 2 (seat 4) may accept Nós 1's
    truco; with the default only the next opponent, Eles 1, may."""
    events = "1:truco,4:aceita"
    assert ruling(client, HAND + events + "&resposta=qualquer")["data-resultado"] == "indecisa"
    default = ruling(client, HAND + events)
    assert (default["data-resultado"], default["data-evento"]) == ("invalido", "2")


@pytest.mark.parametrize(
    ("especial", "events", "result", "points"),
    [
        ("onze-nos", "1:corre", "eles", "1"),
        ("onze-nos", "1:aceita," + TRUCO_WON[len("1:truco,2:aceita,") :], "nos", "3"),
        ("ferro", TRUCO_WON[len("1:truco,2:aceita,") :], "nos", "1"),
    ],
)
def test_special_hands_score_as_the_rules_say(
    client: FlaskClient, especial: str, events: str, result: str, points: str
) -> None:
    """/regras#mao-de-onze and /regras#mao-de-ferro: running from one's onze gives the other
    side 1, a played onze is worth 3, a ferro 1."""
    attrs = ruling(client, HAND + events + f"&especial={especial}")
    assert (attrs["data-resultado"], attrs["data-pontos"]) == (result, points)


def test_no_truco_in_the_mao_de_ferro(client: FlaskClient) -> None:
    """/regras#mao-de-ferro: nobody asks for truco in the mão de ferro; the refusal is at
    event 1."""
    attrs = ruling(client, HAND + "1:truco&especial=ferro")
    assert (attrs["data-resultado"], attrs["data-evento"]) == ("invalido", "1")


def test_the_tie_opener_option_changes_who_opens_after_a_tie(client: FlaskClient) -> None:
    """/regras#rodadas-e-empates: after a tied first round the mão opens (the default); with
    the variant empate=primeira_empatada, the player of the first tying card (seat 2 here)
    does."""
    tied = "1:4p,2:3c,3:3e,4:6o"
    assert ruling(client, HAND + tied + ",1:2p")["data-resultado"] == "indecisa"
    refused = ruling(client, HAND + tied + ",1:2p&empate=primeira_empatada")
    assert (refused["data-resultado"], refused["data-evento"]) == ("invalido", "5")
    assert ruling(client, HAND + tied + ",2:2p&empate=primeira_empatada")["data-rodadas"] == (
        "empate"
    )


def test_manilha_fixa_needs_no_vira_and_limpo_has_no_four(client: FlaskClient) -> None:
    """manilhas=fixa plays without a vira; in the limpo deck a 4 is no card."""
    fixed = "/juiz/mao?jogadores=2&manilhas=fixa&eventos=1:4p,2:3c,1:7c,2:2c"
    assert ruling(client, fixed)["data-resultado"] == "nos"
    limpo = ruling(client, "/juiz/mao?vira=Ko&jogadores=2&baralho=limpo&eventos=1:4p")
    assert (limpo["data-resultado"], limpo["data-evento"]) == ("invalido", "1")


def test_the_share_link_reproduces_the_ruling_in_canonical_text(client: FlaskClient) -> None:
    """Cards typed '3P' or 'x' come back canonical; the link gives the same verdict."""
    response = client.get(HAND + "1:3P,2:2c,3:Ae,4:Ko,1:TRUCO,2:aceita,1:x")
    share = hooks(response.text)["compartilhar"][0]["href"]
    assert share.startswith("http")
    assert "eventos=1:3p,2:2c,3:Ae,4:Ko,1:truco,2:aceita,1:X" in share.replace("%3A", ":").replace(
        "%2C", ","
    )
    assert ruling(client, share) == verdict(response.text)


def test_the_old_hand_format_is_unchanged_without_eventos(client: FlaskClient) -> None:
    """Without `eventos`, /juiz/mao still rules from round results (a simple hand: 1 point)."""
    attrs = ruling(client, "/juiz/mao?rodadas=nos,empate")
    assert attrs["data-resultado"] == "nos" and attrs["data-pontos"] == "1"


# --- hostile input ---------------------------------------------------------------------------

HOSTILE = [
    HAND + "1:99",
    HAND + "1:8p",
    HAND + "7:3p",
    HAND + "0:3p",
    HAND + "x:3p",
    HAND + "1:",
    HAND + ",,,",
    HAND + "1:banana",
    HAND + "1:X:",
    HAND + "1:X:zz",
    HAND + "-1:3p",
    HAND + "1:3p," * 60,
    HAND + "1" * 2000,
    HAND + quote("1:3p\x00,2:<script>"),
    "/juiz/mao?vira=banana&eventos=1:3p",
    "/juiz/mao?vira=4o&jogadores=3&eventos=1:3p",
    "/juiz/mao?vira=4o&mao=9&eventos=1:3p",
    "/juiz/mao?vira=4o&mao=um&eventos=",
    "/juiz/mao?vira=4o&resposta=talvez&eventos=",
    "/juiz/mao?vira=4o&especial=onze&eventos=",
    "/juiz/mao?vira=4o&baralho=novo&eventos=",
    "/juiz/mao?vira=4o&manilhas=fixa&eventos=1:3p",
    "/juiz/mao?eventos=1:3p",
]


@pytest.mark.parametrize("url", HOSTILE)
def test_impossible_input_is_explained_in_portuguese_never_a_500(
    client: FlaskClient, url: str
) -> None:
    """Garbage in any parameter answers 200, invalido, with a refusal to read."""
    response = client.get(url)
    assert response.status_code == 200
    assert verdict(response.text)["data-resultado"] == "invalido"
    assert text_of(response.text, "explicacao")
    assert "<script>" not in response.text.split("</head>")[1]


def test_a_bad_card_is_refused_at_its_event(client: FlaskClient) -> None:
    """A card that is no card is refused where it stands, in the rules' words."""
    response = client.get(HAND + "1:3p,2:8c")
    assert verdict(response.text)["data-evento"] == "2"
    assert "Carta inválida" in text_of(response.text, "explicacao")


# --- building the hand by tapping ------------------------------------------------------------


def test_the_mode_starts_with_the_vira_then_the_mao_s_card(client: FlaskClient) -> None:
    """'Mão inteira' from the juiz's home asks for the vira, then for Nós 1's card; the vira is
    greyed out in the grid."""
    home = client.get("/juiz").text
    start = client.get(href(home, "juiz-mao-inteira")).text.replace("&amp;", "&")
    assert "Toque a vira" in text_of(start, "falta")
    picked = client.get(re.search(r'href="([^"]+)#jz-mesa"[^>]*data-carta="4o"', start).group(1))
    html = picked.text
    assert "Toque a carta de Nós 1" in text_of(html, "falta")
    assert re.search(r'class="jz-cell used[^"]*"[^>]*data-carta="4o"', html)


def test_each_tap_adds_one_event_and_the_played_card_is_greyed(client: FlaskClient) -> None:
    """Tapping 3♣ adds '1:3p'; the next page offers Eles 1's card and shows 3♣ used."""
    html = client.get(HAND).text.replace("&amp;", "&")
    tap = re.search(r'href="([^"]+)#jz-mesa"[^>]*data-carta="3p"', html).group(1)
    assert events_of(tap) == "1:3p"
    after = client.get(tap).text
    assert "Toque a carta de Eles 1" in text_of(after, "falta")
    assert re.search(r'class="jz-cell used[^"]*"[^>]*data-carta="3p"', after)
    assert not re.search(r'<a class="jz-cell[^"]*"[^>]*data-carta="3p"', after)


def test_calls_are_buttons_of_the_seat_that_may_say_them(client: FlaskClient) -> None:
    """At the start Nós 1 may ask for truco or run (giving Eles 1 point); after the truco only
    Eles 1 answers, and no card may be tapped while it waits (the grid stays, greyed)."""
    html = client.get(HAND).text
    said = sorted(k for k in hooks(html) if k.startswith("diz-"))
    assert said == ["diz-1-corre", "diz-1-truco"]
    assert "1 ponto para Eles" in text_of(html, "diz-1-corre", "a")
    waiting = client.get(href(html, "diz-1-truco")).text
    assert sorted(k for k in hooks(waiting) if k.startswith("diz-")) == [
        "diz-2-aceita",
        "diz-2-corre",
        "diz-2-seis",
    ]
    assert "1 ponto para Nós" in text_of(waiting, "diz-2-corre", "a")
    assert "cartas" in hooks(waiting) and "<a class=\"jz-cell" not in waiting
    assert "responde Eles 1" in text_of(waiting, "situacao", "section")


def test_the_situation_says_whose_turn_and_what_the_hand_is_worth(client: FlaskClient) -> None:
    """After truco aceito: Nós 1's turn, the hand worth 3 points."""
    now = text_of(client.get(HAND + "1:truco,2:aceita").text, "situacao", "section")
    assert "Vez de Nós 1" in now and "A mão vale 3 pontos" in now


def test_the_mao_de_onze_is_decided_before_any_card_can_be_tapped(client: FlaskClient) -> None:
    """/regras#mao-de-onze: at the start of a mão de onze only the side at eleven speaks (Joga or
    Corre), no card is a link, and the situation names the pair that decides."""
    html = client.get(HAND + "&especial=onze-eles").text
    assert sorted(k for k in hooks(html) if k.startswith("diz-")) == ["diz-2-aceita", "diz-2-corre"]
    assert '<a class="jz-cell' not in html and "cartas" in hooks(html)
    now = text_of(html, "situacao", "section")
    assert now.startswith("Decidem: Eles 1 e Eles 2.") and "quem diz é Eles 1" in now
    assert "antes da decisão da mão de onze" in text_of(html, "falta")
    assert "3 de paus (espere a decisão da mão de onze)" in html
    played = client.get(href(html, "diz-2-aceita")).text
    assert re.search(r'<a class="jz-cell[^"]*"[^>]*data-carta="3p"', played)
    assert "Vez de Nós 1" in text_of(played, "situacao", "section")


def test_a_card_before_the_mao_de_onze_decision_is_refused_with_the_rule(
    client: FlaskClient,
) -> None:
    """/regras#mao-de-onze: a card typed into the link before the decision is refused at event
    1, in Portuguese, linked to the rule book's section; it never counts as the side playing."""
    html = client.get(HAND + "1:3p&especial=onze-eles").text
    attrs = verdict(html)
    assert (attrs["data-resultado"], attrs["data-evento"]) == ("invalido", "1")
    refusal = re.search(r'data-testid="explicacao"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert 'href="/regras#mao-de-onze"' in refusal
    assert "antes da decisão ninguém joga carta nem corre" in refusal


def test_decide_names_one_player_in_1x1(client: FlaskClient) -> None:
    """/regras#mao-de-onze: in 1x1 the one player at eleven decides: 'Decide: Nós 1'."""
    html = client.get("/juiz/mao?vira=4o&jogadores=2&mao=2&especial=onze-nos&eventos=").text
    assert text_of(html, "situacao", "section").startswith("Decide: Nós 1.")


def test_the_drawing_keeps_the_cards_of_the_round_a_hand_ended_in(client: FlaskClient) -> None:
    """A hand decided mid-round (Nós 2 runs in round 2) still draws that round's cards: 2♣ and
    A♥ stay on the table, beside round 1's four."""
    html = client.get(HAND + "1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:corre").text
    assert verdict(html)["data-resultado"] == "eles"
    second = re.search(r'data-testid="rodada-2"(.*?)</ol>', html, re.S).group(1)
    assert re.findall(r'title="([^"]+)"', second) == ["2 de paus", "ás (A) de copas"]
    first = re.search(r'data-testid="rodada-1"(.*?)</ol>', html, re.S).group(1)
    assert len(re.findall(r'class="jz-card [^"]*jz-mini', first)) == 4
    assert "current" not in second


def test_desfazer_removes_the_last_event_only(client: FlaskClient) -> None:
    """'Desfazer último' goes back one event; on an empty hand it takes back the vira."""
    html = client.get(HAND + "1:truco,2:aceita,1:3p").text
    assert events_of(href(html, "desfazer")) == "1:truco,2:aceita"
    empty = client.get(HAND).text
    back = href(empty, "desfazer")
    assert "vira=" not in back and events_of(back) == ""


def test_an_illegal_event_offers_to_go_back_before_it(client: FlaskClient) -> None:
    """After a refusal at event 2, one link keeps the events before it."""
    html = client.get(HAND + "1:3p,3:2c,2:Ac").text
    assert events_of(href(html, "cortar")) == "1:3p"


def test_a_tap_under_htmx_gets_the_region_only(client: FlaskClient) -> None:
    """An htmx tap answers the #juiz fragment, not the page."""
    response = client.get(HAND + "1:truco", headers=HX)
    assert response.text.lstrip().startswith('<div id="juiz"')
    assert "<html" not in response.text


def test_every_reason_links_to_its_rule_book_section(client: FlaskClient) -> None:
    """Each reason of the whole hand is a link to the section the engine names for it."""
    html = client.get(HAND + TRUCO_WON).text
    block = re.search(r'data-testid="motivos"[^>]*>(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    assert items and all('href="/regras#' in item for item in items)
    anchors = {re.search(r'href="/regras#([\w-]+)"', i).group(1) for i in items}
    assert Section.TRUCO.value in anchors and Section.PONTOS.value in anchors


# --- applying a decided hand to the board -----------------------------------------------------


def whole_form(html: str) -> dict[str, str]:
    """The hidden fields of the whole hand's apply form."""
    form = re.search(r'<form method="post" action="/juiz/mao/aplicar">(.*?)</form>', html, re.S)
    assert form, "no apply form"
    return dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))


def test_a_decided_hand_is_applied_in_one_tap_with_its_note(
    client: FlaskClient, app: Flask
) -> None:
    """Opened from a board, a hand won after truco aceito offers one button, +3; posting it
    records Nós +3 with 'truco aceito' and goes back to the board."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    html = client.get(HAND + TRUCO_WON).text
    assert "aplicar-mao" in hooks(html) and "+3" in text_of(html, "aplicar-mao", "button")
    form = whole_form(html)
    response = client.post("/juiz/mao/aplicar", data=form)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/m/{token}")
    assert score(app, token) == (3, 0)
    last = records(app, token)[-1]
    assert (last.side, last.points) == (0, 3)
    assert last.reason == "pelo juiz · truco aceito"


def test_running_from_the_seis_is_applied_with_its_note(client: FlaskClient, app: Flask) -> None:
    """Correram do seis: Eles +3 with the note 'correram do seis'."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    html = client.get(HAND + "1:truco,2:seis,1:corre").text
    assert client.post("/juiz/mao/aplicar", data=whole_form(html)).status_code == 303
    assert score(app, token) == (0, 3)
    assert records(app, token)[-1].reason == "pelo juiz · correram do seis"


def test_a_stale_revision_applies_nothing(client: FlaskClient, app: Flask) -> None:
    """A board changed since the page was drawn: 409, the page again with the message, nothing
    recorded."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    form = whole_form(client.get(HAND + TRUCO_WON).text)
    form["rev"] = str(revision_of(app, token) + 5)
    response = client.post("/juiz/mao/aplicar", data=form)
    assert response.status_code == 409
    assert "mensagem" in hooks(response.text)
    assert verdict(response.text)["data-resultado"] == "nos"
    assert score(app, token) == (0, 0)
    assert records(app, token) == []


def test_the_same_form_posted_twice_counts_once(client: FlaskClient, app: Flask) -> None:
    """A double tap: the second post carries the form's client id, as a tap's retry does, and
    goes back to the board recording nothing more."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    form = whole_form(client.get(HAND + TRUCO_WON).text)
    assert client.post("/juiz/mao/aplicar", data=form).status_code == 303
    assert client.post("/juiz/mao/aplicar", data=form).status_code == 303
    assert score(app, token) == (3, 0) and len(records(app, token)) == 1


def test_an_undecided_or_forged_hand_is_not_applied(client: FlaskClient, app: Flask) -> None:
    """No apply button while the hand goes on; a forged post of an unfinished or illegal hand is
    refused with 422 and records nothing."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    assert "aplicar-mao" not in hooks(client.get(HAND + "1:truco").text)
    form = whole_form(client.get(HAND + TRUCO_WON).text)
    for events in ("1:truco,2:aceita", "2:truco"):
        response = client.post("/juiz/mao/aplicar", data={**form, "eventos": events})
        assert response.status_code == 422
        assert "mensagem" in hooks(response.text)
    assert score(app, token) == (0, 0)


def test_a_hand_that_does_not_fit_the_board_says_why(client: FlaskClient, app: Flask) -> None:
    """A normal hand judged while the board is at a mão de onze: no button, the board's reason;
    the juiz opened from that board starts in its mão de onze."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    for points in (9, 1, 1):
        data = {"rev": str(revision_of(app, token)), "lado": "0", "pontos": str(points)}
        assert client.post("/juiz/aplicar", data=data).status_code == 303
    html = client.get(HAND + TRUCO_WON + "&especial=normal").text
    assert "aplicar-mao" not in hooks(html) and text_of(html, "aplicar-nota")
    start = client.get("/juiz/mao?vira=4o&eventos=").text
    assert "diz-1-aceita" in hooks(start)  # the side at eleven decides first


def test_applying_without_a_table_is_404(client: FlaskClient) -> None:
    """No table in the session: nothing to apply to."""
    response = client.post("/juiz/mao/aplicar", data={"rev": "1", "eventos": TRUCO_WON})
    assert response.status_code == 404


def test_the_whole_hand_page_shows_this_table_s_rules(client: FlaskClient) -> None:
    """Opened from a board, the page starts with 'Regras desta mesa'; on its own it does not."""
    assert "regras-desta-mesa" not in hooks(client.get(HAND).text)
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    for url in (HAND, "/juiz"):
        assert "regras-desta-mesa" in hooks(client.get(url).text)


# --- the rule book from every juiz page ------------------------------------------------------


def test_the_juiz_home_links_the_rule_book_and_the_whole_hand(client: FlaskClient) -> None:
    """/juiz offers the whole hand and the rule book beside the round and the hand."""
    found = hooks(client.get("/juiz").text)
    assert found["juiz-regras"][0]["href"] == "/regras"
    assert events_of(found["juiz-mao-inteira"][0]["href"].replace("&amp;", "&")) == ""


@pytest.mark.parametrize(
    "url",
    [
        "/juiz/rodada?vira=3o&jogadores=2&jogadas=4p,3c",
        "/juiz/rodada?vira=3o&jogadores=2&jogadas=3o,3c",
        "/juiz/mao?rodadas=nos,empate",
        "/juiz/mao?rodadas=eles,eles,nos",
    ],
)
def test_round_and_hand_reasons_link_their_rule_book_sections(
    client: FlaskClient, url: str
) -> None:
    """Every reason (or the refusal) of the round and hand rulings links to /regras#<section>."""
    html = client.get(url).text
    block = re.search(r'data-testid="(?:motivos|explicacao)"[^>]*>(.*?)</(?:ol|p)>', html, re.S)
    assert block
    items = re.findall(r"<li>(.*?)</li>", block.group(1), re.S) or [block.group(1)]
    sections = {s.value for s in Section}
    for item in items:
        anchor = re.search(r'href="/regras#([\w-]+)"', item)
        assert anchor and anchor.group(1) in sections, item


@pytest.mark.parametrize("url", ["/juiz/rodada?vira=3o", "/juiz/mao?rodadas=nos"])
def test_every_juiz_page_shows_this_table_s_rules(client: FlaskClient, url: str) -> None:
    """Opened from a board, the round and hand pages show 'Regras desta mesa' too."""
    assert "regras-desta-mesa" not in hooks(client.get(url).text)
    client.get(f"/m/{open_table(client)}/juiz")
    assert "regras-desta-mesa" in hooks(client.get(url).text)


def test_the_tabs_lead_to_the_whole_hand_keeping_the_vira(client: FlaskClient) -> None:
    """The round and hand pages have a 'Mão inteira' tab that keeps the vira."""
    for url in ("/juiz/rodada?vira=Jo", "/juiz/mao?rodadas=nos&vira=Jo"):
        html = client.get(url).text.replace("&amp;", "&")
        tab = re.search(r'<a href="([^"]+)">Mão inteira</a>', html)
        assert tab
        params = parse_qs(urlsplit(tab.group(1)).query, keep_blank_values=True)
        assert params["vira"] == ["Jo"] and params["eventos"] == [""]


def test_the_documented_example_is_a_hand_won_after_truco_aceito(client: FlaskClient) -> None:
    """The whole-hand URL docs/juiz-links.md documents rules as it says: Nós, 3 points,
    nos,nos."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "juiz-links.md"
    example = re.search(r"`(/juiz/mao\?vira=[^`]*eventos=[^`]*)`", doc.read_text(encoding="utf-8"))
    assert example
    attrs = ruling(client, example.group(1))
    assert (attrs["data-resultado"], attrs["data-pontos"], attrs["data-rodadas"]) == (
        "nos",
        "3",
        "nos,nos",
    )
