"""The exports name the rule set: every CSV row ends with the table's ('regras': Truco Paulista or
Truco Mineiro, as the JSON's 'regras' says it), a Mineiro hand reads in Mineiro words, and every
text cell stays safe from a spreadsheet's formulas."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.common.exports import FORMULA_STARTS

from .helpers import HX, csv_rows_in, join_turma, new_turma, open_table, play, post, revision, tap

PAIRS = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "Caio", "jogador_3": "Duda"}
RULES = {"paulista": "Truco Paulista", "mineiro": "Truco Mineiro"}


def header_of(text: str) -> list[str]:
    """A CSV export's header row."""
    return next(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))


def note(client: FlaskClient, token: str, code: str, nota: str) -> None:
    """Tap a normal hand and note how it ended."""
    record = re.search(r'name="registro" value="(\d+)"', tap(client, token, code).text)
    assert record
    data = {"rev": revision(client, token), "registro": record.group(1), "nota": nota}
    assert client.post(f"/m/{token}/nota", data=data, headers=HX).status_code == 200


@pytest.mark.parametrize("rules", ["paulista", "mineiro"])
def test_every_row_of_a_tables_csv_names_its_rule_set(client: FlaskClient, rules: str) -> None:
    """The table's CSV ends with the column 'regras', each record's row saying the table's rule
    set in words; its JSON names it once, under 'mesa'."""
    token = open_table(client, variante=rules)
    play(client, token, "normal:0:6", "normal:1:12")
    text = client.get(f"/m/{token}/exportar.csv").text
    assert header_of(text)[-1] == "regras"
    rows = csv_rows_in(text)
    assert len(rows) == 2 and {row["regras"] for row in rows} == {RULES[rules]}
    log = json.loads(client.get(f"/m/{token}/exportar.json").text)
    assert log["mesa"]["regras"] == RULES[rules]


def test_a_mineiro_tables_csv_reads_its_hands_in_mineiro_words(client: FlaskClient) -> None:
    """A Mineiro hand of 6 the others ran from the dez reads 'correram do dez', a hand of 4
    'truco aceito', the mão de dez won gives 4: the values and the calls of its ladder."""
    token = open_table(client, variante="mineiro")
    note(client, token, "normal:0:6", "correram_dez")
    note(client, token, "normal:1:4", "truco")
    play(client, token, "normal:1:6", "onze_ganhou:1:4")
    rows = csv_rows_in(client.get(f"/m/{token}/exportar.csv").text)
    said = [(row["descricao"], row["pontos"], row["nota"]) for row in rows]
    assert said == [
        ("Nós +6", "6", "correram do dez"),
        ("Eles +4", "4", "truco aceito"),
        ("Eles +6", "6", ""),
        ("Eles +4", "4", ""),
    ]
    assert rows[-1]["tipo"] == "onze_ganhou" and rows[-1]["regras"] == "Truco Mineiro"


def test_the_turmas_games_name_each_games_rule_set(client: FlaskClient) -> None:
    """A turma that played both rule sets: each game's CSV row and JSON entry say its table's
    rule set, and each player's statistics come once per rule set, the Mineiro ones with
    their mãos de dez."""
    paulista = open_table(client, **PAIRS)
    turma = new_turma(client, paulista)
    play(client, paulista, "normal:0:12")
    mineiro = open_table(client, variante="mineiro", **PAIRS)
    join_turma(client, mineiro, turma)
    play(client, mineiro, "normal:1:6", "normal:0:10", "onze_correu:1:2", "onze_perdeu:1:4")
    text = client.get(f"/turma/{turma}/exportar.csv").text
    assert header_of(text)[-1] == "regras"
    games = [(row["vencedor"], row["regras"]) for row in csv_rows_in(text)]
    assert games == [("Ana e Caio", "Truco Paulista"), ("Beto e Duda", "Truco Mineiro")]
    history = json.loads(client.get(f"/turma/{turma}/exportar.json").text)
    assert [game["regras"] for game in history["partidas"]] == list(RULES.values())
    assert [table["regras"] for table in history["mesas"]] == list(RULES.values())
    ana = {p["regras"]: p for p in history["jogadores"] if p["nome"] == "Ana"}
    paulista_ana, mineiro_ana = ana["Truco Paulista"], ana["Truco Mineiro"]
    assert (paulista_ana["vitorias"], mineiro_ana["vitorias"]) == (1, 0)
    assert paulista_ana["maos_de_onze"] == 0 and "maos_de_dez" not in paulista_ana
    assert (mineiro_ana["maos_de_dez"], mineiro_ana["maos_de_dez_corridas"]) == (2, 1)
    rivals = {(tuple(r["lados"]), r["regras"]): r["vitorias"] for r in history["confrontos"]}
    assert rivals == {
        (("Ana e Caio", "Beto e Duda"), "Truco Paulista"): [1, 0],
        (("Ana e Caio", "Beto e Duda"), "Truco Mineiro"): [0, 1],
    }


PAYLOADS = ("=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", '=HYPERLINK("x")')


def test_a_mineiro_tables_csv_cells_never_run_as_formulas(client: FlaskClient) -> None:
    """A Mineiro table's team and player names and correction reasons that a spreadsheet would
    run go out in the table's and the turma's CSV with a leading apostrophe, beside the rule
    set's column; numbers stay numbers."""
    names = {f"jogador_{seat}": PAYLOADS[seat % len(PAYLOADS)] for seat in range(4)}
    token = open_table(client, variante="mineiro", time_a=PAYLOADS[0], time_b=PAYLOADS[1], **names)
    turma = new_turma(client, token)
    post(client, token, "corrigir", lado="0", pontos="4", motivo=PAYLOADS[4])
    play(client, token, "normal:0:12")
    for link in (f"/m/{token}/exportar.csv", f"/turma/{turma}/exportar.csv"):
        text = client.get(link).text
        cells = [cell for row in csv.reader(io.StringIO(text[1:]), delimiter=";") for cell in row]
        assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS)], text
        assert {row["regras"] for row in csv_rows_in(text)} == {"Truco Mineiro"}
    table = csv_rows_in(client.get(f"/m/{token}/exportar.csv").text)
    assert table[0]["motivo"] == "'" + PAYLOADS[4] and table[-1]["placar_lado_1"] == "12"
