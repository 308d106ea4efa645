"""Nothing a mesa's phone sends breaks a torneio: its match's table refuses every write that would
tie another row to it (a rematch, a move to a turma, an edit of the torneio's names or rules); a
match decided off its board is over on its table at once, and its phone is told and moved on;
copies and rematches never block taking a call back (the table is kept, closed); a table whose
pairs are no longer the bracket's crowns nobody."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.domain.mesa.service import TORNEIO_EDIT
from scorekeeper.domain.turma.turmas import TORNEIO_REMATCH, TORNEIO_TABLE
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Jogo, Mesa, Turma, utcnow

from .helpers import (
    HX,
    by_testid,
    edit_form,
    final_begun_then_semi_reopened,
    matches,
    one_game_torneio,
    open_table,
    organiser_post,
    play,
    post,
    revision,
    table_at,
)

WIN = "normal:0:12"  # a hand worth 12 from 0 x 0: with one game a match, the match
WIN_B = "normal:1:12"


def tv_token(client: FlaskClient, token: str) -> str:
    """The TV's token, from the organiser's page."""
    found = re.search(
        r'href="[^"]*/tv/([\w-]+)" data-testid="tv-link"', client.get(f"/t/{token}").text
    )
    assert found
    return found.group(1)


def mesa_link(client: FlaskClient, token: str, number: int) -> str:
    """The path of mesa `number`'s stable link."""
    page = client.get(f"/t/{token}").text
    link = re.search(
        rf'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link" data-mesa="{number}"', page
    )
    assert link
    return link.group(1)


def stored(app: Flask, table: str) -> Mesa | None:
    """The table with this scorer token, as stored now."""
    with app.app_context():
        return db.session.execute(select(Mesa).where(Mesa.edit_token == table)).scalar_one_or_none()


def count(app: Flask, model: type) -> int:
    """How many rows of `model` there are."""
    with app.app_context():
        return int(db.session.execute(select(func.count()).select_from(model)).scalar_one())


def organiser_pages_answer(client: FlaskClient, token: str) -> None:
    """The organiser's page, the TV, its poll, its exports and every mesa's link answer (no 5xx)."""
    tv = tv_token(client, token)
    paths = [f"/t/{token}", f"/t/{token}/novidades?v=0", f"/tv/{tv}", f"/tv/{tv}/estado?v=0"]
    paths += [f"/tv/{tv}/torneio.csv", f"/tv/{tv}/torneio.json", f"/tv/{tv}/resultado.png"]
    page = client.get(f"/t/{token}").text
    paths += re.findall(r'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link"', page)
    for path in paths:
        answer = client.get(path)
        answer.get_data()  # a streamed export is read to its end
        answer.close()
        assert answer.status_code in (200, 204, 303), (path, answer.status_code)


# --- writes that would tie another row to a match's table ----------------------------------------
def test_a_mesa_phone_cannot_open_a_rematch_of_its_match(app: Flask, client: FlaskClient) -> None:
    """'Jogar de novo' posted from a match's phone (the button is hidden, the route refuses it):
    a pt-BR refusal, no table opened, the match's table untouched."""
    token = one_game_torneio(client)
    table = table_at(client, token, 1)
    before = count(app, Mesa)
    refused = client.post(f"/m/{table}/jogar-de-novo")
    assert refused.status_code == 422
    assert TORNEIO_REMATCH in refused.text
    play(client, table, WIN)  # finished: still none
    assert client.post(f"/m/{table}/jogar-de-novo").status_code == 422
    assert count(app, Mesa) == before  # the other semi-final still plays: no final yet


@pytest.mark.parametrize("action", ["criar", "entrar"])
def test_a_mesa_phone_cannot_put_its_match_in_a_turma(
    app: Flask, client: FlaskClient, action: str
) -> None:
    """'Salvar na turma' posted from a match's phone, to a new turma or a pasted one: refused in
    pt-BR, no turma made, the match's table in none."""
    home = open_table(client)
    made = client.post(f"/m/{home}/turma", data={"rev": "0", "acao": "criar", "nome": "Amigos"})
    turma = made.headers["Location"].rsplit("/", 1)[-1]
    token = one_game_torneio(client)
    table = table_at(client, token, 1)
    turmas = count(app, Turma)
    form = {"rev": "0", "acao": action, "nome": "Copa", "link": f"/turma/{turma}"}
    refused = client.post(f"/m/{table}/turma", data=form)
    assert refused.status_code == 422
    assert TORNEIO_TABLE in refused.text
    assert count(app, Turma) == turmas
    kept = stored(app, table)
    assert kept is not None and kept.turma_id is None and kept.revision == 0


