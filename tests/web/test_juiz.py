"""The juiz pages: round and hand rulings, refusals, shareable links, htmx fragments, apply."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.mesa import load_board
from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .helpers import open_table

# Rulings come from the address; applying one is the board's write (test_board runs it on both
# engines).
pytestmark = pytest.mark.sqlite_only

HX = {"HX-Request": "true"}


class _Elements(HTMLParser):
    """Collects the attributes of every element carrying a data-testid."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[dict[str, str]]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Remember elements with a test hook."""
        values = {k: v or "" for k, v in attrs}
        if "data-testid" in values:
            self.found.setdefault(values["data-testid"], []).append(values)


def hooks(html: str) -> dict[str, list[dict[str, str]]]:
    """Every element with a data-testid, by test id."""
    parser = _Elements()
    parser.feed(html)
    return parser.found


def verdict(html: str) -> dict[str, str]:
    """The attributes of the single ruling element."""
    found = hooks(html).get("veredito", [])
    assert len(found) == 1, f"expected one veredito, found {len(found)}"
    return found[0]


def text_of(html: str, testid: str, end: str = "p|ol|section") -> str:
    """The text inside the element with the given test id up to its end tag (tags stripped)."""
    match = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</({end})>', html, re.S)
    assert match, testid
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def ruling(client: FlaskClient, url: str) -> dict[str, str]:
    """GET a juiz URL (must answer 200) and return its ruling's attributes."""
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    return verdict(response.text)


def explanation(client: FlaskClient, url: str) -> str:
    """The refusal text of an invalid ruling."""
    response = client.get(url)
    assert response.status_code == 200
    assert verdict(response.text)["data-resultado"] == "invalido"
    return text_of(response.text, "explicacao")


def score(app: Flask, token: str) -> tuple[int, int]:
    """A table's score, read from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return load_board(mesa).state.points


def revision_of(app: Flask, token: str) -> int:
    """A table's current revision."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return mesa.revision


ROUND = "/juiz/rodada?"


# --- pages and links -------------------------------------------------------------------


def test_juiz_home_offers_both_rulings_and_the_vira_table(client: FlaskClient) -> None:
    """GET /juiz links the round and hand judges and shows vira -> manilha for both decks."""
    response = client.get("/juiz")
    assert response.status_code == 200
    found = hooks(response.text)
    assert found["juiz-rodada"][0]["href"].startswith("/juiz/rodada")
    assert found["juiz-mao"][0]["href"].startswith("/juiz/mao")
    assert "Baralho sujo" in response.text and "Baralho limpo" in response.text
    assert "css/juiz.css" in response.text


def test_home_page_nav_links_to_the_juiz(client: FlaskClient) -> None:
    """The home page's navigation reaches the juiz."""
    assert 'href="/juiz"' in client.get("/").text


def test_empty_round_asks_for_the_vira_with_a_tappable_card_grid(client: FlaskClient) -> None:
    """Without input there is no ruling yet: the page asks for the vira and offers 40 cards."""
    response = client.get("/juiz/rodada")
    assert response.status_code == 200
    assert "veredito" not in hooks(response.text)
    assert "vira" in text_of(response.text, "falta").lower()
    cards = re.findall(
        r'<a class="jz-cell[^"]*" href="([^"]+)"[^>]*data-carta="(\w+)"', response.text
    )
    assert len(cards) == 40
    href = dict((card, link) for link, card in cards)["3o"]
    assert parse_qs(urlsplit(href.replace("&amp;", "&")).query)["vira"] == ["3o"]


def test_tapping_cards_builds_the_round_and_marks_used_cards(client: FlaskClient) -> None:
    """After the vira and one play, the next player is asked and both cards render disabled."""
    response = client.get(ROUND + "vira=3o&jogadores=4&jogadas=4p")
    assert "veredito" not in hooks(response.text)
    assert "Eles 1" in text_of(response.text, "falta")
    used = re.findall(
        r'<span class="jz-cell used[^"]*" aria-disabled="true" data-carta="(\w+)"', response.text
    )
    assert sorted(used) == ["3o", "4p"]
    link = re.search(r'href="([^"]+)"[^>]*data-carta="2c"', response.text)
    assert link and "jogadas=4p,2c" in link.group(1)


