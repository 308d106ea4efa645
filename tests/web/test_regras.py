"""The rule book (/regras): a numbered section per rule at its Section's anchor, every reason
pointing at one of them, the variants marked where they change a rule, and 'Regras desta mesa'
when the juiz was opened from a board; its Truco Mineiro page (/regras/mineiro), each rule that
differs from Paulista marked and linked to the Paulista one, its sources named."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.mesa.house_rules import TITLE, house_rules
from scorekeeper.rules import Bet, Code, Reason, Section, Special, Word
from scorekeeper.rules.sections import MineiroSection
from scorekeeper.web.common.session import JUIZ_TABLE
from scorekeeper.web.regras import SECTIONS, section_number, section_url

from .helpers import open_table

# The rule book is text (a table is only read for its house rules): no engine matters.
pytestmark = pytest.mark.sqlite_only

STATIC = Path(__file__).resolve().parents[2] / "static"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Input that is no event at all: no rule applies, so no section (see reasons.py).
NO_RULE = {Code.EVENT_FORMAT, Code.UNKNOWN_WORD, Code.NO_SUCH_SIDE}
# Each variant the rule book marks, and the sections where it changes a rule.
VARIANTS = {
    "baralho-sujo": {Section.CARTAS},
    "baralho-limpo": {Section.CARTAS},
    "manilha-variavel": {Section.CARTAS},
    "manilha-fixa": {Section.CARTAS},
    "jogadores-4": {Section.RODADAS},
    "jogadores-2": {Section.RODADAS},
    "jogadores-6": {Section.RODADAS},
    "empate-mao": {Section.RODADAS},
    "empate-primeira_empatada": {Section.RODADAS},
    "resposta-proximo": {Section.TRUCO, Section.ONZE},
    "resposta-qualquer": {Section.TRUCO, Section.ONZE},
    "mao-de-onze": {Section.ONZE, Section.FERRO},
    "mao-de-dez": {Section.ONZE, Section.FERRO},
    "ferro-cegas": {Section.FERRO},
    "ferro-claras": {Section.FERRO},
    "ferro-escuro": {Section.FERRO},
    "serie-0": {Section.PONTOS},
    "serie-3": {Section.PONTOS},
    "serie-5": {Section.PONTOS},
}
# A table with every option away from its default.
HOUSE_FORM = {
    "time_a": "Os Zapeiros",
    "time_b": "Pica-Fumos",
    "jogadores": "2",
    "baralho": "limpo",
    "manilhas": "fixa",
    "empate": "primeira_empatada",
    "ferro": "escuro",
    "mao_especial": "10",
    "serie": "melhor_de_3",
}


@dataclass
class Node:
    """An element of the page: its tag, attributes, children and text."""

    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    parts: list[str | Node] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Its text and its descendants', spaces squeezed."""
        return " ".join("".join(self._texts()).split())

    def _texts(self) -> list[str]:
        """Every piece of text inside, in order (children's text kept where they stand)."""
        out: list[str] = []
        for part in self.parts:
            out.extend(part._texts() if isinstance(part, Node) else [part])
        return out

    def walk(self) -> list[Node]:
        """This element and every element inside it, in document order."""
        found = [self]
        for child in self.children:
            found.extend(child.walk())
        return found

    def ancestor(self, tag: str) -> Node | None:
        """The nearest enclosing element with this tag."""
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node


class _Tree(HTMLParser):
    """A small element tree of a page (enough for headings, ids, links and marks)."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Node("document", {})
        self.open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open an element (void elements close at once)."""
        node = Node(tag, {k: v or "" for k, v in attrs}, self.open)
        self.open.children.append(node)
        self.open.parts.append(node)
        if tag not in VOID:
            self.open = node

    def handle_endtag(self, tag: str) -> None:
        """Close the innermost open element of this tag."""
        node: Node | None = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.open = node.parent

    def handle_data(self, data: str) -> None:
        """Text goes to the open element."""
        self.open.parts.append(data)


def tree(html: str) -> Node:
    """The page as a tree."""
    parser = _Tree()
    parser.feed(html)
    return parser.root


def elements(html: str) -> list[Node]:
    """Every element of a page."""
    return tree(html).walk()


def sections(html: str) -> list[Node]:
    """The rule book's sections, in page order."""
    return [n for n in elements(html) if n.tag == "section" and "regra" in n.attrs.get("class", "")]


