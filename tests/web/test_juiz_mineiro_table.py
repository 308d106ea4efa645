"""The juiz opened from a Truco Mineiro board ("aplicar ao placar"): the apply panel offers
Mineiro's values (2, 4, 6, 10, 12), the mão de dez (4) and the mão de ferro (the winner takes the
game), and applying records on the board like a tap: the revision checked, the client id
journaled, the log saying "pelo juiz". A ruling under one rule set never goes to a table of the
other. These pages read and write a table: they run on SQLite and PostgreSQL."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.mesa import load_board
from scorekeeper.extensions import db
from scorekeeper.models import Mesa
from scorekeeper.rules import MatchState

from .helpers import flashed, open_table, reasons_of
from .test_juiz import hooks, revision_of, ruling, score, text_of, verdict

WON_TWO_ROUNDS = "1:4p,2:3c,1:7c,2:3o"  # the first seat's side takes both rounds
WHOLE = "/juiz/mao?jogadores=2&mao=1&eventos="  # the table's rule set: no variante
LADDER = {2: "mão simples", 4: "truco", 6: "seis", 10: "dez", 12: "doze"}
MINEIRO_VALUES = "2, 4, 6, 10 ou 12"


def mineiro_table(client: FlaskClient) -> str:
    """A 1x1 Truco Mineiro table (single games) the juiz was opened from; its token."""
    token = open_table(client, variante="mineiro", jogadores="2", serie="avulsas")
    client.get(f"/m/{token}/juiz")
    return token


def paulista_table(client: FlaskClient) -> str:
    """A 1x1 Truco Paulista table the juiz was opened from; its token."""
    token = open_table(client, jogadores="2")
    client.get(f"/m/{token}/juiz")
    return token


def page(client: FlaskClient, url: str) -> str:
    """GET a juiz page that must answer 200; its HTML."""
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    return response.text


def form_of(html: str, testid: str) -> dict[str, str]:
    """The fields the apply form holding the button `testid` posts (its hidden inputs)."""
    forms = re.findall(r"<form [^>]*>.*?</form>", html, re.S)
    found = [form for form in forms if f'data-testid="{testid}"' in form]
    assert len(found) == 1, testid
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found[0]))


def choice_text(html: str, testid: str) -> str:
    """The label and detail of an apply button, as read."""
    return text_of(html, testid, "button")


def state_of(app: Flask, token: str) -> MatchState:
    """A table's state, read from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return load_board(mesa).state


def applied(client: FlaskClient, app: Flask, token: str, **form: str) -> None:
    """Apply an outcome through the juiz at the table's current revision (it must be taken);
    its confirmation is taken off the session, as the board would."""
    data = {"rev": str(revision_of(app, token)), **form}
    assert client.post("/juiz/aplicar", data=data).status_code == 303
    with client.session_transaction() as session:
        session.pop("_flashes", None)


def at_mao_de_dez(client: FlaskClient, app: Flask, token: str) -> None:
    """Bring the table to 10 x 6: Nós play the mão de dez."""
    for side, points in (("0", "4"), ("1", "6"), ("0", "4"), ("0", "2")):
        applied(client, app, token, lado=side, pontos=points)
    assert score(app, token) == (10, 6)


def at_ferro(client: FlaskClient, app: Flask, token: str) -> None:
    """Bring the table to 10 x 10: the mão de ferro (Nós lost their mão de dez)."""
    at_mao_de_dez(client, app, token)
    applied(client, app, token, tipo="onze_perdeu", lado="1")
    assert score(app, token) == (10, 10)


# --- the panel offers the Mineiro ladder ------------------------------------------------------


def test_a_mineiro_hand_from_its_rounds_offers_the_mineiro_values(client: FlaskClient) -> None:
    """Opened from a Mineiro board, a hand won by Nós offers +2 mão simples, +4 truco, +6 seis,
    +10 dez and +12 doze, and no Paulista value."""
    mineiro_table(client)
    html = page(client, "/juiz/mao?rodadas=nos,nos")
    assert verdict(html)["data-pontos"] == "2"
    found = hooks(html)
    for value, name in LADDER.items():
        assert choice_text(html, f"aplicar-{value}") == f"+{value} {name}"
    assert not {"aplicar-1", "aplicar-3", "aplicar-9"} & set(found)