def test_an_edit_of_a_torneio_table_changes_who_deals_never_its_names_or_rules(
    app: Flask, client: FlaskClient
) -> None:
    """'Editar' on a match's board: swapping the sides' names or changing a house rule is
    refused in pt-BR (the bracket and the podium go by the torneio's pairs), nothing recorded;
    who deals the next hand may change."""
    token = one_game_torneio(client)
    table = table_at(client, token, 1)
    before = stored(app, table)
    assert before is not None
    form = edit_form(client, table)
    swapped = {**form, "time_a": before.team_b, "time_b": before.team_a}
    refused = client.post(f"/m/{table}/editar", data=swapped)
    assert refused.status_code == 422 and TORNEIO_EDIT in refused.text
    special = {**form, "mao_especial": "10"}
    assert client.post(f"/m/{table}/editar", data=special).status_code == 422
    after = stored(app, table)
    assert after is not None
    assert (after.team_a, after.team_b, after.special_at, after.revision) == (
        before.team_a, before.team_b, before.special_at, 0
    )  # fmt: skip
    dealer = {**form, "pe": "1"}
    assert client.post(f"/m/{table}/editar", data=dealer).status_code == 303
    dealt = stored(app, table)
    assert dealt is not None and dealt.revision == 1 and dealt.team_a == before.team_a


# --- copies and rematches never block taking a call back -----------------------------------------
def test_saved_copies_never_block_undoing_the_final_and_a_semi(
    app: Flask, client: FlaskClient
) -> None:
    """The champion's matches saved in a turma from the TV, then the final's and a semi's phones
    undo their hands: the final (untouched again, its pairs changed) is taken back, its table
    kept closed since the copy refers to it; every page still answers, the copy is intact."""
    token = one_game_torneio(client)
    semi, other = table_at(client, token, 1), table_at(client, token, 2)
    play(client, semi, WIN)
    play(client, other, WIN)
    final = table_at(client, token, 1)
    play(client, final, WIN)
    tv = tv_token(client, token)
    champion = re.search(
        r'data-testid="campeao" data-nome="([^"]+)"', client.get(f"/t/{token}").text
    )
    assert champion
    links = dict(
        re.findall(r'data-nome="([^"]+)"><a href="([^"]+)" data-testid="salvar-dupla"',
                   client.get(f"/tv/{tv}/duplas").text)
    )  # fmt: skip
    saved = client.post(links[champion.group(1)], data={"nome": "Amigos"})
    assert saved.status_code == 303
    copies = count(app, Mesa)
    assert post(client, final, "desfazer").status_code == 200
    assert post(client, semi, "desfazer").status_code == 200
    organiser_pages_answer(client, token)
    kept = stored(app, final)
    assert kept is not None and kept.closed == "cancelado"
    assert count(app, Mesa) == copies
    assert matches(client, token)["2-0"]["estado"] == "aguardando"
    assert client.get(saved.headers["Location"]).status_code == 200


def rematch_of(app: Flask, table: str) -> None:
    """A rematch pointing at a match's table, as a phone could open one before it was refused
    (or an older Tento's database holds)."""
    with app.app_context():
        source = db.session.execute(select(Mesa).where(Mesa.edit_token == table)).scalar_one()
        db.session.add(
            Mesa(edit_token=f"r{source.id}x" * 4, view_token=f"v{source.id}y" * 4,
                 previous_id=source.id, created_at=utcnow())
        )  # fmt: skip
        db.session.commit()


