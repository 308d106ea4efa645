"""The end of a torneio: every match and hand as CSV and JSON, and the podium as a PNG, on the
TV's read-only token, linked from the organiser's page and the TV once the podium is known."""

from __future__ import annotations

import io
import json
import re

from flask.testing import FlaskClient
from PIL import Image

from scorekeeper.web.common.exports import CSV_BOM, FORMULA_STARTS

from .helpers import board_at, csv_rows_in, organiser_post, play

TOKEN = r"[A-Za-z0-9_-]+"
PAIRS = (
    ("Ana", "Beto", "=1+1"),  # a name a spreadsheet would run as a formula
    ("Caio", "Duda", ""),
    ("Edu", "Fabi", ""),
    ("@Gui", "Hana", ""),  # a player a spreadsheet would run as a formula
)


def organise(client: FlaskClient, edit: str, route: str, **form: str) -> None:
    """An organiser's step, at the page's revision, accepted."""
    response = organiser_post(client, edit, route, **form)
    assert response.status_code == 303, response.text


def drawn_torneio(client: FlaskClient) -> tuple[str, str]:
    """A torneio of 4 pairs on 2 mesas, one game a match, with a 3rd-place match, drawn: its
    organiser's and TV's tokens."""
    created = client.post(
        "/torneio/novo", data={"nome": "Copa do Bar", "formato": "1", "mesas": "2", "terceiro": "1"}
    )
    assert created.status_code == 303
    edit = created.headers["Location"].rsplit("/", 1)[1]
    for first, second, name in PAIRS:
        organise(client, edit, "inscrever", jogador_1=first, jogador_2=second, nome=name)
    organise(client, edit, "sortear")
    tv = re.search(rf'/tv/({TOKEN})" data-testid="tv-link"', client.get(f"/t/{edit}").text)
    assert tv
    return edit, tv.group(1)


def mesa_paths(client: FlaskClient, edit: str) -> list[str]:
    """The mesas' stable links (paths)."""
    return re.findall(rf'href="https?://[^"/]+(/tm/{TOKEN})"', client.get(f"/t/{edit}").text)


def play_out(client: FlaskClient, edit: str, first: tuple[str, ...]) -> None:
    """Every match played to its end at the mesas; the first board scored gets `first` before
    the winning tap."""
    hands = first
    for _round in range(3):
        for link in mesa_paths(client, edit):
            board = board_at(client, link)
            if board is not None:
                play(client, board, *hands, "normal:0:12")
                hands = ()


def finished(client: FlaskClient) -> tuple[str, str]:
    """A drawn torneio played to its end (one match with a few hands before its last)."""
    edit, tv = drawn_torneio(client)
    play_out(client, edit, ("normal:0:3", "anulada", "normal:1:1"))
    return edit, tv