@pytest.mark.parametrize("value", sorted(LADDER))
def test_applying_each_mineiro_value_records_it_pelo_juiz(
    client: FlaskClient, app: Flask, value: int
) -> None:
    """Each button of the panel, posted as drawn, adds its value for Eles, with the log's
    'pelo juiz' and the board's confirmation."""
    token = mineiro_table(client)
    html = page(client, "/juiz/mao?rodadas=eles,eles")
    response = client.post("/juiz/aplicar", data=form_of(html, f"aplicar-{value}"))
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/m/{token}")
    assert score(app, token) == (0, value)
    assert reasons_of(app, token) == ["pelo juiz"]
    assert flashed(client) == [f"Eles +{value} · pelo juiz"]


def test_a_void_mineiro_hand_is_applied_as_anulada(client: FlaskClient, app: Flask) -> None:
    """Three tied rounds: 'Mão anulada', nobody scores, the hand counts as dealt."""
    token = mineiro_table(client)
    html = page(client, "/juiz/mao?rodadas=empate,empate,empate")
    rev = revision_of(app, token)
    response = client.post("/juiz/aplicar", data=form_of(html, "aplicar-anulada"))
    assert response.status_code == 303
    assert score(app, token) == (0, 0) and revision_of(app, token) == rev + 1


# --- the mão de dez and the mão de ferro ------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "words", "after"),
    [
        ("nos,nos", "+4 vitória na mão de dez", "game to Nós"),
        ("eles,eles", "+4 vitória contra a mão de dez", (10, 10)),
    ],
)
def test_the_mao_de_dez_offers_its_outcome_worth_four(
    client: FlaskClient, app: Flask, rounds: str, words: str, after: object
) -> None:
    """At 10 x 6 the hand is the mão de dez: only its outcome (worth 4) is offered, no ladder
    value, with the note that it takes no call; applied, it scores 4."""
    token = mineiro_table(client)
    at_mao_de_dez(client, app, token)
    html = page(client, f"/juiz/mao?rodadas={rounds}")
    found = hooks(html)
    assert not any(f"aplicar-{value}" in found for value in LADDER)
    assert choice_text(html, "aplicar-onze") == words
    assert "Mão de dez: ninguém pode pedir truco; ela vale 4 pontos" in html
    response = client.post("/juiz/aplicar", data=form_of(html, "aplicar-onze"))
    assert response.status_code == 303
    if after == "game to Nós":
        assert state_of(app, token).game_winner == 0
    else:
        assert score(app, token) == after


def test_the_mineiro_ferro_gives_the_winner_the_game(client: FlaskClient, app: Flask) -> None:
    """At 10 x 10 the hand is the mão de ferro: its button says the winner takes the game, and
    applying it gives Eles the game."""
    token = mineiro_table(client)
    at_ferro(client, app, token)
    html = page(client, "/juiz/mao?rodadas=eles,eles")
    assert "aplicar-2" not in hooks(html)
    assert choice_text(html, "aplicar-ferro") == "+2 mão de ferro: quem vence leva a partida"
    response = client.post("/juiz/aplicar", data=form_of(html, "aplicar-ferro"))
    assert response.status_code == 303
    assert state_of(app, token).game_winner == 1
    assert flashed(client) == ["Mão de ferro para Eles · pelo juiz"]


def test_a_special_hand_is_worth_what_the_rules_say_not_the_form(
    client: FlaskClient, app: Flask
) -> None:
    """A mão de dez posted with pontos=12 still scores the 4 the rule set gives it."""
    token = mineiro_table(client)
    at_mao_de_dez(client, app, token)
    applied(client, app, token, tipo="onze_perdeu", lado="1", pontos="12")
    assert score(app, token) == (10, 10)