def test_a_rematch_of_an_untouched_call_never_blocks_a_swap_or_the_undo_of_the_draw(
    app: Flask, client: FlaskClient
) -> None:
    """A match's table another table follows as its rematch: a swap of pairs that calls it off,
    then the undo of the draw, both go through; the table is kept closed, every page answers."""
    token = one_game_torneio(client)
    first = table_at(client, token, 1)
    rematch_of(app, first)
    ids = [int(i) for i in re.findall(r'name="de" value="(\d+)"', client.get(f"/t/{token}").text)]
    with app.app_context():
        jogo = db.session.execute(select(Jogo).where(Jogo.key == "1-0")).scalar_one()
        pairs = (jogo.pair_a, jogo.pair_b)
    page = client.get(f"/t/{token}").text
    options = sorted({int(i) for i in re.findall(r'<option value="(\d+)"', page)} | set(ids))
    outsider = next(p for p in options if p not in pairs)
    swapped = organiser_post(client, token, "trocar", de=str(pairs[0]), para=str(outsider))
    assert swapped.status_code == 303, by_testid(swapped.text, "mensagem")
    organiser_pages_answer(client, token)
    kept = stored(app, first)
    assert kept is not None and kept.closed == "cancelado"
    second = table_at(client, token, 1)
    rematch_of(app, second)
    assert organiser_post(client, token, "desfazer-sorteio").status_code == 303
    assert client.get(f"/t/{token}").status_code == 200
    assert stored(app, second) is not None


# --- a match decided off its board is over on its table ------------------------------------------
def first_pair(client: FlaskClient, token: str, key: str) -> str:
    """The id of a match's first pair, from its W.O. button on the organiser's page."""
    page = client.get(f"/t/{token}").text
    pair = re.search(r'name="dupla" value="(\d+)"', page[page.index(f'data-key="{key}"') :])
    assert pair
    return pair.group(1)


def at_mesa(client: FlaskClient, token: str, number: int) -> tuple[str, str]:
    """The key of the match playing at mesa `number`, and the id of its first pair."""
    match = next(m for m in matches(client, token).values() if m.get("mesa") == str(number))
    return match["key"], first_pair(client, token, match["key"])


@pytest.mark.parametrize("how", ["wo", "organizador"])
def test_a_match_decided_by_the_organiser_is_over_on_its_phone_at_once(
    app: Flask, client: FlaskClient, how: str
) -> None:
    """A W.O. (or the organiser's result) on a match being played: its phone's next poll draws
    the board closed, saying why and leading to the mesa's match now; a tap sent after is
    refused in pt-BR and records nothing; the torneio's CSV has no hand of it."""
    token = one_game_torneio(client, pairs=3, mesas=1)  # a bye: one semi on mesa 1
    table = table_at(client, token, 1)
    play(client, table, "normal:0:1")
    shown = revision(client, table)
    key, pair = at_mesa(client, token, 1)
    given = organiser_post(client, token, f"jogo/{key}/decidir", como=how, dupla=pair)
    assert given.status_code == 303
    polled = client.get(f"/m/{table}/placar?rev={shown}")
    assert polled.status_code == 200
    assert 'data-testid="jogo-encerrado"' in polled.text
    moved = re.search(r'data-seguir="([^"]+)"', polled.text)
    assert moved and f"encerrado={how}" in moved.group(1)
    assert 'data-testid="tap-a-1"' not in polled.text
    records = count(app, HandRecord)
    late = post(client, table, "marcar", o="normal:1:3")
    assert late.status_code == 422
    assert "nada foi marcado" in (by_testid(late.text, "mensagem") or "")
    assert post(client, table, "desfazer").status_code == 422
    assert count(app, HandRecord) == records
    follow = client.get(moved.group(1).replace("&amp;", "&"))
    assert follow.status_code == 303  # to the final, now called at mesa 1
    final = follow.headers["Location"].rsplit("/", 1)[-1]
    assert final != table
    assert "W.O." in client.get(f"/m/{final}").text or how != "wo"
    tv = tv_token(client, token)
    rows = [r for r in client.get(f"/tv/{tv}/torneio.csv").text.splitlines() if "+3" in r]
    assert rows == []


