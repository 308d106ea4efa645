"""A turma's pages stay bounded however large the turma: each list of its statistics shows its
first places with a link to the rest, a list's own pages step through all of it, the exports
stream (written as the tables are read), a big turma is counted a step a view and says so, and
"juntar nomes" asks for typed names when there are too many to list. Whatever is shown equals
a fold of every table's summary."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.mesa import service
from scorekeeper.domain.turma import stored_summaries, tallies, turmas
from scorekeeper.domain.turma.tally import KINDS, NIGHT_SIDES, OTHERS, HeadToHead, Tally
from scorekeeper.extensions import db
from scorekeeper.models import Turma, TurmaRecord
from scorekeeper.rules import Kind, Outcome
from scorekeeper.web.common import exports
from scorekeeper.web.turma import present as turma_present

from .helpers import by_testid

WON_BY = ("normal:0:12", "normal:1:12")  # a game won at once, by each side


def named_table(app: Flask, names: list[str], variante: str = "paulista") -> str:
    """A 2x2 table with these players, opened through the domain; its scorer token."""
    settings: dict[str, Any] = {"player_names": names}
    if variante == "mineiro":
        settings.update(variante="mineiro", manilhas="fixa", deck="sujo", special_at=10)
    with app.app_context():
        return service.open_table(settings).edit_token


def won(app: Flask, token: str, side: int) -> None:
    """The table's game won by `side` in one hand (its revision read first)."""
    with app.app_context():
        board = service.scorer_board(token)
        legal = board.state.legal_outcomes()
        best = max((o for o in legal if o.side == side and o.kind is Kind.NORMAL),
                   key=lambda o: o.points or 0)  # fmt: skip
        service.record_outcome(token, board.mesa.revision, Outcome(best.kind, side, best.points))


def big_turma(app: Flask, tables: int, *, mineiro_every: int = 0) -> tuple[str, str]:
    """A turma of `tables` tables, four players at each never seen at another (Jogador 001,
    002…), each game won by one side (alternately); every `mineiro_every`th table Truco
    Mineiro. Its scorer and viewer tokens."""
    turma = ""
    for n in range(tables):
        names = [f"Jogador {4 * n + seat + 1:03d}" for seat in range(4)]
        mineiro = bool(mineiro_every) and n % mineiro_every == mineiro_every - 1
        token = named_table(app, names, "mineiro" if mineiro else "paulista")
        with app.app_context():
            if not turma:
                turma = turmas.create_turma(token, 0, "Grande").edit_token
            else:
                turmas.join_turma(token, 0, turma)
        won(app, token, n % 2)
    with app.app_context():
        row = turmas.scorer_turma(turma)
        return row.edit_token, row.view_token


def said(html: str, testid: str) -> str | None:
    """The text of the element with this test id as a reader reads it (no-break spaces as
    spaces), or None."""
    found = by_testid(html, testid)
    return None if found is None else unescape(found).replace("\xa0", " ")


def cards(html: str, testid: str) -> list[dict[str, str]]:
    """The statistics cards (or head-to-heads) with this test id, in page order, as their
    data attributes."""
    found = []
    for card in re.findall(rf'data-testid="{testid}"([^>]*)>', html):
        found.append(dict(re.findall(r'data-([a-z-]+)="([^"]*)"', card)))
    return found