# --- the whole hand ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("calls", "points", "note"),
    [
        ("", 2, "mão simples"),
        ("1:truco,2:aceita,", 4, "truco aceito"),
        ("1:truco,2:seis,1:aceita,", 6, "seis aceito"),
        ("1:truco,2:seis,1:dez,2:aceita,", 10, "dez aceito"),
        ("1:truco,2:seis,1:dez,2:doze,1:aceita,", 12, "doze aceito"),
    ],
)
def test_a_whole_mineiro_hand_applies_its_value_in_one_tap(
    client: FlaskClient, app: Flask, calls: str, points: int, note: str
) -> None:
    """Opened from a Mineiro board, the whole hand rules by Mineiro; its one button records the
    engine's value with the log's 'pelo juiz' and how the hand went."""
    token = mineiro_table(client)
    html = page(client, WHOLE + calls + WON_TWO_ROUNDS)
    assert verdict(html)["data-pontos"] == str(points)
    assert choice_text(html, "aplicar-mao") == f"+{points} {note}"
    response = client.post("/juiz/mao/aplicar", data=form_of(html, "aplicar-mao"))
    assert response.status_code == 303
    assert score(app, token) == (points, 0)
    assert reasons_of(app, token) == [f"pelo juiz · {note}"]


def test_running_from_the_mao_de_dez_applies_two_to_the_others(
    client: FlaskClient, app: Flask
) -> None:
    """At 10 x 6 the whole hand is the table's mão de dez: Nós run, Eles score 2."""
    token = mineiro_table(client)
    at_mao_de_dez(client, app, token)
    html = page(client, WHOLE + "1:corre")
    assert (verdict(html)["data-resultado"], verdict(html)["data-pontos"]) == ("eles", "2")
    response = client.post("/juiz/mao/aplicar", data=form_of(html, "aplicar-mao"))
    assert response.status_code == 303
    assert score(app, token) == (10, 8)


def test_a_whole_mineiro_ferro_gives_the_winner_the_game(client: FlaskClient, app: Flask) -> None:
    """At 10 x 10 the whole hand is the mão de ferro: won by Nós, the game is theirs."""
    token = mineiro_table(client)
    at_ferro(client, app, token)
    html = page(client, WHOLE + WON_TWO_ROUNDS)
    assert verdict(html)["data-resultado"] == "nos"
    response = client.post("/juiz/mao/aplicar", data=form_of(html, "aplicar-mao"))
    assert response.status_code == 303
    assert state_of(app, token).game_winner == 0


# --- refusals: nothing changes ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"lado": "0", "pontos": "1"}, MINEIRO_VALUES),
        ({"lado": "0", "pontos": "3"}, MINEIRO_VALUES),
        ({"lado": "0", "pontos": "9"}, MINEIRO_VALUES),
        ({"lado": "0", "pontos": "5"}, MINEIRO_VALUES),
        ({"lado": "0", "pontos": "dois"}, "Valor inválido para os pontos"),
        ({"lado": "3", "pontos": "4"}, "Lado inexistente"),
        ({"tipo": "onze_ganhou", "lado": "0"}, "mão de dez"),
        ({"tipo": "ferro", "lado": "1"}, "mão de ferro"),
        ({"tipo": "correcao", "lado": "0", "pontos": "12"}, "Essa marcação não existe"),
    ],
)
def test_an_odd_value_posted_by_hand_is_refused_and_nothing_changes(
    client: FlaskClient, app: Flask, form: dict[str, str], said: str
) -> None:
    """A value outside Mineiro's ladder, an unknown side, or a special hand the table is not
    playing: 422 with the reason in pt-BR; no record, the revision unchanged."""
    token = mineiro_table(client)
    rev = revision_of(app, token)
    response = client.post("/juiz/aplicar", data={"rev": str(rev), **form})
    assert response.status_code == 422
    assert said in text_of(response.text, "mensagem")
    assert score(app, token) == (0, 0) and revision_of(app, token) == rev
    assert reasons_of(app, token) == [] and flashed(client) == []


