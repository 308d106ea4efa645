"""A bar's night as the mesas' phones and the TV see it: a mesa the organiser stops calling
matches to says so on its phone while its match goes on; the final's phone names the champions;
the TV shows the latest call large (also when opened after it) and no clock of a finished round;
the podium names a pair's places in the plural."""

from __future__ import annotations

import re
from pathlib import Path

from flask.testing import FlaskClient

from .helpers import (
    by_testid,
    decode_qr,
    matches,
    one_game_torneio,
    organiser_post,
    play,
    revision,
    table_at,
    tv_path,
)

WIN = "normal:0:12"


def test_a_mesa_not_called_again_says_so_on_its_phone_and_its_match_goes_on(
    client: FlaskClient,
) -> None:
    """'Não chamar jogos para esta mesa': the match playing there is told at its next poll and
    goes on scoring; calling again takes the notice away."""
    token = one_game_torneio(client)
    table = table_at(client, token, 1)
    shown = revision(client, table)
    page = client.get(f"/t/{token}").text
    assert "Não chamar jogos para esta mesa" in page
    assert organiser_post(client, token, "mesa/1/pausar", pausar="1").status_code == 303
    polled = client.get(f"/m/{table}/placar?rev={shown}")
    assert polled.status_code == 200
    assert "não vai chamar mais jogos para esta mesa" in (
        by_testid(polled.text, "mesa-pausada-placar") or ""
    )
    play(client, table, "normal:0:3")
    assert "Voltar a chamar jogos para esta mesa" in client.get(f"/t/{token}").text
    assert organiser_post(client, token, "mesa/1/pausar", pausar="0").status_code == 303
    assert by_testid(client.get(f"/m/{table}").text, "mesa-pausada-placar") is None


def test_the_finals_phone_names_the_champions_instead_of_a_next_match(client: FlaskClient) -> None:
    """Once the final ends, its board says who the champions are (a pair: 'Campeões') and leads
    to the podium; no 'Próximo jogo desta mesa'."""
    token = one_game_torneio(client, pairs=2, mesas=1)
    final = table_at(client, token, 1)
    done = play(client, final, WIN)
    champions = by_testid(done.text, "torneio-campeoes")
    assert champions is not None and champions.startswith("Campeões do torneio:")
    assert 'data-testid="torneio-proximo"' not in done.text
    board = client.get(f"/m/{final}").text
    found = re.search(r'data-testid="torneio-campeoes" data-nome="([^"]+)"', board)
    assert found and found.group(1) in board


def test_a_semi_finals_phone_still_offers_the_next_match(client: FlaskClient) -> None:
    token = one_game_torneio(client)
    semi = table_at(client, token, 1)
    done = play(client, semi, WIN)
    assert 'data-testid="torneio-proximo"' in done.text
    assert 'data-testid="torneio-campeoes"' not in done.text


def test_the_podium_names_a_pairs_places_in_the_plural_and_a_players_in_the_singular(
    client: FlaskClient,
) -> None:
    for players, words in (
        ("4", ("Campeões", "Vice-campeões")),
        ("2", ("Campeão", "Vice-campeão")),
    ):
        token = one_game_torneio(client, pairs=2, mesas=1, jogadores=players)
        play(client, table_at(client, token, 1), WIN)
        page = client.get(f"/t/{token}").text
        podium = re.findall(
            r'data-testid="(?:campeao|vice)" data-nome="[^"]+"><span>([^<]+)<', page
        )
        assert tuple(podium) == words


def call_on(tv: str) -> tuple[str, str]:
    """The TV's latest call: its id and its text."""
    found = re.search(r'data-testid="tv-chamada" data-chamada="(\d+)"', tv)
    assert found
    section = tv[found.end() : tv.index("</section>", found.end())]
    return found.group(1), " ".join(re.sub(r"<[^>]+>", " ", section).split())


