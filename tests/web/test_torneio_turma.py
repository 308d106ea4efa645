"""A pair's torneio matches saved in its turma: from the TV's read-only link,
each finished match copied once into the turma, with every hand, counted by its statistics."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa, Turma

from .helpers import by_testid, organiser_post, play, table_at

FINAL = ("normal:0:3", "normal:1:1", "normal:0:9")  # Nós win 12 x 1 in three hands


def two_pairs(client: FlaskClient) -> tuple[str, str]:
    """A drawn torneio of two pairs (one final, one game) on one mesa: its organiser's and its
    TV's tokens."""
    fields = {"nome": "Copa", "mesas": "1", "formato": "1", "formato_final": "1"}
    response = client.post("/torneio/novo", data=fields)
    token = response.headers["Location"].rsplit("/", 1)[-1]
    for names in (("Ana", "Beto"), ("Caio", "Duda")):
        form = {"jogador_1": names[0], "jogador_2": names[1]}
        assert organiser_post(client, token, "inscrever", **form).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    page = client.get(f"/t/{token}").text
    tv = re.search(r'href="[^"]*/tv/([\w-]+)" data-testid="tv-link"', page)
    assert tv
    return token, tv.group(1)


def final_table(client: FlaskClient, token: str) -> str:
    """The scorer token of the final, through mesa 1's link."""
    return table_at(client, token, 1)


def pair_links(client: FlaskClient, tv: str) -> dict[str, str]:
    """Each pair's 'salvar na turma' link, by the pair's name."""
    page = client.get(f"/tv/{tv}/duplas").text
    found = re.findall(r'data-nome="([^"]+)"><a href="([^"]+)" data-testid="salvar-dupla"', page)
    return {name: href for name, href in found}


def turma_tables(app: Flask, turma_token: str) -> list[Mesa]:
    """The tables of the turma with this scorer token."""
    with app.app_context():
        turma = db.session.execute(
            select(Turma).where(Turma.edit_token == turma_token)
        ).scalar_one()
        return list(db.session.execute(select(Mesa).where(Mesa.turma_id == turma.id)).scalars())


def test_a_pair_saves_its_finished_match_in_a_new_turma_with_every_hand(
    app: Flask, client: FlaskClient
) -> None:
    """From the TV's link a pair saves its final in a new turma: one ordinary table with the
    match's names and every hand, and the turma's page counts the game."""
    token, tv = two_pairs(client)
    table = final_table(client, token)
    play(client, table, *FINAL)
    link = pair_links(client, tv)["Ana e Beto"]
    assert by_testid(client.get(link).text, "jogo-da-dupla") is not None
    response = client.post(link, data={"nome": "Zapeiros"})
    assert response.status_code == 303
    turma_token = response.headers["Location"].rsplit("/", 1)[-1]
    (copy,) = turma_tables(app, turma_token)
    assert copy.torneio_id is None
    assert {copy.team_a, copy.team_b} == {"Ana e Beto", "Caio e Duda"}  # as the draw seated them
    with app.app_context():
        hands = db.session.execute(
            select(func.count()).select_from(HandRecord).where(HandRecord.mesa_id == copy.id)
        ).scalar_one()
    assert hands == len(FINAL)
    assert "Zapeiros" in client.get(f"/turma/{turma_token}").text


def test_saving_twice_or_by_both_pairs_copies_each_match_once(
    app: Flask, client: FlaskClient
) -> None:
    """The same pair saving again, and the other pair saving into the same turma, add no copy."""
    token, tv = two_pairs(client)
    play(client, final_table(client, token), *FINAL)
    links = pair_links(client, tv)
    response = client.post(links["Ana e Beto"], data={"nome": "Zapeiros"})
    turma_token = response.headers["Location"].rsplit("/", 1)[-1]
    turma_link = f"http://localhost/turma/{turma_token}"
    assert client.post(links["Ana e Beto"], data={"link": turma_link}).status_code == 303
    assert client.post(links["Caio e Duda"], data={"link": turma_link}).status_code == 303
    assert len(turma_tables(app, turma_token)) == 1


def test_a_match_still_playing_is_not_offered_and_nothing_is_saved(
    app: Flask, client: FlaskClient
) -> None:
    """Before the match ends the pair has nothing to save: a pt-BR refusal, no turma made."""
    token, tv = two_pairs(client)
    play(client, final_table(client, token), "normal:0:3")
    link = pair_links(client, tv)["Ana e Beto"]
    response = client.post(link, data={"nome": "Zapeiros"})
    assert response.status_code == 422
    assert "ainda não terminou nenhum jogo" in (by_testid(response.text, "mensagem") or "")
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(Turma)).scalar_one() == 0


def test_only_the_tvs_link_reaches_the_pairs_and_a_view_link_of_a_turma_is_refused(
    client: FlaskClient,
) -> None:
    """The organiser's token is not the TV's (404), another torneio's pair is refused, and a
    turma's watch link cannot receive tables."""
    token, tv = two_pairs(client)
    play(client, final_table(client, token), *FINAL)
    assert client.get(f"/tv/{token}/duplas").status_code == 404
    link = pair_links(client, tv)["Ana e Beto"]
    made = client.post(link, data={"nome": "Zapeiros"}).headers["Location"]
    turma_page = client.get(made).text
    watch = re.search(r'href="([^"]*/vt/[\w-]+)"', turma_page)
    assert watch
    refused = client.post(link, data={"link": watch.group(1)})
    assert refused.status_code == 422
    other = re.sub(r"/dupla/\d+/", "/dupla/9999/", link)
    assert client.get(other).status_code == 404
    assert client.post(other, data={"nome": "X"}).status_code == 404