def test_a_stale_revision_is_refused_and_nothing_changes(client: FlaskClient, app: Flask) -> None:
    """A panel drawn before the board changed: 409 'O placar mudou', nothing recorded."""
    token = mineiro_table(client)
    html = page(client, "/juiz/mao?rodadas=nos,nos")
    applied(client, app, token, lado="1", pontos="2")
    response = client.post("/juiz/aplicar", data=form_of(html, "aplicar-4"))
    assert response.status_code == 409
    assert "O placar mudou em outro aparelho; confira." in response.text
    assert score(app, token) == (0, 2) and flashed(client) == []


def test_a_stale_whole_hand_is_refused_and_nothing_changes(
    client: FlaskClient, app: Flask
) -> None:
    """The whole hand's button checks the revision too."""
    token = mineiro_table(client)
    html = page(client, WHOLE + "1:truco,2:aceita," + WON_TWO_ROUNDS)
    applied(client, app, token, lado="1", pontos="2")
    response = client.post("/juiz/mao/aplicar", data=form_of(html, "aplicar-mao"))
    assert response.status_code == 409
    assert score(app, token) == (0, 2)


@pytest.mark.parametrize(
    ("url", "testid", "action"),
    [
        ("/juiz/mao?rodadas=nos,nos", "aplicar-4", "/juiz/aplicar"),
        (WHOLE + "1:truco,2:aceita," + WON_TWO_ROUNDS, "aplicar-mao", "/juiz/mao/aplicar"),
    ],
)
def test_a_replayed_apply_records_once(
    client: FlaskClient, app: Flask, url: str, testid: str, action: str
) -> None:
    """The same form sent again (its answer lost on the way back): the board once, no second
    record and no second confirmation."""
    token = mineiro_table(client)
    form = form_of(page(client, url), testid)
    assert form["cid"]
    assert client.post(action, data=form).status_code == 303
    client.get(f"/m/{token}")  # the board shows the first confirmation
    again = client.post(action, data=form)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/m/{token}")
    assert score(app, token) == (4, 0) and len(reasons_of(app, token)) == 1
    assert flashed(client) == []


def test_a_client_id_reused_for_another_value_is_refused(client: FlaskClient, app: Flask) -> None:
    """The panel's client id sent with another value after its write: refused, nothing more."""
    token = mineiro_table(client)
    html = page(client, "/juiz/mao?rodadas=nos,nos")
    assert client.post("/juiz/aplicar", data=form_of(html, "aplicar-4")).status_code == 303
    other = form_of(html, "aplicar-6")
    response = client.post("/juiz/aplicar", data=other)
    assert response.status_code == 422
    assert "Esse toque já foi usado para outra jogada" in response.text
    assert score(app, token) == (4, 0)


def test_every_panel_drawn_has_its_own_client_id(client: FlaskClient) -> None:
    """Two drawings of the panel carry two client ids: a new apply is never taken for a retry."""
    mineiro_table(client)
    first = form_of(page(client, "/juiz/mao?rodadas=nos,nos"), "aplicar-2")["cid"]
    second = form_of(page(client, "/juiz/mao?rodadas=nos,nos"), "aplicar-2")["cid"]
    assert first != second


# --- one rule set's ruling never goes to the other's table ------------------------------------


def test_a_paulista_ruling_never_goes_to_a_mineiro_table(client: FlaskClient, app: Flask) -> None:
    """From a Mineiro board, a Paulista ruling offers no apply button; posted anyway (even +6,
    a value of both ladders), it is refused naming the table's rule set, nothing recorded."""
    token = mineiro_table(client)
    html = page(client, "/juiz/mao?variante=paulista&rodadas=nos,nos")
    assert verdict(html)["data-pontos"] == "1" and "aplicar" not in hooks(html)
    whole = page(client, "/juiz/mao?variante=paulista&vira=4o&jogadores=2&mao=1&eventos=1:corre")
    assert "aplicar-mao" not in hooks(whole)
    rev = str(revision_of(app, token))
    refused = "Esta mesa joga Truco Mineiro: a decisão do Truco Paulista não vai para o placar."
    hand = {"rev": rev, "variante": "paulista", "lado": "0", "pontos": "6"}
    events = {**hand, "jogadores": "2", "mao": "1", "eventos": "1:corre"}
    for action, data in (("/juiz/aplicar", hand), ("/juiz/mao/aplicar", events)):
        response = client.post(action, data=data)
        assert response.status_code == 422
        assert text_of(response.text, "mensagem") == refused
    assert score(app, token) == (0, 0) and reasons_of(app, token) == []


