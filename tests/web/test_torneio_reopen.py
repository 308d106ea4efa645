"""An undo that reopens a finished torneio match: its result leaves the bracket,
and the match it set off is called off while nobody scored in it; once scored, the organiser
sees the mesa play pairs the bracket no longer has and can call it off, nothing lost."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .helpers import (
    by_testid,
    final_begun_then_semi_reopened,
    matches,
    one_game_torneio,
    organiser_post,
    play,
    post,
    table_at,
)

WIN = "normal:0:12"  # a hand worth 12 from 0 x 0: the game, and with one game, the match


def table_exists(app: Flask, table: str) -> Mesa | None:
    """The table with this scorer token, if it still exists."""
    with app.app_context():
        return db.session.execute(select(Mesa).where(Mesa.edit_token == table)).scalar_one_or_none()


def test_an_undo_reopening_a_semifinal_calls_off_the_final_nobody_scored(
    app: Flask, client: FlaskClient
) -> None:
    """Both semi-finals over, the final is called; an undo on a semi-final's board reopens it,
    takes its winner out of the final, and calls the untouched final off (its mesa free again
    for the reopened semi, its table gone)."""
    token = one_game_torneio(client, mesas=2)
    first, second = table_at(client, token, 1), table_at(client, token, 2)
    play(client, first, WIN)
    play(client, second, WIN)
    final = table_at(client, token, 1)
    assert matches(client, token)["2-0"]["estado"] == "jogando"
    assert post(client, first, "desfazer").status_code == 200
    after = matches(client, token)
    assert after["1-0"]["estado"] == "jogando" and "vencedor" not in after["1-0"]
    assert after["2-0"]["estado"] == "aguardando" and "mesa" not in after["2-0"]
    assert table_exists(app, final) is None
    assert table_at(client, token, 1) == first


def test_a_final_already_scored_is_flagged_and_the_organiser_can_call_it_off(
    app: Flask, client: FlaskClient
) -> None:
    """A reopened semi-final whose final was already scored: the final keeps its mesa and its
    score, the organiser's page says the mesa plays pairs the bracket no longer has, and
    'Cancelar este jogo' frees the mesa, keeps the table with its score but closed (it takes no
    more taps), and notes it."""
    token, first, second, final = final_begun_then_semi_reopened(client)
    page = client.get(f"/t/{token}").text
    assert by_testid(page, "jogo-fora-da-chave") is not None
    assert organiser_post(client, token, "jogo/2-0/cancelar").status_code == 303
    kept = table_exists(app, final)
    assert kept is not None and kept.closed == "cancelado"
    assert post(client, final, "marcar", o="normal:0:1").status_code == 422
    after = matches(client, token)
    assert after["2-0"]["estado"] == "aguardando" and "mesa" not in after["2-0"]
    assert "Jogo cancelado pelo organizador na mesa 1" in client.get(f"/t/{token}").text
    play(client, first, WIN)
    assert matches(client, token)["2-0"]["estado"] == "jogando"


def test_a_torneio_board_links_its_mesa_for_the_next_match(client: FlaskClient) -> None:
    """A match's board names its torneio and links the mesa's own link, the way back when the
    match it shows was called off."""
    token = one_game_torneio(client, mesas=1)
    table = table_at(client, token, 1)
    board = client.get(f"/m/{table}").text
    link = re.search(r'href="(/tm/[\w-]+)" data-testid="link-da-mesa"', board)
    assert link and client.get(link.group(1)).headers["Location"].endswith(table)


def test_the_organisers_word_and_notes_go_in_the_matchs_sumula(client: FlaskClient) -> None:
    """A W.O., its taking back and the organiser's own note are lines of the match's súmula,
    shown under the match in the bracket and on the match's board."""
    token = one_game_torneio(client, mesas=1)
    table = table_at(client, token, 1)
    pair = matches(client, token)["1-0"]
    page = client.get(f"/t/{token}").text
    wo = re.search(r'name="dupla" value="(\d+)"[^>]*data-testid="wo-a"', page)
    assert wo
    assert (
        organiser_post(client, token, "jogo/1-0/decidir", como="wo", dupla=wo.group(1)).status_code
        == 303
    )
    assert organiser_post(client, token, "jogo/1-0/decidir", como="desfeito").status_code == 303
    note = organiser_post(client, token, "jogo/1-0/anotar", texto="Mesa trocou de baralho")
    assert note.status_code == 303
    board = client.get(f"/m/{table}").text
    for shown in (client.get(f"/t/{token}").text, board):
        lines = re.findall(r"<li>([^<]+)</li>", shown.split('data-testid="sumula"', 1)[1])
        assert lines[0].startswith("W.O.: ") and lines[0].endswith(
            "(a outra dupla não se apresentou)"
        )
        assert lines[1] == "O organizador desfez a decisão: vale o placar da mesa"
        assert lines[2] == "Súmula: Mesa trocou de baralho"
    assert pair["estado"] == "jogando"
    assert organiser_post(client, token, "jogo/1-0/anotar", texto="   ").status_code == 422