def link(html: str, testid: str) -> str | None:
    """The address of the link with this test id, if any."""
    found = re.search(rf'href="([^"]+)"[^>]*data-testid="{testid}"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def walked(client: FlaskClient, path: str, testid: str) -> list[list[dict[str, str]]]:
    """A list's pages from `path` on, following 'Próximos' to the last: each page's cards."""
    pages = []
    while path:
        html = client.get(path).text
        pages.append(cards(html, testid))
        path = link(html, "lista-proxima") or ""
    return pages


def folded_lists(app: Flask, scorer: str) -> dict[str, dict[str, list[Any]]]:
    """Each rule set's lists as a fold of every table's summary gives them, ranked."""
    with app.app_context():
        row = turmas.scorer_turma(scorer)
        every = sorted(turmas.tables(row, None), key=lambda mesa: mesa.id)
        found = stored_summaries.summaries(every)
        tally = Tally()
        for mesa in every:
            tally.add(found[mesa.id], row.aliases or {})
        return {
            code: {kind: part.ranked(kind) for kind in KINDS}
            for code, part in tally.ordered()
        }


def as_shown(item: Any) -> tuple[str, str, str]:
    """What a card (or head-to-head) says of a record: its name, games and wins."""
    if isinstance(item, HeadToHead):
        return f"{item.names[0]} x {item.names[1]}", "", f"{item.wins[0]}-{item.wins[1]}"
    return item.name, str(item.games), str(item.wins)


def card_shown(card: dict[str, str]) -> tuple[str, str, str]:
    """What a card says of its record: its name, games and wins."""
    return card.get("nome") or card["nomes"], card.get("partidas", ""), card["vitorias"]


def test_a_turma_page_shows_the_first_places_of_each_list_and_links_to_the_rest(
    app: Flask,
) -> None:
    """With more players and pairs than a page shows, both turma pages show the first
    STATS_ON_PAGE of each list (places 1 to 10, ranked as a fold of every table ranks them)
    and a link to the whole list on their own link; a list that fits shows whole, unlinked."""
    scorer, viewer = big_turma(app, 6)
    client = app.test_client()
    size = turma_present.STATS_ON_PAGE
    want = folded_lists(app, scorer)["paulista"]
    for base in (f"/turma/{scorer}", f"/vt/{viewer}"):
        html = client.get(base).text
        for testid, kind in (("stats-jogador", "players"), ("stats-dupla", "pairs")):
            shown = cards(html, testid)
            assert [int(card["lugar"]) for card in shown] == list(range(1, size + 1))
            assert [card_shown(c) for c in shown] == [as_shown(r) for r in want[kind][:size]]
        assert link(html, "ver-todos-jogadores") == f"{base}/estatisticas/jogadores"
        assert said(html, "ver-todos-jogadores") == "Ver todos os 24 jogadores →"
        assert said(html, "ver-todos-duplas") == "Ver todas as 12 duplas →"
        assert len(cards(html, "confronto")) == 6 and link(html, "ver-todos-confrontos") is None
        if base.startswith("/vt/"):
            assert scorer not in html


@pytest.mark.parametrize("short", [200, 0], ids=["read-whole", "by-the-index"])
def test_a_lists_pages_together_are_the_whole_list_in_order(
    app: Flask, monkeypatch: pytest.MonkeyPatch, short: int
) -> None:
    """A list's own pages show LIST_PAGE places each, 'Próximos' to the next, none after the
    last, 'Anteriores' back: end to end they are the whole list, ranked as a fold of every
    table gives it, on both links; whether the list is short enough to be read whole or read
    a window of rows at a time."""
    monkeypatch.setattr(turma_present, "LIST_PAGE", 5)
    monkeypatch.setattr(tallies, "SHORT_LIST", short)
    scorer, viewer = big_turma(app, 6)
    want = folded_lists(app, scorer)["paulista"]
    client = app.test_client()
    for base in (f"/turma/{scorer}", f"/vt/{viewer}"):
        for slug, kind, testid in (
            ("jogadores", "players", "stats-jogador"),
            ("duplas", "pairs", "stats-dupla"),
            ("confrontos", "rivals", "confronto"),
        ):
            pages = walked(client, f"{base}/estatisticas/{slug}", testid)
            assert [len(page) for page in pages[:-1]] == [5] * (len(pages) - 1)
            shown = [card for page in pages for card in page]
            assert [int(card["lugar"]) for card in shown] == list(range(1, len(want[kind]) + 1))
            assert [card_shown(card) for card in shown] == [as_shown(r) for r in want[kind]]
        last = client.get(f"{base}/estatisticas/jogadores?pagina=5").text
        assert link(last, "lista-proxima") is None
        assert link(last, "lista-anterior") == f"{base}/estatisticas/jogadores?pagina=4"
        first = client.get(f"{base}/estatisticas/jogadores").text
        assert link(first, "lista-anterior") is None
        summary = "Grande · Truco Paulista · 24 no total · página 1 de 5"
        assert by_testid(first, "lista-resumo") == summary


def test_each_rule_set_has_its_own_lists_and_pages(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turma that played both rule sets links each one's list with its rule set
    (?regras=mineiro), and that list holds only its own records."""
    monkeypatch.setattr(turma_present, "STATS_ON_PAGE", 2)
    scorer, viewer = big_turma(app, 6, mineiro_every=3)
    want = folded_lists(app, scorer)
    client = app.test_client()
    html = client.get(f"/vt/{viewer}").text
    found = r'href="([^"]+)" data-testid="ver-todos-jogadores" data-regras="(\w+)"'
    links = re.findall(found, html)
    assert links == [
        (f"/vt/{viewer}/estatisticas/jogadores?regras=paulista", "paulista"),
        (f"/vt/{viewer}/estatisticas/jogadores?regras=mineiro", "mineiro"),
    ]
    mineiro = walked(client, links[1][0], "stats-jogador")
    shown = [card for page in mineiro for card in page]
    assert {card["regras"] for card in shown} == {"mineiro"}
    assert [card_shown(c) for c in shown] == [as_shown(r) for r in want["mineiro"]["players"]]


@pytest.mark.parametrize(
    ("query", "status", "page"),
    [
        ("?pagina=999999999999", 200, "5 de 5"),
        ("?pagina=-3", 200, "1 de 5"),
        ("?pagina=x", 200, "1 de 5"),
        ("?regras=mineiro", 404, None),
        ("?regras=argentino", 404, None),
    ],
)
def test_a_list_page_out_of_range_is_its_nearest_page_and_an_unknown_rule_set_is_404(
    app: Flask, monkeypatch: pytest.MonkeyPatch, query: str, status: int, page: str | None
) -> None:
    """A page past the last is the last, a bad page number the first; a rule set the turma
    never played (or none at all) answers 404, never a 500."""
    monkeypatch.setattr(turma_present, "LIST_PAGE", 5)
    scorer, _viewer = big_turma(app, 6)
    response = app.test_client().get(f"/turma/{scorer}/estatisticas/jogadores{query}")
    assert response.status_code == status
    if page is not None:
        assert (by_testid(response.text, "lista-resumo") or "").endswith(page)


def test_an_unknown_list_or_a_viewers_list_for_a_scorer_link_is_refused(app: Flask) -> None:
    """A list that is not one of the four answers 404; the viewer's list pages answer on the
    viewer link only, and link back to it."""
    scorer, viewer = big_turma(app, 1)
    client = app.test_client()
    assert client.get(f"/turma/{scorer}/estatisticas/mesas").status_code == 404
    assert client.get(f"/vt/{scorer}/estatisticas/jogadores").status_code == 404
    assert client.get(f"/turma/{viewer}/estatisticas/jogadores").status_code == 403
    html = client.get(f"/vt/{viewer}/estatisticas/jogadores").text
    assert link(html, "voltar-turma") == f"/vt/{viewer}#stats-titulo" and scorer not in html


def pulled_tables(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tables an export has read so far, a table at a time (its reads spied on)."""
    pulled: list[int] = []
    each = stored_summaries.each_summary

    def spied(turma_id: int, size: int = 1) -> Iterator[tuple[Any, Any]]:
        for mesa, summary in each(turma_id, 1):
            pulled.append(mesa.id)
            yield mesa, summary

    monkeypatch.setattr(stored_summaries, "each_summary", spied)
    monkeypatch.setattr(stored_summaries, "CHUNK", 1)  # the exports name a table's sides at once
    monkeypatch.setattr(exports, "PIECE", 1)  # every piece written as soon as it is made
    return pulled


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_the_turma_exports_stream_as_the_tables_are_read(
    app: Flask, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A turma's CSV and JSON are streamed responses: their first pieces go out before most
    tables are read (nothing is built whole first), and the whole body is every game."""
    scorer, viewer = big_turma(app, 5)
    pulled = pulled_tables(monkeypatch)
    for path in (f"/vt/{viewer}/exportar.{kind}", f"/turma/{scorer}/exportar.{kind}"):
        pulled.clear()
        response = app.test_client().get(path, buffered=False)
        assert response.is_streamed
        pieces = iter(response.response)
        first = [next(pieces) for _ in range(3)]
        assert len(pulled) < 5
        body = b"".join([*first, *pieces]).decode()
        response.close()
        assert len(pulled) == 5
        if kind == "csv":
            rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff")), delimiter=";"))
            assert len(rows) == 6 and rows[0][0] == "mesa"
        else:
            document = json.loads(body)
            assert len(document["mesas"]) == len(document["partidas"]) == 5
            assert len(document["jogadores"]) == 20 and len(document["confrontos"]) == 5


def test_the_json_export_has_every_record_of_the_lists_in_their_order(app: Flask) -> None:
    """The JSON export's players, pairs and head-to-heads are each list whole, ranked as a
    fold of every table ranks them, each rule set's after the other's."""
    scorer, viewer = big_turma(app, 6, mineiro_every=3)
    want = folded_lists(app, scorer)
    document = json.loads(app.test_client().get(f"/vt/{viewer}/exportar.json").text)
    names = {"paulista": "Truco Paulista", "mineiro": "Truco Mineiro"}
    assert [(p["nome"], p["regras"], p["vitorias"]) for p in document["jogadores"]] == [
        (r.name, names[code], r.wins) for code in want for r in want[code]["players"]
    ]
    assert [(p["lados"], p["vitorias"]) for p in document["confrontos"]] == [
        (list(r.names), list(r.wins)) for code in want for r in want[code]["rivals"]
    ]
    mineiro = [p for p in document["duplas"] if p["regras"] == "Truco Mineiro"]
    assert mineiro and all("maos_de_dez" in p for p in mineiro)


def test_a_big_turma_is_counted_a_step_a_view_and_says_how_far(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With more tables waiting than a view counts (STEP), each view counts the next STEP and
    shows the statistics of the tables counted so far, saying how many; once all are, the
    note is gone and the statistics are the whole turma's."""
    monkeypatch.setattr(tallies, "STEP", 2)
    monkeypatch.setattr(tallies, "KEEP_OPEN", 1)
    _scorer, viewer = big_turma(app, 6)
    client = app.test_client()
    seen = []
    for _ in range(3):
        html = client.get(f"/vt/{viewer}").text
        seen.append((said(html, "contando-mesas"), said(html, "ver-todos-jogadores")))
    note = "Contando as mesas: {} de 6 já estão nas estatísticas; as outras entram a cada vez"
    assert seen == [
        (note.format(2) + " que esta página é aberta.", None),  # 8 players: all on the page
        (note.format(4) + " que esta página é aberta.", "Ver todos os 16 jogadores →"),
        (None, "Ver todos os 24 jogadores →"),
    ]


def test_juntar_nomes_asks_for_typed_names_when_there_are_too_many_to_list(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With more players than MERGE_CHOICES the form has two text fields instead of lists
    (the page stays bounded); a name typed as shown, whatever its case and spaces, is merged."""
    monkeypatch.setattr(turma_present, "MERGE_CHOICES", 3)
    scorer, _viewer = big_turma(app, 2)
    client = app.test_client()
    html = client.get(f"/turma/{scorer}").text
    assert "<select" not in html and by_testid(html, "juntar-digitar")
    rev = re.search(r'data-testid="turma" data-rev="(\d+)"', html)
    assert rev
    data = {"rev": rev.group(1), "de": "  jogador 002", "para": "JOGADOR 001"}
    assert client.post(f"/turma/{scorer}/juntar-nomes", data=data).status_code == 303
    with app.app_context():
        # counted as the name chosen, as the statistics show it (not as typed)
        assert turmas.scorer_turma(scorer).aliases == {"jogador 002": "Jogador 001"}
    shown = cards(client.get(f"/turma/{scorer}").text, "stats-jogador")
    players = {card["nome"]: card for card in shown}
    assert "Jogador 002" not in players and players["Jogador 001"]["partidas"] == "2"
    data = {"rev": str(int(rev.group(1)) + 1), "de": "Ninguém", "para": "Jogador 003"}
    refused = client.post(f"/turma/{scorer}/juntar-nomes", data=data)
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == (
        "Escolha dois nomes que aparecem nas estatísticas da turma."
    )


def test_an_evening_draws_its_first_sides_apart_and_the_rest_as_one_bar(app: Flask) -> None:
    """An evening of more sides than NIGHT_SIDES draws the first ones each apart and every
    other side's games in one bar, '(outros)': the chart stays bounded."""
    tables = NIGHT_SIDES // 2 + 2
    _scorer, viewer = big_turma(app, tables)
    html = app.test_client().get(f"/vt/{viewer}").text
    bars = re.findall(r'data-testid="grafico-barra" data-noite="[^"]+" data-nome="([^"]+)"', html)
    assert len(bars) == NIGHT_SIDES + 1 and bars[-1] == OTHERS
    wins = re.findall(r'data-nome="\(outros\)" data-vitorias="(\d+)"', html)
    assert wins == [str(tables - NIGHT_SIDES // 2)]


def test_the_stored_tally_of_a_turma_is_one_row_per_record(app: Flask) -> None:
    """The stored tally keeps a row per player, pair and head-to-head (not one document of
    them all), so that a page reads only the rows it shows."""
    scorer, viewer = big_turma(app, 6)
    app.test_client().get(f"/vt/{viewer}")
    with app.app_context():
        turma = db.session.execute(db.select(Turma).filter_by(edit_token=scorer)).scalar_one()
        counts = dict(
            db.session.execute(
                db.select(TurmaRecord.kind, db.func.count())
                .filter_by(turma_id=turma.id)
                .group_by(TurmaRecord.kind)
            ).all()
        )
    settled = 6 - tallies.KEEP_OPEN
    assert counts == {"players": 4 * settled, "pairs": 2 * settled, "rivals": settled}