def test_the_tv_shows_the_latest_call_large_also_when_opened_after_it(
    client: FlaskClient,
) -> None:
    """Both semi-finals called at once: the TV announces the later call (mesa 2); once both
    end the final is called to mesa 1, and a TV opened only then shows that call."""
    token = one_game_torneio(client)
    first, said = call_on(client.get(tv_path(client, token)).text)
    semi = matches(client, token)["1-1"]
    assert said.endswith("Mesa 2") and "Semifinal" in said and semi["mesa"] == "2"
    play(client, table_at(client, token, 1), WIN)
    play(client, table_at(client, token, 2), WIN)
    final = matches(client, token)["2-0"]
    later, said = call_on(client.get(tv_path(client, token)).text)
    assert later != first
    assert said.endswith(f"Mesa {final['mesa']}") and "Final" in said


def test_a_finished_rounds_clock_is_gone_from_the_tv_and_the_organisers_page(
    client: FlaskClient,
) -> None:
    """The semi-finals' clock shows while they play; once both are over, neither the TV nor the
    organiser's page counts it down."""
    token = one_game_torneio(client)
    assert organiser_post(client, token, "rodada/1/comecar").status_code == 303
    assert 'data-testid="relogio" data-rodada="1"' in client.get(f"/t/{token}").text
    play(client, table_at(client, token, 1), WIN)
    play(client, table_at(client, token, 2), WIN)
    assert 'data-testid="relogio" data-rodada="1"' not in client.get(f"/t/{token}").text
    assert 'data-rodada="1"' not in "".join(
        re.findall(r'data-testid="(?:tv-)?relogio"[^>]*>', client.get(tv_path(client, token)).text)
    )


def test_the_organisers_words_agree_with_a_pair_and_with_a_player_alone(
    client: FlaskClient,
) -> None:
    """A pair is plural ('W.O.: vencem Ana e Beto', 'a outra dupla'); a player alone (1x1) is
    singular ('W.O.: vence Ana', 'o outro jogador'); no 'a Os …' before a pair's name."""
    for players, verb, absent in (
        ("4", "vencem", "a outra dupla"),
        ("2", "vence", "o outro jogador"),
    ):
        token = one_game_torneio(client, pairs=2, mesas=1, jogadores=players)
        page = client.get(f"/t/{token}").text
        button = by_testid(page, "wo-a") or ""
        assert button.startswith(f"W.O.: {verb} ")
        assert (by_testid(page, "dar-a") or "").startswith("Vitória para ")
        pair = re.search(r'name="dupla" value="(\d+)"', page)
        assert pair
        organiser_post(client, token, "jogo/1-0/decidir", como="wo", dupla=pair.group(1))
        line = re.search(r'data-testid="sumula"><li>([^<]+)<', client.get(f"/t/{token}").text)
        assert line and line.group(1).startswith(f"W.O.: {verb} ")
        assert line.group(1).endswith(f"({absent} não se apresentou)")
    assert "Guarde este link." in client.get(f"/t/{token}").text


# --- links for the phones: QR codes and the pairs' own sign-up -----------------------------------


def svg_in(html: str, testid: str, extra: str = "") -> str:
    """The inline SVG of the figure with this test id (and attributes)."""
    start = html.index(f'data-testid="{testid}"{extra}')
    return html[html.index("<svg", start) : html.index("</svg>", start) + len("</svg>")]


def test_each_mesas_qr_code_on_the_organisers_page_and_its_card_is_its_link(
    client: FlaskClient, tmp_path: Path
) -> None:
    """The organiser's page shows each mesa's QR code unfolded; decoded (zbar), it is the
    mesa's link; the printable page has one card per mesa with the same code."""
    token = one_game_torneio(client, mesas=2)
    page = client.get(f"/t/{token}").text
    for number in (1, 2):
        link = re.search(rf'href="([^"]+)" data-testid="mesa-link" data-mesa="{number}"', page)
        assert link
        svg = svg_in(page, "mesa-qr", f' data-mesa="{number}"')
        assert decode_qr(svg, tmp_path, f"mesa-{number}") == link.group(1)
    cards = client.get(f"/t/{token}/mesas").text
    assert cards.count('data-testid="cartao-mesa"') == 2
    assert decode_qr(svg_in(cards, "cartao-mesa", ' data-mesa="2"'), tmp_path, "cartao") == (
        re.search(r'href="([^"]+)" data-testid="mesa-link" data-mesa="2"', page).group(1)  # type: ignore[union-attr]
    )