def heading(section: Node) -> str:
    """A section's h2 text."""
    return next(n for n in section.walk() if n.tag == "h2").text


def variant_marks(html: str) -> dict[str, set[str]]:
    """Each marked variant and the anchors of the sections it is marked in."""
    marks: dict[str, set[str]] = {}
    for node in elements(html):
        if "data-variante" in node.attrs:
            section = node.ancestor("section")
            assert section is not None, node.attrs
            marks.setdefault(node.attrs["data-variante"], set()).add(section.attrs.get("id", ""))
    return marks


def chosen_marks(html: str) -> set[str]:
    """The variants marked 'nesta mesa'."""
    return {
        n.attrs["data-variante"]
        for n in elements(html)
        if "data-variante" in n.attrs and "nesta mesa" in n.text
    }


def house_lines(html: str) -> list[Node]:
    """The lines of 'Regras desta mesa'."""
    return [n for n in elements(html) if "data-regra" in n.attrs]


def attach(client: FlaskClient, **form: str) -> str:
    """Open a table and open the juiz from its board, as the board's Juiz link does."""
    token = open_table(client, **form)
    response = client.get(f"/m/{token}/juiz")
    assert response.status_code == 303
    return token


def rule_book(client: FlaskClient) -> str:
    """GET /regras; it must answer 200."""
    response = client.get("/regras")
    assert response.status_code == 200, response.text[:300]
    return response.text


# --- sections and anchors ------------------------------------------------------------------


def test_every_section_has_exactly_one_anchor_on_the_page(client: FlaskClient) -> None:
    """Each Section's value is the id of exactly one element: /regras#<anchor> lands there."""
    ids = [n.attrs["id"] for n in elements(rule_book(client)) if "id" in n.attrs]
    for section in Section:
        assert ids.count(section.value) == 1, section


def test_sections_are_numbered_in_order_and_headed_by_their_titles(client: FlaskClient) -> None:
    """The sections follow the enum's order, each headed '<n>. <title>'."""
    found = sections(rule_book(client))
    assert [s.attrs["id"] for s in found] == [section.value for section in Section]
    for number, (node, section) in enumerate(zip(found, Section, strict=True), start=1):
        assert heading(node) == f"{number}. {section.title}"
        assert section_number(section) == number
        assert len(node.text) > len(heading(node)) + 100, f"section {section} says nothing"


def test_headings_go_down_one_level_at_a_time(client: FlaskClient) -> None:
    """One h1, then h2s and no level skipped (what screen readers and Lighthouse check)."""
    levels = [int(n.tag[1]) for n in elements(rule_book(client)) if re.fullmatch(r"h[1-6]", n.tag)]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(after <= before + 1 for before, after in zip(levels, levels[1:], strict=False))


def test_every_reason_code_names_a_section_on_the_page(client: FlaskClient) -> None:
    """Every structured reason (each code, and the special-hand ones in each kind of hand) maps
    to a section the page has; only input that is no event has none."""
    anchors = {s.attrs["id"] for s in sections(rule_book(client))}
    for code in Code:
        for special in (None, *Special):
            section = Reason(code, special=special).section
            if code in NO_RULE:
                assert section is None, code
            else:
                assert section is not None and section.value in anchors, (code, special)


def test_a_special_hand_reason_points_to_its_own_section() -> None:
    """'No truco' in the mão de ferro cites the mão de ferro, in the mão de onze the mão de onze."""
    assert Reason(Code.NO_CALL_IN_SPECIAL, special=Special.FERRO).section is Section.FERRO
    assert Reason(Code.NO_CALL_IN_SPECIAL, special=Special.ONZE_ELES).section is Section.ONZE
    assert Reason(Code.HAND_STARTS, special=Special.NORMAL).section is Section.PONTOS


def test_rule_url_is_the_rule_books_address_with_the_sections_anchor(app: Flask) -> None:
    """The helper the juiz links reasons with: '/regras#<anchor>', and nothing for no section."""
    with app.test_request_context():
        assert section_url(Section.TRUCO) == "/regras#truco"
        assert section_url(Section.ONZE) == "/regras#mao-de-onze"
        assert section_url(None) is None
        assert [section_url(s) for s in SECTIONS] == [f"/regras#{s.value}" for s in Section]
    rendered = app.jinja_env.from_string("{{ rule_url(s) }} {{ rule_number(s) }}")
    with app.test_request_context():
        assert rendered.render(s=Section.CORRER) == "/regras#correr 5"


