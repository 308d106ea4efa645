"""Every sentence the juiz says about a side reads right whatever the team is called.

Each row is a ruling opened from a table (the board's Juiz link) whose teams are named as
given, and the full text the juiz must show: its headline, its reasons (or refusal) and, for a
hand, the apply panel.
Team names that are singular ("Ana"), plural ("Os Zapeiros") or pronouns ("Nós", "Eles") are on
both sides, so a sentence whose verb agrees with one kind of name cannot pass.
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from .helpers import open_table

# The juiz's sentences come from names and rulings: the database engine does not matter.
pytestmark = pytest.mark.sqlite_only

TEAMS = [("Nós", "Eles"), ("Eles", "Nós"), ("Ana", "Os Zapeiros"), ("Os Zapeiros", "Ana")]
NAMES = ("Nós", "Eles", "Ana", "Os Zapeiros")
# A team name as the subject of a conjugated verb: right for some names, wrong for others.
AGREEING = re.compile(
    rf"\b({'|'.join(NAMES)}) (ganhou|ganharam|venceu|venceram|leva|levam|fez|fizeram|"
    r"jogou|jogaram|perdeu|perderam|correu|correram|marca|marcam|abre|abrem)\b"
)

# Manilhas of the vira 4 of ouros (the 5s), said the same way in every round ruling below.
MANILHAS_5 = (
    "A vira é 4 de ouros, então as manilhas são os 5: 5♣ (zap), 5♥ (copas), 5♠ (espadilha), "
    "5♦ (pica-fumo), da mais forte para a mais fraca."
)
NOT_A_TIE = (
    "Não é empate: em 2x2 só empata quando as cartas mais fortes têm o mesmo valor e são de "
    "duplas diferentes; aqui a mais forte é uma só."
)

# With abre=nos on a new 2x2 table (its mão is seat 1, a player of the second team), the first
# team's mão is the player after it: the plays are {a} 2, {b} 2, {a} 1, {b} 1.
ROUNDS = [
    pytest.param(
        "abre=nos&vira=4o&jogadas=3p,5c,2e,Ao",
        "Rodada para {b}",
        "Carta vencedora: 5 de copas, de {b} 2 (jogada 2).",
        [
            MANILHAS_5,
            "Cartas abertas, da mais forte para a mais fraca: 5♥ (manilha) de {b} 2, "
            "3♣ de {a} 2, 2♠ de {a} 1, A♦ de {b} 1.",
            "5♥ é a carta mais forte da rodada.",
            NOT_A_TIE,
            "A rodada é de {b} 1 e {b} 2; {b} 2 abre a próxima rodada.",
        ],
        id="round-won-by-the-second-team",
    ),
    pytest.param(
        "abre=nos&vira=4o&jogadas=3p,2c,3e,Ao",
        "Rodada para {a}",
        "Carta vencedora: 3 de paus, de {a} 2 (jogada 1).",
        [
            MANILHAS_5,
            "Cartas abertas, da mais forte para a mais fraca: 3♣ de {a} 2, 3♠ de {a} 1, "
            "2♥ de {b} 2, A♦ de {b} 1.",
            "As cartas mais fortes (3♣ de {a} 2, 3♠ de {a} 1) são de parceiros: a rodada é da "
            "dupla deles, sem empate.",
            "A rodada é de {a} 1 e {a} 2; {a} 2 abre a próxima rodada.",
        ],
        id="round-won-by-partners",
    ),
    pytest.param(
        "abre=nos&vira=4o&jogadas=2p,3c,3e,Ao",
        "Empate: a rodada não é de ninguém",
        None,
        [
            MANILHAS_5,
            "Cartas abertas, da mais forte para a mais fraca: 3♥ de {b} 2, 3♠ de {a} 1, "
            "2♣ de {a} 2, A♦ de {b} 1.",
            "As cartas mais fortes têm o mesmo valor e são dos dois lados (3♥ de {b} 2 e "
            "3♠ de {a} 1): empate. Fora as manilhas, o naipe não desempata.",
            "Depois de rodada empatada, a próxima é aberta pelo mão ({a} 2).",
        ],
        id="tied-round",
    ),
    pytest.param(
        "abre=eles&rodada=2&vira=4o&jogadas=X,2c,X,Ao",
        "Rodada para {a}",
        "Carta vencedora: 2 de copas, de {a} 2 (jogada 2).",
        [
            MANILHAS_5,
            "Carta coberta não vale nada e perde para qualquer carta aberta ({b} 1, {b} 2).",
            "Cartas abertas, da mais forte para a mais fraca: 2♥ de {a} 2, A♦ de {a} 1.",
            "2♥ é a carta mais forte da rodada.",
            NOT_A_TIE,
            "A rodada é de {a} 1 e {a} 2; {a} 2 abre a próxima rodada.",
        ],
        id="covered-cards-lose",
    ),
]

HANDS = [
    pytest.param(
        "nos,nos",
        "Mão para {a}",
        [
            "Primeira rodada para {a}.",
            "Segunda rodada para {a}.",
            "Quem faz duas rodadas leva a mão.",
            "A mão acabou na segunda rodada.",
        ],
        id="two-rounds",
    ),
    pytest.param(
        "empate,eles",
        "Mão para {b}",
        [
            "Primeira rodada empatada.",
            "Segunda rodada para {b}.",
            "Empatou a primeira: quem ganhou a segunda ({b}) leva a mão.",
            "A mão acabou na segunda rodada.",
        ],
        id="tie-then-win",
    ),
    pytest.param(
        "eles,empate",
        "Mão para {b}",
        [
            "Primeira rodada para {b}.",
            "Segunda rodada empatada.",
            "Ganhou a primeira e empatou a segunda: leva quem ganhou a primeira ({b}).",
            "A mão acabou na segunda rodada.",
        ],
        id="win-then-tie",
    ),
    pytest.param(
        "nos,eles,eles",
        "Mão para {b}",
        [
            "Primeira rodada para {a}.",
            "Segunda rodada para {b}.",
            "Terceira rodada para {b}.",
            "Uma rodada para cada: quem ganhou a terceira ({b}) leva a mão.",
            "A mão acabou na terceira rodada.",
        ],
        id="one-each-then-third",
    ),
    pytest.param(
        "nos,eles,empate",
        "Mão para {a}",
        [
            "Primeira rodada para {a}.",
            "Segunda rodada para {b}.",
            "Terceira rodada empatada.",
            "Uma rodada para cada e empatou a terceira: leva quem ganhou a primeira ({a}).",
            "A mão acabou na terceira rodada.",
        ],
        id="one-each-tied-third",
    ),
    pytest.param(
        "empate,empate,nos",
        "Mão para {a}",
        [
            "Primeira rodada empatada.",
            "Segunda rodada empatada.",
            "Terceira rodada para {a}.",
            "Empataram a primeira e a segunda: quem ganhou a terceira ({a}) leva a mão.",
            "A mão acabou na terceira rodada.",
        ],
        id="two-ties-then-third",
    ),
    pytest.param(
        "eles",
        "Ainda não decidida: falta a segunda rodada",
        [
            "Primeira rodada para {b}.",
            "Ninguém fez duas rodadas ainda.",
            "A mão segue: falta a segunda rodada.",
        ],
        id="undecided",
    ),
]


def visible(html: str) -> str:
    """Text without tags, entities for < > & decoded, whitespace collapsed."""
    text = re.sub(r"<[^>]+>", "", html).replace("&gt;", ">").replace("&lt;", "<")
    return re.sub(r"\s+", " ", text.replace("&amp;", "&")).strip()


def element(html: str, pattern: str) -> str:
    """The visible text of the first match of `pattern` (its first group)."""
    match = re.search(pattern, html, re.S)
    assert match, pattern
    return visible(match.group(1))


def items(html: str, testid: str) -> list[str]:
    """The visible text of each <li> of the list with this test id."""
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</ol>', html, re.S)
    assert found, testid
    return [visible(li) for li in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def assert_no_agreement(texts: list[str]) -> None:
    """No sentence makes a verb agree with a team name."""
    for text in texts:
        assert not AGREEING.search(text), text


@pytest.mark.parametrize(("a", "b"), TEAMS)
@pytest.mark.parametrize(("query", "headline", "card", "reasons"), ROUNDS)
def test_round_rulings_read_right_for_any_team_name(
    client: FlaskClient,
    a: str,
    b: str,
    query: str,
    headline: str,
    card: str | None,
    reasons: list[str],
) -> None:
    """A round ruling opened from a table names sides and players in full, correct sentences."""
    token = open_table(client, time_a=a, time_b=b)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get(f"/juiz/rodada?{query}").text
    said = [element(html, r'id="jz-verdict-title">(.*?)</h2>'), *items(html, "motivos")]
    expected = [headline.format(a=a, b=b), *(r.format(a=a, b=b) for r in reasons)]
    if card:
        said.append(element(html, r'class="jz-wincard">.*?<span>(.*?)</span></p>'))
        expected.append(card.format(a=a, b=b))
    assert said == expected
    assert_no_agreement(said)


@pytest.mark.parametrize(("a", "b"), TEAMS)
@pytest.mark.parametrize(("results", "headline", "reasons"), HANDS)
def test_hand_rulings_read_right_for_any_team_name(
    client: FlaskClient, a: str, b: str, results: str, headline: str, reasons: list[str]
) -> None:
    """A hand ruling opened from a table says who takes the hand without verb agreement."""
    token = open_table(client, time_a=a, time_b=b)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get(f"/juiz/mao?rodadas={results}").text
    said = [element(html, r'id="jz-verdict-title">(.*?)</h2>'), *items(html, "motivos")]
    assert said == [headline.format(a=a, b=b), *(r.format(a=a, b=b) for r in reasons)]
    assert_no_agreement(said)


@pytest.mark.parametrize(("a", "b"), TEAMS)
def test_a_round_after_a_decided_hand_is_refused_in_words_for_any_name(
    client: FlaskClient, a: str, b: str
) -> None:
    """The refusal of a third round after two won ones quotes the rule, naming no side."""
    token = open_table(client, time_a=a, time_b=b)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=eles,eles,nos").text
    refusal = element(html, r'data-testid="explicacao">(.*?)</p>')
    assert refusal == (
        "A mão já estava decidida depois da segunda rodada (quem faz duas rodadas leva a mão) "
        "e não se joga a terceira rodada."
    )


@pytest.mark.parametrize(("a", "b"), TEAMS)
def test_apply_panel_and_round_choices_read_right_for_any_name(
    client: FlaskClient, a: str, b: str
) -> None:
    """The apply panel says the score and who takes the hand; the round buttons name the sides."""
    token = open_table(client, time_a=a, time_b=b)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/mao?rodadas=eles,eles").text
    panel = element(html, r'data-testid="aplicar"[^>]*>\s*<h2[^>]*>[^<]*</h2>\s*<p>(.*?)</p>')
    assert panel == f"Placar agora: {a} 0 x 0 {b}. A mão vai para {b}."
    html = client.get("/juiz/mao?rodadas=empate").text
    buttons = [visible(b) for b in re.findall(r'data-testid="rodada-\w+">(.*?)</a>', html)]
    assert buttons == [a, b, "Empate"]
    assert element(html, r'data-testid="falta">(.*?)</p>') == "Quem ganhou a 2ª rodada?"


@pytest.mark.parametrize(("a", "b"), TEAMS)
def test_anotar_na_mao_choices_read_right_for_any_name(
    client: FlaskClient, a: str, b: str
) -> None:
    """Round 3 without its earlier results asks how the hand got there, naming the sides."""
    token = open_table(client, time_a=a, time_b=b)
    client.get(f"/m/{token}/juiz")  # the juiz opened from the board
    html = client.get("/juiz/rodada?rodada=3&vira=4o&jogadas=3p,2c,3e,Ao").text
    title = element(html, r'class="jz-note-title">(.*?)</p>')
    choices = [visible(c) for c in re.findall(r'data-testid="anotar-mao">(.*?)</a>', html)]
    assert title == "Anotar na mão: como foram a 1ª e a 2ª rodadas?"
    assert choices == [
        f"1ª para {a}, 2ª para {b}",
        f"1ª para {b}, 2ª para {a}",
        "1ª empatada, 2ª empatada",
    ]
