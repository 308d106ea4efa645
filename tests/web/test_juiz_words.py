"""The juiz says the rules' own sentences (rules/reasons.py words them once), and names the
seats as the board does."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import Card, Code, Names, Reason, Special, word

from .helpers import open_table
from .test_juiz import explanation, revision_of

# The juiz's words come from the rules: the database engine does not matter.
pytestmark = pytest.mark.sqlite_only

ROUND = "/juiz/rodada?"


def test_a_refused_play_is_explained_in_the_rules_words(client: FlaskClient) -> None:
    """The vira played by the first player: the juiz's refusal is the rules' sentence, with the
    player's name."""
    said = explanation(client, ROUND + "vira=3o&jogadores=2&jogadas=3o,3c")
    reason = Reason(Code.VIRA_PLAYED, seat=1, card=Card.parse("3o"))
    assert said == word(reason, Names(seats=("Nós 1", "Eles 1")))


def test_a_name_two_seats_share_is_named_by_seat_on_the_board_and_in_the_juiz(
    client: FlaskClient,
) -> None:
    """Two players called Zé: neither the board nor the juiz can tell them apart by name, so
    both name those seats 'Nós 1' and 'Eles 1' (and the juiz still judges their round)."""
    token = open_table(client, jogador_0="Zé", jogador_1="Zé", jogador_2="Bia")
    board = client.get(f"/m/{token}").text
    deal = re.search(r'data-testid="vez">([^<]+)<', board)
    assert deal and deal.group(1) == "Dá as cartas (pé): Nós 1 · Começa (mão): Eles 1"
    client.get(f"/m/{token}/juiz")
    html = client.get(ROUND + "vira=3o&jogadas=4p,3c,2c,Ae").text
    assert sorted(re.findall(r'data-jogador="([^"]+)"', html)) == [
        "Bia",
        "Eles 1",
        "Eles 2",
        "Nós 1",
    ]
    assert 'data-resultado="vitoria"' in html


def test_the_apply_panel_says_the_special_hands_rule_in_the_rules_words(
    client: FlaskClient, app: Flask
) -> None:
    """At 11 x 0 the panel's note is the rules' sentence for the mão de onze."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    for points in (9, 1, 1):
        data = {"rev": str(revision_of(app, token)), "lado": "0", "pontos": str(points)}
        assert client.post("/juiz/aplicar", data=data).status_code == 303
    html = client.get("/juiz/mao?rodadas=nos,nos").text
    note = word(Reason(Code.NO_CALL_IN_SPECIAL, special=Special.ONZE_NOS))
    assert f'<p class="jz-muted">{note}</p>' in html