def test_the_contents_and_every_in_page_link_land_on_an_anchor(client: FlaskClient) -> None:
    """The contents list links every section, and no '#...' link on the page points nowhere."""
    found = elements(rule_book(client))
    ids = {n.attrs["id"] for n in found if "id" in n.attrs}
    local = [n.attrs["href"][1:] for n in found if n.attrs.get("href", "").startswith("#")]
    assert {s.value for s in Section} <= set(local)
    assert set(local) <= ids


# --- the rules it states ------------------------------------------------------------------


def test_the_table_of_calls_says_what_the_engine_scores(client: FlaskClient) -> None:
    """Each call's row: what the hand is worth if accepted, what the asker scores if they run,
    as Bet computes them."""
    rows = {
        n.attrs["data-pedido"]: [c.text for c in n.children if c.tag == "td"]
        for n in elements(rule_book(client))
        if "data-pedido" in n.attrs
    }
    bet = Bet.start()
    for turn, word in enumerate((Word.TRUCO, Word.SEIS, Word.NOVE, Word.DOZE)):
        asker = turn % 2  # after an accepted call only the side that accepted asks next
        asked = bet.ask(asker, word)
        ran = asked.run(1 - asker)
        assert rows[word.value] == [str(word.asks), str(ran.points)], word
        assert ran.side == asker
        bet = asked.accept(1 - asker)
        assert bet.worth == word.asks


def test_the_tie_rules_are_stated_in_rounds_and_ties(client: FlaskClient) -> None:
    """Rodadas e empates states each tie case (docs/rules-sources.md: the texts agree on
    them), the void hand included."""
    text = next(s for s in sections(rule_book(client)) if s.attrs["id"] == Section.RODADAS.value)
    for case in (
        "empatou a primeira: quem ganhar a segunda leva a mão",
        "ganhou a primeira e empatou a segunda: leva quem ganhou a primeira",
        "empataram a primeira e a segunda: a terceira decide",
        "uma rodada para cada lado e empatou a terceira: leva quem ganhou a primeira",
        "empataram as três: a mão é anulada e ninguém marca pontos",
    ):
        assert case in text.text


# --- variants ------------------------------------------------------------------------------


def test_each_variant_is_marked_in_the_sections_it_changes(client: FlaskClient) -> None:
    """Deck, manilhas, tie opener, players, who answers, mão de dez, the three ferro modes and
    the series are marked, each in the sections whose rule it changes, and only there."""
    marks = variant_marks(rule_book(client))
    assert marks == {
        variant: {section.value for section in where} for variant, where in VARIANTS.items()
    }


def test_each_variant_box_names_its_default_first(client: FlaskClient) -> None:
    """In each box of choices the first one is the default, '(padrão)', and only it."""
    boxes = [n for n in elements(rule_book(client)) if n.attrs.get("class") == "variante"]
    named = set()
    for box in boxes:
        choices = [n for n in box.walk() if "data-variante" in n.attrs]
        named |= {c.attrs["data-variante"] for c in choices}
        assert len(choices) >= 2
        assert ["(padrão)" in c.text for c in choices] == [True] + [False] * (len(choices) - 1)
    assert named == set(VARIANTS)


def test_every_option_of_a_table_is_a_marked_variant(client: FlaskClient) -> None:
    """What 'Regras desta mesa' names for any table the form can open is a variant the rule
    book marks, in the section the line links to."""
    marks = variant_marks(rule_book(client))
    for players in (2, 4):
        for deck in ("sujo", "limpo"):
            for manilhas in ("variavel", "fixa"):
                for tie in ("mao", "primeira_empatada"):
                    for ferro in ("cegas", "claras", "escuro"):
                        for special_at in (10, 11):
                            for best_of in (0, 3, 5):
                                settings = SimpleNamespace(
                                    players=players,
                                    best_of=best_of,
                                    special_at=special_at,
                                    ferro_mode=ferro,
                                    deck=deck,
                                    manilhas=manilhas,
                                    tie_opener=tie,
                                )
                                for rule in house_rules(settings):
                                    assert rule.section.value in marks[rule.variant], rule


# --- 'Regras desta mesa' -------------------------------------------------------------------