def test_covered_button_is_offered_from_round_two_only(client: FlaskClient) -> None:
    """'Coberta' appends X to the plays from the second round on, never in the first."""
    first = client.get(ROUND + "vira=3o&rodada=1&jogadores=2&jogadas=4p")
    assert "coberta" not in hooks(first.text)
    second = client.get(ROUND + "vira=3o&rodada=2&jogadores=2&jogadas=4p")
    href = hooks(second.text)["coberta"][0]["href"]
    assert "jogadas=4p,X" in href
    assert ruling(client, href)["data-resultado"] == "vitoria"


def test_undo_link_removes_the_last_play(client: FlaskClient) -> None:
    """'Desfazer última' goes back to the round without its last play."""
    response = client.get(ROUND + "vira=3o&jogadores=2&jogadas=4p,3c")
    href = hooks(response.text)["desfazer"][0]["href"]
    query = parse_qs(urlsplit(href).query)
    assert query["jogadas"] == ["4p"]
    assert "veredito" not in hooks(client.get(href).text)


def test_htmx_request_gets_the_region_fragment_only(client: FlaskClient) -> None:
    """An htmx tap answers the #juiz region without the page around it; a plain GET the page."""
    url = ROUND + "vira=3o&jogadores=2&jogadas=4p,3c"
    fragment = client.get(url, headers=HX)
    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<div id="juiz"')
    assert "<html" not in fragment.text and "<header" not in fragment.text
    assert verdict(fragment.text)["data-resultado"] == "vitoria"
    page = client.get(url)
    assert "<html" in page.text and 'id="juiz"' in page.text
    restore = client.get(url, headers={**HX, "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text


def test_card_links_are_htmx_enhanced_and_work_without_javascript(client: FlaskClient) -> None:
    """Every tappable card is a real link carrying the same URL for the grid's one htmx handler
    (data-hx), inside a region that pushes URLs; no card sets up htmx of its own."""
    html = client.get(ROUND + "vira=3o&jogadores=2").text
    links = re.findall(r'<a class="jz-cell[^"]*" href="([^"]+)" data-hx="([^"]+)"', html)
    assert not re.search(r'<a class="jz-cell[^>]*hx-get', html)
    assert links and all(href == hx + "#jz-mesa" for href, hx in links)
    assert 'hx-push-url="true"' in html and 'hx-target="this"' in html


def test_players_are_named_as_at_the_table(client: FlaskClient) -> None:
    """Plays are named Nós 1, Eles 1, Nós 2, Eles 2; abre=eles starts with Eles 1."""
    html = client.get(ROUND + "vira=3o&jogadores=4").text
    assert re.findall(r'data-jogador="([^"]+)"', html) == [
        "Nós 1",
        "Eles 1",
        "Nós 2",
        "Eles 2",
    ]
    html = client.get(ROUND + "vira=3o&jogadores=4&abre=eles").text
    assert re.findall(r'data-jogador="([^"]+)"', html) == [
        "Eles 1",
        "Nós 2",
        "Eles 2",
        "Nós 1",
    ]


# --- round rulings ---------------------------------------------------------------------


def test_manilha_beats_a_three_in_1x1(client: FlaskClient) -> None:
    """Vira 3 makes the 4s manilhas: 4♣ (zap) beats 3♥; the ruling names card and position."""
    response = client.get(ROUND + "vira=3o&rodada=1&jogadores=2&jogadas=4p,3c")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "1"
    reasons = text_of(response.text, "motivos")
    assert "as manilhas são os 4" in reasons
    assert "4♣ (manilha) de Nós 1, 3♥ de Eles 1" in reasons
    assert "Carta vencedora" in response.text and "4 de paus" in response.text


def test_2x2_win_gives_the_position_of_the_winning_play(client: FlaskClient) -> None:
    """In 2x2 the strongest card's play is data-jogada, and the reasons explain why no tie."""
    response = client.get(ROUND + "vira=7o&jogadores=4&jogadas=3p,Qc,2e,Ae")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "2"
    assert "Rodada para Eles" in response.text
    assert "Não é empate" in text_of(response.text, "motivos")


def test_partners_with_the_two_strongest_equal_cards_win_without_a_tie(
    client: FlaskClient,
) -> None:
    """Two equal top cards of partners (plays 1 and 3) give the round to their pair."""
    response = client.get(ROUND + "vira=4o&jogadores=4&jogadas=3p,2c,3e,Ao")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "1"
    assert "são de parceiros" in text_of(response.text, "motivos")


def test_equal_top_cards_on_both_sides_tie_in_2x2(client: FlaskClient) -> None:
    """3♥ (Eles) and 3♠ (Nós) are the strongest: empate, and who opens next under the mão rule."""
    response = client.get(ROUND + "vira=4o&jogadores=4&jogadas=2p,3c,3e,Ao")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "empate" and "data-jogada" not in attrs
    reasons = text_of(response.text, "motivos")
    assert "dos dois lados" in reasons and "aberta pelo mão (Nós 1)" in reasons


def test_tie_opener_rule_can_be_the_first_tying_player(client: FlaskClient) -> None:
    """empate=primeira_empatada: the player of the first tying card opens the next round."""
    response = client.get(
        ROUND + "vira=4o&jogadores=4&jogadas=2p,3c,3e,Ao&empate=primeira_empatada"
    )
    assert verdict(response.text)["data-resultado"] == "empate"
    assert "primeira carta do empate (Eles 1)" in text_of(response.text, "motivos")


def test_mao_position_decides_who_opens_after_a_tie_in_later_rounds(client: FlaskClient) -> None:
    """In round 2 with mao=3 the mão (Nós 1) plays third, and opens the round after a tie."""
    response = client.get(ROUND + "vira=4o&rodada=2&jogadores=4&jogadas=2p,2c,X,X&mao=3")
    assert re.findall(r'data-jogador="([^"]+)"', response.text) == [
        "Nós 2",
        "Eles 2",
        "Nós 1",
        "Eles 1",
    ]
    assert verdict(response.text)["data-resultado"] == "empate"
    assert "aberta pelo mão (Nós 1)" in text_of(response.text, "motivos")


def test_covered_card_counts_nothing(client: FlaskClient) -> None:
    """A covered card, even a known manilha, loses to any open card."""
    response = client.get(ROUND + "vira=3o&rodada=2&jogadores=2&jogadas=X:4p,5c")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "2"
    reasons = text_of(response.text, "motivos")
    assert "Carta coberta não vale nada" in reasons
    assert "era 4♣ (uma manilha!)" in reasons


def test_all_covered_cards_tie(client: FlaskClient) -> None:
    """With no open card on the table the round is a tie."""
    response = client.get(ROUND + "vira=3o&rodada=3&jogadores=2&jogadas=X,X")
    assert verdict(response.text)["data-resultado"] == "empate"
    reasons = text_of(response.text, "motivos")
    assert "Nenhuma carta aberta" in reasons and "terceira rodada" in reasons


def test_manilha_fixa_needs_no_vira(client: FlaskClient) -> None:
    """With manilha fixa the 7♥ (copas) beats the A♠ (espadilha), no vira given."""
    response = client.get(ROUND + "manilhas=fixa&jogadores=2&jogadas=Ae,7c")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "2"
    assert "Manilha fixa" in text_of(response.text, "motivos")
    assert "pica-fumo" in text_of(response.text, "motivos")


def test_limpo_deck_wraps_vira_three_to_the_dama(client: FlaskClient) -> None:
    """Baralho limpo: vira 3 makes the damas manilhas, so Q♦ beats a 3."""
    response = client.get(ROUND + "baralho=limpo&vira=3o&jogadores=2&jogadas=3p,Qo")
    attrs = verdict(response.text)
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "2"
    assert "as damas (Q)" in text_of(response.text, "motivos")


def test_limpo_grid_offers_only_its_24_cards(client: FlaskClient) -> None:
    """The limpo deck's grid has no 4, 5, 6 or 7 to tap."""
    html = client.get(ROUND + "baralho=limpo&jogadores=2").text
    cards = re.findall(r'<a class="jz-cell[^"]*" href="[^"]+"[^>]*data-carta="(\w+)"', html)
    assert len(cards) == 24 and not any(c[0] in "4567" for c in cards)


# --- round refusals --------------------------------------------------------------------


# Each impossible round (the test id names the rule it breaks; /regras#cartas-e-manilhas,
# #carta-coberta and #rodadas-e-empates): the query, and the words its refusal must contain.
ROUND_REFUSALS = {
    "covered_card_in_round_one": (
        "vira=3o&rodada=1&jogadores=2&jogadas=X,3c",
        "coberta na primeira rodada",
    ),
    "the_vira_belongs_to_nobody": ("vira=3o&jogadores=2&jogadas=3o,3c", "jogou a vira"),
    "no_card_exists_twice": ("vira=3o&jogadores=2&jogadas=3c,3c", "aparece duas vezes"),
    "a_known_covered_face_counts_as_used": (
        "vira=3o&rodada=2&jogadores=2&jogadas=X:3c,3c",
        "aparece duas vezes",
    ),
    "a_card_outside_the_deck": (
        "baralho=limpo&vira=3o&jogadores=2&jogadas=5p,3c",
        "não existe no baralho limpo",
    ),
    "a_vira_outside_the_deck": ("baralho=limpo&vira=4o&jogadores=2", "não existe no baralho limpo"),
    "one_play_per_player": (
        "vira=3o&jogadores=2&jogadas=3c,2c,Ap",
        "Com 2 jogadores a rodada tem 2 jogadas",
    ),
    "manilha_fixa_has_no_vira": (
        "manilhas=fixa&vira=3o&jogadores=2&jogadas=3c,2c",
        "Com manilha fixa não há vira",
    ),
    "the_mao_opens_round_one": (
        "vira=3o&mao=2&jogadores=2&jogadas=3c,2c",
        "primeira rodada quem joga primeiro é o mão",
    ),
}


@pytest.mark.parametrize(("query", "said"), ROUND_REFUSALS.values(), ids=ROUND_REFUSALS.keys())
def test_an_impossible_round_is_refused_with_the_rule_it_breaks(
    client: FlaskClient, query: str, said: str
) -> None:
    """/regras#cartas-e-manilhas, #carta-coberta and #rodadas-e-empates: the ruling is
    'invalido' and its explanation names the rule the round breaks."""
    assert said in explanation(client, ROUND + query)


@pytest.mark.parametrize(
    "query",
    [
        "vira=9z",
        "vira=3o&jogadas=10p,3c",
        "vira=3o&jogadas=,,",
        "vira=3o&jogadas=4p,3c,2c,Ae,Ke,Je",
        "jogadores=7",
        "jogadores=abc&rodada=x&baralho=q",
        "rodada=0",
        "rodada=99999999999999999999",
        "baralho=novo",
        "manilhas=quebrada",
        "empate=sorteio",
        "abre=ninguem",
        "mao=9&rodada=2",
        "vira=" + "A" * 5000,
        "jogadas=" + "4p," * 3000,
        "vira=%00%ff&jogadas=%F0%9F%83%8F",
        "vira=3o&rodada=2&jogadores=2&jogadas=X:,X:zz",
    ],
)
def test_garbage_round_queries_are_explained_never_a_500(client: FlaskClient, query: str) -> None:
    """Any nonsense answers 200 with an invalid ruling and its explanation."""
    assert explanation(client, ROUND + query)


# --- hand rulings ----------------------------------------------------------------------


def test_two_rounds_won_take_the_hand(client: FlaskClient) -> None:
    """Nós won the first and second rounds."""
    response = client.get("/juiz/mao?rodadas=nos,nos")
    assert verdict(response.text)["data-resultado"] == "nos"
    assert "Quem faz duas rodadas leva a mão" in text_of(response.text, "motivos")


def test_tied_first_round_goes_to_the_winner_of_the_second(client: FlaskClient) -> None:
    """empate, eles: Eles take the hand."""
    assert ruling(client, "/juiz/mao?rodadas=empate,eles")["data-resultado"] == "eles"


def test_one_round_each_and_a_tied_third_goes_to_the_first_winner(client: FlaskClient) -> None:
    """nos, eles, empate: the winner of the first takes it."""
    assert ruling(client, "/juiz/mao?rodadas=nos,eles,empate")["data-resultado"] == "nos"


def test_three_tied_rounds_void_the_hand(client: FlaskClient) -> None:
    """All three tied: anulada."""
    response = client.get("/juiz/mao?rodadas=empate,empate,empate")
    assert verdict(response.text)["data-resultado"] == "anulada"
    assert "anulada" in text_of(response.text, "motivos")


def test_undecided_hand_says_which_round_comes_next(client: FlaskClient) -> None:
    """nos, eles: indecisa, the third round decides; buttons offer its result."""
    response = client.get("/juiz/mao?rodadas=nos,eles&jogadores=2")
    assert verdict(response.text)["data-resultado"] == "indecisa"
    assert "falta a terceira rodada" in response.text
    found = hooks(response.text)
    assert "rodadas=nos,eles,empate" in found["rodada-empate"][0]["href"]
    judge = found["julgar-rodada"][0]["href"]
    assert "rodada=3" in judge and "anteriores=nos,eles" in judge
    assert "abre=eles" in judge  # the winner of the last round opens the next


def test_empty_hand_is_undecided_with_round_one_next(client: FlaskClient) -> None:
    """With no result yet the hand is indecisa and the first round comes next."""
    response = client.get("/juiz/mao")
    assert verdict(response.text)["data-resultado"] == "indecisa"
    assert "falta a primeira rodada" in response.text


def test_a_round_after_the_hand_was_decided_is_refused(client: FlaskClient) -> None:
    """nos, nos, eles: no third round after a decided second."""
    response = client.get("/juiz/mao?rodadas=nos,nos,eles")
    assert verdict(response.text)["data-resultado"] == "invalido"
    assert "já estava decidida" in text_of(response.text, "explicacao")


@pytest.mark.parametrize(
    "query", ["rodadas=foo", "rodadas=nos,eles,nos,eles", "jogadores=3", "rodadas=" + "x," * 999]
)
def test_garbage_hand_queries_are_explained_never_a_500(client: FlaskClient, query: str) -> None:
    """Unknown results, too many rounds or bad player counts are invalid, with a reason."""
    response = client.get("/juiz/mao?" + query)
    assert response.status_code == 200
    assert verdict(response.text)["data-resultado"] == "invalido"
    assert text_of(response.text, "explicacao")


def test_round_ruling_links_to_the_hand_with_its_result(client: FlaskClient) -> None:
    """From round 2 opened by the hand page, 'anotar na mão' adds this round's result."""
    url = ROUND + "vira=3o&rodada=2&jogadores=2&anteriores=empate&jogadas=2p,3c"
    href = hooks(client.get(url).text)["anotar-mao"][0]["href"]
    assert "rodadas=empate,eles" in href
    assert ruling(client, href)["data-resultado"] == "eles"


# --- shareable URLs --------------------------------------------------------------------

SHARED = [
    ROUND + "vira=3o&rodada=2&jogadores=4&baralho=sujo&manilhas=variavel&jogadas=4p,X,3c,2o",
    ROUND + "vira=4o&jogadores=4&jogadas=2p,3c,3e,Ao&empate=primeira_empatada&abre=eles",
    ROUND + "manilhas=fixa&jogadores=2&jogadas=Ae,7c",
    ROUND + "baralho=limpo&vira=3o&jogadores=2&jogadas=5p,3c",
    ROUND + "vira=3o&rodada=3&jogadores=2&jogadas=X:4p,X",
    ROUND + "jogadores=banana",
    "/juiz/mao?rodadas=nos,empate,eles",
    "/juiz/mao?rodadas=empate,empate,empate&jogadores=2",
    "/juiz/mao?rodadas=nos,eles",
    "/juiz/mao?rodadas=nos,nos,eles",
]


@pytest.mark.parametrize("url", SHARED)
def test_share_link_reproduces_the_ruling(client: FlaskClient, url: str) -> None:
    """The ruling's share link, fetched, gives the same result (and winning play)."""
    response = client.get(url)
    attrs = verdict(response.text)
    share = hooks(response.text)["compartilhar"][0]["href"]
    assert share.startswith("http")
    again = ruling(client, share)
    assert again["data-resultado"] == attrs["data-resultado"]
    assert again.get("data-jogada") == attrs.get("data-jogada")


def test_share_link_uses_the_documented_format(client: FlaskClient) -> None:
    """The documented example comes back as its own share link, in the same order."""
    url = "vira=3o&rodada=2&jogadores=4&baralho=sujo&manilhas=variavel&jogadas=4p,X,3c,2o"
    share = hooks(client.get(ROUND + url).text)["compartilhar"][0]["href"]
    assert share.endswith("/juiz/rodada?" + url)


def test_no_juiz_address_or_link_carries_the_scorer_token(client: FlaskClient) -> None:
    """Opened from a board, the juiz keeps the table in the browser's session: the address it
    lands on, every link of its pages (the share link included) and its pages' text never
    hold the scorer's token, and the pages ask search engines to stay away."""
    token = open_table(client)
    opened = client.get(f"/m/{token}/juiz")
    assert opened.status_code == 303 and opened.headers["Location"] == "/juiz"
    for url in (
        "/juiz",
        ROUND + "vira=3o&jogadores=4&jogadas=4p,X,3c,2o&rodada=2",
        "/juiz/mao?rodadas=nos,nos",
    ):
        page = client.get(url)
        assert token not in page.text
        assert "noindex" in page.headers["X-Robots-Tag"]
    back = client.get("/juiz/placar")
    assert back.status_code == 303 and back.headers["Location"].endswith(f"/m/{token}")


def test_the_juiz_can_be_used_apart_from_the_table(client: FlaskClient) -> None:
    """'Usar sem a mesa' forgets the table: no apply section, the default names again."""
    token = open_table(client, time_a="Os Zapeiros")
    client.get(f"/m/{token}/juiz")
    assert "Os Zapeiros" in client.get("/juiz").text
    assert client.post("/juiz/sem-mesa").status_code == 303
    html = client.get("/juiz/mao?rodadas=nos,nos").text
    assert "Os Zapeiros" not in html
    assert not any(k.startswith("aplicar") for k in hooks(html))


def test_share_link_spells_cards_canonically(client: FlaskClient) -> None:
    """Cards typed as '3♦', '4P' or 'x' come back as Card.parse's canonical text."""
    response = client.get(ROUND + "vira=3%E2%99%A6&rodada=2&jogadores=2&jogadas=4P,x")
    assert verdict(response.text)["data-resultado"] == "vitoria"
    share = hooks(response.text)["compartilhar"][0]["href"]
    assert "vira=3o" in share and "jogadas=4p,X" in share
    assert ruling(client, share)["data-jogada"] == "1"


# --- opened from a board: defaults and "aplicar ao placar" -------------------------------


def test_table_settings_and_names_are_the_defaults(client: FlaskClient) -> None:
    """From a 1x1 limpo table with named players, the round uses its deck and names."""
    token = open_table(client, jogadores="2", baralho="limpo", jogador_0="Ana", jogador_1="Beto")
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get(ROUND).text
    assert re.findall(r'data-jogador="([^"]+)"', html) == ["Beto", "Ana"]
    cards = re.findall(r'<a class="jz-cell[^"]*" href="[^"]+"[^>]*data-carta="(\w+)"', html)
    assert len(cards) == 24
    assert 'class="on" aria-current="true">Limpo</a>' in html
    assert 'class="on" aria-current="true">1x1</a>' in html


def test_unknown_table_token_is_ignored(client: FlaskClient) -> None:
    """A wrong mesa= still judges, without the apply section."""
    response = client.get("/juiz/mao?rodadas=nos,nos&mesa=nao-existe")
    assert verdict(response.text)["data-resultado"] == "nos"
    assert "aplicar" not in hooks(response.text)


def test_hand_ruling_offers_the_legal_values_and_applies_three(
    client: FlaskClient, app: Flask
) -> None:
    """After 'Nós' take the hand, +1..+12 are offered; +3 lands on the board."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=nos,nos").text
    buttons = [k for k in hooks(html) if k.startswith("aplicar-")]
    assert sorted(buttons) == sorted(f"aplicar-{v}" for v in (1, 3, 6, 9, 12))
    rev = revision_of(app, token)
    response = client.post(
        "/juiz/aplicar", data={"rev": str(rev), "lado": "0", "pontos": "3"}
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/m/{token}")
    assert score(app, token) == (3, 0)
    board = client.get(f"/m/{token}")
    if board.status_code == 200 and 'data-testid="score-a"' in board.text:
        match = re.search(r'data-testid="score-a"[^>]*>\s*(\d+)', board.text)
        assert match and match.group(1) == "3"


def test_applying_with_a_stale_revision_is_refused_and_records_nothing(
    client: FlaskClient, app: Flask
) -> None:
    """The same revision twice: the second answers 409 with the message, the score unchanged."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    data = {
        "rev": str(revision_of(app, token)),
        "lado": "1",
        "pontos": "6",
        "rodadas": "eles,eles",
    }
    assert client.post("/juiz/aplicar", data=data).status_code == 303
    stale = client.post("/juiz/aplicar", data=data)
    assert stale.status_code == 409
    assert "O placar mudou em outro aparelho; confira." in stale.text
    assert verdict(stale.text)["data-resultado"] == "eles"
    assert score(app, token) == (0, 6)


def test_applying_an_illegal_value_is_refused_with_422(client: FlaskClient, app: Flask) -> None:
    """+4 is not a hand value: 422 with the rule, nothing recorded."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    data = {"rev": str(revision_of(app, token)), "lado": "0", "pontos": "4"}
    response = client.post("/juiz/aplicar", data=data)
    assert response.status_code == 422
    assert "1, 3, 6, 9 ou 12" in response.text
    assert score(app, token) == (0, 0)


def test_applying_to_an_unknown_table_is_404(client: FlaskClient) -> None:
    """No table, no write."""
    data = {"mesa": "nao-existe", "rev": "0", "lado": "0", "pontos": "3"}
    assert client.post("/juiz/aplicar", data=data).status_code == 404


def test_mao_de_onze_offers_only_its_own_outcome(client: FlaskClient, app: Flask) -> None:
    """At 11 x 0 a hand won by Nós is recorded as the mão de onze played and won (+3)."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    for points in (9, 1, 1):
        rev = revision_of(app, token)
        data = {"rev": str(rev), "lado": "0", "pontos": str(points)}
        assert client.post("/juiz/aplicar", data=data).status_code == 303
    html = client.get("/juiz/mao?rodadas=nos,nos").text
    found = hooks(html)
    assert "aplicar-onze" in found and "aplicar-3" not in found
    form = {"rev": str(revision_of(app, token)), "tipo": "onze_ganhou", "lado": "0"}
    assert client.post("/juiz/aplicar", data=form).status_code == 303
    assert score(app, token) == (12, 0)


def test_void_hand_can_be_applied_as_anulada(client: FlaskClient, app: Flask) -> None:
    """A void ruling offers 'mão anulada', which scores nothing but is recorded."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=empate,empate,empate").text
    assert "aplicar-anulada" in hooks(html)
    rev = revision_of(app, token)
    form = {"rev": str(rev), "tipo": "anulada"}
    assert client.post("/juiz/aplicar", data=form).status_code == 303
    assert score(app, token) == (0, 0) and revision_of(app, token) == rev + 1


def test_undecided_hand_offers_nothing_to_apply(client: FlaskClient) -> None:
    """Until the hand is decided there is nothing to record."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=nos").text
    assert not any(k.startswith("aplicar") for k in hooks(html))


