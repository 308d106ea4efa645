"""Around the board: the result shared three ways (share sheet, WhatsApp, a copy) on the address
other phones can open, the live link shared the same way, "Nova série" and "Jogar de novo"
explained, a board saved in a turma linking back to it, and "Corrigir placar" adding to a
side's points or setting them."""

from __future__ import annotations

import html as markup
import re
import uuid
from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.common import links

from .helpers import HX, by_testid, open_table, play, post, revision, scores

MACHINE_IP = "192.168.1.23"  # what lan_address() answers in these tests
WIN_A = "normal:0:12"


def attribute(html: str, testid: str, name: str) -> str:
    """An attribute of the element with this data-testid, unescaped."""
    tag = re.search(rf'<[a-z]+ [^>]*data-testid="{testid}"[^>]*>', html)
    assert tag, testid
    found = re.search(rf'\b{name}="([^"]*)"', tag.group(0))
    assert found, (testid, name, tag.group(0))
    return markup.unescape(found.group(1))


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> str:
    """This machine found on the local network at MACHINE_IP; the address phones open."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    return f"http://{MACHINE_IP}:5000"


def test_a_finished_game_shares_its_result_by_share_sheet_whatsapp_or_copy_on_the_lan(
    app: Flask, lan: str
) -> None:
    """Opened on the laptop (127.0.0.1), the result's links are the LAN address: the share
    sheet's fallback opens the live score in a new tab (the board stays), WhatsApp's link carries
    the result and the link, and so does the copy."""
    client = app.test_client()
    token = open_table(client, time_a="Brabos", time_b="Patos")
    html = play(client, token, WIN_A).text
    html = client.get(f"/m/{token}", base_url="http://127.0.0.1:5000").text
    live = attribute(html, "compartilhar-resultado", "href")
    assert live.startswith(f"{lan}/v/")
    assert attribute(html, "compartilhar-resultado", "target") == "_blank"
    text = "Partida para Brabos! Brabos 12 x 0 Patos · partidas 1 x 0"
    assert attribute(html, "compartilhar-resultado", "data-share-text") == text
    whatsapp = attribute(html, "whatsapp", "href")
    assert whatsapp.startswith("https://wa.me/?text=")
    assert unquote(whatsapp.removeprefix("https://wa.me/?text=")) == f"{text}\n{live}"
    assert attribute(html, "copiar", "data-copy") == f"{text}\n{live}"
    assert "127.0.0.1" not in live + whatsapp


def test_the_share_page_shares_the_live_link_by_whatsapp_or_copy(app: Flask, lan: str) -> None:
    """Beside the live link: a copy button and WhatsApp, both with the LAN address."""
    client = app.test_client()
    token = open_table(client, time_a="Brabos", time_b="Patos")
    html = client.get(f"/m/{token}/compartilhar", base_url="http://127.0.0.1:5000").text
    watch = by_testid(html, "link-assistir")
    assert watch and watch.startswith(f"{lan}/v/")
    assert attribute(html, "copiar", "data-copy") == watch
    whatsapp = unquote(attribute(html, "whatsapp", "href").removeprefix("https://wa.me/?text="))
    assert whatsapp == f"Placar ao vivo: Brabos x Patos\n{watch}"


def test_the_end_of_a_series_says_what_nova_serie_and_jogar_de_novo_do(
    client: FlaskClient,
) -> None:
    """Each choice has its line: a new series on this table and link, or another table."""
    token = open_table(client, serie="melhor_de_3")
    html = play(client, token, WIN_A, "proxima_partida", WIN_A).text
    notes = re.findall(r'<p class="over-note">([^<]+)</p>', html)
    assert notes == [
        "Zera as partidas; mesma mesa, mesmo link.",
        "Outra mesa, mesmos nomes, link novo.",
    ]


def test_a_board_saved_in_a_turma_links_to_it_instead_of_offering_to_save_it(
    client: FlaskClient,
) -> None:
    """'Na turma Quinta', a link to the turma's page; no 'Salvar na turma' any more."""
    token = open_table(client)
    assert 'data-testid="salvar-turma"' in client.get(f"/m/{token}").text
    form = {"rev": revision(client, token), "acao": "criar", "nome": "Quinta"}
    saved = client.post(f"/m/{token}/turma", data=form)
    turma = saved.headers["Location"].rsplit("/", 1)[-1]
    html = client.get(f"/m/{token}").text
    assert 'data-testid="salvar-turma"' not in html
    assert by_testid(html, "ver-turma") == "Na turma Quinta"
    assert attribute(html, "ver-turma", "href") == f"/turma/{turma}"