def test_without_a_table_the_rule_book_has_no_table_block(client: FlaskClient) -> None:
    """Opened on its own: no 'Regras desta mesa', nothing marked 'nesta mesa', no way back to a
    board."""
    html = rule_book(client)
    assert TITLE not in html
    assert house_lines(html) == [] and chosen_marks(html) == set()
    assert 'data-testid="voltar-placar"' not in html


def test_opened_from_a_board_it_lists_the_tables_options(client: FlaskClient) -> None:
    """After the board's Juiz link, /regras shows the table's options one line each, each
    linked to the section it changes, and marks those choices 'nesta mesa'."""
    attach(client, **HOUSE_FORM)
    html = rule_book(client)
    assert TITLE in html and "Os Zapeiros x Pica-Fumos" in html
    lines = {n.attrs["data-regra"]: n for n in house_lines(html)}
    assert list(lines) == [
        "jogadores-2",
        "baralho-limpo",
        "manilha-fixa",
        "empate-primeira_empatada",
        "mao-de-dez",
        "ferro-escuro",
        "serie-3",
    ]
    assert lines["jogadores-2"].text == "Jogo: 1x1, um contra um"
    assert lines["baralho-limpo"].text.startswith("Baralho: limpo (27 cartas")
    assert "4 de paus" in lines["manilha-fixa"].text
    assert lines["empate-primeira_empatada"].text.endswith("quem jogou a primeira carta do empate")
    assert lines["mao-de-dez"].text.startswith("Mão especial: mão de dez")
    assert lines["ferro-escuro"].text.startswith("Mão de ferro: no escuro")
    assert lines["serie-3"].text.startswith("Série: melhor de 3")
    hrefs = {key: [a.attrs["href"] for a in n.walk() if a.tag == "a"] for key, n in lines.items()}
    assert hrefs["ferro-escuro"] == ["/regras#mao-de-ferro"]
    assert hrefs["baralho-limpo"] == ["/regras#cartas-e-manilhas"]
    assert chosen_marks(html) == set(lines)
    assert 'data-testid="voltar-placar"' in html


def test_a_default_table_marks_the_defaults(client: FlaskClient) -> None:
    """A table opened with no options: 2x2, sujo, variável, the mão opens after a tie, mão de
    onze, ferro às cegas, partidas avulsas, each marked 'nesta mesa'."""
    attach(client)
    html = rule_book(client)
    assert chosen_marks(html) == {
        "jogadores-4",
        "baralho-sujo",
        "manilha-variavel",
        "empate-mao",
        "mao-de-onze",
        "ferro-cegas",
        "serie-0",
    }
    assert "Baralho: sujo (40 cartas)" in [n.text for n in house_lines(html)]


def test_a_table_whose_links_changed_is_forgotten(client: FlaskClient) -> None:
    """A session naming a table that no longer answers to that token: the plain rule book, and
    the session forgets it (as the juiz does)."""
    with client.session_transaction() as session:
        session[JUIZ_TABLE] = "x" * 32
    html = rule_book(client)
    assert house_lines(html) == []
    with client.session_transaction() as session:
        assert JUIZ_TABLE not in session


def test_leaving_the_table_in_the_juiz_leaves_it_in_the_rule_book(client: FlaskClient) -> None:
    """'Usar sem a mesa' in the juiz: the rule book no longer shows the table's rules."""
    attach(client)
    assert house_lines(rule_book(client))
    client.post("/juiz/sem-mesa")
    assert house_lines(rule_book(client)) == []


def test_the_table_block_can_be_included_by_another_page(app: Flask) -> None:
    """The juiz includes 'regras/_desta_mesa.html' as it is: nothing without a table, the
    table's lines (linked to their sections) with one."""
    page = app.jinja_env.from_string('{% include "regras/_desta_mesa.html" %}')
    table = settings(ferro_mode="claras", team_a="Nós", team_b="Eles")
    with app.test_request_context():
        assert page.render().strip() == ""
        assert page.render(mesa=None).strip() == ""
        html = page.render(mesa=table)
    lines = {n.attrs["data-regra"]: n for n in house_lines(html)}
    assert len(lines) == 7 and TITLE in html
    assert (
        lines["ferro-claras"].text == "Mão de ferro: às claras (cada um vê só as próprias cartas)"
    )
    assert [a.attrs["href"] for a in lines["ferro-claras"].walk() if a.tag == "a"] == [
        "/regras#mao-de-ferro"
    ]