def torneio_csv(client: FlaskClient, tv: str) -> tuple[str, list[dict[str, str]]]:
    """The CSV export's text and its rows by header."""
    response = client.get(f"/tv/{tv}/torneio.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    return text, csv_rows_in(text)


def test_the_csv_has_a_row_per_hand_then_a_result_row_per_match(client: FlaskClient) -> None:
    """Item 8: every match and hand as CSV, BOM and ';' for a pt-BR spreadsheet; each match's
    hands (partida, mão, side, points, the partida's score after it) then its result."""
    _edit, tv = finished(client)
    text, rows = torneio_csv(client, tv)
    assert text.startswith(CSV_BOM + "rodada;fase;jogo;mesa;dupla_a;dupla_b;linha;")
    results = [r for r in rows if r["linha"] == "resultado"]
    assert [r["jogo"] for r in results] == ["1-0", "1-1", "3", "2-0"]  # bracket order
    assert all(r["estado"] == "fim" and r["decisao"] == "mesa" for r in results)
    assert all(r["vencedor"] == r["dupla_a"] for r in results)  # side 0 won every match
    assert [(r["partidas_a"], r["partidas_b"]) for r in results] == [("1", "0")] * 4
    assert all((r["placar_a"], r["placar_b"]) == ("", "") for r in results)  # tentos apart
    hands = [r for r in rows if r["linha"] == "mão"]
    assert len(hands) == 4 + 3  # one winning hand a match, three more in the first
    first = [r for r in hands if r["jogo"] == results[0]["jogo"]]
    assert [(r["partida"], r["mao"]) for r in first] == [
        ("1", "1"),
        ("1", "2"),
        ("1", "3"),
        ("1", "4"),
    ]
    assert [r["lado"] for r in first] == [
        first[0]["dupla_a"],
        "",
        first[0]["dupla_b"],
        first[0]["dupla_a"],
    ]
    assert [(r["pontos"], r["placar_a"], r["placar_b"]) for r in first] == [
        ("3", "3", "0"),
        ("0", "3", "0"),
        ("1", "3", "1"),
        ("12", "12", "1"),
    ]
    assert [(r["partidas_a"], r["partidas_b"]) for r in first] == [("0", "0")] * 3 + [("1", "0")]
    final = [r for r in results if r["fase"] == "Final"]
    assert len(final) == 1 and final[0]["mesa"] in ("1", "2")


def test_every_csv_row_of_a_hand_carries_its_points_the_mao_de_onze_too(
    client: FlaskClient,
) -> None:
    """A match reaching the mão de onze: its row says the hand's points (3 for the side that
    played it and won), as every other hand's row does."""
    edit, tv = drawn_torneio(client)
    board = board_at(client, mesa_paths(client, edit)[0])
    assert board is not None
    play(client, board, "normal:0:9", "normal:0:1", "normal:0:1", "onze_ganhou:0")
    _text, rows = torneio_csv(client, tv)
    hands = [r for r in rows if r["linha"] == "mão" and r["descricao"]]
    assert all(r["pontos"] != "" for r in hands)
    onze = [r for r in hands if (r["placar_a"], r["placar_b"]) == ("12", "0")]
    assert len(onze) == 1 and onze[0]["pontos"] == "3" and onze[0]["lado"] == onze[0]["dupla_a"]


def test_no_csv_cell_starts_a_formula(client: FlaskClient) -> None:
    """A pair named '=1+1' or a player '@Gui' reaches the spreadsheet as text, not a formula."""
    _edit, tv = finished(client)
    text, rows = torneio_csv(client, tv)
    cells = [cell for row in rows for cell in row.values()]
    assert "'=1+1" in cells
    assert any(cell.startswith("'@Gui") for cell in cells)
    assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS)], text


