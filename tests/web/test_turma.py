"""A turma: saving tables in it, its two links, jogar de novo, its statistics (from the hand
records, cached per table revision and per turma under a key that proves them current), the
pages of its tables, merging names, exports and the score's image."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, insert, update

from scorekeeper.domain.mesa import InputError, load_board, service
from scorekeeper.domain.mesa import new_token as fresh_token
from scorekeeper.domain.mesa.settings import folded
from scorekeeper.domain.turma import stored_summaries, tallies, turmas
from scorekeeper.domain.turma.tally import KINDS, NIGHTS, Tally
from scorekeeper.extensions import db
from scorekeeper.models import Mesa, MesaSummary, Turma, TurmaSummary
from scorekeeper.rules import RulesError
from scorekeeper.web.common import exports
from scorekeeper.web.mesa.forms import NewTableForm
from scorekeeper.web.turma import present as turma_present

from ..profiles import examples
from .helpers import HX, by_testid, new_turma, open_table, play, post, revision, tap, turma_rev

PLAYERS = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "Caio", "jogador_3": "Duda"}
WIN_A = ("normal:0:12",)
WIN_B = ("normal:1:12",)


@pytest.fixture
def local(app: Flask) -> Flask:
    """The conftest app with no PUBLIC_URL: links use the request's host or the LAN address."""
    app.config["PUBLIC_URL"] = "http://tento.test"
    return app


def watch_link(client: FlaskClient, token: str) -> str:
    """The turma's read-only link as its page shows it."""
    found = re.search(
        r'<a href="([^"]+)" data-testid="turma-link-assistir"', client.get(f"/turma/{token}").text
    )
    assert found
    return found.group(1)


def rows(html: str, testid: str) -> dict[str, dict[str, str]]:
    """The statistics rows with this test id, by name, as their data attributes."""
    found = {}
    for row in re.findall(rf'data-testid="{testid}"([^>]*)>', html):
        data = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', row))
        found[data.get("nome") or data["nomes"]] = data
    return found


def again(client: FlaskClient, turma: str) -> str:
    """'Jogar de novo' on the turma's page; the new table's scorer token."""
    response = client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": turma_rev(client, turma)})
    assert response.status_code == 303, response.text
    return response.headers["Location"].rsplit("/", 1)[1]


def test_salvar_na_turma_creates_a_turma_with_both_links_and_their_qr_codes(
    local: Flask,
) -> None:
    """'Salvar na turma' makes a turma holding the table; its page shows both absolute links, each
    with its QR code."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    board = client.get(f"/m/{token}").text
    assert f'href="/m/{token}/turma" data-testid="salvar-turma"' in board
    turma = new_turma(client, token, "Truco de quinta")
    page = client.get(f"/turma/{turma}").text
    assert 'data-testid="turma"' in page and "Truco de quinta" in page
    marcar = re.search(r'<a href="([^"]+)" data-testid="turma-link-marcar"', page)
    assert marcar and marcar.group(1) == f"http://tento.test/turma/{turma}"
    assert watch_link(client, turma).startswith("http://tento.test/vt/")
    assert page.count('class="qr"') == 2
    with local.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        stored = db.session.execute(db.select(Turma).filter_by(edit_token=turma)).scalar_one()
        assert mesa.turma_id == stored.id


def test_a_table_joins_an_existing_turma_by_its_pasted_link(local: Flask) -> None:
    """Pasting a turma's scorer link joins the table to that turma instead of making a new one."""
    client = local.test_client()
    turma = new_turma(client, open_table(client, **PLAYERS))
    other = open_table(client, jogador_0="Eva", jogador_1="Fábio", jogadores="2")
    response = client.post(
        f"/m/{other}/turma",
        data={"rev": revision(client, other), "acao": "entrar", "link": f"http://x/turma/{turma}"},
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/turma/{turma}")
    assert client.get(f"/turma/{turma}").text.count('data-testid="turma-mesa"') == 2


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("http://x/turma/nao-existe-essa", "Não achei essa turma"),
        ("isto não é um link", "Não achei essa turma"),
        ("", "Não achei essa turma"),
    ],
)
def test_a_bad_turma_link_is_refused_in_portuguese_and_changes_nothing(
    local: Flask, link: str, said: str
) -> None:
    """A link that is no turma's gets a pt-BR 4xx and joins nothing."""
    client = local.test_client()
    token = open_table(client)
    rev = revision(client, token)
    response = client.post(f"/m/{token}/turma", data={"rev": rev, "acao": "entrar", "link": link})
    assert response.status_code == 422
    assert said in (by_testid(response.text, "mensagem") or "")
    assert revision(client, token) == rev


def test_the_viewer_link_of_a_turma_does_not_join_it(local: Flask) -> None:
    """The read-only link cannot add a table to a turma: it is refused in pt-BR."""
    client = local.test_client()
    turma = new_turma(client, open_table(client))
    other = open_table(client)
    rev = revision(client, other)
    link = watch_link(client, turma)
    response = client.post(f"/m/{other}/turma", data={"rev": rev, "acao": "entrar", "link": link})
    assert response.status_code == 422
    assert "link de assistir" in (by_testid(response.text, "mensagem") or "")
    assert revision(client, other) == rev


def test_saving_on_a_stale_board_is_refused_and_creates_no_turma(local: Flask) -> None:
    """Saving with a revision another phone moved on is refused (409) and creates no turma."""
    client = local.test_client()
    token = open_table(client)
    rev = revision(client, token)
    tap(client, token, "normal:0:1")
    response = client.post(f"/m/{token}/turma", data={"rev": rev, "acao": "criar", "nome": "X"})
    assert response.status_code == 409
    with local.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Turma)).scalar() == 0


def test_a_turma_name_too_long_or_an_unknown_action_is_refused(local: Flask) -> None:
    """A name past the limit or an action the form does not offer is refused, nothing written."""
    client = local.test_client()
    token = open_table(client)
    rev = revision(client, token)
    long_name = client.post(
        f"/m/{token}/turma", data={"rev": rev, "acao": "criar", "nome": "x" * 41}
    )
    assert long_name.status_code == 422 and "muito longo" in long_name.text
    unknown = client.post(f"/m/{token}/turma", data={"rev": rev, "acao": "apagar"})
    assert unknown.status_code == 422 and "Escolha criar uma turma" in unknown.text
    assert revision(client, token) == rev