# --- the page as served ---------------------------------------------------------------------


def test_the_rule_book_has_no_inline_script_or_style(client: FlaskClient) -> None:
    """Under the strict CSP: no style attribute, no <style>, no script without a src, and its
    stylesheet is a file that exists."""
    response = client.get("/regras")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    found = elements(response.text)
    assert not [n for n in found if "style" in n.attrs or n.tag == "style"]
    assert all(n.attrs.get("src") for n in found if n.tag == "script")
    sheets = [
        n.attrs["href"] for n in found if n.tag == "link" and n.attrs.get("rel") == "stylesheet"
    ]
    assert any("css/regras.css" in href for href in sheets)
    assert (STATIC / "css" / "regras.css").is_file()


def test_the_home_page_links_the_rule_book(client: FlaskClient) -> None:
    """'Na mesa' on the home page lists the rule book."""
    found = elements(client.get("/").text)
    assert any(n.tag == "a" and n.attrs.get("href") == "/regras" for n in found)


# --- house_rules, the pure part --------------------------------------------------------------


def settings(**changes: object) -> SimpleNamespace:
    """A default table's settings, with changes."""
    base = {
        "players": 4,
        "best_of": 0,
        "special_at": 11,
        "ferro_mode": "cegas",
        "deck": "sujo",
        "manilhas": "variavel",
        "tie_opener": "mao",
    }
    return SimpleNamespace(**{**base, **changes})


def test_house_rules_say_a_default_table_in_seven_lines() -> None:
    """Players, deck, manilhas, tie opener, special hand, ferro and series: one line each."""
    lines = [rule.text for rule in house_rules(settings())]
    assert lines == [
        "Jogo: 2x2, em duplas (parceiros frente a frente)",
        "Baralho: sujo (40 cartas)",
        "Manilhas: variáveis (o valor logo acima da vira)",
        "Quem abre após empate: o mão",
        "Mão especial: mão de onze (um lado com 11 joga valendo 3 ou corre e dá 1 ao outro)",
        "Mão de ferro: às cegas (ninguém vê as próprias cartas)",
        "Série: partidas avulsas, cada uma até 12 pontos",
    ]


@pytest.mark.parametrize(
    ("deck", "manilhas", "cards"),
    [
        ("sujo", "variavel", 40),
        ("sujo", "fixa", 40),
        ("limpo", "variavel", 24),
        ("limpo", "fixa", 27),
    ],
)
def test_the_deck_line_counts_the_cards_of_that_deck(deck: str, manilhas: str, cards: int) -> None:
    """The deck line gives the number of cards the juiz deals with (limpo with fixa keeps the
    four fixed manilhas: 27)."""
    line = house_rules(settings(deck=deck, manilhas=manilhas))[1]
    assert line.text.startswith(f"Baralho: {deck} ({cards} cartas")


def test_a_stored_value_the_rules_do_not_know_is_said_as_stored() -> None:
    """A value outside the options (an older row, say) is shown as it is, not guessed."""
    lines = {r.label: r.value for r in house_rules(settings(ferro_mode="velho", deck="outro"))}
    assert lines["Mão de ferro"] == "velho" and lines["Baralho"] == "outro"


def test_the_rule_book_says_what_the_board_does_in_a_mao_de_ferro_at_10(
    client: FlaskClient,
) -> None:
    """With the mão de dez, the mão de ferro comes at 10 x 10 and its winner wins the game
    (/regras#mao-de-ferro): the rule book says so, and a board at 10 x 10 goes to 12 x 10."""
    from .helpers import play, post, scores

    page = client.get("/regras").text
    assert "quem vence a mão vence a partida" in page and "vai a 11" not in page
    token = open_table(client, mao_especial="10")
    for side in ("0", "1"):
        post(client, token, "corrigir", lado=side, pontos="10", motivo="contagem")
    assert scores(play(client, token, "ferro:0").text) == (12, 10)


# --- Truco Mineiro (/regras/mineiro) --------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"
MINEIRO_SOURCES = ("TV Globo MG", "Copag", "minitruco")
# The ladders public pages give that the rule book names and does not offer.
LADDERS_NOT_CHOSEN = ("4-8-12", "4-6-9-12", "2-4-8-10-12")


def mineiro_book(client: FlaskClient) -> str:
    """GET /regras/mineiro; it must answer 200."""
    response = client.get("/regras/mineiro")
    assert response.status_code == 200, response.text[:300]
    return response.text


