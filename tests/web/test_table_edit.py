"""Editing an open table: its names, seating, series and house options change as a write like any
other (revision-checked, journaled by its client id, a record in the log, undone and redone as
a hand is), the games played are kept, and every page reads the names the table has now."""

from __future__ import annotations

import re
import uuid

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa, MesaWrite

from .helpers import (
    by_testid,
    edit_form,
    open_table,
    play,
    post,
    revision,
    scores,
    showing,
    tap,
    view_token,
)
from .test_wording import log_lines, shown_text

PLAYERS = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "Caio", "jogador_3": "Duda"}
# Every field of the edit, as the form posts it with the settings a table opened with PLAYERS
# and a best of 3 has (the next hand dealt by seat 1).
FIELDS = {
    "jogadores": "4",
    "time_a": "Nós",
    "time_b": "Eles",
    **PLAYERS,
    "pe": "0",
    "serie": "melhor_de_3",
    "ferro": "cegas",
    "mao_especial": "11",
    "baralho": "sujo",
    "manilhas": "variavel",
    "empate": "mao",
}


def table(client: FlaskClient, **form: str) -> str:
    """A best-of-3 table of Ana, Beto, Caio and Duda; its scorer token."""
    return open_table(client, **{**PLAYERS, "serie": "melhor_de_3", **form})


def edit(
    client: FlaskClient, token: str, rev: int | None = None, cid: str | None = None, **changes: str
):
    """Post the edit form as drawn with `changes`, on its revision unless `rev` is given, with
    its own client id unless `cid` is given."""
    data = {**edit_form(client, token), **changes}
    if rev is not None:
        data["rev"] = str(rev)
    if cid is not None:
        data["cid"] = cid
    return client.post(f"/m/{token}/editar", data=data)