def test_the_json_has_settings_pairs_the_bracket_with_winners_and_hands(
    client: FlaskClient,
) -> None:
    """Item 8: the JSON export carries the settings, every pair, every match with its winner
    and hands, and the podium."""
    _edit, tv = finished(client)
    response = client.get(f"/tv/{tv}/torneio.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = json.loads(response.data)
    assert data["torneio"]["nome"] == "Copa do Bar"
    assert data["torneio"]["melhor_de"] == 1 and data["torneio"]["mesas"] == 2
    assert data["torneio"]["disputa_do_terceiro"] is True
    assert sorted(p["nome"] for p in data["duplas"]) == sorted(
        ["=1+1", "Caio e Duda", "Edu e Fabi", "@Gui e Hana"]
    )
    matches = {m["jogo"]: m for m in data["chave"]}
    assert set(matches) == {"1-0", "1-1", "2-0", "3"}
    final = matches["2-0"]
    assert final["vencedor"] == final["duplas"][0] == data["podio"]["campeao"]
    assert data["podio"]["vice"] == final["duplas"][1]
    assert data["podio"]["terceiro"] == matches["3"]["vencedor"]
    hands = sorted((len(m["maos"]) for m in data["chave"]), reverse=True)
    assert hands == [4, 1, 1, 1]
    longest = max(data["chave"], key=lambda m: len(m["maos"]))
    assert [h["placar"] for h in longest["maos"]] == [[3, 0], [3, 0], [3, 1], [12, 1]]
    assert longest["maos"][1]["tipo"] == "anulada" and longest["maos"][1]["lado"] is None


def test_a_wo_and_the_sumula_reach_the_exports(client: FlaskClient) -> None:
    """An organiser's W.O. reaches the exports as how the match was decided, and the match's
    súmula (the organiser's note and the W.O.'s line) as rows
    before its result."""
    edit, tv = drawn_torneio(client)
    organise(client, edit, "jogo/1-0/anotar", texto="=2+2 atrasou")
    page = client.get(f"/t/{edit}").text
    found = re.search(r'data-key="1-0".*?data-testid="wo-b">', page, re.S)
    assert found
    pair = re.findall(r'name="dupla" value="(\d+)"', found.group(0))[1]
    organise(client, edit, "jogo/1-0/decidir", como="wo", dupla=pair)
    _text, rows = torneio_csv(client, tv)
    result = next(r for r in rows if r["jogo"] == "1-0" and r["linha"] == "resultado")
    assert result["decisao"] == "W.O." and result["vencedor"] == result["dupla_b"]
    lines = [r["descricao"] for r in rows if r["jogo"] == "1-0" and r["linha"] == "súmula"]
    assert lines[0] == "Súmula: =2+2 atrasou" and lines[1].startswith("W.O.:"), lines
    data = json.loads(client.get(f"/tv/{tv}/torneio.json").data)
    match = next(m for m in data["chave"] if m["jogo"] == "1-0")
    assert match["decisao"] == "W.O."
    assert [line["texto"] for line in match["sumula"]][0] == "Súmula: =2+2 atrasou"


def test_the_end_links_the_exports_and_the_image_on_the_tvs_token(client: FlaskClient) -> None:
    """Item 8: once the podium is known, the organiser's page and the TV link the CSV, the JSON
    and the result image, all on the TV's read-only token; not before."""
    edit, tv = drawn_torneio(client)
    for page in (client.get(f"/t/{edit}").text, client.get(f"/tv/{tv}").text):
        assert 'data-testid="exportar-csv"' not in page
    play_out(client, edit, ())
    for page in (client.get(f"/t/{edit}").text, client.get(f"/tv/{tv}").text):
        assert 'data-testid="campeao"' in page
        for testid, path in (
            ("exportar-csv", "torneio.csv"),
            ("exportar-json", "torneio.json"),
            ("resultado-imagem", "resultado.png"),
        ):
            link = re.search(rf'href="([^"]+)" data-testid="{testid}"', page)
            assert link and link.group(1) == f"/tv/{tv}/{path}"
            assert edit not in link.group(1)


def test_the_result_image_is_a_chat_sized_png(client: FlaskClient) -> None:
    """Item 8: the podium as a 1200x630 PNG for the group chat."""
    _edit, tv = finished(client)
    response = client.get(f"/tv/{tv}/resultado.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert Image.open(io.BytesIO(response.data)).size == (1200, 630)


def test_the_exports_give_away_no_scorer_or_organiser_token(client: FlaskClient) -> None:
    """The exports are the TV's: they carry no organiser's, mesa's or table's link."""
    edit, tv = finished(client)
    secrets = [edit, *(link.rsplit("/", 1)[1] for link in mesa_paths(client, edit))]
    for path in ("torneio.csv", "torneio.json"):
        body = client.get(f"/tv/{tv}/{path}").get_data(as_text=True)
        assert not [s for s in secrets if s in body]
        assert not re.search(r"/m/[A-Za-z0-9_-]{16,}", body)


def test_an_unknown_token_gets_a_404_not_an_export(client: FlaskClient) -> None:
    """A wrong link: a 404 page, no file."""
    for path in ("torneio.csv", "torneio.json", "resultado.png"):
        response = client.get(f"/tv/naoexiste123456789012/{path}")
        assert response.status_code == 404