# --- reference -------------------------------------------------------------------------


def test_reference_lists_the_manilhas_of_the_vira_with_their_names(client: FlaskClient) -> None:
    """Vira K: the aces are manilhas, zap to pica-fumo, and the ladder starts with them."""
    html = client.get(ROUND + "vira=Ko&jogadores=2").text
    block = text_of(html, "manilhas", "div")
    assert (
        block.index("zap")
        < block.index("copas")
        < block.index("espadilha")
        < block.index("pica-fumo")
    )
    assert "ás (A) de paus" in block
    ladder = re.search(r'data-testid="escada".*?</details>', html, re.S)
    assert ladder and ladder.group(0).count("<li") == 4 + 9


def test_reference_shows_the_fixed_manilhas_for_manilha_fixa(client: FlaskClient) -> None:
    """Manilha fixa: 4♣, 7♥, A♠, 7♦ are listed as the manilhas."""
    html = client.get(ROUND + "manilhas=fixa&jogadores=2").text
    block = text_of(html, "manilhas", "div")
    assert "Manilhas fixas" in html
    assert block.index("4 de paus") < block.index("7 de copas") < block.index("ás (A) de espadas")


def test_csp_safe_markup_has_no_inline_styles_or_scripts(client: FlaskClient) -> None:
    """No style= attributes and no inline script on the juiz pages."""
    for url in ("/juiz", ROUND + "vira=3o&jogadores=2&jogadas=4p,3c", "/juiz/mao?rodadas=nos"):
        html = client.get(url).text
        assert " style=" not in html
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)


@pytest.mark.parametrize("token", ["\x00", "a" * 65, "../../etc", "%00"])
def test_odd_table_tokens_are_ignored_or_404(client: FlaskClient, token: str) -> None:
    """Tokens that cannot be a table's never reach the database: opening the juiz from them is
    a 404, the juiz still judges on its own, and applying has no table (404)."""
    assert client.get(f"/m/{token}/juiz").status_code == 404
    response = client.get("/juiz/mao", query_string={"rodadas": "nos,nos", "mesa": token})
    assert verdict(response.text)["data-resultado"] == "nos"
    data = {"mesa": token, "rev": "0", "lado": "0", "pontos": "3"}
    assert client.post("/juiz/aplicar", data=data).status_code == 404


def test_an_absurd_revision_is_stale(client: FlaskClient, app: Flask) -> None:
    """A revision no table can have answers 409 and records nothing."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    for rev in ("-1", "9" * 40):
        data = {"rev": rev, "lado": "0", "pontos": "3"}
        assert client.post("/juiz/aplicar", data=data).status_code == 409
    bad = client.post("/juiz/aplicar", data={"rev": "x", "lado": "0", "pontos": "3"})
    assert bad.status_code == 422
    assert score(app, token) == (0, 0)