def count(app: Flask, model: type, token: str) -> int:
    """How many rows of `model` belong to the table with this scorer token."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return len(list(db.session.execute(db.select(model).filter_by(mesa_id=mesa.id)).scalars()))


def message(html: str) -> str | None:
    """The page's one message (the slot's, or the edit page's), tags stripped."""
    found = re.search(r'data-testid="mensagem"[^>]*>(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else None


def names_read_everywhere(app: Flask, client: FlaskClient, token: str) -> dict[str, str]:
    """Every page and file that names the table's sides and players, as text."""
    view = view_token(app, token)
    return {
        "board": client.get(f"/m/{token}").text,
        "live": client.get(f"/v/{view}").text,
        "live_fragment": client.get(f"/v/{view}/placar").text,
        "history": client.get(f"/m/{token}/historico").text,
        "csv": client.get(f"/m/{token}/exportar.csv").data.decode("utf-8-sig"),
        "json": client.get(f"/m/{token}/exportar.json").text,
        "share": client.get(f"/m/{token}/compartilhar").text,
    }


# --- the board's way in, the form -------------------------------------------------------------


def test_the_board_links_the_edit_and_the_form_is_filled_with_the_tables_settings(
    client: FlaskClient,
) -> None:
    """'Editar' on the board opens a form with the new-table form's field names, filled in:
    names, the series, the options and who deals the next hand."""
    token = table(client, time_a="Zapeiros", ferro="claras")
    play(client, token, "normal:0:1")
    board = client.get(f"/m/{token}").text
    link = re.search(r'<a [^>]*href="([^"]+)" data-testid="editar-mesa"', board)
    assert link and link.group(1) == f"/m/{token}/editar"
    page = client.get(link.group(1)).text
    assert 'name="time_a"' in page and 'value="Zapeiros"' in page
    for seat, name in enumerate(PLAYERS.values()):
        assert re.search(rf'name="jogador_{seat}"[^>]*value="{name}"', page)
    assert re.search(r'value="melhor_de_3"[^>]*checked|checked[^>]*value="melhor_de_3"', page)
    assert re.search(r'value="claras"[^>]*checked|checked[^>]*value="claras"', page)
    # one hand dealt by seat 1 (index 0): seat 2 deals the next one
    assert re.search(r'name="pe" value="1"[^>]*checked', page)
    assert re.search(r'name="rev" value="1"', page)
    assert re.search(r'name="cid" value="[0-9a-f-]{36}"', page)


@pytest.mark.parametrize("path", ["/", "/m/{token}/editar"])
def test_name_fields_show_their_limit(client: FlaskClient, path: str) -> None:
    """Each name field stops at 24 letters and says so: a hint, and a place for the count the
    page's script fills in near the limit."""
    token = table(client)
    page = client.get(path.format(token=token)).text
    for name in ("time_a", "time_b", *PLAYERS):
        field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
        assert field and 'maxlength="24"' in field.group(0), name
        assert 'data-limit="24"' in field.group(0), name
        assert f'data-limit-of="{name}"' in page, name


def test_the_new_table_form_asks_names_and_series_first_and_folds_the_rest(
    client: FlaskClient,
) -> None:
    """Names, 2x2 or 1x1 and the series come before 'Nova mesa'; the house options are in a
    closed 'Mais opções'."""
    page = client.get("/").text
    button = page.index('data-testid="nova-mesa"')
    for field in ('name="jogadores"', 'name="time_a"', 'name="jogador_3"', 'name="serie"'):
        assert page.index(field) < button, field
    more = page.index('data-testid="mais-opcoes"')
    assert re.search(r'<details class="options" data-testid="mais-opcoes">', page)
    for field in ('name="ferro"', 'name="mao_especial"', 'name="baralho"', 'name="empate"'):
        assert page.index(field) > more, field


# --- names change everywhere, undo and redo ----------------------------------------------------


def test_an_edit_changes_the_names_on_every_page_and_undo_brings_the_old_ones_back(
    app: Flask, client: FlaskClient
) -> None:
    """Board, live view, history, exports and share page read the new names after the edit;
    the log says what changed; undo restores every old name, redo the new ones."""
    token = table(client)
    play(client, token, "normal:0:3", "normal:1:1")
    before = names_read_everywhere(app, client, token)
    saved = edit(client, token, time_a="Os Zapeiros", jogador_0="Bia", nomes="corrigir")
    assert saved.status_code == 303 and saved.headers["Location"] == f"/m/{token}"
    board = client.get(f"/m/{token}").text
    said = "Nomes mudados (erro de digitação): Nós → Os Zapeiros, Ana → Bia"
    assert shown_text(board, "confirmacao") == f"✓ {said}"
    assert log_lines(board)[0] == f"{said} 3 x 1 HH:MM"
    assert scores(board) == (3, 1)
    after = names_read_everywhere(app, client, token)
    for page, text in after.items():
        assert "Os Zapeiros" in text, page
        assert "Os Zapeiros" not in before[page], page

    undone = post(client, token, "desfazer")
    assert by_testid(undone.text, "mensagem") == f"Desfeito: {said}."
    restored = names_read_everywhere(app, client, token)
    for page, text in restored.items():
        assert "Os Zapeiros" not in text.replace("Nós → Os Zapeiros", ""), page
    assert by_testid(restored["board"], "vez") == by_testid(before["board"], "vez")
    assert scores(restored["board"]) == (3, 1)

    post(client, token, "refazer")
    redone = client.get(f"/m/{token}").text
    assert "Os Zapeiros" in by_testid(redone, "team-a") or "Os Zapeiros" in redone
    assert re.search(r'<h2 class="team"[^>]*>Os Zapeiros</h2>', redone)


def test_the_score_image_and_the_turma_statistics_read_the_new_names(
    app: Flask, client: FlaskClient
) -> None:
    """The result image is drawn again with the new names (its revision moved) and the turma's
    statistics credit each game to the names seated when it was played."""
    token = table(client)
    play(client, token, "normal:0:12")
    response = client.post(
        f"/m/{token}/turma", data={"rev": revision(client, token), "acao": "criar", "nome": "Q"}
    )
    turma = response.headers["Location"].rsplit("/", 1)[1]
    view = view_token(app, token)
    image = client.get(f"/v/{view}/imagem.png").data
    assert "Ana" in client.get(f"/turma/{turma}").text
    assert edit(client, token, jogador_0="Bia", nomes="substituir").status_code == 303
    stats = client.get(f"/turma/{turma}").text
    assert 'data-nome="Bia"' not in stats and 'data-nome="Ana"' in stats  # Ana played it
    play(client, token, "proxima_partida", "normal:0:12")
    stats = client.get(f"/turma/{turma}").text
    assert 'data-nome="Bia" data-partidas="1"' in stats
    assert 'data-nome="Ana" data-partidas="1"' in stats
    assert client.get(f"/v/{view}/imagem.png").data != image
    post(client, token, "desfazer")
    stats = client.get(f"/turma/{turma}").text
    assert 'data-nome="Ana"' in stats and 'data-nome="Bia"' not in stats


# --- a write like any other --------------------------------------------------------------------


def test_an_edit_on_a_stale_revision_is_refused_with_409_and_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Another phone tapped after the form was drawn: 409 in pt-BR, the form drawn again with
    the table as it is now, no name changed, nothing recorded."""
    token = table(client)
    rev = revision(client, token)
    tap(client, token, "normal:0:1")
    refused = edit(client, token, rev=rev, time_a="Os Zapeiros")
    assert refused.status_code == 409
    assert message(refused.text) == "O placar mudou em outro aparelho; confira."
    assert re.search(r'name="time_a"[^>]*value="Nós"', refused.text)
    assert re.search(r'name="rev" value="1"', refused.text)
    assert "Os Zapeiros" not in client.get(f"/m/{token}").text
    assert count(app, HandRecord, token) == 1


def test_an_edit_sent_again_with_its_client_id_is_applied_once(
    app: Flask, client: FlaskClient
) -> None:
    """The answer was lost and the browser sent the form again: the same edit is recognised,
    answered with the board, recorded once, the revision moved once."""
    token = table(client)
    cid = str(uuid.uuid4())
    first = edit(client, token, rev=0, cid=cid, time_b="Os Patos")
    again = edit(client, token, rev=0, cid=cid, time_b="Os Patos")
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == f"/m/{token}"
    assert revision(client, token) == 1
    assert count(app, HandRecord, token) == 1
    assert count(app, MesaWrite, token) == 1
    reused = edit(client, token, rev=0, cid=cid, time_b="Outros")
    assert reused.status_code == 422
    assert "Outros" not in client.get(f"/m/{token}").text


def test_a_viewer_link_can_neither_open_nor_save_the_edit(app: Flask, client: FlaskClient) -> None:
    """The edit is a scorer's: the viewers' link gets 403 on the form and on the write."""
    token = table(client)
    view = view_token(app, token)
    assert client.get(f"/v/{view}").status_code == 200
    assert client.get(f"/m/{view}/editar").status_code == 403
    assert client.post(f"/m/{view}/editar", data={**FIELDS, "rev": "0"}).status_code == 403
    assert client.get("/m/nope/editar").status_code == 404
    assert count(app, HandRecord, token) == 0


def test_a_refused_edit_keeps_what_was_typed_and_says_why(client: FlaskClient) -> None:
    """Two teams with one name, a name past 24 letters, an edit that changes nothing: 422 in
    pt-BR, the form as posted, nothing written."""
    token = table(client)
    same = edit(client, token, time_a="Eles")
    assert same.status_code == 422
    assert message(same.text) == "Os dois times precisam de nomes diferentes."
    assert re.search(r'name="time_a"[^>]*value="Eles"', same.text)
    long = edit(client, token, jogador_1="x" * 25)
    assert long.status_code == 422
    assert message(long.text) == "Nome de jogador muito longo: no máximo 24 caracteres."
    nothing = edit(client, token)
    assert nothing.status_code == 422
    assert message(nothing.text) == "Nada mudou na mesa: os nomes e as opções são os mesmos."
    assert revision(client, token) == 0


# --- the games played are kept -----------------------------------------------------------------


def test_a_player_swap_mid_series_keeps_the_series_the_score_and_the_deal(
    client: FlaskClient,
) -> None:
    """Caio leaves after a game of a best of 3, Eva sits in his place: the series tally, the
    score of the game being played and the dealer stay as they were."""
    token = table(client)
    play(client, token, "normal:0:12", "proxima_partida", "normal:1:3", "normal:0:1")
    before = client.get(f"/m/{token}").text
    assert edit(client, token, jogador_2="Eva", pe="3", nomes="substituir").status_code == 303
    after = client.get(f"/m/{token}").text
    assert scores(after) == scores(before) == (1, 3)
    for name in ("serie", "series-a", "series-b"):
        assert by_testid(after, name) == by_testid(before, name), name
    assert by_testid(after, "serie") == "Melhor de 3 · partida 2"
    assert by_testid(after, "vez") == "Dá as cartas (pé): Duda · Começa (mão): Ana"
    play(client, token, "normal:0:12")
    assert by_testid(client.get(f"/m/{token}").text, "fim") is not None
    assert "Série para Nós!" in client.get(f"/m/{token}").text


def test_single_games_become_a_best_of_3_keeping_the_games_played(client: FlaskClient) -> None:
    """Avulsas, one game each: as a best of 3 the series stands 1 x 1 and the next game decides
    it."""
    token = table(client, serie="avulsas")
    play(client, token, "normal:0:12", "proxima_partida", "normal:1:12", "proxima_partida")
    assert edit(client, token, serie="melhor_de_3").status_code == 303
    board = client.get(f"/m/{token}").text
    assert (by_testid(board, "series-a"), by_testid(board, "series-b")) == ("1", "1")
    assert by_testid(board, "serie") == "Melhor de 3 · partida 3"
    play(client, token, "normal:1:12")
    assert "Série para Eles!" in client.get(f"/m/{token}").text


def test_a_series_the_games_played_already_decided_is_refused(client: FlaskClient) -> None:
    """Two games won by Nós and a third being played: it cannot be a best of 3 now (the series
    would have ended), and a finished series cannot be lengthened before a new one starts."""
    token = table(client, serie="avulsas")
    play(client, token, "normal:0:12", "proxima_partida", "normal:0:12", "proxima_partida")
    refused = edit(client, token, serie="melhor_de_3")
    assert refused.status_code == 422
    assert message(refused.text) == (
        "Vitórias de Nós: 2. Com elas, a série não pode ser melhor de 3 agora."
    )
    assert by_testid(client.get(f"/m/{token}").text, "serie") == "Partida 3"

    done = table(client)
    play(client, done, "normal:0:12", "proxima_partida", "normal:0:12")
    longer = edit(client, done, serie="melhor_de_5")
    assert longer.status_code == 422
    assert message(longer.text) == (
        "A série acabou: toque em Nova série antes de mudar quantas partidas ela tem."
    )


def test_the_mao_de_dez_chosen_at_10_points_makes_the_next_hand_special(
    client: FlaskClient,
) -> None:
    """A house option changed mid-game applies from the next hand: at 10 x 3, choosing the mão
    de dez turns the board to it; undo gives back the normal hand."""
    token = table(client)
    play(client, token, "normal:0:9", "normal:0:1", "normal:1:3")
    assert by_testid(showing(client.get(f"/m/{token}").text), "mao-de-onze") is None
    assert edit(client, token, mao_especial="10").status_code == 303
    board = showing(client.get(f"/m/{token}").text)
    assert 'data-testid="mao-de-onze"' in board and "Mão de dez" in board
    assert "Mão especial: mão de onze → mão de dez" in board
    post(client, token, "desfazer")
    assert 'data-testid="mao-de-onze"' not in showing(client.get(f"/m/{token}").text)


def test_a_1x1_table_becomes_2x2_with_four_names(client: FlaskClient) -> None:
    """Opened 1x1 by mistake: the edit makes it 2x2 and the deal goes round four seats."""
    token = open_table(client, jogadores="2", jogador_0="Ana", jogador_1="Beto")
    assert edit(client, token, jogadores="4", jogador_2="Caio", jogador_3="Duda").status_code == 303
    board = client.get(f"/m/{token}").text
    assert by_testid(board, "vez") == "Dá as cartas (pé): Ana · Começa (mão): Beto"
    play(client, token, "normal:0:1", "normal:0:1")
    assert by_testid(client.get(f"/m/{token}").text, "vez") == (
        "Dá as cartas (pé): Caio · Começa (mão): Duda"
    )


def test_an_edits_words_name_each_change_and_nothing_else() -> None:
    """The log line of an edit lists the names that changed (a seat given a name says which
    seat), then each option with its words before and after, and whether the deal moved."""
    from dataclasses import replace

    from scorekeeper.domain.mesa import TableSettings, words

    before = TableSettings(
        players=4, best_of=0, first_dealer=0, special_at=11, ferro_mode="cegas", deck="sujo",
        manilhas="variavel", tie_opener="mao", team_a="Nós", team_b="Eles",
        player_names=("Ana", "", "", ""),
    )  # fmt: skip
    after = replace(
        before, best_of=3, ferro_mode="claras", team_b="Patos", player_names=("Bia", "Caio")
    )
    assert words.edit_text(before, after) == (
        "Nomes mudados: Eles → Patos, Ana → Bia, jogador 2 → Caio · Mão de ferro: às cegas →"
        " às claras · Série: partidas avulsas → melhor de 3"
    )
    assert words.edit_text(before, replace(before, first_dealer=2)) == "Quem dá as cartas mudou"
    assert words.edit_text(before, replace(before, players=2, player_names=("Ana",))) == (
        "Jogo: 2x2 → 1x1"
    )
