"""A Truco Mineiro table: its rule set kept in the table, offered by the new-table form, and its
board's buttons, special hands, notes and deal read from that rule set."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.mesa import forecast
from scorekeeper.rules import MatchConfig, MatchState, Outcome
from scorekeeper.web.turma import present as turma_present

from .helpers import by_testid, mesa_of, open_table, play, post, scores, showing, tap


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


def test_a_mineiro_table_plays_the_ferro_blind_or_open_never_in_the_dark(
    client: FlaskClient,
) -> None:
    """Truco Mineiro's mão de ferro is às cegas or às claras (/regras/mineiro#mineiro-mao-de-ferro):
    'no escuro' is refused in pt-BR and opens nothing; Paulista keeps offering it."""
    response = client.post("/mesas", data={"variante": "mineiro", "ferro": "escuro"})
    assert response.status_code == 422
    assert "às cegas ou às claras, não no escuro" in response.text
    assert client.post("/mesas", data={"variante": "mineiro", "ferro": "claras"}).status_code == 303
    assert client.post("/mesas", data={"ferro": "escuro"}).status_code == 303


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


MINEIRO_VALUES = (2, 4, 6, 10, 12)
TO_FERRO = (  # 10 x 6, then Nós run from their mão de dez twice: 10 x 10
    "normal:0:6", "normal:1:6", "normal:0:4", "onze_correu:1:2", "onze_correu:1:2",
)  # fmt: skip


def test_a_mineiro_board_offers_its_ladder_and_no_other_value(client: FlaskClient) -> None:
    """+2, +4, +6, +10 and +12 under each side, and none of Paulista's +1, +3 or +9."""
    html = showing(client.get(f"/m/{open_table(client, variante='mineiro')}").text)
    for side in "ab":
        for value in MINEIRO_VALUES:
            assert by_testid(html, f"tap-{side}-{value}") == f"+{value}"
        for value in (1, 3, 9):
            assert by_testid(html, f"tap-{side}-{value}") is None
    assert "Correram do truco: +2 para quem pediu; do seis: +4; do dez: +6; do doze: +10" in html


def test_a_paulista_board_keeps_its_ladder(client: FlaskClient) -> None:
    """An existing kind of table is unchanged: +1, +3, +6, +9, +12."""
    html = showing(client.get(f"/m/{open_table(client)}").text)
    assert [by_testid(html, f"tap-a-{v}") for v in (1, 3, 6, 9, 12)] == [
        "+1", "+3", "+6", "+9", "+12"
    ]  # fmt: skip
    assert by_testid(html, "tap-a-2") is None
    assert "Correram do truco: +1 para quem pediu; do seis: +3; do nove: +6; do doze: +9" in html


def test_a_mineiro_game_goes_to_12_with_even_scores(client: FlaskClient) -> None:
    """Hands of 2, 4 and 6 leave even scores, and the game ends at 12 (a queda of three)."""
    token = open_table(client, variante="mineiro")
    html = play(client, token, "normal:0:6", "normal:1:2", "normal:0:2").text
    assert scores(html) == (8, 2)
    html = play(client, token, "normal:0:4").text
    assert scores(html) == (12, 2) and by_testid(html, "series-a") == "1"
    assert "Partida para Nós!" in html and "Melhor de 3" in html


def test_a_paulista_tap_on_a_mineiro_board_is_refused_in_portuguese(client: FlaskClient) -> None:
    """+3 is not a Mineiro hand: refused with the ladder, nothing recorded."""
    token = open_table(client, variante="mineiro")
    response = tap(client, token, "normal:0:3")
    assert response.status_code == 422
    assert by_testid(response.text, "mensagem") == "Uma mão vale 2, 4, 6, 10 ou 12 pontos."
    assert scores(response.text) == (0, 0)


def test_a_mineiro_tap_on_a_paulista_board_is_refused_in_portuguese(client: FlaskClient) -> None:
    """+10 is not a Paulista hand: refused with Paulista's ladder, nothing recorded."""
    token = open_table(client)
    response = tap(client, token, "normal:1:10")
    assert response.status_code == 422
    assert by_testid(response.text, "mensagem") == "Uma mão vale 1, 3, 6, 9 ou 12 pontos."