def test_the_live_view_of_a_table_in_a_turma_links_to_the_turmas_read_only_page(
    client: FlaskClient,
) -> None:
    """A viewer's link leads to the turma's viewer page, never to its scorer link."""
    token = open_table(client)
    form = {"rev": revision(client, token), "acao": "criar", "nome": "Quinta"}
    turma = client.post(f"/m/{token}/turma", data=form).headers["Location"].rsplit("/", 1)[-1]
    view = re.search(r'/v/([A-Za-z0-9_-]+)"', client.get(f"/m/{token}/compartilhar").text)
    assert view
    html = client.get(f"/v/{view.group(1)}").text
    assert by_testid(html, "ver-turma") == "Na turma Quinta"
    assert attribute(html, "ver-turma", "href").startswith("/vt/")
    assert turma not in html


def correct(client: FlaskClient, token: str, mode: str | None, side: int, points: int) -> Any:
    """Post 'Corrigir placar' as the board's script does."""
    form = {"lado": str(side), "pontos": str(points), "motivo": "esquecemos"}
    if mode:
        form["modo"] = mode
    return post(client, token, "corrigir", **form)


def test_corrigir_placar_adds_to_a_sides_points_or_sets_them(client: FlaskClient) -> None:
    """Nós 3: 'Somar pontos' 2 makes 5, -1 makes 4; 'Definir placar' 9 makes 9; without a mode,
    a correction sets (as older pages post it)."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    assert scores(correct(client, token, "somar", 0, 2).text) == (5, 0)
    assert scores(correct(client, token, "somar", 0, -1).text) == (4, 0)
    assert scores(correct(client, token, "definir", 0, 9).text) == (9, 0)
    answer = correct(client, token, None, 1, 7)
    assert scores(answer.text) == (9, 7)
    assert by_testid(answer.text, "confirmacao") == "✓ Eles: placar corrigido para 7 · esquecemos"


@pytest.mark.parametrize(
    ("mode", "points", "said"),
    [
        ("somar", 5, "Somando 5, Nós ficaria com 12."),
        ("somar", -8, "Somando -8, Nós ficaria com -1."),
        ("somar", 0, "Diga quantos pontos somar"),
        ("tirar", 1, "Escolha somar pontos ou definir o placar."),
    ],
)
def test_a_correction_out_of_the_game_is_refused_in_portuguese_and_changes_nothing(
    client: FlaskClient, mode: str, points: int, said: str
) -> None:
    """A sum past 11 or below 0, nothing to add, or an unknown mode: 422, the score as it was."""
    token = open_table(client)
    play(client, token, "normal:0:3", "normal:0:3", "normal:0:1")
    before = revision(client, token)
    answer = correct(client, token, mode, 0, points)
    assert answer.status_code == 422
    assert said in (by_testid(answer.text, "mensagem") or "")
    assert scores(answer.text) == (7, 0) and revision(client, token) == before


def test_a_sum_sent_again_after_a_lost_answer_is_added_once(client: FlaskClient) -> None:
    """The same client id twice (a retry): the second answer is the board, 2 added once."""
    token = open_table(client)
    cid = str(uuid.uuid4())
    rev = revision(client, token)
    for _ in range(2):
        answer = client.post(
            f"/m/{token}/corrigir",
            data={"rev": str(rev), "cid": cid, "lado": "1", "pontos": "2", "modo": "somar",
                  "motivo": "esquecemos"},  # fmt: skip
            headers=HX,
        )
        assert answer.status_code == 200
        assert scores(answer.text) == (0, 2)
