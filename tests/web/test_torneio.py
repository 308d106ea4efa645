"""A torneio through its pages: creating one, registration at the door, the draw,
matches called to mesas and played on their Tento tables through the mesas' stable links, the
organiser's word (W.O., override, taken back), the TV and its poll, refusals, the podium."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.torneio import access, bracket, calls, reading

from .helpers import (
    HX,
    board_at,
    by_testid,
    open_table,
    organiser_post,
    play,
    post,
    scores,
    showing,
    tap,
    torneio_rev_in,
    tv_path_in,
)

WIN_A = "normal:0:12"  # a game to side a in one tap: a melhor de 1 match is over
NAMES = [("Ana", "Beto"), ("Caio", "Duda"), ("Edu", "Fabi"), ("Gil", "Hugo"), ("Ivo", "Juca")]


def create(client: FlaskClient, **form: str):
    """POST the new-torneio form, the defaults of these tests under what is given."""
    data = {"nome": "Copa do Bar", "formato": "1", "mesas": "2", "terceiro": "1", **form}
    return client.post("/torneio/novo", data=data)


def new_torneio(client: FlaskClient, **form: str) -> str:
    """A new torneio's organiser token."""
    response = create(client, **form)
    assert response.status_code == 303, by_testid(response.text, "mensagem")
    found = re.search(r"/t/([A-Za-z0-9_-]+)$", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def register(client: FlaskClient, token: str, first: str, second: str = "", name: str = ""):
    """Register a pair at the door."""
    return organiser_post(client, token, "inscrever", jogador_1=first, jogador_2=second, nome=name)


def with_pairs(client: FlaskClient, count: int, **form: str) -> str:
    """A new torneio with `count` of NAMES registered; its organiser token."""
    token = new_torneio(client, **form)
    for first, second in NAMES[:count]:
        assert register(client, token, first, second).status_code == 303
    return token


def drawn(client: FlaskClient, count: int = 5, **form: str) -> str:
    """A torneio of `count` pairs, its bracket drawn; its organiser token."""
    token = with_pairs(client, count, **form)
    assert organiser_post(client, token, "sortear").status_code == 303
    return token


def pairs(html: str) -> dict[str, int]:
    """The registered pairs' ids by name, as the organiser's page lists them."""
    found = re.findall(
        r'data-testid="dupla" data-nome="([^"]+)".*?/dupla/(\d+)/marcar', html, flags=re.S
    )
    return {name: int(pair) for name, pair in found}


def matches_in(html: str) -> dict[str, dict[str, str]]:
    """Every match of the bracket, by key: its data attributes, and 'body' its inner HTML."""
    found = {}
    for attrs, body in re.findall(r'<article ([^>]*data-testid="jogo"[^>]*)>(.*?)</article>',
                                  html, flags=re.S):  # fmt: skip
        data = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', attrs))
        found[data["key"]] = {**data, "body": body}
    return found


def bracket_state(html: str) -> dict[str, dict[str, str]]:
    """Every match's data attributes (state, mesa, winner) and its line (score, W.O.), by key."""
    found = {}
    for k, m in matches_in(html).items():
        info = re.search(r'class="jogo-info">(.*?)</p>', m["body"], flags=re.S)
        line = " ".join(info.group(1).split()) if info else ""
        found[k] = {**{n: v for n, v in m.items() if n != "body"}, "info": line}
    return found


def path(url: str) -> str:
    """A link's path (pages show links on the LAN address)."""
    return urlsplit(url).path


def mesa_links(html: str) -> dict[int, str]:
    """Each mesa's stable link (path) by number."""
    found = re.findall(r'<a href="([^"]+)" data-testid="mesa-link" data-mesa="(\d+)"', html)
    return {int(number): path(url) for url, number in found}


def pairs_in_swap(html: str) -> dict[str, int]:
    """The pairs' ids by name, from the organiser's swap form (after the draw)."""
    found = re.search(r'<select name="de">(.*?)</select>', html, flags=re.S)
    assert found
    return {name: int(pair) for pair, name in re.findall(r'value="(\d+)">([^<]+)<', found[1])}


def pairs_by_name(html: str) -> dict[str, int]:
    """The pairs' ids by name, from the organiser's buttons on the bracket's matches."""
    found = re.findall(r'name="dupla" value="(\d+)" class="button" data-testid="dar-[ab]">'
                       r"Vitória para ([^<]+)<", html)  # fmt: skip
    return {name: int(pair) for pair, name in found}


def called_pair_ids(match: dict[str, str]) -> tuple[int, int]:
    """The pair ids of a called match, from the organiser's W.O. buttons."""
    a = re.search(r'value="(\d+)" class="button" data-testid="wo-a"', match["body"])
    b = re.search(r'value="(\d+)" class="button" data-testid="wo-b"', match["body"])
    assert a and b, match["body"]
    return int(a.group(1)), int(b.group(1))


def message(response) -> str | None:
    """The refusal's message on the page answered."""
    return by_testid(response.text, "mensagem")


# --- creating ------------------------------------------------------------------------------------


def test_the_home_page_links_to_a_new_torneio(client: FlaskClient):
    assert 'data-testid="torneio-novo"' in client.get("/").text
    assert 'data-testid="torneio-form"' in client.get("/torneio/novo").text


def test_a_new_torneio_opens_its_organisers_page(client: FlaskClient):
    token = new_torneio(client, formato="3", mesas="4")
    html = client.get(f"/t/{token}").text
    assert 'data-testid="torneio"' in html and "Copa do Bar" in html
    assert "melhor de 3" in by_testid(html, "torneio-regras")
    assert len(mesa_links(html)) == 4
    assert 'data-testid="inscrever"' in html


def test_the_form_refuses_no_name_a_bad_format_and_zero_mesas_in_portuguese(client: FlaskClient):
    cases = [
        ({"nome": "  "}, "Dê um nome ao torneio."),
        ({"formato": "2"}, "Formato inválido."),
        ({"formato": "três"}, "Valor inválido para formato."),
        ({"mesas": "0"}, "O torneio usa de 1 a 40 mesas."),
        ({"mesas": "muitas"}, "Valor inválido para mesas."),
        ({"no_limite": "sorteio"}, "Regra do tempo inválida."),
        ({"variante": "gaucho"}, "Regras inválidas."),
        ({"formato_final": "4"}, "Formato da final inválido."),
        ({"jogadores": "6"}, "Número de jogadores inválido."),
        ({"mesas": "99999999999999999999"}, "Valor inválido para mesas."),
    ]
    for form, said in cases:
        response = create(client, **form)
        assert response.status_code == 422, form
        assert message(response) == said, form
        assert 'data-testid="torneio-form"' in response.text
    assert 'data-testid="torneio"' not in create(client, nome="").text


def test_a_1x1_torneio_registers_a_single_name(client: FlaskClient):
    token = new_torneio(client, jogadores="2")
    html = client.get(f"/t/{token}").text
    assert 'name="jogador_1"' in html and 'name="jogador_2"' not in html
    assert register(client, token, "Ana").status_code == 303
    refused = register(client, token, "")
    assert refused.status_code == 422 and message(refused) == "Escreva o nome do jogador."
    assert list(pairs(client.get(f"/t/{token}").text)) == ["Ana"]


# --- registration --------------------------------------------------------------------------------


def test_pairs_register_at_the_door_are_marked_and_removed(client: FlaskClient):
    token = new_torneio(client)
    assert register(client, token, "Ana", "Beto").status_code == 303
    assert register(client, token, "Caio", "Duda", name="Os Zapeiros").status_code == 303
    refused = register(client, token, "Ana", "")
    assert refused.status_code == 422 and message(refused) == "Escreva o nome dos jogadores."
    html = client.get(f"/t/{token}").text
    found = pairs(html)
    assert list(found) == ["Ana e Beto", "Os Zapeiros"]
    assert "(Caio e Duda)" in html
    ana = found["Ana e Beto"]
    for mark in ("pago", "presente"):
        assert organiser_post(client, token, f"dupla/{ana}/marcar", marca=mark).status_code == 303
    item = re.search(r'data-nome="Ana e Beto"(.*?)</li>', client.get(f"/t/{token}").text, re.S)
    assert item and item.group(1).count('aria-pressed="true"') == 2
    assert organiser_post(client, token, f"dupla/{ana}/marcar", marca="pago").status_code == 303
    item = re.search(r'data-nome="Ana e Beto"(.*?)</li>', client.get(f"/t/{token}").text, re.S)
    assert item and item.group(1).count('aria-pressed="true"') == 1
    odd = organiser_post(client, token, f"dupla/{ana}/marcar", marca="vip")
    assert odd.status_code == 422 and message(odd) == "Essa marcação não existe."
    assert organiser_post(client, token, f"dupla/{ana}/remover").status_code == 303
    assert list(pairs(client.get(f"/t/{token}").text)) == ["Os Zapeiros"]
    gone = organiser_post(client, token, f"dupla/{ana}/remover")
    assert gone.status_code == 422 and message(gone) == "Essa dupla não está no torneio."


def test_no_two_pairs_go_by_the_same_name(client: FlaskClient):
    token = new_torneio(client)
    assert register(client, token, "Ana", "Beto").status_code == 303
    refused = register(client, token, "Caio", "Duda", name="ana e beto")
    assert refused.status_code == 422
    assert message(refused) == "Já tem uma dupla com esse nome no torneio: dê outro nome a ela."
    assert register(client, token, "Caio", "Duda", name="Os Zapeiros").status_code == 303
    assert list(pairs(client.get(f"/t/{token}").text)) == ["Ana e Beto", "Os Zapeiros"]


def test_the_same_pair_registered_again_is_refused_in_any_order_accents_and_case_aside(
    client: FlaskClient,
):
    """'Zé e Bia' again, as 'Bia e Zé', 'ZE e bia' or under a pair name: the same players, so
    the same pair; the organiser is told who is already in."""
    token = new_torneio(client)
    assert register(client, token, "Zé", "Bia").status_code == 303
    for first, second, name in [("Zé", "Bia", ""), ("Bia", "Zé", ""), ("ZE", " bia ", "Os Bons")]:
        refused = register(client, token, first, second, name=name)
        assert refused.status_code == 422
        assert message(refused) == (
            f"{first.strip()} e {second.strip()} já estão inscritos (Zé e Bia):"
            " a mesma dupla não entra duas vezes."
        )
    assert register(client, token, "Zé", "Lu").status_code == 303
    lu = pairs(client.get(f"/t/{token}").text)["Zé e Lu"]
    edited = organiser_post(client, token, f"dupla/{lu}/editar", jogador_1="Bia", jogador_2="ze")
    assert edited.status_code == 422
    assert list(pairs(client.get(f"/t/{token}").text)) == ["Zé e Bia", "Zé e Lu"]


def test_the_draw_takes_the_pairs_marked_present_and_its_confirmation_names_the_others(
    client: FlaskClient,
):
    """With any pair marked 'presente', the draw's confirmation counts the present pairs and
    names those left out; the draw takes only the present ones."""
    token = with_pairs(client, 4)
    ids = pairs(client.get(f"/t/{token}").text)
    page = client.get(f"/t/{token}").text
    assert by_testid(page, "sorteio-resumo") == "Sortear a chave com 4 duplas?"
    for name in ("Ana e Beto", "Caio e Duda", "Edu e Fabi"):
        assert (
            organiser_post(client, token, f"dupla/{ids[name]}/marcar", marca="presente").status_code
            == 303
        )
    page = client.get(f"/t/{token}").text
    assert by_testid(page, "sorteio-resumo") == (
        "Sortear a chave com 3 duplas, as marcadas presentes?"
    )
    assert by_testid(page, "sorteio-de-fora") == "Ficam de fora, sem presença marcada: Gil e Hugo."
    assert 'data-testid="confirmar-sorteio"' in page
    assert organiser_post(client, token, "sortear").status_code == 303
    drawn_page = client.get(f"/t/{token}").text
    drawn = matches_in(drawn_page).values()
    names = {by_testid(m["body"], f"jogo-{side}") for m in drawn for side in "ab"}
    assert "Gil e Hugo" not in names
    assert {"Ana e Beto", "Caio e Duda", "Edu e Fabi"} <= names
    assert set(pairs_in_swap(drawn_page)) == {"Ana e Beto", "Caio e Duda", "Edu e Fabi"}


def test_registration_stops_at_the_brackets_most_pairs(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(bracket, "MAX_PAIRS", 3)
    token = with_pairs(client, 3)
    refused = register(client, token, "Zeca", "Zico")
    assert refused.status_code == 422 and message(refused) == "A chave tem no máximo 3 duplas."
    assert len(pairs(client.get(f"/t/{token}").text)) == 3
    assert organiser_post(client, token, "sortear").status_code == 303


def test_registration_is_refused_after_the_draw(client: FlaskClient):
    token = with_pairs(client, 4)
    ana = pairs(client.get(f"/t/{token}").text)["Ana e Beto"]
    assert organiser_post(client, token, "sortear").status_code == 303
    html = client.get(f"/t/{token}").text
    assert 'data-testid="inscrever"' not in html
    late = register(client, token, "Zeca", "Zico")
    assert late.status_code == 422
    assert message(late) == "A chave já foi sorteada: não entram mais duplas."
    removed = organiser_post(client, token, f"dupla/{ana}/remover")
    assert removed.status_code == 422
    assert message(removed) == "A chave já foi sorteada: dê W.O. em vez de tirar a dupla."
    again = organiser_post(client, token, "sortear")
    assert again.status_code == 422 and message(again) == "A chave já foi sorteada."
    assert bracket_state(client.get(f"/t/{token}").text) == bracket_state(html)


def test_the_draw_needs_two_pairs(client: FlaskClient):
    token = with_pairs(client, 1)
    refused = organiser_post(client, token, "sortear")
    assert refused.status_code == 422
    assert message(refused) == "Inscreva pelo menos 2 duplas para sortear a chave."
    assert 'data-testid="chave"' not in client.get(f"/t/{token}").text


# --- the draw and the calls ----------------------------------------------------------------------


def test_the_draw_of_5_pairs_on_2_mesas_gives_byes_and_calls_two_matches(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    found = matches_in(html)
    first = [m for m in found.values() if m["rodada"] == "1"]
    assert len(first) == 4 and len(found) == 4 + 2 + 1 + 1  # with the 3rd place
    byes = [m for m in first if "jogo-folga" in m["body"] or "passa direto" in m["body"]]
    assert len(byes) == 3
    assert all(m["estado"] == "fim" and m.get("vencedor") for m in byes)
    names = {" e ".join(p) for p in NAMES}
    assert {m["vencedor"] for m in byes} < names
    playing = {m["key"]: m for m in found.values() if m["estado"] == "jogando"}
    assert sorted(m["mesa"] for m in playing.values()) == ["1", "2"]
    real = next(m for m in first if m not in byes)
    assert real["estado"] == "jogando" and real["mesa"] == "1"  # bracket order: round 1 first
    waiting = [m for m in found.values() if m["estado"] == "aguardando"]
    assert len(waiting) == 3 and not any("mesa" in m for m in waiting)  # 2nd round, 3rd, final


def test_a_match_waits_when_every_mesa_is_busy(client: FlaskClient):
    token = drawn(client, 4, mesas="1")
    found = matches_in(client.get(f"/t/{token}").text)
    assert [m["key"] for m in found.values() if m["estado"] == "jogando"] == ["1-0"]
    assert found["1-0"]["mesa"] == "1" and found["1-1"]["estado"] == "aguardando"
    assert 'data-testid="proxima-chamada"' in client.get(f"/t/{token}").text


def test_pairs_swap_places_until_the_first_tap_and_the_calls_follow(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    assert "Trocar duplas de lugar" in html
    ids = pairs_in_swap(html)
    real = next(m for m in matches_in(html).values() if m["rodada"] == "1" and m.get("mesa"))
    playing = by_testid(real["body"], "jogo-a")
    bye = next(m for m in matches_in(html).values() if "passa direto" in m["body"])
    resting = by_testid(bye["body"], "jogo-a")
    assert playing and resting
    moved = organiser_post(client, token, "trocar", de=str(ids[playing]), para=str(ids[resting]))
    assert moved.status_code == 303
    after = client.get(f"/t/{token}").text
    swapped = matches_in(after)[real["key"]]
    assert by_testid(swapped["body"], "jogo-a") == resting and swapped["mesa"] == "1"
    assert matches_in(after)[bye["key"]]["vencedor"] == playing
    board = board_at(client, mesa_links(after)[1])
    assert board is not None and resting in client.get(f"/m/{board}").text
    play(client, board, "normal:0:1")
    late = organiser_post(client, token, "trocar", de=str(ids[playing]), para=str(ids[resting]))
    assert late.status_code == 422
    assert message(late) == "Os jogos já começaram: a chave não muda mais."
    assert "Trocar duplas de lugar" not in client.get(f"/t/{token}").text


def test_the_mesa_link_opens_the_board_of_the_match_called_with_the_pairs_names(
    client: FlaskClient,
):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    board = board_at(client, links[1])
    assert board is not None
    real = next(m for m in matches_in(html).values() if m["rodada"] == "1" and m.get("mesa"))
    page = client.get(f"/m/{board}").text
    a, b = by_testid(real["body"], "jogo-a"), by_testid(real["body"], "jogo-b")
    assert a and b and a in page and b in page


def test_the_tables_play_the_torneios_rules_and_format_the_final_its_own(client: FlaskClient):
    token = drawn(client, 4, variante="mineiro", formato="5", formato_final="3", mesas="1")
    board = board_at(client, mesa_links(client.get(f"/t/{token}").text)[1])
    assert board is not None
    html = client.get(f"/m/{board}").text
    assert "/previsao/mineiro/10" in html and "Melhor de 5" in html and "normal:0:10" in html
    final = drawn(client, 2, formato="1", formato_final="3")
    board = board_at(client, mesa_links(client.get(f"/t/{final}").text)[1])
    assert board is not None
    assert "Melhor de 3" in client.get(f"/m/{board}").text
    html = play(client, board, WIN_A).text
    assert 'data-testid="torneio-proximo"' not in showing(html)  # one game of three


# --- playing a match on its table ----------------------------------------------------------------


def test_a_match_played_to_its_end_on_its_table_advances_the_bracket(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    real = next(m for m in matches_in(html).values() if m["rodada"] == "1" and m.get("mesa"))
    winner = by_testid(real["body"], "jogo-a")
    board = board_at(client, links[1])
    assert board is not None
    over = showing(play(client, board, WIN_A).text)
    assert 'data-testid="torneio-proximo"' in over and "Próximo jogo desta mesa" in over
    assert 'data-testid="nova-serie"' not in over and 'data-testid="jogar-de-novo"' not in over
    after = matches_in(client.get(f"/t/{token}").text)
    assert after[real["key"]]["estado"] == "fim"
    assert after[real["key"]]["vencedor"] == winner
    next_ = next(m for m in after.values() if m["rodada"] == "2" and winner in m["body"])
    assert next_["estado"] == "jogando" and next_["mesa"] == "1"
    moved = client.get(f"/m/{board}/torneio")
    assert moved.status_code == 303 and path(moved.headers["Location"]) == links[1]
    board_next = board_at(client, links[1])
    assert board_next not in (None, board)
    assert winner in client.get(f"/m/{board_next}").text


def test_a_torneio_table_refuses_a_new_series_in_portuguese(client: FlaskClient):
    token = drawn(client, 5)
    board = board_at(client, mesa_links(client.get(f"/t/{token}").text)[1])
    assert board is not None
    play(client, board, WIN_A)
    refused = tap(client, board, "nova_serie")
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == (
        "Este jogo é do torneio: a série não recomeça nesta mesa."
    )
    assert 'data-testid="torneio-proximo"' in showing(client.get(f"/m/{board}").text)


def test_an_undo_on_the_finished_match_takes_its_result_and_the_call_it_set_off_back(
    client: FlaskClient,
):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    real = next(m for m in matches_in(html).values() if m["rodada"] == "1" and m.get("mesa"))
    board = board_at(client, links[1])
    assert board is not None
    play(client, board, WIN_A)
    set_off = [k for k, m in matches_in(client.get(f"/t/{token}").text).items()
               if m["rodada"] == "2" and m.get("mesa") == "1"]  # fmt: skip
    assert len(set_off) == 1
    assert post(client, board, "desfazer").status_code == 200
    after = matches_in(client.get(f"/t/{token}").text)
    assert after[real["key"]]["estado"] == "jogando" and "vencedor" not in after[real["key"]]
    assert after[real["key"]]["mesa"] == "1"
    assert after[set_off[0]]["estado"] == "aguardando" and "mesa" not in after[set_off[0]]
    assert board_at(client, links[1]) == board
    play(client, board, WIN_A)  # played again: called again, to a new table
    again = matches_in(client.get(f"/t/{token}").text)
    assert again[set_off[0]]["estado"] == "jogando" and again[set_off[0]]["mesa"] == "1"


def test_an_undo_leaves_the_match_it_set_off_once_that_one_has_a_tap(client: FlaskClient):
    token = drawn(client, 5)
    links = mesa_links(client.get(f"/t/{token}").text)
    board = board_at(client, links[1])
    assert board is not None
    play(client, board, WIN_A)
    following = board_at(client, links[1])
    assert following is not None and following != board
    play(client, following, "normal:0:1")
    assert post(client, board, "desfazer").status_code == 200
    assert client.get(f"/m/{following}").status_code == 200  # its table is kept
    assert board_at(client, links[1]) == board  # the mesa plays the reopened match first
    page = client.get(f"/t/{token}").text
    assert 'value="None"' not in page and "espera a outra dupla" in page  # no W.O. for nobody
    play(client, board, WIN_A)  # the same result again: the match goes on where it was
    assert board_at(client, links[1]) == following


def test_a_reopened_match_takes_its_mesa_back_from_the_next_match_not_yet_tapped(
    client: FlaskClient,
):
    token = drawn(client, 4, mesas="1")
    link = mesa_links(client.get(f"/t/{token}").text)[1]
    first = board_at(client, link)
    assert first is not None
    play(client, first, WIN_A)
    second = board_at(client, link)  # 1-1, which 1-0 did not set off
    assert second not in (None, first)
    assert matches_in(client.get(f"/t/{token}").text)["1-1"]["mesa"] == "1"
    assert post(client, first, "desfazer").status_code == 200
    after = matches_in(client.get(f"/t/{token}").text)
    assert after["1-0"]["estado"] == "jogando" and after["1-0"]["mesa"] == "1"
    assert after["1-1"]["estado"] == "aguardando" and "mesa" not in after["1-1"]
    assert [k for k, m in after.items() if m.get("mesa") == "1" and m["estado"] == "jogando"] == [
        "1-0"
    ]
    assert board_at(client, link) == first
    assert client.get(f"/m/{second}").status_code == 404  # its untouched table went with it


def test_a_tap_that_lands_while_its_call_is_being_taken_back_is_kept(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    token = drawn(client, 4, mesas="1")
    link = mesa_links(client.get(f"/t/{token}").text)[1]
    first = board_at(client, link)
    assert first is not None
    play(client, first, WIN_A)
    second = board_at(client, link)
    assert second is not None
    assert post(client, first, "desfazer").status_code == 200  # 1-1's call is to go back
    with app.app_context():
        read_before_the_tap = reading.snapshot(access.organiser_torneio(token))
    play(client, second, "normal:0:1")  # lands between the sync's read and its write
    fresh = reading.snapshot
    stale = iter([read_before_the_tap])
    monkeypatch.setattr(calls, "snapshot", lambda torneio: next(stale, None) or fresh(torneio))
    assert client.get(f"/t/{token}").status_code == 200
    board = client.get(f"/m/{second}")
    assert board.status_code == 200 and scores(board.text) == (1, 0)
    assert matches_in(client.get(f"/t/{token}").text)["1-1"]["mesa"] == "1"


# --- the organiser's word ------------------------------------------------------------------------


def test_a_wo_an_override_and_taking_it_back(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    at_two = next(m for m in matches_in(html).values() if m.get("mesa") == "2")
    _, b = called_pair_ids(at_two)
    given = organiser_post(client, token, f"jogo/{at_two['key']}/decidir", como="wo", dupla=str(b))
    assert given.status_code == 303
    after = matches_in(client.get(f"/t/{token}").text)[at_two["key"]]
    assert after["estado"] == "fim" and after["vencedor"] == by_testid(at_two["body"], "jogo-b")
    assert "W.O." in after["body"] and 'data-testid="desfazer-decisao"' in after["body"]
    assert board_at(client, links[2]) is None  # mesa 2 is free: no match waits for it yet
    back = organiser_post(client, token, f"jogo/{at_two['key']}/decidir", como="desfeito")
    assert back.status_code == 303
    again = matches_in(client.get(f"/t/{token}").text)[at_two["key"]]
    assert again["estado"] == "jogando" and "vencedor" not in again and again["mesa"] == "2"
    # An override of what the table said: the organiser's word is final.
    board = board_at(client, links[2])
    assert board is not None
    play(client, board, WIN_A)
    played = matches_in(client.get(f"/t/{token}").text)[at_two["key"]]
    assert played["vencedor"] == by_testid(at_two["body"], "jogo-a")
    over = organiser_post(client, token, f"jogo/{at_two['key']}/decidir", como="organizador",
                    dupla=str(b))  # fmt: skip
    assert over.status_code == 303
    overridden = matches_in(client.get(f"/t/{token}").text)[at_two["key"]]
    assert overridden["vencedor"] == by_testid(at_two["body"], "jogo-b")
    assert "decidido pelo organizador" in overridden["body"]
    organiser_post(client, token, f"jogo/{at_two['key']}/decidir", como="desfeito")
    taken_back = matches_in(client.get(f"/t/{token}").text)[at_two["key"]]
    assert taken_back["vencedor"] == by_testid(at_two["body"], "jogo-a")


def test_the_organisers_word_follows_a_matchs_pairs_after_a_feeder_changed(client: FlaskClient):
    token = drawn(client, 4)
    links = mesa_links(client.get(f"/t/{token}").text)
    for number in (1, 2):
        board = board_at(client, links[number])
        assert board is not None
        play(client, board, WIN_A)
    html = client.get(f"/t/{token}").text
    final = matches_in(html)["2-0"]
    table = board_at(client, links[int(final["mesa"])])
    assert table is not None
    play(client, table, "normal:0:1")  # the final has begun
    semi = matches_in(html)["1-0"]
    loser = by_testid(semi["body"], "jogo-b")
    loser_id = pairs_by_name(html)[loser]
    decide = {"como": "organizador", "dupla": str(loser_id)}
    over = organiser_post(client, token, "jogo/1-0/decidir", **decide)
    assert over.status_code == 303
    changed = matches_in(client.get(f"/t/{token}").text)["2-0"]
    assert by_testid(changed["body"], "jogo-a") == loser and changed["estado"] == "jogando"
    given = organiser_post(client, token, "jogo/2-0/decidir", **decide)
    assert given.status_code == 303, message(given)
    page = client.get(f"/t/{token}").text
    assert matches_in(page)["2-0"]["vencedor"] == loser
    assert re.search(rf'data-testid="campeao" data-nome="{loser}"', page)


def test_the_organisers_stale_revision_is_refused_and_nothing_changes(client: FlaskClient):
    token = with_pairs(client, 3)
    old = torneio_rev_in(client.get(f"/t/{token}").text)
    assert register(client, token, "Zeca", "Zico").status_code == 303
    before = client.get(f"/t/{token}").text
    for route, form in [
        ("inscrever", {"jogador_1": "Tião", "jogador_2": "Tonho"}),
        ("sortear", {}),
        (f"dupla/{pairs(before)['Zeca e Zico']}/remover", {}),
        ("mesa/1/pausar", {"pausar": "1"}),
    ]:
        stale = organiser_post(client, token, route, old, **form)
        assert stale.status_code == 409, route
        assert message(stale) == (
            "O torneio mudou enquanto você decidia: veja como está e faça de novo."
        )
    after = client.get(f"/t/{token}").text
    assert pairs(after) == pairs(before) and torneio_rev_in(after) == torneio_rev_in(before)
    assert 'data-testid="chave"' not in after and "Voltar a chamar" not in after


# --- the TV --------------------------------------------------------------------------------------


def test_the_tv_token_cannot_write(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    view = tv_path_in(html).rsplit("/", 1)[1]
    at_two = next(m for m in matches_in(html).values() if m.get("mesa") == "2")
    _, b = called_pair_ids(at_two)
    attempts = [
        ("inscrever", {"jogador_1": "Tião", "jogador_2": "Tonho"}),
        ("sortear", {}),
        (f"jogo/{at_two['key']}/decidir", {"como": "wo", "dupla": str(b)}),
        ("mesa/1/pausar", {"pausar": "1"}),
        ("trocar", {"de": "1", "para": "2"}),
    ]
    for route, form in attempts:
        response = client.post(f"/t/{view}/{route}", data={"rev": torneio_rev_in(html), **form})
        assert response.status_code in (403, 404), route
    assert client.get(f"/t/{view}").status_code in (403, 404)
    after = client.get(f"/t/{token}").text
    assert torneio_rev_in(after) == torneio_rev_in(html)
    assert bracket_state(after) == bracket_state(html)


def test_the_tv_carries_no_organiser_or_scorer_token(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    boards = [board_at(client, link) for link in links.values()]
    assert all(boards)
    tv = client.get(tv_path_in(html))
    assert tv.status_code == 200 and 'data-testid="tv"' in tv.text
    assert len(re.findall(r'data-testid="tv-mesa"', tv.text)) == 2
    secrets = [token, *[link.rsplit("/", 1)[1] for link in links.values()], *boards]
    for secret in secrets:
        assert secret not in tv.text
    assert "/t/" not in tv.text and "/tm/" not in tv.text
    version = re.search(r'data-versao="([^"]+)"', tv.text)
    assert version
    poll = client.get(f"{tv_path_in(html)}/estado?v={version.group(1)}", headers=HX)
    for secret in secrets:
        assert secret not in poll.text


def test_the_tv_poll_answers_204_until_a_tap_on_any_mesa(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    tv = tv_path_in(html)
    version = re.search(r'data-versao="([^"]+)"', client.get(tv).text)
    assert version
    state = f"{tv}/estado?v={version.group(1)}"
    assert client.get(state, headers=HX).status_code == 204
    assert client.get(state, headers=HX).status_code == 204
    board = board_at(client, mesa_links(html)[2])
    assert board is not None
    play(client, board, "normal:0:3")
    changed = client.get(state, headers=HX)
    assert changed.status_code == 200
    now = re.search(r'data-versao="([^"]+)"', changed.text)
    assert now and now.group(1) != version.group(1)
    assert re.search(r'data-testid="tv-mesa" data-mesa="2" data-placar="3-0"', changed.text)
    assert client.get(f"{tv}/estado?v={now.group(1)}", headers=HX).status_code == 204


def test_a_free_mesas_link_waits_and_follows_the_next_call(client: FlaskClient):
    token = drawn(client, 5, mesas="3")
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    free = client.get(links[3])
    assert free.status_code == 200 and 'data-testid="mesa-livre"' in free.text
    assert client.get(links[3], headers=HX).status_code == 204
    assert organiser_post(client, token, "mesa/1/pausar", pausar="1").status_code == 303
    assert "Voltar a chamar" in client.get(f"/t/{token}").text
    board = board_at(client, links[1])  # a paused mesa keeps its match
    assert board is not None
    play(client, board, WIN_A)
    followed = client.get(links[3], headers=HX)
    assert followed.status_code == 200
    to = followed.headers.get("HX-Redirect", "")
    assert re.fullmatch(r"/m/[A-Za-z0-9_-]+", to) and to != f"/m/{board}"
    assert board_at(client, links[1]) is None  # paused: nothing called to it
    assert organiser_post(client, token, "mesa/1/pausar", pausar="0").status_code == 303


# --- bad input -----------------------------------------------------------------------------------


def test_unknown_tokens_are_404(client: FlaskClient):
    unknown = "x" * 22
    for url in (f"/t/{unknown}", f"/tm/{unknown}", f"/tv/{unknown}", f"/tv/{unknown}/estado",
                f"/m/{unknown}/torneio", "/t/%3Cscript%3E", "/tm/..", "/tv/a b"):  # fmt: skip
        assert client.get(url).status_code == 404, url
    assert client.post(f"/t/{unknown}/inscrever", data={"rev": "0"}).status_code == 404
    assert client.post(f"/t/{unknown}/sortear", data={"rev": "0"}).status_code == 404


def test_ids_past_32_bits_name_nothing_404_in_portuguese_never_a_500(client: FlaskClient):
    token = with_pairs(client, 2)
    big = "9" * 20
    for route in (f"dupla/{big}/remover", f"dupla/{big}/marcar", f"mesa/{big}/pausar"):
        response = organiser_post(client, token, route, marca="pago", pausar="1")
        assert response.status_code == 404, route
        assert "Página não encontrada" in response.text
    assert list(pairs(client.get(f"/t/{token}").text)) == ["Ana e Beto", "Caio e Duda"]


def test_bad_decisions_and_fields_are_refused_in_portuguese_never_a_500(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    playing = next(m for m in matches_in(html).values() if m.get("mesa") == "1")
    other = next(m for m in matches_in(html).values() if m.get("mesa") == "2")
    stranger = called_pair_ids(other)[0]
    cases = [
        ("jogo/9-9/decidir", {"como": "wo", "dupla": "1"}, "Esse jogo ainda não foi chamado"),
        (f"jogo/{playing['key']}/decidir", {"como": "wo", "dupla": str(stranger)},
         "Essa dupla não joga esse jogo."),
        (f"jogo/{playing['key']}/decidir", {"como": "wo", "dupla": "abc"}, "Valor inválido"),
        (f"jogo/{playing['key']}/decidir", {"como": "sorteio", "dupla": "1"},
         "Essa decisão não existe."),
        ("trocar", {"de": "x", "para": "1"}, "Valor inválido"),
        ("inscrever", {"jogador_1": "A" * 30, "jogador_2": "B"}, None),
    ]  # fmt: skip
    for route, form, said in cases:
        response = organiser_post(client, token, route, **form)
        assert response.status_code == 422, route
        if said is not None:
            assert said in (message(response) or ""), (route, message(response))
    assert organiser_post(client, token, "sortear", "abc").status_code in (409, 422)
    unknown_mesa = organiser_post(client, token, "mesa/9/pausar", pausar="1")
    assert unknown_mesa.status_code == 422
    assert message(unknown_mesa) == "Essa mesa não existe no torneio."
    plain = open_table(client)
    assert client.get(f"/m/{plain}/torneio").status_code == 404
    assert client.post(f"/t/{token}/dupla/abc/remover", data={"rev": "0"}).status_code == 404
    after = client.get(f"/t/{token}").text
    assert bracket_state(after) == bracket_state(html)


# --- the end -------------------------------------------------------------------------------------


def test_the_podium_once_the_final_and_the_third_place_are_over(client: FlaskClient):
    token = drawn(client, 5)
    html = client.get(f"/t/{token}").text
    links = mesa_links(html)
    tv = tv_path_in(html)
    for _ in range(10):
        if all(m["estado"] == "fim" for m in matches_in(client.get(f"/t/{token}").text).values()):
            break
        for link in links.values():
            board = board_at(client, link)
            if board is not None:
                play(client, board, WIN_A)
    found = matches_in(client.get(f"/t/{token}").text)
    assert all(m["estado"] == "fim" for m in found.values())
    final = next(m for m in found.values() if m["rodada"] == "3" and m["key"] != "3")
    third = found["3"]
    final_pairs = {by_testid(final["body"], "jogo-a"), by_testid(final["body"], "jogo-b")}
    for page in (client.get(f"/t/{token}").text, client.get(tv).text):
        champion = re.search(r'data-testid="campeao" data-nome="([^"]+)"', page)
        runner_up = re.search(r'data-testid="vice" data-nome="([^"]+)"', page)
        bronze = re.search(r'data-testid="terceiro" data-nome="([^"]+)"', page)
        assert champion and runner_up and bronze
        assert champion.group(1) == final["vencedor"]
        assert {champion.group(1), runner_up.group(1)} == final_pairs
        assert bronze.group(1) == third["vencedor"]
    assert board_at(client, links[1]) is None and board_at(client, links[2]) is None
