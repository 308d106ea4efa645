"""How a turma's statistics count the mão de onze and the runs (/regras#mao-de-onze): every mão
de onze the side at 11 had, played (won or lost) or run from, and every run, noted from a truco
or from the mão de onze. One test per counting rule, read from the page the group sees."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.extensions import db
from scorekeeper.mesas import stats as stats_domain
from scorekeeper.models import MesaSummary, TurmaSummary

from .helpers import HX, open_table, play, revision, tap
from .test_table_edit import edit

PAIRS = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "Caio", "jogador_3": "Duda"}
TO_ELEVEN = ("normal:1:9", "normal:1:1", "normal:1:1")  # Beto e Duda at 11: a mão de onze


def turma_of(client: FlaskClient, token: str) -> str:
    """Save the table in a new turma; the turma's scorer token."""
    response = client.post(
        f"/m/{token}/turma", data={"rev": revision(client, token), "acao": "criar", "nome": "Q"}
    )
    assert response.status_code == 303, response.text
    return response.headers["Location"].rsplit("/", 1)[1]


def cards(client: FlaskClient, turma: str, testid: str) -> dict[str, dict[str, str]]:
    """The statistics cards with this test id, by name, as their data attributes."""
    found = {}
    for card in re.findall(rf'data-testid="{testid}"([^>]*)>', client.get(f"/turma/{turma}").text):
        data = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', card))
        found[data.get("nome") or data["nomes"]] = data
    return found


def onze(card: dict[str, str]) -> tuple[int, int, int, int]:
    """A card's mãos de onze: had, played, won, run from."""
    keys = ("onze", "onze-jogadas", "onze-ganhas", "onze-correu")
    return tuple(int(card[key]) for key in keys)  # type: ignore[return-value]


def table_in_turma(app: Flask) -> tuple[FlaskClient, str, str]:
    """A 2x2 table with named players in a new turma: the client, its token, the turma's."""
    client = app.test_client()
    token = open_table(client, **PAIRS)
    return client, token, turma_of(client, token)


def test_a_mao_de_onze_played_and_won_counts_had_played_and_won_for_the_side_at_eleven(
    app: Flask,
) -> None:
    """The side at 11 plays its mão de onze and wins: one had, played and won for each of its
    players and its pair; nothing for the other side."""
    client, token, turma = table_in_turma(app)
    play(client, token, *TO_ELEVEN, "onze_ganhou:1")
    pairs = cards(client, turma, "stats-dupla")
    assert onze(pairs["Beto e Duda"]) == (1, 1, 1, 0)
    assert onze(pairs["Ana e Caio"]) == (0, 0, 0, 0)
    assert onze(cards(client, turma, "stats-jogador")["Duda"]) == (1, 1, 1, 0)


def test_a_mao_de_onze_played_and_lost_counts_had_and_played_not_won(app: Flask) -> None:
    """The side at 11 plays and loses: one had and played, none won."""
    client, token, turma = table_in_turma(app)
    play(client, token, *TO_ELEVEN, "onze_perdeu:0")
    assert onze(cards(client, turma, "stats-dupla")["Beto e Duda"]) == (1, 1, 0, 0)


def test_a_mao_de_onze_run_from_counts_had_and_run_not_played(app: Flask) -> None:
    """The side at 11 runs from its mão de onze (the other side scores 1): one had and one run
    from, none played; the other side gets nothing for it."""
    client, token, turma = table_in_turma(app)
    play(client, token, *TO_ELEVEN, "onze_correu:0")
    pairs = cards(client, turma, "stats-dupla")
    assert onze(pairs["Beto e Duda"]) == (1, 0, 0, 1)
    assert onze(pairs["Ana e Caio"]) == (0, 0, 0, 0)


def test_a_pair_that_had_five_and_ran_from_four_had_five_played_one_ran_four(
    app: Flask,
) -> None:
    """Five mãos de onze, run from four times and played (lost) once: the pair had five,
    played one, won none, ran from four; its card says so in words."""
    client, token, turma = table_in_turma(app)
    play(client, token, *TO_ELEVEN, *["onze_correu:0"] * 4, "onze_perdeu:0")
    assert onze(cards(client, turma, "stats-dupla")["Beto e Duda"]) == (5, 1, 0, 4)
    assert "5: jogou 1, ganhou 0, correu de 4" in client.get(f"/turma/{turma}").text