def test_every_mineiro_section_has_one_anchor_linked_from_the_contents(
    client: FlaskClient,
) -> None:
    """Each MineiroSection's value is the id of exactly one section of the Mineiro page, in the
    enum's order, and the contents list links every one; no '#...' link points nowhere."""
    found = elements(mineiro_book(client))
    ids = [n.attrs["id"] for n in found if "id" in n.attrs]
    local = [n.attrs["href"][1:] for n in found if n.attrs.get("href", "").startswith("#")]
    contents = next(n for n in found if "regras-indice" in n.attrs.get("class", ""))
    listed = [a.attrs["href"] for a in contents.walk() if a.tag == "a"]
    for section in MineiroSection:
        assert ids.count(section.value) == 1, section
        assert f"#{section.value}" in listed, section
    assert [n.attrs["id"] for n in sections(mineiro_book(client))] == [
        section.value for section in MineiroSection
    ]
    assert set(local) <= set(ids)


def test_mineiro_sections_are_numbered_and_headed_by_their_titles(client: FlaskClient) -> None:
    """The Mineiro sections are numbered from 1 on their own page, each headed '<n>. <title>'
    and saying something."""
    found = sections(mineiro_book(client))
    for number, (node, section) in enumerate(zip(found, MineiroSection, strict=True), start=1):
        assert heading(node) == f"{number}. {section.title}"
        assert section_number(section) == number
        assert len(node.text) > len(heading(node)) + 100, f"section {section} says nothing"


def test_every_difference_mark_links_a_paulista_section_that_exists(client: FlaskClient) -> None:
    """Each 'diferente do Paulista' mark says what Paulista does and links /regras#<anchor>, an
    anchor the Paulista page has; the same for each 'Igual ao Paulista' link."""
    paulista_ids = {n.attrs["id"] for n in elements(rule_book(client)) if "id" in n.attrs}
    found = elements(mineiro_book(client))
    marks = [n for n in found if "data-diferente" in n.attrs or "data-igual" in n.attrs]
    assert len(marks) >= len(MineiroSection)
    for mark in marks:
        anchor = mark.attrs.get("data-diferente") or mark.attrs["data-igual"]
        hrefs = [a.attrs["href"] for a in mark.walk() if a.tag == "a"]
        assert hrefs == [f"/regras#{anchor}"] and anchor in paulista_ids, mark.text
        if "data-diferente" in mark.attrs:
            assert mark.text.startswith("diferente do Paulista No Paulista"), mark.text
    labels = [n for n in found if "diferente do Paulista" == n.text]
    assert labels and all(label.ancestor("p") in marks for label in labels)


def test_every_mineiro_section_says_how_it_stands_to_paulista(client: FlaskClient) -> None:
    """Every Mineiro section carries a 'diferente do Paulista' mark, except rounds and ties,
    which link the Paulista rules they keep (rounds and ties, covered card)."""
    for node in sections(mineiro_book(client)):
        different = [n for n in node.walk() if "data-diferente" in n.attrs]
        same = [n.attrs["data-igual"] for n in node.walk() if "data-igual" in n.attrs]
        if node.attrs["id"] == MineiroSection.RODADAS.value:
            assert not different
            assert same == [Section.RODADAS.value, Section.COBERTA.value]
        else:
            assert different, node.attrs["id"]


def test_the_mineiro_table_of_calls_gives_the_2_4_6_10_12_ladder(client: FlaskClient) -> None:
    """Truco 4, seis 6, dez 10, doze 12 if accepted; running gives the asker 2, 4, 6, 10 (the
    value before the call); the hand starts at 2."""
    found = elements(mineiro_book(client))
    rows = {
        n.attrs["data-pedido"]: [c.text for c in n.children if c.tag == "td"]
        for n in found
        if "data-pedido" in n.attrs
    }
    assert rows == {
        "truco": ["4", "2"],
        "seis": ["6", "4"],
        "dez": ["10", "6"],
        "doze": ["12", "10"],
    }
    truco = next(s for s in found if s.attrs.get("id") == MineiroSection.TRUCO.value)
    assert "Toda mão começa valendo 2 pontos" in truco.text