def test_the_mao_de_dez_offers_its_outcomes_in_mineiro_values(client: FlaskClient) -> None:
    """At 10 the side plays for 4 or runs and gives 2; played and won it reaches 14 → 12."""
    token = open_table(client, variante="mineiro")
    html = showing(play(client, token, "normal:0:10").text)
    assert 'data-testid="mao-de-onze"' in html and "Mão de dez" in html
    assert by_testid(html, "onze-ganhou") == "Jogou e ganhou (Nós +4)"
    assert by_testid(html, "onze-perdeu") == "Jogou e perdeu (Eles +4)"
    assert by_testid(html, "onze-correu") == "Correu (Eles +2)"
    assert by_testid(html, "tap-a-2") is None
    assert scores(play(client, token, "onze_correu:1:2").text) == (10, 2)


def test_the_mao_de_dez_won_takes_the_game(client: FlaskClient) -> None:
    """Won, the mão de dez's 4 takes the side at 10 to 12."""
    token = open_table(client, variante="mineiro")
    html = play(client, token, "normal:0:10", "onze_ganhou:0:4").text
    assert scores(html)[0] == 12 and "Partida para Nós!" in html


def test_the_mao_de_ferro_gives_the_game_to_its_winner(client: FlaskClient) -> None:
    """10 x 10: the ferro's buttons, and its winner takes the game."""
    token = open_table(client, variante="mineiro", ferro="claras")
    html = showing(play(client, token, *TO_FERRO).text)
    assert scores(html) == (10, 10)
    assert by_testid(html, "ferro-a") == "Mão de ferro para Nós"
    assert by_testid(html, "ferro-b") == "Mão de ferro para Eles"
    assert "às claras" in html
    html = play(client, token, "ferro:1:2").text
    assert "Partida para Eles!" in html


def test_a_mineiro_boards_forecast_is_the_mineiro_engines_answer(client: FlaskClient) -> None:
    """The board names a game table of its own rule set: every even score's taps lead where
    the Mineiro engine says, and Paulista's table stays at its own URL."""
    html = client.get(f"/m/{open_table(client, variante='mineiro')}").text
    found = re.search(r'id="board"[^>]*data-previsao="([^"]+)"', html)
    assert found and found.group(1).startswith("/previsao/mineiro/10.json?v=")
    table = client.get(found.group(1)).get_json()
    config = MatchConfig.of("mineiro")
    for index, row in enumerate(table["scores"]):
        points = divmod(index, 13)
        if 12 in points or points[0] % 2 or points[1] % 2:
            continue
        state = MatchState(config, points)
        codes = table["codes"][table["keys"][row[0]]]
        assert codes == [outcome.code for outcome in state.legal_outcomes()]
        for code, target in zip(codes, row[1:], strict=True):
            after = state.apply(Outcome.parse(code, config.variant))
            index_after = forecast.score_index(after.points)
            won = after.game_winner
            assert target == (index_after if won is None else -1 - (2 * index_after + won))
    assert client.get("/previsao/mineiro/11.json").status_code == 404
    assert client.get("/previsao/gaucho/10.json").status_code == 404


def test_the_notes_after_a_mineiro_hand_speak_its_calls(client: FlaskClient) -> None:
    """After +2 'correram do truco', after +6 'correram do dez' (Mineiro has no nove), after
    +10 'dez aceito'; a Paulista note for the value is refused."""
    token = open_table(client, variante="mineiro")
    html = play(client, token, "normal:0:2").text
    assert 'data-label="nota: correram do truco"' in html
    html = play(client, token, "normal:1:6").text
    assert 'data-label="nota: correram do dez"' in html and "correram do nove" not in html
    found = re.search(r'name="registro" value="(\d+)"', html)
    assert found
    record = found.group(1)
    assert post(client, token, "nota", registro=record, nota="correram_nove").status_code == 422
    noted = post(client, token, "nota", registro=record, nota="correram_dez")
    assert noted.status_code == 200 and "correram do dez" in noted.text
    html = play(client, token, "normal:1:4").text
    assert 'data-label="nota: truco aceito"' in html


def test_a_3x3_deal_rotates_over_six_seats(client: FlaskClient) -> None:
    """Seats alternate sides; each hand the deal passes to the next of the six, and after six
    hands it is back with the first dealer."""
    names = {f"jogador_{seat}": f"P{seat + 1}" for seat in range(6)}
    token = open_table(client, variante="mineiro", jogadores="6", **names)
    html = client.get(f"/m/{token}").text
    assert "Dá as cartas (pé): P1 · Começa (mão): P2" in html
    html = play(client, token, "normal:0:2", "anulada", "anulada", "anulada").text
    assert "Dá as cartas (pé): P5 · Começa (mão): P6" in html
    html = play(client, token, "anulada").text
    assert "Dá as cartas (pé): P6 · Começa (mão): P1" in html
    html = play(client, token, "anulada").text
    assert "Dá as cartas (pé): P1 · Começa (mão): P2" in html