def test_a_mineiro_ruling_never_goes_to_a_paulista_table(client: FlaskClient, app: Flask) -> None:
    """From a Paulista board, a Mineiro ruling offers no apply button; posted anyway, it is
    refused naming the table's rule set, nothing recorded."""
    token = paulista_table(client)
    html = page(client, "/juiz/mao?variante=mineiro&rodadas=nos,nos")
    assert verdict(html)["data-pontos"] == "2" and "aplicar" not in hooks(html)
    whole = page(client, WHOLE.replace("?", "?variante=mineiro&") + WON_TWO_ROUNDS)
    assert "aplicar" not in hooks(whole) and "aplicar-mao" not in hooks(whole)
    rev = str(revision_of(app, token))
    refused = "Esta mesa joga Truco Paulista: a decisão do Truco Mineiro não vai para o placar."
    hand = {"rev": rev, "variante": "mineiro", "lado": "0", "pontos": "6"}
    events = {**hand, "jogadores": "2", "mao": "1", "eventos": "1:corre"}
    for action, data in (("/juiz/aplicar", hand), ("/juiz/mao/aplicar", events)):
        response = client.post(action, data=data)
        assert response.status_code == 422
        assert text_of(response.text, "mensagem") == refused
    assert score(app, token) == (0, 0) and reasons_of(app, token) == []


def test_the_juiz_opened_from_a_mineiro_board_rules_by_mineiro(client: FlaskClient) -> None:
    """Opened from a Mineiro table, the juiz starts in Mineiro without being told (no vira, its
    values), and its hand from the rounds is worth 2."""
    mineiro_table(client)
    assert 'data-variante="mineiro"' in page(client, "/juiz/mao")
    assert ruling(client, "/juiz/mao?rodadas=nos,nos")["data-pontos"] == "2"


def test_the_round_opened_from_a_3x3_mineiro_board_seats_its_six_players(
    client: FlaskClient,
) -> None:
    """The round page opened from a 3x3 Mineiro table: six seats by the table's names, no vira
    to choose, and the zap wins."""
    players = "Ana Bia Caio Duda Edu Fê".split()
    names = {f"jogador_{seat}": name for seat, name in enumerate(players)}
    token = open_table(client, variante="mineiro", jogadores="6", **names)
    client.get(f"/m/{token}/juiz")
    html = page(client, "/juiz/rodada")
    assert sorted(re.findall(r'data-jogador="([^"]+)"', html)) == sorted(names.values())
    assert "tabela-vira" not in hooks(html)
    attrs = ruling(client, "/juiz/rodada?jogadas=3p,2c,Kp,Ko,Qp,4p")
    assert attrs["data-resultado"] == "vitoria" and attrs["data-jogada"] == "6"


def test_the_paulista_switch_from_a_mineiro_board_opens_the_juiz_in_paulista(
    client: FlaskClient,
) -> None:
    """The juiz opened from a Mineiro table starts in Mineiro, and its 'Truco Paulista' switch
    really changes the rule set (an unsaid one would fall back to the table's)."""
    mineiro_table(client)
    html = page(client, "/juiz")
    switch = re.search(r'href="([^"]+)"[^>]*>\s*Truco Paulista', html)
    assert switch is not None
    href = switch.group(1).replace("&amp;", "&")
    assert "variante=paulista" in href
    assert 'data-variante="paulista"' in page(client, href.replace("/juiz?", "/juiz/mao?"))


def test_the_juiz_opened_from_a_mineiro_board_links_the_mineiro_rule_book(
    client: FlaskClient,
) -> None:
    """The juiz's 'Livro de regras' card goes to the rule book of the rule set it rules by."""
    mineiro_table(client)
    html = page(client, "/juiz")
    card = re.search(r'href="([^"]+)" data-testid="juiz-regras"', html)
    assert card is not None and card.group(1) == "/regras/mineiro"