def test_the_mineiro_special_hands_are_stated(client: FlaskClient) -> None:
    """Mão de dez: one side at 10, play worth 4, run gives 2, no calls; mão de ferro at 10 x 10
    whose winner wins the game; 3x3 seats 1, 3, 5 against 2, 4, 6; scores always even."""
    texts = {s.attrs["id"]: s.text for s in sections(mineiro_book(client))}
    dez = texts[MineiroSection.DEZ.value]
    assert "só um lado chega a 10 pontos" in dez
    assert "a mão vale 4 pontos" in dez and "o outro lado marca 2 pontos" in dez
    assert "ninguém pede truco" in dez
    ferro = texts[MineiroSection.FERRO.value]
    assert "os dois lados estão com 10 pontos" in ferro
    assert "Quem ganhar a mão de ferro ganha a partida" in ferro
    assert "lugares 1, 3 e 5" in texts[MineiroSection.JOGADORES.value]
    assert "o placar é sempre par" in texts[MineiroSection.PONTOS.value]
    assert "4 de paus" in texts[MineiroSection.CARTAS.value]


def test_the_mineiro_page_names_its_sources_and_the_ladders_not_chosen(
    client: FlaskClient,
) -> None:
    """'De onde vêm estas regras' names TV Globo MG, Copag and minitruco, states the 2-4-6-10-12
    choice and the ladders left out, and names docs/rules-sources.md; that file names the same
    texts and ladders."""
    found = elements(mineiro_book(client))
    sources = next(n for n in found if n.attrs.get("id") == "mineiro-fontes")
    for name in (*MINEIRO_SOURCES, *LADDERS_NOT_CHOSEN, "2, 4, 6, 10 e 12"):
        assert name in sources.text, name
    assert "docs/rules-sources.md" in sources.text
    docs = (DOCS / "rules-sources.md").read_text(encoding="utf-8")
    mineiro_part = docs[docs.index("## Truco Mineiro") :]
    for name in (*MINEIRO_SOURCES, *LADDERS_NOT_CHOSEN):
        assert name in mineiro_part, name
    for section in MineiroSection:
        assert f"/regras/mineiro#{section.value}" in mineiro_part, section


def test_the_two_pages_link_each_other_at_the_top(client: FlaskClient) -> None:
    """Both pages open with the Paulista/Mineiro tabs, the page shown marked aria-current."""
    pages = ((rule_book(client), "/regras"), (mineiro_book(client), "/regras/mineiro"))
    for html, current in pages:
        found = elements(html)
        tabs = next(n for n in found if n.attrs.get("data-testid") == "regras-abas")
        links = {a.attrs["href"]: a for a in tabs.walk() if a.tag == "a"}
        assert list(links) == ["/regras", "/regras/mineiro"]
        assert [h for h, a in links.items() if a.attrs.get("aria-current") == "page"] == [current]
        first_heading = next(n for n in found if n.tag == "h1")
        assert found.index(tabs) < found.index(first_heading)


def test_rule_url_of_a_mineiro_section_is_the_mineiro_page(app: Flask) -> None:
    """The helper the juiz links reasons with sends a Mineiro section to its page's anchor."""
    with app.test_request_context():
        assert section_url(MineiroSection.TRUCO) == "/regras/mineiro#mineiro-truco"
        assert [section_url(s) for s in MineiroSection] == [
            f"/regras/mineiro#{s.value}" for s in MineiroSection
        ]
        assert section_url(Section.TRUCO) == "/regras#truco"


def test_the_mineiro_page_is_well_formed_for_a_strict_csp(client: FlaskClient) -> None:
    """One h1, headings going down one level at a time, no inline style or script, and its
    stylesheet linked."""
    found = elements(mineiro_book(client))
    levels = [int(n.tag[1]) for n in found if re.fullmatch(r"h[1-6]", n.tag)]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(after <= before + 1 for before, after in zip(levels, levels[1:], strict=False))
    assert not [n for n in found if "style" in n.attrs or n.tag == "style"]
    assert all(n.attrs.get("src") for n in found if n.tag == "script")
    assert any("css/regras.css" in n.attrs.get("href", "") for n in found if n.tag == "link")


def test_opened_from_a_board_the_mineiro_page_leads_back_to_it(client: FlaskClient) -> None:
    """After the board's Juiz link, the Mineiro page offers 'Voltar ao placar' too."""
    assert 'data-testid="voltar-placar"' not in mineiro_book(client)
    attach(client)
    assert 'data-testid="voltar-placar"' in mineiro_book(client)