def test_a_match_called_off_is_over_on_its_phone_which_goes_to_the_mesas_match(
    client: FlaskClient,
) -> None:
    """A stale match scored meanwhile, called off by the organiser: its phone's next poll draws
    it closed and leads to the mesa's link, which opens the match called there now."""
    token, first, _second, final = final_begun_then_semi_reopened(client)
    shown = revision(client, final)
    assert organiser_post(client, token, "jogo/2-0/cancelar").status_code == 303
    polled = client.get(f"/m/{final}/placar?rev={shown}")
    assert polled.status_code == 200 and 'data-testid="jogo-encerrado"' in polled.text
    moved = re.search(r'data-seguir="([^"]+)"', polled.text)
    assert moved
    follow = client.get(moved.group(1).replace("&amp;", "&"))
    assert follow.status_code == 303 and follow.headers["Location"].endswith(first)
    assert "cancelou o jogo anterior" in client.get(f"/m/{first}").text


# --- a table whose pairs are no longer the bracket's decides nothing -----------------------------
def podium(client: FlaskClient, token: str) -> list[str]:
    """The podium's places named on the organiser's page."""
    return re.findall(r'data-testid="(campeao|vice|terceiro)"', client.get(f"/t/{token}").text)


def test_a_final_played_between_pairs_the_bracket_no_longer_has_crowns_nobody(
    client: FlaskClient,
) -> None:
    """A semi's phone undoes its winning hand after the final began; the other pair wins the
    semi again; the final's mesa plays its old pairs to the end: no champion, no vice, on the
    organiser's page, the TV and torneio.json, until the organiser decides or calls it off."""
    token, semi, _other, final = final_begun_then_semi_reopened(client)
    play(client, semi, WIN_B)  # the other pair of the semi wins it now
    play(client, final, "normal:1:9")  # the old final ends: 12 x 0 for its side b
    assert podium(client, token) == []
    tv = tv_token(client, token)
    assert 'data-testid="campeao"' not in client.get(f"/tv/{tv}").text
    exported = json.loads(client.get(f"/tv/{tv}/torneio.json").text)
    assert (
        not any(exported.get("podio", {}).values())
        if isinstance(exported.get("podio"), dict)
        else not exported.get("podio")
    )
    assert 'data-testid="jogo-fora-da-chave"' in client.get(f"/t/{token}").text
    assert organiser_post(client, token, "jogo/2-0/cancelar").status_code == 303
    again = table_at(client, token, 1)
    assert again != final
    play(client, again, WIN)
    assert podium(client, token) == ["campeao", "vice"]


def test_an_organisers_word_taken_back_leaves_a_stale_final_deciding_nothing(
    client: FlaskClient,
) -> None:
    """The organiser gives a stale final (its table's pairs no longer the bracket's) to a pair,
    then takes the word back: the table's own result, between other pairs, crowns nobody."""
    token, semi, _other, final = final_begun_then_semi_reopened(client)
    play(client, semi, WIN_B)
    play(client, final, "normal:1:9")
    pair = first_pair(client, token, "2-0")  # of the bracket's pairs now
    given = organiser_post(client, token, "jogo/2-0/decidir", como="organizador", dupla=pair)
    assert given.status_code == 303
    assert podium(client, token) == ["campeao", "vice"]
    assert organiser_post(client, token, "jogo/2-0/decidir", como="desfeito").status_code == 303
    assert podium(client, token) == []
    organiser_pages_answer(client, token)


def test_htmx_writes_to_a_closed_table_answer_its_board_never_a_500(client: FlaskClient) -> None:
    """Every write route of a closed match's board, as its script sends them: a board fragment
    with the refusal (the script drops the write), never a 5xx."""
    token = one_game_torneio(client, pairs=3, mesas=1)
    table = table_at(client, token, 1)
    play(client, table, "normal:0:1")
    key, pair = at_mesa(client, token, 1)
    decided = organiser_post(client, token, f"jogo/{key}/decidir", como="wo", dupla=pair)
    assert decided.status_code == 303
    rev = str(revision(client, table))
    writes = {
        "marcar": {"o": "normal:0:3"},
        "desfazer": {},
        "refazer": {},
        "nota": {"registro": "1", "nota": "truco"},
        "corrigir": {"lado": "0", "pontos": "5", "motivo": "x"},
    }
    for route, form in writes.items():
        answer = client.post(f"/m/{table}/{route}", data={"rev": rev, **form}, headers=HX)
        assert answer.status_code == 422, (route, answer.status_code)
        assert answer.headers.get("X-Tento-Rev") == rev