def test_the_viewer_page_shows_the_tables_and_the_live_table_with_no_scorer_token(
    local: Flask,
) -> None:
    """The read-only page lists the tables and shows the one in play live, with no scorer token
    anywhere."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    turma = new_turma(client, token)
    play(client, token, "normal:0:3")
    path = watch_link(client, turma).replace("http://tento.test", "")
    page = client.get(path).text
    assert 'data-testid="turma-mesa"' in page
    assert 'id="live"' in page and 'hx-get="/v/' in page
    assert by_testid(page, "score-a") == "3"
    assert turma not in page and token not in page
    assert 'data-testid="jogar-de-novo"' not in page


def test_turma_tokens_are_capabilities(local: Flask) -> None:
    """Unknown tokens get 404; the read-only token opens only the read-only page."""
    client = local.test_client()
    turma = new_turma(client, open_table(client))
    view = watch_link(client, turma).rsplit("/", 1)[1]
    assert client.get(f"/turma/{view}").status_code == 403
    assert client.get(f"/vt/{turma}").status_code == 404
    assert client.get("/turma/nada-disso").status_code == 404
    refused = client.post(f"/turma/{view}/jogar-de-novo", data={"rev": "0"})
    assert refused.status_code == 403


def test_jogar_de_novo_opens_the_same_table_with_the_deal_rotated(local: Flask) -> None:
    """'Jogar de novo' opens a table with the same names, seats, rules and series, first deal one
    seat on."""
    client = local.test_client()
    token = open_table(client, **PLAYERS, serie="melhor_de_3", pe="3", mao_especial="10")
    turma = new_turma(client, token)
    new = again(client, turma)
    assert new != token
    with local.app_context():
        old = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        made = db.session.execute(db.select(Mesa).filter_by(edit_token=new)).scalar_one()
        assert made.player_names == old.player_names == ["Ana", "Beto", "Caio", "Duda"]
        assert (made.best_of, made.special_at, made.turma_id) == (3, 10, old.turma_id)
        assert made.first_dealer == 0  # the seat after 3, round the table
        assert made.previous_id == old.id
    assert client.get(f"/m/{new}").status_code == 200


def test_jogar_de_novo_keeps_a_mineiro_3x3_table_mineiro_with_the_deal_over_six_seats(
    local: Flask,
) -> None:
    """A Mineiro 3x3 table's rematch is Mineiro 3x3 too, its first deal the next of six seats."""
    client = local.test_client()
    names = {f"jogador_{seat}": f"J{seat + 1}" for seat in range(6)}
    token = open_table(client, variante="mineiro", jogadores="6", pe="5", **names)
    new = again(client, new_turma(client, token))
    with local.app_context():
        made = db.session.execute(db.select(Mesa).filter_by(edit_token=new)).scalar_one()
        assert (made.variante, made.players, made.best_of) == ("mineiro", 6, 3)
        assert made.first_dealer == 0  # the seat after 5, round the six
    assert 'data-testid="tap-a-10"' in client.get(f"/m/{new}").text


def test_jogar_de_novo_on_a_stale_turma_page_opens_nothing(local: Flask) -> None:
    """'Jogar de novo' from a turma page another phone changed is refused and opens no table."""
    client = local.test_client()
    turma = new_turma(client, open_table(client))
    rev = turma_rev(client, turma)
    again(client, turma)
    response = client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": rev})
    assert response.status_code == 409
    assert "A turma mudou" in (by_testid(response.text, "mensagem") or "")
    assert client.get(f"/turma/{turma}").text.count('data-testid="turma-mesa"') == 2


def test_the_board_offers_jogar_de_novo_and_sharing_at_the_end_of_a_series(local: Flask) -> None:
    """At the end of a series the board offers 'jogar de novo' and 'compartilhar resultado'."""
    client = local.test_client()
    token = open_table(client, **PLAYERS, serie="melhor_de_3")
    new_turma(client, token)
    html = play(client, token, *WIN_A, "proxima_partida", *WIN_A).text
    assert 'data-testid="jogar-de-novo"' in html
    share = re.search(r'<a [^>]*href="([^"]+)"[^>]*data-testid="compartilhar-resultado"', html)
    assert share and share.group(1).startswith("http://tento.test/v/")
    first = client.post(f"/m/{token}/jogar-de-novo")
    second = client.post(f"/m/{token}/jogar-de-novo")  # a double tap: the same new table
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]


def test_a_finished_game_offers_compartilhar_resultado(local: Flask) -> None:
    """A finished game offers 'compartilhar resultado' with the live link as its fallback."""
    client = local.test_client()
    token = open_table(client)
    html = play(client, token, *WIN_B).text
    assert 'data-testid="compartilhar-resultado"' in html
    assert 'data-share-text="Partida para Eles! Nós 0 x 12 Eles' in html


def expected(games: list[tuple[int, ...]]) -> dict[str, tuple[int, int]]:
    """Games played and won per player, computed here from who won each game."""
    seats = ["Ana", "Beto", "Caio", "Duda"]
    counts = {name: [0, 0] for name in seats}
    for (winner,) in games:
        for seat, name in enumerate(seats):
            counts[name][0] += 1
            counts[name][1] += seat % 2 == winner
    return {name: (c[0], c[1]) for name, c in counts.items()}


def test_statistics_count_games_and_series_per_player_and_pair(local: Flask) -> None:
    """Games and series played and won are counted per player and per pair, from the records."""
    client = local.test_client()
    token = open_table(client, **PLAYERS, serie="melhor_de_3")
    turma = new_turma(client, token)
    play(client, token, *WIN_A, "proxima_partida", *WIN_B, "proxima_partida", *WIN_A)
    second = again(client, turma)
    play(client, second, *WIN_B, "proxima_partida", *WIN_B, "nova_serie", "normal:0:3")
    html = client.get(f"/turma/{turma}").text
    players = rows(html, "stats-jogador")
    for name, (games, wins) in expected([(0,), (1,), (0,), (1,), (1,)]).items():
        assert (players[name]["partidas"], players[name]["vitorias"]) == (str(games), str(wins))
        assert players[name]["series"] == "2"
    assert players["Ana"]["series-vitorias"] == "1" and players["Beto"]["series-vitorias"] == "1"
    pairs = rows(html, "stats-dupla")
    assert set(pairs) == {"Ana e Caio", "Beto e Duda"}
    assert (pairs["Beto e Duda"]["vitorias"], pairs["Beto e Duda"]["partidas"]) == ("3", "5")
    assert 'data-vitorias="2-3"' in html  # head-to-head Ana e Caio x Beto e Duda


