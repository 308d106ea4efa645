"""How a turma's statistics count the mão de onze and the runs (/regras#mao-de-onze): every mão
de onze the side at 11 had, played (won or lost) or run from, and every run, noted from a truco
or from the mão de onze; and each rule set apart, Truco Mineiro's mão de dez as its special
hand. One test per counting rule, read from the page the group sees."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper.domain.turma import mesa_summary, tallies
from scorekeeper.extensions import db
from scorekeeper.models import MesaSummary, TurmaSummary

from .helpers import HX, join_turma, new_turma, open_table, play, revision, tap
from .test_table_edit import edit

PAIRS = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "Caio", "jogador_3": "Duda"}
TO_ELEVEN = ("normal:1:9", "normal:1:1", "normal:1:1")  # Beto e Duda at 11: a mão de onze


def cards(
    client: FlaskClient, turma: str, testid: str, rules: str = "paulista"
) -> dict[str, dict[str, str]]:
    """The statistics cards with this test id of one rule set, by name, as their data
    attributes."""
    found = {}
    for card in re.findall(rf'data-testid="{testid}"([^>]*)>', client.get(f"/turma/{turma}").text):
        data = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', card))
        if data["regras"] == rules:
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
    return client, token, new_turma(client, token, "Q")


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
        old = {"version": mesa_summary.SUMMARY_VERSION - 1}
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
    assert edit(client, token, jogador_0="Zeca", nomes="substituir").status_code == 303
    play(client, token, "normal:0:12")
    players = cards(client, turma, "stats-jogador")
    assert (players["Ana"]["partidas"], players["Ana"]["vitorias"]) == ("1", "1")
    assert (players["Zeca"]["partidas"], players["Zeca"]["vitorias"]) == ("1", "1")
    assert (players["Caio"]["partidas"], players["Caio"]["vitorias"]) == ("2", "2")
    pairs = cards(client, turma, "stats-dupla")
    assert onze(pairs["Ana e Caio"]) == (1, 1, 1, 0)
    assert onze(pairs["Zeca e Caio"]) == (0, 0, 0, 0)


# --- Truco Paulista and Truco Mineiro counted apart ------------------------------------------

# Paulista: Ana e Caio at 11 play their mão de onze and win it, and the game.
PAULISTA_GAME = ("normal:0:9", "normal:0:1", "normal:0:1", "onze_ganhou:0")
# Mineiro: Ana e Caio at 10 run from their mão de dez (+2 for the others), then play the next
# one and lose it (+4): Beto e Duda take the game from 6.
MINEIRO_GAME = ("normal:1:6", "normal:0:10", "onze_correu:1:2", "onze_perdeu:1:4")


def mixed_turma(app: Flask) -> tuple[FlaskClient, str, str, str]:
    """A turma with a Paulista table and a Mineiro one of the same four players, a game played
    on each: the client, the turma's token, the Paulista table's and the Mineiro table's."""
    client, paulista, turma = table_in_turma(app)
    play(client, paulista, *PAULISTA_GAME)
    mineiro = open_table(client, variante="mineiro", **PAIRS)
    join_turma(client, mineiro, turma)
    play(client, mineiro, *MINEIRO_GAME)
    return client, turma, paulista, mineiro


def section(html: str, rules: str) -> str:
    """The part of the statistics of one rule set on a page that shows both."""
    found = re.search(
        rf'<section class="stats-rules"[^>]*data-regras="{rules}">(.*?)</section>', html, re.S
    )
    assert found, rules
    return found.group(1)