def test_the_organiser_corrects_a_pairs_names_never_onto_another_pairs(
    client: FlaskClient,
) -> None:
    """'Editar' on a registered pair changes its players and reserve; a name another pair has is
    refused in pt-BR (the same players are the same pair) and nothing changes; the form offers
    trios in Mineiro torneios."""
    response = client.post("/torneio/novo", data={"nome": "Copa", "mesas": "1"})
    token = response.headers["Location"].rsplit("/", 1)[-1]
    for first, second in (("Ana", "Beto"), ("Caio", "Duda")):
        form = {"jogador_1": first, "jogador_2": second}
        assert organiser_post(client, token, "inscrever", **form).status_code == 303
    page = client.get(f"/t/{token}").text
    ids = re.findall(r"/dupla/(\d+)/editar", page)
    assert len(ids) == 2
    edited = {"jogador_1": "Ana", "jogador_2": "Bia", "reserva": "Zé"}
    assert organiser_post(client, token, f"dupla/{ids[0]}/editar", **edited).status_code == 303
    names = re.findall(r'data-testid="dupla" data-nome="([^"]+)"', client.get(f"/t/{token}").text)
    assert names == ["Ana e Bia", "Caio e Duda"]
    clash = {"jogador_1": "caio", "jogador_2": "duda"}
    refused = organiser_post(client, token, f"dupla/{ids[0]}/editar", **clash)
    assert refused.status_code == 422
    assert "já estão inscritos (Caio e Duda)" in (by_testid(refused.text, "mensagem") or "")
    names = re.findall(r'data-testid="dupla" data-nome="([^"]+)"', client.get(f"/t/{token}").text)
    assert names == ["Ana e Bia", "Caio e Duda"]
    assert 'name="jogadores" value="6"' in client.get("/torneio/novo").text


def test_a_match_reopened_after_its_mesa_scored_the_next_one_is_flagged_on_its_mesa(
    client: FlaskClient,
) -> None:
    """Undo on a finished match whose mesa already scored in the next match: both stay open
    (no tap is thrown away) and the organiser's page says the mesa has two open matches."""
    token = one_game_torneio(client, mesas=1)
    first = table_at(client, token, 1)
    play(client, first, WIN)
    second = table_at(client, token, 1)
    assert second != first
    play(client, second, "normal:0:3")
    assert post(client, first, "desfazer").status_code == 200
    page = client.get(f"/t/{token}").text
    assert by_testid(page, "mesa-dois-jogos") is not None
    states = matches(client, token)
    assert states["1-0"]["estado"] == states["1-1"]["estado"] == "jogando"


def test_the_organiser_undoes_the_draw_until_the_first_point(
    app: Flask, client: FlaskClient
) -> None:
    """'Desfazer o sorteio' before any point: the calls and their tables go, registration opens
    again (a late pair joins) and a new draw calls again; after a point it is refused."""
    token = one_game_torneio(client, mesas=2)
    called = table_at(client, token, 1)
    assert organiser_post(client, token, "desfazer-sorteio").status_code == 303
    assert table_exists(app, called) is None
    page = client.get(f"/t/{token}").text
    assert 'data-testid="inscrever"' in page and 'data-testid="chave"' not in page
    late = {"jogador_1": "Zé", "jogador_2": "Lu"}
    assert organiser_post(client, token, "inscrever", **late).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    assert len(matches(client, token)) == 7  # 5 pairs: a bracket of 8, with the byes
    play(client, table_at(client, token, 1), "normal:0:1")
    refused = organiser_post(client, token, "desfazer-sorteio")
    assert refused.status_code == 422
    assert "o sorteio não pode mais ser desfeito" in (by_testid(refused.text, "mensagem") or "")


def test_the_organiser_takes_back_a_rounds_clock_started_by_mistake(client: FlaskClient) -> None:
    """'Desfazer o começo da rodada' while its limit has not come: the round can be started
    again; a round that never started is refused in pt-BR."""
    token = one_game_torneio(client, mesas=2)
    assert organiser_post(client, token, "rodada/1/comecar").status_code == 303
    assert by_testid(client.get(f"/t/{token}").text, "relogio") is not None
    assert organiser_post(client, token, "rodada/1/desfazer").status_code == 303
    page = client.get(f"/t/{token}").text
    assert by_testid(page, "relogio") is None and 'data-testid="comecar-rodada"' in page
    refused = organiser_post(client, token, "rodada/2/desfazer")
    assert refused.status_code == 422