def test_correu_counts_noted_truco_runs_and_runs_from_the_mao_de_onze(app: Flask) -> None:
    """'Correu' counts every run: a hand noted 'correram do truco' (the side that lost the hand
    ran) and a mão de onze run from, each for the side that ran."""
    client, token, turma = table_in_turma(app)
    noted = tap(client, token, "normal:1:1")
    record = re.search(r'name="registro" value="(\d+)"', noted.text)
    assert record
    data = {"rev": revision(client, token), "registro": record.group(1), "nota": "correram_truco"}
    assert client.post(f"/m/{token}/nota", data=data, headers=HX).status_code == 200
    play(client, token, "normal:1:9", "normal:1:1", "onze_correu:0")
    pairs = cards(client, turma, "stats-dupla")
    ran = pairs["Ana e Caio"]
    assert (ran["correu"], ran["correu-truco"], ran["onze-correu"]) == ("1", "1", "0")
    stayed = pairs["Beto e Duda"]
    assert (stayed["correu"], stayed["correu-truco"], stayed["onze-correu"]) == ("1", "0", "1")


def test_a_mao_de_ferro_is_no_mao_de_onze(app: Flask) -> None:
    """At 11 x 11 the mão de ferro is played: no side had a mão de onze from it."""
    client, token, turma = table_in_turma(app)
    three_lost, two_run = ["onze_perdeu:0"] * 3, ["onze_correu:0"] * 2  # Ana e Caio 9, then 11
    play(client, token, *TO_ELEVEN, *three_lost, *two_run, "ferro:0")
    pairs = cards(client, turma, "stats-dupla")
    assert onze(pairs["Ana e Caio"]) == (0, 0, 0, 0)
    assert onze(pairs["Beto e Duda"]) == (5, 3, 0, 2)


def test_summaries_stored_by_the_previous_version_are_counted_again(app: Flask) -> None:
    """A table's summary and a turma's tally stored before this way of counting (an older
    version) are read again from the records: the page counts the run from the onze."""
    client, token, turma = table_in_turma(app)
    play(client, token, *TO_ELEVEN, "onze_correu:0")
    for name in ("Ana", "Beto"):  # stored now, by this version
        assert cards(client, turma, "stats-jogador")[name]
    with app.app_context(), db.engine.begin() as connection:
        old = {"version": stats_domain.SUMMARY_VERSION - 1}
        connection.execute(update(MesaSummary.__table__).values(data=old))
        connection.execute(update(TurmaSummary.__table__).values(key={"version": [2, 2]}))
    assert onze(cards(client, turma, "stats-dupla")["Beto e Duda"]) == (1, 0, 0, 1)


def test_a_player_swapped_in_mid_series_is_credited_only_with_the_games_after_the_swap(
    app: Flask,
) -> None:
    """Ana plays the first game (won by her pair), then Zeca takes her seat for the second
    (won too): Ana has one game, Zeca one, Caio (who sat through both) two; the pairs are
    counted apart; a mão de onze played before the swap stays with the pair that had it."""
    client, token, turma = table_in_turma(app)
    play(client, token, "normal:0:9", "normal:0:1", "normal:0:1", "onze_ganhou:0")
    play(client, token, "proxima_partida")
    assert edit(client, token, jogador_0="Zeca").status_code == 303
    play(client, token, "normal:0:12")
    players = cards(client, turma, "stats-jogador")
    assert (players["Ana"]["partidas"], players["Ana"]["vitorias"]) == ("1", "1")
    assert (players["Zeca"]["partidas"], players["Zeca"]["vitorias"]) == ("1", "1")
    assert (players["Caio"]["partidas"], players["Caio"]["vitorias"]) == ("2", "2")
    pairs = cards(client, turma, "stats-dupla")
    assert onze(pairs["Ana e Caio"]) == (1, 1, 1, 0)
    assert onze(pairs["Zeca e Caio"]) == (0, 0, 0, 0)