def test_a_turma_that_played_both_rule_sets_counts_each_ones_games_and_wins_apart(
    app: Flask,
) -> None:
    """Ana e Caio won the Paulista game, Beto e Duda the Mineiro one: each rule set has its
    own ranking, one game each, never two games in one ranking."""
    client, turma, _paulista, _mineiro = mixed_turma(app)
    for rules, winners, losers in (
        ("paulista", "Ana e Caio", "Beto e Duda"),
        ("mineiro", "Beto e Duda", "Ana e Caio"),
    ):
        pairs = cards(client, turma, "stats-dupla", rules)
        assert (pairs[winners]["partidas"], pairs[winners]["vitorias"]) == ("1", "1"), rules
        assert (pairs[losers]["partidas"], pairs[losers]["vitorias"]) == ("1", "0"), rules
        players = cards(client, turma, "stats-jogador", rules)
        assert sorted(players) == ["Ana", "Beto", "Caio", "Duda"]
        assert all(card["partidas"] == "1" for card in players.values()), rules
    html = client.get(f"/turma/{turma}").text
    rivals = dict(
        re.findall(
            r'data-testid="confronto" data-regras="(\w+)"[^>]*data-vitorias="([\d-]+)"', html
        )
    )
    assert rivals == {"paulista": "1-0", "mineiro": "0-1"}


def test_a_turma_that_played_both_rule_sets_counts_the_mao_de_onze_and_the_mao_de_dez_apart(
    app: Flask,
) -> None:
    """The Paulista mão de onze (Ana e Caio played and won) counts under Truco Paulista, the
    Mineiro mãos de dez (Ana e Caio ran from one, played and lost the next) under Truco
    Mineiro, each card in its own words."""
    client, turma, _paulista, _mineiro = mixed_turma(app)
    paulista = cards(client, turma, "stats-dupla", "paulista")
    assert onze(paulista["Ana e Caio"]) == (1, 1, 1, 0)
    assert onze(paulista["Beto e Duda"]) == (0, 0, 0, 0)
    mineiro = cards(client, turma, "stats-dupla", "mineiro")
    assert onze(mineiro["Ana e Caio"]) == (2, 1, 0, 1)
    assert onze(mineiro["Beto e Duda"]) == (0, 0, 0, 0)
    html = client.get(f"/turma/{turma}").text
    shown = section(html, "mineiro")
    assert "<dt>Mão de dez</dt>" in shown and "Mão de onze" not in shown
    assert "1 da mão de dez" in shown
    assert "<dt>Mão de onze</dt>" in section(html, "paulista")
    assert "na mão de onze, quem tinha 11; na mão de dez, quem tinha 10" in html


def test_a_turma_that_played_both_rule_sets_heads_each_and_names_each_tables_rule_set(
    app: Flask,
) -> None:
    """Both pages head each rule set's statistics (Paulista first), each with its own chart,
    and the list of tables names each table's rule set."""
    client, turma, _paulista, _mineiro = mixed_turma(app)
    html = client.get(f"/turma/{turma}").text
    headings = re.findall(r'<h3 id="stats-titulo-(\w+)">([^<]*)</h3>', html)
    assert headings == [("paulista", "Truco Paulista"), ("mineiro", "Truco Mineiro")]
    charts = re.findall(r'data-testid="grafico-noites" data-noites="1" data-regras="(\w+)"', html)
    assert charts == ["paulista", "mineiro"]
    named = re.findall(r'data-testid="turma-mesa-regras">([^<]*)<', html)
    assert named == ["Truco Mineiro", "Truco Paulista"]  # newest first
    assert 'data-testid="estatisticas-regras" data-regras' not in html.split("stats-rules")[0]


@pytest.mark.parametrize(
    ("form", "name", "special"),
    [
        ({}, "Truco Paulista", "Mão de onze"),
        ({"variante": "mineiro"}, "Truco Mineiro", "Mão de dez"),
    ],
)
def test_a_turma_of_one_rule_set_names_it_once_and_keeps_its_page(
    app: Flask, form: dict[str, str], name: str, special: str
) -> None:
    """A turma whose tables all play one rule set shows its statistics as before, under no
    rule set's heading: the rule set named once, the tables' list naming none."""
    client = app.test_client()
    token = open_table(client, **form, **PAIRS)
    turma = new_turma(client, token, "Q")
    play(client, token, "normal:0:12")
    html = client.get(f"/turma/{turma}").text
    assert re.findall(r'data-testid="estatisticas-regras"[^>]*>([^<]*)<', html) == [
        f"Regras: {name}"
    ]
    assert 'class="stats-rules"' not in html and "turma-mesa-regras" not in html
    assert '<h3 class="stats-sub">Jogadores</h3>' in html
    assert '<h3 class="stats-sub">Duplas</h3>' in html
    assert '<h4 class="stat-name">' in html
    assert html.count(f"<dt>{special}</dt>") == 6  # four players, two pairs
    assert len(cards(client, turma, "stats-dupla", form.get("variante", "paulista"))) == 2


