"""A Truco Mineiro table: its rule set kept in the table, offered by the new-table form, and its
board's buttons, special hands, notes and deal read from that rule set."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .helpers import open_table


def mesa_of(app: Flask, token: str) -> Mesa:
    """The table of this scorer token, read afresh."""
    with app.app_context():
        return db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()


def test_a_table_opened_with_no_rule_set_plays_truco_paulista(
    app: Flask, client: FlaskClient
) -> None:
    """The default is unchanged: Paulista, the mão de onze, games in a row."""
    mesa = mesa_of(app, open_table(client))
    assert mesa.variante == "paulista" and mesa.match_config.variant.code == "paulista"
    assert (mesa.special_at, mesa.best_of) == (11, 0)


def test_a_mineiro_table_plays_the_queda_with_the_mao_de_dez_and_fixed_manilhas(
    app: Flask, client: FlaskClient
) -> None:
    """Chosen on the form, Mineiro brings its own defaults: best of 3, mão de dez, fixed
    manilhas on the dirty deck."""
    mesa = mesa_of(app, open_table(client, variante="mineiro"))
    assert mesa.variante == "mineiro" and mesa.match_config.variant.code == "mineiro"
    assert (mesa.best_of, mesa.special_at) == (3, 10)
    assert (mesa.manilhas, mesa.deck) == ("fixa", "sujo")


def test_a_mineiro_table_keeps_the_series_and_ferro_chosen(
    app: Flask, client: FlaskClient
) -> None:
    """The form's series and ferro apply to a Mineiro table too."""
    token = open_table(client, variante="mineiro", serie="avulsas", ferro="claras")
    mesa = mesa_of(app, token)
    assert (mesa.best_of, mesa.ferro_mode) == (0, "claras")


def test_a_mineiro_3x3_table_keeps_six_names(app: Flask, client: FlaskClient) -> None:
    """3x3 seats six players, their names in seat order."""
    names = {f"jogador_{seat}": f"P{seat + 1}" for seat in range(6)}
    mesa = mesa_of(app, open_table(client, variante="mineiro", jogadores="6", **names))
    assert mesa.players == 6 and mesa.player_names == [f"P{seat}" for seat in range(1, 7)]


def test_a_paulista_3x3_table_is_refused_in_portuguese(client: FlaskClient) -> None:
    """Paulista seats 2 or 4: 3x3 is refused with the reason, and no table is opened."""
    response = client.post("/mesas", data={"jogadores": "6"})
    assert response.status_code == 422
    assert "O truco se joga com 2 jogadores (1x1) ou 4 (2x2)." in response.text


def test_an_unknown_rule_set_is_refused_in_portuguese(client: FlaskClient) -> None:
    """A rule set the form does not offer is refused with the ones it does."""
    response = client.post("/mesas", data={"variante": "gaucho"})
    assert response.status_code == 422
    assert "Variante desconhecida" in response.text


def test_the_new_table_form_offers_the_rule_set(client: FlaskClient) -> None:
    """Paulista chosen, Mineiro offered, and 3x3 among the seats."""
    html = client.get("/").text
    assert 'data-testid="variante-paulista"' in html and 'data-testid="variante-mineiro"' in html
    assert 'name="jogador_5"' in html