def test_names_are_matched_after_folding_case_and_spaces(local: Flask) -> None:
    """'ana ' and 'Ana' are one player: names match after folding case and spaces."""
    client = local.test_client()
    turma = new_turma(client, open_table(client, jogadores="2", time_a="Ana", time_b="Beto"))
    other = open_table(client, jogadores="2", time_a="  ANA ", time_b="beto")
    client.post(f"/m/{other}/turma", data={"rev": 0, "acao": "entrar", "link": turma})
    play(client, other, *WIN_A)
    players = rows(client.get(f"/turma/{turma}").text, "stats-jogador")
    assert set(players) == {"Ana", "Beto"}
    assert players["Ana"]["vitorias"] == "1"


def test_merging_two_spellings_counts_them_as_one_and_is_a_compare_and_swap(local: Flask) -> None:
    """Merging two spellings counts them as one player; a stale merge is refused and changes
    nothing."""
    client = local.test_client()
    first = open_table(client, jogadores="2", time_a="Zé", time_b="Beto")
    turma = new_turma(client, first)
    play(client, first, *WIN_A)
    second = again(client, turma)
    with local.app_context():  # the second evening Zé typed his full name
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=second)).scalar_one()
        mesa.team_a = "José"
        db.session.commit()
    play(client, second, *WIN_A)
    assert set(rows(client.get(f"/turma/{turma}").text, "stats-jogador")) == {"Zé", "José", "Beto"}
    rev = turma_rev(client, turma)
    bad = client.post(f"/turma/{turma}/juntar-nomes", data={"rev": rev, "de": "zé", "para": "x"})
    assert bad.status_code == 422 and "Escolha dois nomes" in bad.text
    same = client.post(f"/turma/{turma}/juntar-nomes", data={"rev": rev, "de": "zé", "para": "zé"})
    assert same.status_code == 422
    done = client.post(
        f"/turma/{turma}/juntar-nomes", data={"rev": rev, "de": "josé", "para": "zé"}
    )
    assert done.status_code == 303
    players = rows(client.get(f"/turma/{turma}").text, "stats-jogador")
    assert set(players) == {"Zé", "Beto"}
    assert (players["Zé"]["partidas"], players["Zé"]["vitorias"]) == ("2", "2")
    stale = client.post(
        f"/turma/{turma}/juntar-nomes", data={"rev": rev, "de": "zé", "para": "beto"}
    )
    assert stale.status_code == 409
    assert set(rows(client.get(f"/turma/{turma}").text, "stats-jogador")) == {"Zé", "Beto"}


def test_onze_runs_streaks_and_the_biggest_comeback_come_from_the_records(local: Flask) -> None:
    """Mãos de onze (had, played, won, run from), runs (from truco and from the mão de onze),
    streaks and the biggest comeback are read from the hand records."""
    client = local.test_client()
    token = open_table(client, jogadores="2", time_a="Ana", time_b="Beto")
    turma = new_turma(client, token)
    response = tap(client, token, "normal:0:1")
    record = re.search(r'name="registro" value="(\d+)"', response.text)
    assert record
    noted = client.post(
        f"/m/{token}/nota",
        data={
            "rev": revision(client, token),
            "registro": record.group(1),
            "nota": "correram_truco",
        },
        headers=HX,
    )
    assert noted.status_code == 200
    play(client, token, "normal:1:9", "normal:1:1", "normal:1:1")  # Beto 11: mão de onze
    play(client, token, "onze_perdeu:0", "onze_correu:0", "onze_perdeu:0", "onze_perdeu:0")
    play(client, token, "ferro:0")  # 11 x 11, and Ana takes the mão de ferro
    html = client.get(f"/turma/{turma}").text
    players = rows(html, "stats-jogador")
    assert players["Beto"]["onze"] == "4" and players["Beto"]["onze-jogadas"] == "3"
    assert players["Beto"]["onze-ganhas"] == "0" and players["Beto"]["onze-correu"] == "1"
    assert players["Ana"]["onze"] == "0"
    assert players["Beto"]["correu"] == "2" and players["Beto"]["correu-truco"] == "1"
    assert players["Ana"]["correu"] == "0"
    assert players["Ana"]["melhor-sequencia"] == "1" and players["Beto"]["melhor-sequencia"] == "0"
    assert "de 1 x 11" in html  # Ana won from 1 x 11