def test_an_edit_of_a_mineiro_table_keeps_its_rule_set(app: Flask, client: FlaskClient) -> None:
    """Renaming a side of a Mineiro 3x3 table keeps it Mineiro with its six seats."""
    names = {f"jogador_{seat}": f"P{seat + 1}" for seat in range(6)}
    token = open_table(client, variante="mineiro", jogadores="6", **names)
    play(client, token, "normal:0:4")
    page = client.get(f"/m/{token}/editar").text
    assert 'name="variante" value="mineiro"' in page
    data = dict(re.findall(r'name="(\w+)" value="([^"]*)"', page))
    data.update(jogadores="6", time_a="Trio", **names)
    data.pop("csrf_token", None)
    response = client.post(f"/m/{token}/editar", data={**data, "pe": "1", "serie": "melhor_de_3"})
    assert response.status_code in (200, 303), response.text[:500]
    mesa = mesa_of(app, token)
    assert (mesa.variante, mesa.players, mesa.team_a) == ("mineiro", 6, "Trio")


def test_regras_desta_mesa_names_mineiro_and_links_its_sections(client: FlaskClient) -> None:
    """Opened from a Mineiro board, the rule book's 'Regras desta mesa' says Truco Mineiro and
    links each option to its section of /regras/mineiro."""
    token = open_table(client, variante="mineiro", jogadores="6")
    assert client.get(f"/m/{token}/juiz").status_code == 303
    html = client.get("/regras").text
    assert 'data-regra="variante-mineiro"' in html and "Truco Mineiro" in html
    assert '<a href="/regras/mineiro#mineiro-jogadores">Jogo</a>: 3x3' in html
    assert 'href="/regras/mineiro#mineiro-mao-de-dez">Mão especial</a>: mão de dez' in html
    assert 'href="/regras/mineiro#mineiro-mao-de-ferro"' in html
    mineiro = client.get("/regras/mineiro").text
    assert 'data-testid="regras-desta-mesa"' in mineiro
    assert '<a href="/regras/mineiro#mineiro-jogadores">Jogo</a>: 3x3' in mineiro


def test_the_mineiro_rule_book_names_no_paulista_table(client: FlaskClient) -> None:
    """Opened from a Paulista board, /regras/mineiro shows no 'Regras desta mesa' (that table
    plays by the other book)."""
    token = open_table(client)
    assert client.get(f"/m/{token}/juiz").status_code == 303
    assert 'data-testid="regras-desta-mesa"' not in client.get("/regras/mineiro").text


def test_the_live_view_history_and_result_name_truco_mineiro(
    app: Flask, client: FlaskClient
) -> None:
    """A Mineiro table's live view, history and finished game's message say Truco Mineiro."""
    token = open_table(client, variante="mineiro")
    html = play(client, token, "normal:0:12").text
    assert "Partida para Nós! Nós 12 x 0 Eles · partidas 1 x 0 · Truco Mineiro" in html
    history = client.get(f"/m/{token}/historico").text
    assert by_testid(history, "variante") == "Nós x Eles · Truco Mineiro"
    live = client.get(f"/v/{mesa_of(app, token).view_token}").text
    assert by_testid(live, "variante") == "Truco Mineiro"


def test_a_tables_json_export_names_its_rule_set(client: FlaskClient) -> None:
    """The table's JSON log says which rule set it was scored by."""
    mineiro, paulista = open_table(client, variante="mineiro"), open_table(client)
    assert client.get(f"/m/{mineiro}/exportar.json").get_json()["mesa"]["regras"] == (
        "Truco Mineiro"
    )
    assert client.get(f"/m/{paulista}/exportar.json").get_json()["mesa"]["regras"] == (
        "Truco Paulista"
    )


def test_the_result_image_names_truco_mineiro(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The score image's series line starts with the rule set on a Mineiro table only."""
    lines: list[str] = []

    def drawn(*args: object, **_kwargs: object) -> bytes:
        lines.append(str(args[2]))
        return b"png"

    monkeypatch.setattr(turma_present, "score_png", drawn)
    for form in ({"variante": "mineiro"}, {}):
        view = mesa_of(app, open_table(client, **form)).view_token
        assert client.get(f"/v/{view}/imagem.png").status_code == 200
    assert lines == [
        "Truco Mineiro · Melhor de 3 · partida 1 · partidas 0 x 0",
        "Partida 1 · partidas 0 x 0",
    ]