def test_a_mineiro_3x3_table_counts_its_sides_as_trios(app: Flask) -> None:
    """A 3x3 table's sides are trios ('Ana, Caio e Edu'): each credited as one, with its
    players, and named so in the head-to-head and the list of tables."""
    client = app.test_client()
    names = ("Ana", "Beto", "Caio", "Duda", "Edu", "Fabi")
    seats = {f"jogador_{seat}": name for seat, name in enumerate(names)}
    token = open_table(client, variante="mineiro", jogadores="6", **seats)
    turma = new_turma(client, token, "Q")
    play(client, token, "normal:1:12")
    trios = cards(client, turma, "stats-trio", "mineiro")
    assert {name: trio["vitorias"] for name, trio in trios.items()} == {
        "Ana, Caio e Edu": "0",
        "Beto, Duda e Fabi": "1",
    }
    assert len(cards(client, turma, "stats-jogador", "mineiro")) == 6
    assert not cards(client, turma, "stats-dupla", "mineiro")
    html = client.get(f"/turma/{turma}").text
    assert 'data-nomes="Ana, Caio e Edu x Beto, Duda e Fabi" data-vitorias="0-1"' in html
    assert "Ana, Caio e Edu x Beto, Duda e Fabi</span>" in html


def test_stored_summaries_of_the_shape_before_rule_sets_are_rebuilt_not_misread(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Mineiro table's summary and the turma's tally stored before they kept the rule set
    (version 4: no 'variante', one tally for every table) are read again from the records:
    the Mineiro game counts under Truco Mineiro, never as a Paulista one, and both are stored
    again in the new shape."""
    monkeypatch.setattr(tallies, "KEEP_OPEN", 0)  # every table's counts in the stored tally
    client, turma, _paulista, _mineiro = mixed_turma(app)
    assert cards(client, turma, "stats-dupla", "mineiro")["Beto e Duda"]["vitorias"] == "1"
    summaries, tally_rows = MesaSummary.__table__, TurmaSummary.__table__
    with app.app_context(), db.engine.begin() as connection:
        old_tally = connection.execute(select(tally_rows)).one()
        for row in connection.execute(select(summaries)).all():
            old = {k: v for k, v in row.data.items() if k != "variante"}
            statement = update(summaries).where(summaries.c.mesa_id == row.mesa_id)
            connection.execute(statement.values(data={**old, "version": 4}))
        part = old_tally.data["rules"]["mineiro"]  # the old shape: one tally, no rule set
        old_data = {**{k: v for k, v in part.items() if k != "counts"}, "pairs": []}
        old_key = {**old_tally.key, "version": [4, 4]}
        connection.execute(update(tally_rows).values(key=old_key, data=old_data))
    pair = cards(client, turma, "stats-dupla", "mineiro")["Beto e Duda"]
    assert (pair["partidas"], pair["vitorias"]) == ("1", "1")
    assert cards(client, turma, "stats-dupla", "paulista")["Beto e Duda"]["vitorias"] == "0"
    with app.app_context():
        stored = {row.data["variante"] for row in db.session.execute(select(summaries))}
        assert stored == {"paulista", "mineiro"}
        tally = db.session.execute(select(tally_rows)).one()
        assert tally.key["version"] == [tallies.TALLY_VERSION, mesa_summary.SUMMARY_VERSION]
        assert sorted(tally.data["rules"]) == ["mineiro", "paulista"]