def test_a_turma_page_reads_only_the_tables_that_changed(
    local: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turma page re-reads the records of a table only when its revision moved (the summary
    cache)."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    turma = new_turma(client, first)
    play(client, first, *WIN_A)
    second = again(client, turma)
    client.get(f"/turma/{turma}")
    read: list[int] = []
    original = stored_summaries._read_all
    monkeypatch.setattr(
        stored_summaries,
        "_read_all",
        lambda found: read.extend(m.id for m in found) or original(found),
    )
    client.get(f"/turma/{turma}")
    assert read == []
    play(client, second, "normal:1:3")
    client.get(f"/turma/{turma}")
    with local.app_context():
        table = db.session.execute(db.select(Mesa).filter_by(edit_token=second)).scalar_one()
        assert read == [table.id]
        stored = db.session.get(MesaSummary, table.id)
        assert stored is not None and stored.revision == table.revision


def spreadsheet(text: str) -> list[list[str]]:
    """A CSV export's rows as a pt-BR spreadsheet reads them: a byte-order mark, then cells
    separated by ';'."""
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_the_exports_carry_the_whole_history_with_a_header_row(local: Flask) -> None:
    """CSV (with a header row) and JSON exports carry every game of the table and of the turma."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    turma = new_turma(client, token)
    play(client, token, *WIN_A, "proxima_partida", "normal:1:3")
    page = client.get(f"/turma/{turma}").text
    csv_link = re.search(r'href="([^"]+)" data-testid="exportar-csv"', page)
    json_link = re.search(r'href="([^"]+)" data-testid="exportar-json"', page)
    assert csv_link and json_link
    table = spreadsheet(client.get(csv_link.group(1)).text)
    assert table[0][0] == "mesa" and len(table) == 2
    assert table[1][2:4] == ["Ana e Caio", "Beto e Duda"] and table[1][6] == "Ana e Caio"
    history = json.loads(client.get(json_link.group(1)).text)
    assert history["partidas"][0]["vencedor"] == "Ana e Caio"
    assert {p["nome"] for p in history["jogadores"]} == {"Ana", "Beto", "Caio", "Duda"}
    log_page = client.get(f"/m/{token}/historico").text
    log_csv = re.search(r'href="([^"]+)" data-testid="exportar-csv"', log_page)
    log_json = re.search(r'href="([^"]+)" data-testid="exportar-json"', log_page)
    assert log_csv and log_json
    lines = spreadsheet(client.get(log_csv.group(1)).text)
    assert lines[0][0] == "registro" and [line[2] for line in lines[1:]] == [
        "normal",
        "proxima_partida",
        "normal",
    ]
    records = json.loads(client.get(log_json.group(1)).text)["registros"]
    assert records[-1]["descricao"] == "Eles +3" and turma not in str(records)


def test_og_image_is_an_absolute_link_answering_png(local: Flask) -> None:
    """The live view and the read-only page name an absolute og:image that answers image/png."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    turma = new_turma(client, token)
    play(client, token, "normal:0:3")
    with local.app_context():
        view = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
    for page in (
        f"/v/{view.view_token}",
        watch_link(client, turma).replace("http://tento.test", ""),
    ):
        html = client.get(page).text
        image = re.search(r'<meta property="og:image" content="([^"]+)"', html)
        assert image and image.group(1).startswith("http://tento.test/")
        answer = client.get(image.group(1).replace("http://tento.test", ""))
        assert answer.status_code == 200 and answer.mimetype == "image/png"
        assert answer.data[:8] == b"\x89PNG\r\n\x1a\n"
        assert token not in html and turma not in html


def test_turma_pages_have_no_inline_script_or_style(local: Flask) -> None:
    """The turma pages keep the strict CSP: no inline script or style."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    turma = new_turma(client, token)
    for path in (f"/turma/{turma}", watch_link(client, turma), f"/m/{token}/turma"):
        html = client.get(path.replace("http://tento.test", "")).text
        assert "<style" not in html and " style=" not in html
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)


def test_the_score_image_names_each_sides_players_under_its_team() -> None:
    """The chat preview says who played: seats 1 and 3 under the first team, 2 and 4 under the
    second; nothing under a team when no names were given or the name is the team's own."""
    from scorekeeper.models import Mesa
    from scorekeeper.web.turma.present import side_players

    seated = Mesa(team_a="Nós", team_b="Eles", player_names=["Ana", "Beto", "Caio", "Duda"])
    assert side_players(seated) == ("Ana e Caio", "Beto e Duda")
    assert side_players(Mesa(team_a="Nós", team_b="Eles", player_names=[])) == ("", "")
    duel = Mesa(team_a="Ana", team_b="Beto", player_names=["Ana", "Beto"])
    assert side_players(duel) == ("", "")


# --- a cost that does not grow with the turma's history --------------------------------------


def turma_row(token: str) -> Turma:
    """The turma of a scorer token (inside an app context)."""
    return db.session.execute(db.select(Turma).filter_by(edit_token=token)).scalar_one()


def add_tables(app: Flask, turma: str, count: int) -> list[int]:
    """`count` new tables in the turma, four named players each and no hand yet, written
    straight to the database (fast); their ids, oldest first."""
    with app.app_context():
        turma_id = turma_row(turma).id
        rows = [
            {
                "edit_token": fresh_token(),
                "view_token": fresh_token(),
                "player_names": ["Ana", "Beto", "Caio", "Duda"],
                "turma_id": turma_id,
            }
            for _ in range(count)
        ]
        with db.engine.begin() as connection:
            connection.execute(insert(Mesa.__table__), rows)
        query = db.select(Mesa.id).filter_by(turma_id=turma_id).order_by(Mesa.id)
        return list(db.session.execute(query).scalars())[-count:]


def view_reads(app: Flask, client: FlaskClient, path: str) -> tuple[int, int, int]:
    """What one view of `path` reads: SQL statements, summary rows asked for, and tables whose
    records were read again."""
    statements: list[str] = []
    asked: list[int] = []
    refolded: list[int] = []
    summaries, read = stored_summaries.summaries, stored_summaries._read_all

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def counted_summaries(mesas):  # type: ignore[no-untyped-def]
        asked.append(len(mesas))
        return summaries(mesas)

    def counted_read(mesas):  # type: ignore[no-untyped-def]
        refolded.extend(mesa.id for mesa in mesas)
        return read(mesas)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    stored_summaries._read_all = counted_read
    stored_summaries.summaries = tallies.summaries = counted_summaries  # type: ignore[attr-defined]
    try:
        assert client.get(path).status_code == 200
    finally:
        stored_summaries.summaries = tallies.summaries = summaries  # type: ignore[attr-defined]
        stored_summaries._read_all = read
        event.remove(engine, "before_cursor_execute", count)
    return len(statements), sum(asked), len(refolded)


def test_a_turma_page_reads_as_much_with_a_long_history_as_with_a_short_one(local: Flask) -> None:
    """With nothing changed, a turma page with 75 tables runs the same SQL statements and reads
    the same number of summary rows (the page's 30 and the newest few) as with 35, and no
    table's records; its stored tally stays put."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    turma = new_turma(client, first)
    play(client, first, *WIN_A)
    add_tables(local, turma, 34)
    path = f"/turma/{turma}"
    client.get(path)  # the first view reads every table's records once and stores the tally
    short = view_reads(local, client, path)
    add_tables(local, turma, 40)
    client.get(path)
    long = view_reads(local, client, path)
    assert short == long
    statements, rows, refolded = long
    assert rows <= turmas.TABLES_ON_PAGE + tallies.KEEP_OPEN and refolded == 0
    with local.app_context():
        stored = db.session.get(TurmaSummary, turma_row(turma).id)
        assert stored is not None
        assert stored.key["tables"] == 75 - tallies.KEEP_OPEN
    players = rows_of(client.get(path).text)
    assert (players["Ana"]["partidas"], players["Ana"]["vitorias"]) == ("1", "1")


def rows_of(html: str) -> dict[str, dict[str, str]]:
    """The players' statistics rows of a page, by name."""
    return rows(html, "stats-jogador")


def test_a_tap_on_an_old_table_or_a_table_leaving_refolds_the_stored_tally(local: Flask) -> None:
    """The stored tally is used only while its key holds: a game won on an old table, or a table
    moved to another turma, shows at once on the turma's page."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    turma = new_turma(client, first)
    play(client, first, *WIN_A)
    add_tables(local, turma, tallies.KEEP_OPEN + 2)
    assert rows_of(client.get(f"/turma/{turma}").text)["Ana"]["vitorias"] == "1"
    play(client, first, "proxima_partida", *WIN_A)  # the oldest table, inside the stored tally
    assert rows_of(client.get(f"/turma/{turma}").text)["Ana"]["vitorias"] == "2"
    elsewhere = new_turma(client, open_table(client))
    moved = client.post(
        f"/m/{first}/turma",
        data={"rev": revision(client, first), "acao": "entrar", "link": elsewhere},
    )
    assert moved.status_code == 303
    with local.app_context():
        assert turma_row(turma).departures == 1
    page = client.get(f"/turma/{turma}").text
    assert rows_of(page)["Ana"]["vitorias"] == "0"
    assert rows_of(client.get(f"/turma/{elsewhere}").text)["Ana"]["vitorias"] == "2"


LEFT, RIGHT = ("Ana", "ana ", "Zé"), ("José", "Beto", "Caio")
POOL = LEFT + RIGHT
STEPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("nova"),
            st.sampled_from(LEFT),
            st.sampled_from(RIGHT),
            st.sampled_from(["paulista", "mineiro"]),
        ),
        st.tuples(st.just("de_novo")),
        st.tuples(st.just("marcar"), st.integers(0, 20), st.integers(0, 40)),
        st.tuples(st.just("desfazer"), st.integers(0, 20)),
        st.tuples(st.just("juntar"), st.sampled_from(POOL), st.sampled_from(POOL)),
        st.tuples(st.just("sair"), st.integers(0, 20)),
        st.tuples(
            st.just("ver"),
        ),
    ),
    min_size=1,
    max_size=25,
)


Lists = dict[str, dict[str, object]]


def paged(standing: tallies.Standing, size: int) -> Lists:
    """Each rule set's lists as a turma's pages give them, read `size` places a page and put
    end to end (each page's places following the one before), with its chart."""
    found: Lists = {}
    for code in standing.codes():
        lists: dict[str, object] = {"nights": standing.nights(code)}
        for kind in KINDS:
            total, items = standing.total(code, kind), []
            for start in range(0, total, size):
                page = standing.page(code, kind, start, size)
                assert [place for place, _item in page] == list(
                    range(start + 1, min(start + size, total) + 1)
                )
                items += [item for _place, item in page]
            lists[kind] = items
        found[code] = lists
    return found


def folded_whole(row: Turma) -> Lists:
    """Each rule set's lists and chart as a fold of every table's summary, in memory, gives
    them (what the stored tally must equal)."""
    every = sorted(turmas.tables(row, None), key=lambda mesa: mesa.id)
    found = stored_summaries.summaries(every)
    tally = Tally()
    for mesa in every:
        tally.add(found[mesa.id], row.aliases or {})
    return {
        code: {"nights": part.chart(), **{kind: part.ranked(kind) for kind in KINDS}}
        for code, part in tally.ordered()
    }


def stats_both_ways(app: Flask, turma: str, size: int = 2) -> tuple[Lists, Lists]:
    """The turma's players, pairs, trios, head-to-heads and evenings' chart of each rule set as
    its pages read them (the stored tally, brought up to date, and the newest tables; `size`
    places a page) and as a fold of every table's summary gives them."""
    with app.app_context():
        row = turma_row(turma)
        standing = tallies.standing(row)
        assert standing.complete
        return paged(standing, size), folded_whole(row)


def turma_route_step(
    app: Flask,
    client: FlaskClient,
    turma: str,
    tokens: list[str],
    action: tuple,  # type: ignore[type-arg]
) -> None:
    """Apply one step of the tally's property through its route, to the turma and its tables'
    tokens."""
    kind, *args = action
    if kind == "nova":
        token = open_table(client, jogadores="2", time_a=args[0], time_b=args[1])
        client.post(f"/m/{token}/turma", data={"rev": 0, "acao": "entrar", "link": turma})
        tokens.append(token)
    elif kind == "de_novo":
        rev = turma_rev(client, turma)
        response = client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": rev})
        if response.status_code == 422:
            # The newest table's one rematch moved to another turma ('sair'): the turma's link
            # no longer reaches it.
            assert by_testid(response.text, "mensagem") == turmas.REMATCH_ELSEWHERE
            return
        assert response.status_code == 303, response.text
        token = response.headers["Location"].rsplit("/", 1)[1]
        if token not in tokens:  # asked again, the rematch is the same table
            tokens.append(token)
    elif kind == "marcar":
        token = tokens[args[0] % len(tokens)]
        with app.app_context():
            mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
            legal = load_board(mesa).state.legal_outcomes()
        if legal:
            assert tap(client, token, legal[args[1] % len(legal)].code).status_code == 200
    elif kind == "desfazer":
        post(client, tokens[args[0] % len(tokens)], "desfazer")
    elif kind == "juntar":
        source, target = folded(args[0]), folded(args[1])
        data = {"rev": turma_rev(client, turma), "de": source, "para": target}
        client.post(f"/turma/{turma}/juntar-nomes", data=data)
    elif kind == "sair" and len(tokens) > 1:
        token = tokens.pop(args[0] % len(tokens))
        elsewhere = new_turma(client, open_table(client))
        data = {"rev": revision(client, token), "acao": "entrar", "link": elsewhere}
        assert client.post(f"/m/{token}/turma", data=data).status_code == 303
    else:
        assert client.get(f"/vt/{watch_link(client, turma).rsplit('/', 1)[1]}").status_code == 200


def table_settings(app: Flask, **form: str) -> dict[str, object]:
    """The settings the home page's form makes of these fields."""
    with app.test_request_context("/mesas", method="POST", data=form):
        made = NewTableForm()
        assert made.validate(), made.error
        return made.settings()


def domain_table(app: Flask, **form: str) -> str:
    """Open a table as the home page's form does, through the domain; its scorer token."""
    settings = table_settings(app, **form)
    with app.app_context():
        return service.open_table(settings).edit_token


def table_revision(app: Flask, token: str) -> int:
    """The revision of the table's board, as its page reads it."""
    with app.app_context():
        return service.scorer_board(token).mesa.revision


def turma_page(app: Flask, turma: str) -> turma_present.TurmaView:
    """What the turma's scorer page reads (its tables and statistics, the tally stored when
    it moved on)."""
    with app.app_context():
        return turma_present.turma_view(turmas.scorer_turma(turma))


def turma_domain_step(
    app: Flask,
    turma: str,
    tokens: list[str],
    action: tuple,  # type: ignore[type-arg]
) -> None:
    """Apply one step of the property test below to the turma and its tables' tokens, through
    the domain as its route does it: the page read for its revision first, then the write."""
    kind, *args = action
    if kind == "nova":
        names = {"time_a": args[0], "time_b": args[1]}
        token = domain_table(app, jogadores="2", variante=args[2], **names)
        with app.app_context():
            turmas.join_turma(token, 0, turma)
        tokens.append(token)
    elif kind == "de_novo":
        rev = turma_page(app, turma).turma.revision
        with app.app_context():
            try:
                token = turmas.play_again_in_turma(turma, rev).edit_token
            except InputError as refused:
                # The newest table's one rematch moved to another turma ('sair'): the turma's
                # link no longer reaches it.
                assert str(refused) == turmas.REMATCH_ELSEWHERE
                return
        if token not in tokens:  # asked again, the rematch is the same table
            tokens.append(token)
    elif kind == "marcar":
        token = tokens[args[0] % len(tokens)]
        with app.app_context():
            read = service.scorer_board(token)
        legal = read.state.legal_outcomes()
        if legal:
            with app.app_context():
                service.record_outcome(token, read.mesa.revision, legal[args[1] % len(legal)])
    elif kind == "desfazer":
        token = tokens[args[0] % len(tokens)]
        rev = table_revision(app, token)
        with app.app_context(), contextlib.suppress(RulesError):
            service.undo(token, rev)
    elif kind == "juntar":
        source, target = folded(args[0]), folded(args[1])
        rev = turma_page(app, turma).turma.revision
        with app.app_context(), contextlib.suppress(InputError):
            row = turmas.scorer_turma(turma)
            wanted, known = turma_present.merge_of(row, source, target)
            turmas.merge_names(turma, rev, wanted, known)
    elif kind == "sair" and len(tokens) > 1:
        token = tokens.pop(args[0] % len(tokens))
        other = domain_table(app)
        with app.app_context():
            elsewhere = turmas.create_turma(other, 0, "Quinta").edit_token
        rev = table_revision(app, token)
        with app.app_context():
            turmas.join_turma(token, rev, elsewhere)
    else:  # the scorer's page for its watch link, then the watch page (with the live table)
        view_token = turma_page(app, turma).turma.view_token
        with app.test_request_context(f"/vt/{view_token}"):  # the live view links its pages
            view = turma_present.turma_view(turmas.viewer_turma(view_token))
            turma_present.live_now(view)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=STEPS)
def test_the_stored_tally_always_equals_a_fold_of_every_table(
    local: Flask,
    monkeypatch: pytest.MonkeyPatch,
    steps: list[tuple],  # type: ignore[type-arg]
) -> None:
    """After any sequence of new tables (Paulista or Mineiro), jogar de novo, taps, undos, name
    merges, tables moved to another turma and page views, the statistics of each rule set a
    page gets from the stored tally equal a fold of every table's summary."""
    monkeypatch.setattr(tallies, "KEEP_OPEN", 1)  # store after two tables, not four
    monkeypatch.setattr(tallies, "STEP", 2)  # a tally built again in steps of two tables
    monkeypatch.setattr(tallies, "SHORT_LIST", 3)  # longer lists paged by the index
    first = domain_table(local, jogadores="2", time_a="Ana", time_b="Zé")
    with local.app_context():
        turma = turmas.create_turma(first, 0, "Quinta").edit_token
    tokens = [first]
    for action in steps:
        turma_domain_step(local, turma, tokens, action)
        cached, full = stats_both_ways(local, turma)
        assert cached == full


# Every kind of step: a new table, taps, jogar de novo twice (the second a rematch of the
# first), an undo, page views, two names merged, the newest table moved to another turma, then
# jogar de novo refused (the newest table's rematch is the one that left).
ROUTE_STEPS = [
    ("nova", "ana ", "José"),
    ("marcar", 0, 3),
    ("marcar", 1, 0),
    ("marcar", 1, 7),
    ("de_novo",),
    ("de_novo",),
    ("marcar", 2, 1),
    ("desfazer", 1),
    ("ver",),
    ("juntar", "José", "Zé"),
    ("marcar", 0, 12),
    ("sair", 3),
    ("de_novo",),
    ("ver",),
]


def test_the_stored_tally_equals_a_fold_of_every_table_through_the_routes(
    local: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the routes, a fixed sequence of every kind of step keeps the statistics from
    the stored tally equal to a fold of every table's summary, and the page shows them."""
    monkeypatch.setattr(tallies, "KEEP_OPEN", 1)
    monkeypatch.setattr(tallies, "STEP", 2)
    monkeypatch.setattr(tallies, "SHORT_LIST", 3)
    client = local.test_client()
    first = open_table(client, jogadores="2", time_a="Ana", time_b="Zé")
    turma = new_turma(client, first)
    tokens = [first]
    for action in ROUTE_STEPS:
        turma_route_step(local, client, turma, tokens, action)
        cached, full = stats_both_ways(local, turma)
        assert cached == full
    with local.app_context():
        assert turma_row(turma).aliases == {"josé": "Zé"}  # the name chosen, as shown
    players = cached["paulista"]["players"]
    shown = rows_of(client.get(f"/turma/{turma}").text)
    assert sorted(shown) == sorted(player.name for player in players)  # type: ignore[attr-defined]


def test_the_turma_pages_list_30_tables_a_page_with_a_link_to_older_ones(local: Flask) -> None:
    """Both turma pages list the newest 30 tables, then 'mais antigas' (?antes=<id>) pages on
    through the rest; the live table only on the first page; the count is the whole turma's."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    turma = new_turma(client, first)
    ids = add_tables(local, turma, 64)
    with local.app_context():
        ids = [db.session.execute(db.select(Mesa.id).filter_by(edit_token=first)).scalar_one()]
        ids += list(
            db.session.execute(
                db.select(Mesa.id).filter_by(turma_id=turma_row(turma).id).order_by(Mesa.id)
            ).scalars()
        )[1:]
    newest_first = ids[::-1]
    view = watch_link(client, turma).rsplit("/", 1)[1]
    for base in (f"/turma/{turma}", f"/vt/{view}"):
        path, seen = base, []
        while path:
            html = client.get(path).text
            assert "Mesas <small>(65)</small>" in html
            listed = re.findall(r'data-testid="turma-mesa" data-mesa="(\d+)"', html)
            seen.append([int(i) for i in listed])
            assert ('id="live"' in html) == (base.startswith("/vt/") and len(seen) == 1)
            older = re.search(r'href="([^"]+)#mesas-titulo" data-testid="turma-anteriores"', html)
            path = older.group(1).replace("&amp;", "&") if older else ""
            if older:
                assert path.startswith(base + "?antes=")
        assert [len(page) for page in seen] == [30, 30, 5]
        assert sum(seen, []) == newest_first
        if base.startswith("/vt/"):
            assert turma not in html


@pytest.mark.parametrize("cursor", ["9" * 30, "-5", "0", "x", ""])
def test_a_huge_or_odd_turma_page_cursor_is_the_newest_page_not_an_error(
    local: Flask, cursor: str
) -> None:
    """?antes= beyond 32 bits, negative, zero or not a number: a page of tables, never a 500."""
    client = local.test_client()
    turma = new_turma(client, open_table(client, **PLAYERS))
    for path in (f"/turma/{turma}", watch_link(client, turma).replace("http://tento.test", "")):
        response = client.get(f"{path}?antes={cursor}")
        assert response.status_code == 200
        assert response.text.count('data-testid="turma-mesa"') == 1


# --- the chart of games won per evening -------------------------------------------------------


def opened_at(app: Flask, token: str, local_time: datetime) -> None:
    """Date a table as opened at this Brasília time (stored as naive UTC, three hours on)."""
    with app.app_context():
        db.session.execute(
            update(Mesa)
            .filter_by(edit_token=token)
            .values(created_at=local_time + timedelta(hours=3))
        )
        db.session.commit()


def chart_bars(html: str) -> list[tuple[str, str, int, float]]:
    """The chart's bars, left to right: evening, side's name, games won, x."""
    found = re.findall(
        r'<rect data-testid="grafico-barra" data-noite="([^"]+)" data-nome="([^"]+)" '
        r'data-vitorias="(\d+)" x="([\d.]+)"',
        html,
    )
    bars = [(day, name, int(wins), float(x)) for day, name, wins, x in found]
    return sorted(bars, key=lambda bar: bar[3])


def wins_by_night(games: list[tuple[str, int]]) -> dict[str, dict[str, int]]:
    """Games won per evening and pair, computed here from (evening, winning side) pairs."""
    pairs = ("Ana e Caio", "Beto e Duda")
    found: dict[str, dict[str, int]] = {}
    for day, winner in games:
        counts = found.setdefault(day, dict.fromkeys(pairs, 0))
        counts[pairs[winner]] += 1
    return found


def test_the_chart_shows_each_pairs_games_won_per_evening_on_both_pages(local: Flask) -> None:
    """The chart draws one bar per pair and evening with the games it won that evening, the
    oldest evening left; a table opened after midnight counts for the evening before."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    opened_at(local, first, datetime(2025, 3, 4, 21, 0))
    turma = new_turma(client, first)
    play(client, first, *WIN_A, "proxima_partida", *WIN_B, "proxima_partida", *WIN_A)
    late = again(client, turma)
    opened_at(local, late, datetime(2025, 3, 11, 22, 30))
    play(client, late, *WIN_B, "proxima_partida", *WIN_B)
    later = again(client, turma)
    opened_at(local, later, datetime(2025, 3, 12, 1, 15))  # still the evening of 11/03
    play(client, later, *WIN_A)
    last = again(client, turma)
    opened_at(local, last, datetime(2025, 3, 18, 20, 0))
    play(client, last, *WIN_B)
    games = [("2025-03-04", 0), ("2025-03-04", 1), ("2025-03-04", 0)]
    games += [("2025-03-11", 1), ("2025-03-11", 1), ("2025-03-11", 0), ("2025-03-18", 1)]
    want = wins_by_night(games)
    view = watch_link(client, turma).rsplit("/", 1)[1]
    for path in (f"/turma/{turma}", f"/vt/{view}"):
        html = client.get(path).text
        bars = chart_bars(html)
        assert [(day, name, wins) for day, name, wins, _x in bars] == [
            (day, name, want[day][name]) for day in sorted(want) for name in want[day]
        ]
        assert 'data-testid="grafico-noites" data-noites="3"' in html
        totals = {name: sum(night[name] for night in want.values()) for name in want["2025-03-04"]}
        said = ", ".join(f"{name} {total}" for name, total in totals.items())
        assert f'aria-label="Partidas ganhas por noite, 3 noites (04/03 a 18/03): {said}."' in html
        for day, counts in want.items():  # the table screen readers get instead
            text = ", ".join(f"{name} {wins}" for name, wins in counts.items())
            assert f'<th scope="row">{day[8:]}/{day[5:7]}</th><td>{text}</td>' in html


def test_the_chart_keeps_the_newest_12_evenings(local: Flask) -> None:
    """With 14 evenings played, the chart and the tally hold the newest 12, the newest right."""
    client = local.test_client()
    first = open_table(client, **PLAYERS)
    turma = new_turma(client, first)
    tokens = [first] + [again(client, turma) for _ in range(13)]
    want: list[tuple[str, int]] = []
    for day, token in enumerate(tokens, start=1):
        opened_at(local, token, datetime(2025, 5, day, 21, 0))
        winner = day % 3 == 0
        play(client, token, WIN_B[0] if winner else WIN_A[0])
        want.append((f"2025-05-{day:02d}", int(winner)))
    bars = chart_bars(client.get(f"/turma/{turma}").text)
    counts = wins_by_night(want[-NIGHTS:])
    assert len(counts) == 12
    assert [(day, name, wins) for day, name, wins, _x in bars] == [
        (day, name, counts[day][name]) for day in sorted(counts) for name in counts[day]
    ]
    with local.app_context():
        kept = tallies.standing(turma_row(turma)).tally.part("paulista")
        assert [night["day"] for night in kept.nights] == sorted(counts)
        assert kept.dropped == "2025-05-02"


def test_the_chart_is_left_out_until_a_game_is_finished(local: Flask) -> None:
    """A turma with no finished game draws no chart and says 'ainda sem partidas'."""
    client = local.test_client()
    token = open_table(client, **PLAYERS)
    turma = new_turma(client, token)
    play(client, token, "normal:0:3")
    view = watch_link(client, turma).rsplit("/", 1)[1]
    for path in (f"/turma/{turma}", f"/vt/{view}"):
        html = client.get(path).text
        assert 'data-testid="grafico-noites"' not in html and not chart_bars(html)
        assert "ainda sem partidas" in html
    play(client, token, *WIN_A)
    html = client.get(f"/turma/{turma}").text
    assert [bar[1:3] for bar in chart_bars(html)] == [("Ana e Caio", 1), ("Beto e Duda", 0)]
    assert "ainda sem partidas" not in html


EXPORT_LINK = re.compile(r'href="([^"]*/exportar\.(?:csv|json))"')


def test_every_export_link_carries_the_viewer_token_never_the_scorers(local: Flask) -> None:
    """The turma's scorer and viewer pages and a table's history offer every export (CSV and
    JSON), each on the viewer token: a copied export link hands out no right to score, open
    tables or merge names. Each link answers. (The turma's file to import elsewhere is on the
    scorer's link: see test_turma_transfer.)"""
    client = local.test_client()
    table = open_table(client, **PLAYERS)
    turma = new_turma(client, table)
    play(client, table, *WIN_A)
    view = watch_link(client, turma).rsplit("/", 1)[1]
    with local.app_context():
        table_view = service.scorer_table(table).view_token
    pages = {
        f"/turma/{turma}": f"/vt/{view}/",
        f"/vt/{view}": f"/vt/{view}/",
        f"/m/{table}/historico": f"/v/{table_view}/",
    }
    for page, prefix in pages.items():
        html = client.get(page).text
        links = EXPORT_LINK.findall(html)
        assert len(links) == 2, page
        for link in links:
            assert link.startswith(prefix) and turma not in link and table not in link, link
            assert client.get(link).status_code == 200, link


def test_csv_exports_open_in_a_pt_br_spreadsheet(local: Flask) -> None:
    """The table's and the turma's CSV start with a UTF-8 byte-order mark (accents read right)
    and separate cells with ';' (a pt-BR spreadsheet's list separator), one column each."""
    client = local.test_client()
    table = open_table(client, jogadores="2", time_a="João", time_b="Zé Açúcar")
    turma = new_turma(client, table)
    play(client, table, *WIN_B)
    view = watch_link(client, turma).rsplit("/", 1)[1]
    for link in (f"/vt/{view}/exportar.csv", f"/m/{table}/exportar.csv"):
        answer = client.get(link)
        assert answer.data.startswith(b"\xef\xbb\xbf")
        assert answer.headers["Content-Type"] == "text/csv; charset=utf-8"
        rows = spreadsheet(answer.data.decode("utf-8"))
        assert len({len(row) for row in rows}) == 1 and len(rows[0]) > 5
    games = spreadsheet(client.get(f"/vt/{view}/exportar.csv").data.decode("utf-8"))
    assert games[1][6] == "Zé Açúcar"


def test_a_csv_decimal_is_written_with_a_comma_and_a_formula_stays_text() -> None:
    """A decimal cell reads '2,5' (the pt-BR decimal comma); text that could start a formula
    keeps its leading apostrophe; whole numbers stay numbers."""
    lines = "".join(exports.csv_lines(("a", "b", "c"), iter([[2.5, "=1+1", 12]])))
    assert lines == "\ufeffa;b;c\r\n2,5;'=1+1;12\r\n"


def test_the_turma_list_shows_each_tables_team_names_and_its_players(local: Flask) -> None:
    """Each table in the turma's list is named by its teams ('Brabos x Patos'), its players
    under them ('Ana e Caio x Beto e Duda'); a 1x1 table whose teams are its players' names
    shows them once."""
    client = local.test_client()
    table = open_table(client, **PLAYERS, time_a="Brabos", time_b="Patos")
    turma = new_turma(client, table)
    again(client, turma)
    single = open_table(client, jogadores="2", time_a="Zé", time_b="Bia")
    client.post(f"/m/{single}/turma", data={"rev": 0, "acao": "entrar", "link": turma})
    html = client.get(f"/turma/{turma}").text
    teams = re.findall(r'data-testid="turma-mesa-times">([^<]*)<', html)
    players = re.findall(r'data-testid="turma-mesa-jogadores">([^<]*)<', html)
    assert teams == ["Zé x Bia", "Brabos x Patos", "Brabos x Patos"]
    assert players == ["Ana e Caio x Beto e Duda"] * 2