def test_pairs_sign_themselves_up_by_a_link_without_the_organisers_token(
    client: FlaskClient, tmp_path: Path
) -> None:
    """The sign-up link (and its QR code) carries no organiser token; a pair signed up there is
    at once among the pairs, the same checks as the organiser's form apply, and the organiser
    can edit or remove it; after the draw the link says registration is closed."""
    response = client.post("/torneio/novo", data={"nome": "Copa", "mesas": "1"})
    token = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/t/{token}").text
    link = re.search(r'href="([^"]+)" data-testid="inscricao-link"', page)
    assert link and token not in link.group(1)
    assert decode_qr(svg_in(page, "inscricao-qr"), tmp_path, "inscricao") == link.group(1)
    path = re.sub(r"^https?://[^/]+", "", link.group(1))
    form = client.get(path).text
    assert 'name="jogador_1"' in form and 'name="jogador_2"' in form
    signed = client.post(path, data={"jogador_1": "Zé", "jogador_2": "Bia"})
    assert signed.status_code == 303
    assert "Inscrição feita: Zé e Bia" in client.get(signed.headers["Location"]).text
    assert 'data-testid="dupla" data-nome="Zé e Bia"' in client.get(f"/t/{token}").text
    again = client.post(path, data={"jogador_1": "bia", "jogador_2": "ZE"})
    assert again.status_code == 422 and "já estão inscritos" in again.text
    assert client.post(path, data={"jogador_1": "", "jogador_2": "Lu"}).status_code == 422
    ids = re.findall(r"/dupla/(\d+)/remover", client.get(f"/t/{token}").text)
    assert (
        organiser_post(
            client, token, f"dupla/{ids[0]}/editar", jogador_1="Zé", jogador_2="Bea"
        ).status_code
        == 303
    )
    assert 'data-nome="Zé e Bea"' in client.get(f"/t/{token}").text
    assert client.post(path, data={"jogador_1": "Caio", "jogador_2": "Duda"}).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    closed = client.get(path).text
    assert 'data-testid="inscricoes-fechadas"' in closed and 'name="jogador_1"' not in closed
    late = client.post(path, data={"jogador_1": "Edu", "jogador_2": "Fabi"})
    assert late.status_code == 422
    assert client.get(path.replace(path.split("/")[2], token)).status_code == 404


def test_the_turma_and_the_torneio_offer_their_picture_to_download(client: FlaskClient) -> None:
    """'Baixar imagem' on the turma's pages (scorer's and viewer's) and at the torneio's end:
    each a download link to a PNG."""
    home = client.post("/mesas").headers["Location"].rsplit("/", 1)[-1]
    made = client.post(f"/m/{home}/turma", data={"rev": "0", "acao": "criar", "nome": "Amigos"})
    turma = made.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/turma/{turma}").text
    viewer = re.search(r'href="[^"]*/vt/([\w-]+)"', page)
    assert viewer
    token = one_game_torneio(client, pairs=2, mesas=1)
    play(client, table_at(client, token, 1), WIN)
    for html in (page, client.get(f"/vt/{viewer.group(1)}").text, client.get(f"/t/{token}").text):
        link = re.search(r'<a href="([^"]+)" data-testid="baixar-imagem" download', html)
        assert link
        answer = client.get(link.group(1))
        assert answer.status_code == 200 and answer.mimetype == "image/png"
