"""A turma moved to another Tento in one file: imported, it equals the turma it came from
(every board, history, statistic and export the same, with new ids and tokens); the same file
imported twice changes nothing; a file that is not a turma's, of another version, too big,
altered or inconsistent is refused in pt-BR and changes nothing."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.domain.mesa import Board, InputError, service
from scorekeeper.domain.mesa.settings import NAME_CHANGES, TableSettings, folded
from scorekeeper.domain.mesa.words import NOTES
from scorekeeper.domain.torneio.access import find_torneio
from scorekeeper.domain.torneio.calls import sync
from scorekeeper.domain.torneio.clock import started
from scorekeeper.domain.turma import transfer, turmas
from scorekeeper.extensions import db
from scorekeeper.models import Entry, HandRecord, Mesa, Turma
from scorekeeper.rules import Kind, Outcome, RulesError
from scorekeeper.web.common import exports
from scorekeeper.web.turma import present
from scorekeeper.web.turma.views import SCORER_FILE

from ..profiles import examples
from .helpers import by_testid, open_table, organiser_post, play, post, table_at

SECRET = "test"  # the conftest app's SECRET_KEY
NAMES = ("Ana", "Beto", "Caio", "Duda", "Zé", "José")
TEAMS = ("Nós", "Eles", "Brabos", "Patos")


# --- what a turma shows, ids and tokens aside ------------------------------------------------


def stripped(record: Entry) -> Entry:
    """A record without its id."""
    return replace(record, id=0)


def board_picture(board: Board) -> tuple[Any, ...]:
    """Everything a table's board shows, its records' ids replaced by their seq."""
    seq_of = {r.id: r.seq for r in board.recent}
    return (
        board.state,
        None if board.last is None else stripped(board.last),
        tuple(stripped(r) for r in board.recent),
        {seq_of[i]: n for i, n in board.numbers.items()},
        board.game,
        board.can_redo,
        board.size,
    )


def history_picture(token: str) -> list[Any]:
    """Every page of a table's history, its records' ids replaced by their seq."""
    pages: list[Any] = []
    before = None
    while True:
        page = service.log_page(token, before)
        seq_of = {r.id: r.seq for r in page.records}
        pages.append(
            ([stripped(r) for r in page.records], {seq_of[i]: n for i, n in page.numbers.items()})
        )
        if page.older is None:
            return pages
        before = page.older


def settings_of(mesa: Mesa) -> dict[str, Any]:
    """A table's settings, without ids and tokens (nor the torneio table it copies)."""
    skipped = {"id", "edit_token", "view_token", "turma_id", "previous_id", "copied_from_id"}
    return {c.name: getattr(mesa, c.name) for c in Mesa.__table__.columns if c.name not in skipped}


def picture(app: Flask, turma_token: str) -> dict[str, Any]:
    """What a turma shows anywhere, ids and tokens aside: its name and merges, each table's
    settings, rematch link, board, history and exports (oldest first), the statistics of its
    pages and of its exports, and its file."""
    with app.test_request_context("/"):
        turma = turmas.scorer_turma(turma_token)
        ordered = list(reversed(turmas.tables(turma, None)))
        place = {m.id: i for i, m in enumerate(ordered)}
        page = present.turma_view(turma)
        return {
            "turma": (turma.name, turma.aliases, turma.created_at),
            "tables": [
                (
                    settings_of(m),
                    place.get(m.previous_id) if m.previous_id else None,
                    board_picture(service.load_board(m)),
                    history_picture(m.edit_token),
                    "".join(
                        exports.csv_lines(
                            present.LOG_CSV_HEADER, present.log_rows(m, service.all_records(m))
                        )
                    ),
                    present.log_json(m, service.all_records(m)),
                )
                for m in ordered
            ],
            "stats": page.parts,
            "json": json.loads("".join(present.turma_json(turma))),
            "csv": "".join(exports.csv_lines(present.GAMES_HEADER, present.turma_games(turma))),
            "file": transfer.export_turma(turma),
        }


def counts(app: Flask) -> tuple[int, int, int]:
    """How many turmas, tables and records the database holds."""
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (Turma, Mesa, HandRecord)
        )


def exported(app: Flask, turma_token: str) -> bytes:
    """The turma's file, as the viewer's download gives it."""
    with app.app_context():
        document = transfer.export_turma(turmas.scorer_turma(turma_token))
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def imported(app: Flask, data: bytes) -> transfer.Imported:
    """Import a turma's file through the domain, in an app context of its own."""
    with app.app_context():
        found = transfer.import_turma(data, SECRET)
        db.session.expunge(found.turma)  # read after the session closes
        return found


# --- a random turma built through the domain ----------------------------------------------


def table_of(app: Flask, token: str) -> Mesa:
    """A table as a request reads it."""
    with app.app_context():
        mesa = service.scorer_table(token)
        db.session.expunge(mesa)
        return mesa


def new_table(app: Flask, turma: str | None, players: int, best_of: int, named: bool) -> str:
    """A table opened through the domain (in the turma, if given); its scorer token."""
    names = list(NAMES[:players]) if named else []
    settings = {
        "players": players,
        "best_of": best_of,
        "team_a": TEAMS[2] if named else TEAMS[0],
        "team_b": TEAMS[3] if named else TEAMS[1],
        "player_names": names,
    }
    with app.app_context():
        token = service.open_table(settings).edit_token
    if turma is not None:
        with app.app_context():
            turmas.join_turma(token, 0, turma)
    return token


def step(app: Flask, turma: str, tokens: list[str], action: tuple[Any, ...]) -> None:
    """One write of the property test below, through the domain as its route does it: the
    page read for its revision first. A refusal changes nothing and ends the step."""
    kind, *args = action
    if kind == "nova":
        tokens.append(new_table(app, turma, *args))
        return
    token = tokens[args[0] % len(tokens)]
    mesa = table_of(app, token)
    with app.app_context(), contextlib.suppress(RulesError, InputError):
        if kind == "marcar":
            legal = service.scorer_board(token).state.legal_outcomes()
            service.record_outcome(token, mesa.revision, legal[args[1] % len(legal)])
        elif kind == "corrigir":
            correction = Outcome(Kind.CORRECAO, args[1], args[2])
            service.record_outcome(token, mesa.revision, correction, "=conta errada")
        elif kind == "nota":
            last = service.scorer_board(token).last
            codes = [code for code, _ in NOTES.get(last.points or 0, ())] if last else []
            if last is not None and last.kind == Kind.NORMAL.value and codes:
                service.set_note(token, mesa.revision, last.id, codes[args[1] % len(codes)])
        elif kind == "desfazer":
            service.undo(token, mesa.revision)
        elif kind == "refazer":
            service.redo(token, mesa.revision)
        elif kind == "de_novo":
            again = turmas.play_again(service.scorer_table(token)).edit_token
            if again not in tokens:
                tokens.append(again)
        elif kind == "trocar":
            tokens[tokens.index(token)] = service.rotate_links(token, mesa.revision).edit_token
        elif kind == "editar":
            names = [NAMES[(i + args[1]) % len(NAMES)] for i in range(mesa.players)]
            wanted = {**TableSettings.of(mesa).columns(), "player_names": names}
            wanted.update(team_a=TEAMS[args[1] % len(TEAMS)], best_of=args[2])
            how = NAME_CHANGES[args[1] % 2]  # a typo fixed or another person, when asked
            service.edit_table(token, mesa.revision, wanted, args[1] % mesa.players, None, how)
        elif kind == "juntar":
            row = turmas.scorer_turma(turma)
            source, target = (folded(NAMES[i % len(NAMES)]) for i in args[1:])
            merge, known = present.merge_of(row, source, target)
            turmas.merge_names(turma, row.revision, merge, known)


TABLE = st.integers(0, 9)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("marcar"), TABLE, st.integers(0, 40)),
        st.tuples(st.just("marcar"), TABLE, st.integers(0, 40)),
        st.tuples(st.just("marcar"), TABLE, st.integers(0, 40)),
        st.tuples(st.just("corrigir"), TABLE, st.integers(0, 1), st.integers(0, 11)),
        st.tuples(st.just("nota"), TABLE, st.integers(0, 1)),
        st.tuples(st.just("desfazer"), TABLE),
        st.tuples(st.just("refazer"), TABLE),
        st.tuples(st.just("de_novo"), TABLE),
        st.tuples(st.just("trocar"), TABLE),
        st.tuples(st.just("editar"), TABLE, st.integers(0, 5), st.sampled_from([0, 3, 5])),
        st.tuples(st.just("juntar"), TABLE, st.integers(0, 5), st.integers(0, 5)),
        st.tuples(st.just("nova"), st.sampled_from([2, 4]), st.sampled_from([0, 3]), st.booleans()),
    ),
    max_size=40,
)


def built(app: Flask, steps: list[tuple[Any, ...]], players: int, best_of: int) -> str:
    """A turma made of these steps, its first table named; its scorer token."""
    first = new_table(app, None, players, best_of, True)
    with app.app_context():
        turma = turmas.create_turma(first, 0, "Truco de quinta").edit_token
    tokens = [first]
    for action in steps:
        step(app, turma, tokens, action)
    return turma


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(  # a mão de onze run from, a noted run, an undo left undone, a rematch, a merge
    steps=[
        ("marcar", 0, 3),
        ("nota", 0, 1),
        ("corrigir", 0, 1, 11),
        ("marcar", 0, 2),
        ("marcar", 0, 2),
        ("desfazer", 0),
        ("de_novo", 0),
        ("marcar", 1, 0),
        ("desfazer", 1),
        ("marcar", 1, 5),
        ("desfazer", 1),
        ("juntar", 0, 4, 0),
    ],
    players=4,
    best_of=3,
)
@example(  # names and the series edited mid-series, one edit undone, one redone
    steps=[
        ("marcar", 0, 1),
        ("editar", 0, 1, 3),
        ("marcar", 0, 2),
        ("editar", 0, 2, 5),
        ("desfazer", 0),
        ("desfazer", 0),
        ("refazer", 0),
    ],
    players=4,
    best_of=0,
)
@given(steps=STEPS, players=st.sampled_from([2, 4]), best_of=st.sampled_from([0, 3]))
def test_an_imported_turma_equals_the_exported_one_and_a_second_import_changes_nothing(
    app: Flask, steps: list[tuple[Any, ...]], players: int, best_of: int
) -> None:
    """A turma built by any taps, corrections, notes, undos, redos, rematches, link changes,
    new tables and merged names, exported and imported, shows the same everywhere: every
    board, history page, statistic, CSV and JSON export and its own file, with new ids and
    tokens. Importing the same file again writes nothing and names the turma of the first."""
    source = built(app, steps, players, best_of)
    data = exported(app, source)
    before = counts(app)
    first = imported(app, data)
    assert not first.again
    assert first.turma.edit_token != source
    assert picture(app, first.turma.edit_token) == picture(app, source)
    after = counts(app)
    second = imported(app, data)
    assert second.again and second.turma.id == first.turma.id
    assert counts(app) == after != before


def test_a_turma_moves_through_the_routes_and_twice_is_recognised(app: Flask) -> None:
    """The scorer's page links the turma's file; the import form (linked from the home page)
    takes it, opens the new turma's page with new links, and the same file again changes
    nothing and links the turma already imported (its scorer page for the browser that
    imported it, its viewer page for another)."""
    client = app.test_client()
    table = open_table(client, jogadores="2", time_a="Ana", time_b="Beto")
    response = client.post(f"/m/{table}/turma", data={"rev": 0, "acao": "criar", "nome": "Quinta"})
    source = response.headers["Location"].rsplit("/", 1)[1]
    play(client, table, "normal:0:3", "normal:1:9", "normal:1:1", "normal:1:1", "onze_correu:0")
    scorer_page = client.get(f"/turma/{source}").text
    link = re.search(r'href="([^"]+)" data-testid="exportar-turma"', scorer_page)
    assert link and link.group(1) == f"/turma/{source}/arquivo-da-turma.json"
    download = client.get(link.group(1))
    assert download.status_code == 200
    assert 'filename="turma-quinta.tento.json"' in download.headers["Content-Disposition"]
    assert source not in download.text and table not in download.text
    assert 'href="/importar-turma"' in client.get("/").text
    assert client.get("/importar-turma").status_code == 200

    before = counts(app)
    sent = {"arquivo": (io.BytesIO(download.data), "turma.json")}
    answer = client.post("/importar-turma", data=sent, content_type="multipart/form-data")
    assert answer.status_code == 303
    new = answer.headers["Location"]
    assert new.startswith("/turma/") and source not in new and new.endswith("?importada=1")
    page = client.get(new).text
    assert by_testid(page, "turma-importada") and "Ana x Beto" in page
    assert by_testid(page, "exportar-turma") is not None
    after = counts(app)
    assert after == (before[0] + 1, before[1] + 1, before[2] + 5)

    for browser, expected in ((client, new.split("?")[0]), (app.test_client(), "/vt/")):
        sent = {"arquivo": (io.BytesIO(download.data), "turma.json")}
        again = browser.post("/importar-turma", data=sent, content_type="multipart/form-data")
        assert again.status_code == 200 and by_testid(again.text, "ja-importada")
        found = re.search(r'href="([^"]+)" data-testid="turma-importada-link"', again.text)
        assert found and found.group(1).startswith(expected)
        assert counts(app) == after


# --- refusals -------------------------------------------------------------------------------


@pytest.fixture
def document(app: Flask) -> dict[str, Any]:
    """A small turma's file as a document: two tables, a rematch, a noted hand, a mão de onze."""
    token = new_table(app, None, 2, 3, True)
    with app.app_context():
        turma = turmas.create_turma(token, 0, "Quinta").edit_token
    for action in [
        ("marcar", 0, 3),
        ("nota", 0, 1),
        ("marcar", 0, 2),
        ("de_novo", 0),
        ("marcar", 1, 4),
    ]:
        step(app, turma, [token], action)
    loaded: dict[str, Any] = json.loads(exported(app, turma))
    return loaded


def resealed(document: dict[str, Any]) -> bytes:
    """A document as a file again, its checksum made anew (a careful forger's)."""
    document["conferencia"] = transfer.checksum(document)
    return json.dumps(document).encode()


def first_record(document: dict[str, Any]) -> list[Any]:
    """The first record of the first table of a document."""
    records: list[list[Any]] = document["mesas"][0]["registros"]
    return records[0]


def field(name: str) -> int:
    """The place of a record's field in the file's lists."""
    return transfer.RECORD_FIELDS.index(name)


def changed(document: dict[str, Any], change: str) -> dict[str, Any]:
    """The document with one inconsistency, named by `change`."""
    if change == "placar":
        first_record(document)[field("score_a")] += 1
    elif change == "estado":
        first_record(document)[field("state")][0] += 1
    elif change == "jogada_ilegal":
        first_record(document)[field("points")] = 5
    elif change == "ordem":
        first_record(document)[field("seq")] = 7
    elif change == "tipo":
        first_record(document)[field("kind")] = "truco_de_mentira"
    elif change == "nota":
        first_record(document)[field("note")] = "inventada"
    elif change == "situacao":
        first_record(document)[field("status")] = "undone"
    elif change == "opcao":
        document["mesas"][0]["mesa"]["deck"] = "tarot"
    elif change == "jogadores":
        document["mesas"][0]["mesa"]["players"] = 3
    elif change == "nome_longo":
        document["mesas"][0]["mesa"]["team_a"] = "x" * 500
    elif change == "coluna_desconhecida":
        document["mesas"][0]["mesa"]["dono"] = "eu"
    elif change == "anterior":
        document["mesas"][0]["anterior"] = 1
    elif change == "data":
        first_record(document)[field("created_at")] = "ontem"
    elif change == "texto_no_lugar_de_numero":
        first_record(document)[field("side")] = "0"
    return document


def refused(app: Flask, data: bytes) -> str:
    """The pt-BR message a file is refused with, having checked nothing was written."""
    before = counts(app)
    with app.app_context(), pytest.raises(transfer.BadFile) as error:
        transfer.import_turma(data, SECRET)
    assert counts(app) == before
    return str(error.value)


@pytest.mark.parametrize(
    "change",
    [
        "placar",
        "estado",
        "jogada_ilegal",
        "ordem",
        "tipo",
        "nota",
        "situacao",
        "opcao",
        "jogadores",
        "nome_longo",
        "coluna_desconhecida",
        "anterior",
        "data",
        "texto_no_lugar_de_numero",
    ],
)
def test_a_file_with_inconsistent_records_or_settings_is_refused_and_changes_nothing(
    app: Flask, document: dict[str, Any], change: str
) -> None:
    """A file whose checksum was made anew over a record whose score, state, kind, seq, note or
    status does not hold up under the rules, or a table's impossible setting, is refused:
    nothing is written."""
    message = refused(app, resealed(changed(document, change)))
    assert message.startswith("O arquivo da turma tem um problema (mesa 1")


def test_an_altered_file_is_refused_by_its_checksum(app: Flask, document: dict[str, Any]) -> None:
    """A file changed after its export (its checksum no longer matches) is refused."""
    document["turma"]["name"] = "Outra"
    assert refused(app, json.dumps(document).encode()) == transfer.ALTERED


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n", transfer.NOT_JSON),
        (b"mesa;placar\n1;2\n", transfer.NOT_JSON),
        (b"[1, 2, 3]", transfer.FOREIGN),
        (json.dumps({"turma": "Quinta", "partidas": []}).encode(), transfer.FOREIGN),
        (json.dumps({"formato": "tento-turma", "versao": "1"}).encode(), transfer.FOREIGN),
        (
            json.dumps({"formato": "tento-turma", "versao": 99}).encode(),
            transfer.NEWER.format(version=99),
        ),
        (b"[" * 100_000, transfer.NOT_JSON),
    ],
    ids=["imagem", "csv", "lista", "historico", "versao-texto", "versao-nova", "aninhado"],
)
def test_a_file_that_is_not_a_turmas_or_of_another_version_is_refused(
    app: Flask, data: bytes, expected: str
) -> None:
    """Not JSON, JSON of something else (the history export among them), or a version this
    Tento does not know: refused with what to do, nothing written."""
    assert refused(app, data) == expected


def test_the_import_form_refuses_bad_files_in_portuguese_never_a_500(
    app: Flask, document: dict[str, Any]
) -> None:
    """Through the form: no file, a file that is not a turma's, an altered one and one over the
    size limit each get the form again with the reason in pt-BR (422, or 413 for the size),
    and nothing is written."""
    client = app.test_client()
    before = counts(app)
    document["turma"]["name"] = "Outra"
    cases = [
        ({}, 422, "Escolha o arquivo da turma."),
        ({"arquivo": (io.BytesIO(b"oi"), "x.txt")}, 422, transfer.NOT_JSON),
        ({"arquivo": (io.BytesIO(json.dumps(document).encode()), "t.json")}, 422, transfer.ALTERED),
        (
            {"arquivo": (io.BytesIO(b" " * (transfer.MAX_BYTES + 100_000)), "t.json")},
            413,
            transfer.TOO_BIG,
        ),
    ]
    for data, status, message in cases:
        answer = client.post("/importar-turma", data=data, content_type="multipart/form-data")
        assert answer.status_code == status
        assert by_testid(answer.text, "mensagem") == message
        assert 'data-testid="importar-turma"' in answer.text
    assert counts(app) == before


def test_a_file_just_over_the_limit_is_refused_by_the_domain_too(app: Flask) -> None:
    """The domain refuses a file larger than its limit before reading it."""
    assert refused(app, b" " * (transfer.MAX_BYTES + 1)) == transfer.TOO_BIG


def test_the_import_form_checks_its_csrf_token_and_takes_files_larger_than_a_form(
    csrf_app: Flask,
) -> None:
    """The import form posts with the page's CSRF token (without it: a 400 in pt-BR, nothing
    written), and takes a turma's file far larger than the 16 KB any other form may send."""
    token = new_table(csrf_app, None, 2, 0, True)
    with csrf_app.app_context():
        turma = turmas.create_turma(token, 0, "Longa").edit_token
    for count in range(400):
        step(csrf_app, turma, [token], ("marcar", 0, count))
    data = exported(csrf_app, turma)
    assert len(data) > 16 * 1024
    client = csrf_app.test_client()
    before = counts(csrf_app)
    sent = {"arquivo": (io.BytesIO(data), "turma.json")}
    forged = client.post("/importar-turma", data=sent, content_type="multipart/form-data")
    assert forged.status_code == 400 and "Recarregue a página" in forged.text
    assert counts(csrf_app) == before
    form = client.get("/importar-turma").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert csrf
    sent = {"csrf_token": csrf.group(1), "arquivo": (io.BytesIO(data), "turma.json")}
    answer = client.post("/importar-turma", data=sent, content_type="multipart/form-data")
    assert answer.status_code == 303
    assert counts(csrf_app)[2] == before[2] + 400


def test_a_mineiro_table_moves_with_its_rule_set(
    app: Flask, client: Any
) -> None:
    """A Truco Mineiro 3x3 table with a noted hand and its mão de dez, exported in its turma and
    imported, is the same everywhere and still Mineiro."""
    names = {f"jogador_{seat}": f"J{seat + 1}" for seat in range(6)}
    token = open_table(client, variante="mineiro", jogadores="6", **names)
    play(client, token, "normal:0:6", "normal:1:2", "normal:0:4", "onze_correu:1:2")
    with app.app_context():
        turma = turmas.create_turma(token, service.scorer_table(token).revision, "Minas")
        turma_token = turma.edit_token
    data = exported(app, turma_token)
    first = imported(app, data)
    assert picture(app, first.turma.edit_token) == picture(app, turma_token)
    assert '"variante":"mineiro"' in data.decode()
    with app.app_context():
        (mesa,) = turmas.tables(turmas.scorer_turma(first.turma.edit_token), None)
        assert mesa.variante == "mineiro" and mesa.players == 6


# --- every value as the app itself writes it -------------------------------------------------


RICH = [  # a correction, a note, an edit undone then discarded, an active edit, an undone hand
    ("marcar", 0, 3),
    ("nota", 0, 1),
    ("corrigir", 0, 1, 5),
    ("editar", 0, 1, 3),
    ("marcar", 0, 2),
    ("desfazer", 0),
    ("desfazer", 0),
    ("marcar", 0, 1),
    ("editar", 0, 2, 5),
    ("marcar", 0, 4),
    ("desfazer", 0),
    ("de_novo", 0),
    ("marcar", 1, 0),
    ("marcar", 1, 7),
    ("nova", 4, 0, True),
    ("marcar", 2, 5),
    ("marcar", 2, 5),
    ("trocar", 2),
]
MINEIRO = {
    "variante": "mineiro",
    "players": 6,
    "best_of": 3,
    "special_at": 10,
    "deck": "sujo",
    "manilhas": "fixa",
    "team_a": "Uai",
    "team_b": "Sô",
    "player_names": ["Ana", "Beto", "Caio", "Duda", "Edu", "Fê"],
}


def rich_turma(app: Flask) -> str:
    """A turma of four tables (1x1, its rematch, 2x2 with its links changed, Mineiro 3x3)
    holding every kind of record and status and a merge of names: its scorer token."""
    first = new_table(app, None, 2, 3, True)
    with app.app_context():
        turma = turmas.create_turma(first, 0, "Quinta").edit_token
    tokens = [first]
    for action in RICH:
        step(app, turma, tokens, action)
    with app.app_context():
        mineiro = service.open_table(MINEIRO).edit_token
        turmas.join_turma(mineiro, 0, turma)
    for action in [("marcar", 3, 0), ("marcar", 3, 9), ("juntar", 0, 2, 0)]:
        step(app, turma, [*tokens, mineiro], action)
    return turma


@pytest.fixture
def rich(app: Flask) -> dict[str, Any]:
    """The file of `rich_turma`, as a document."""
    loaded: dict[str, Any] = json.loads(exported(app, rich_turma(app)))
    return loaded


def records_of(document: dict[str, Any], kind: str | None, status: str) -> list[list[Any]]:
    """Every record of a document of this kind (any if None) and status, oldest table first."""
    return [
        record
        for table in document["mesas"]
        for record in table["registros"]
        if record[field("status")] == status and kind in (None, record[field("kind")])
    ]


def edit_after(record: list[Any], **changes: Any) -> None:
    """Change the settings an edit's record says it made."""
    kept = json.loads(record[field("settings")])
    kept["depois"].update(changes)
    record[field("settings")] = json.dumps(kept)


def edit_names(record: list[Any], how: str) -> None:
    """Change how an edit's record says its changed names count."""
    kept = json.loads(record[field("settings")])
    kept["nomes"] = how
    record[field("settings")] = json.dumps(kept)


def hostile(document: dict[str, Any], case: str) -> dict[str, Any]:
    """The document with one value no Tento writes, named by `case`."""
    turma, table = document["turma"], document["mesas"][0]["mesa"]
    correction = records_of(document, "correcao", "active")[0]
    discarded_edit = records_of(document, "mesa_editada", "discarded")[0]
    edits: dict[str, Any] = {
        "data_no_ano_1": lambda: correction.__setitem__(field("created_at"), "0001-01-01T00:00:00"),
        "data_no_ano_9999": lambda: table.__setitem__("created_at", "9999-12-31T23:59:59"),
        "turma_do_ano_1": lambda: turma.__setitem__("created_at", "0001-01-01T00:00:00"),
        "revisao_no_limite": lambda: table.__setitem__("revision", 2**31 - 1),
        "revisao_negativa": lambda: table.__setitem__("revision", -7),
        "turma_com_revisao_no_limite": lambda: turma.__setitem__("revision", 2**31 - 1),
        "revisao_abaixo_dos_registros": lambda: table.__setitem__("revision", 1),
        "nul_no_time": lambda: table.__setitem__("team_b", "Pa\x00tos"),
        "crlf_no_jogador": lambda: table["player_names"].__setitem__(0, "Ana\r\nBia"),
        "bidi_no_nome_da_turma": lambda: turma.__setitem__("name", "Quinta\u202e"),
        "nul_no_motivo": lambda: correction.__setitem__(field("reason"), "conta\x00errada"),
        "bidi_no_nome_juntado": lambda: turma.__setitem__("aliases", {"caio\u202e": "ana"}),
        "edicao_descartada_ilegivel": lambda: discarded_edit.__setitem__(
            field("settings"), "not json"
        ),
        "edicao_descartada_com_nome_longo": lambda: edit_after(discarded_edit, team_a="x" * 30),
        "jogador_com_25_letras": lambda: table["player_names"].__setitem__(0, "A" * 25),
        "time_com_25_letras": lambda: table.__setitem__("team_b", "P" * 25),
        "mais_trocas_de_link_que_revisoes": lambda: table.__setitem__("link_changes", 10**6),
        "mao_descartada_que_nao_existe": lambda: records_of(document, "normal", "discarded")[
            0
        ].__setitem__(field("points"), 5),
        "ultimo_registro_descartado": lambda: document["mesas"][0]["registros"][-1].__setitem__(
            field("status"), "discarded"
        ),
        "nome_juntado_a_ele_mesmo": lambda: turma.__setitem__("aliases", {"ana": "ana"}),
        "nome_juntado_a_ele_mesmo_escrito": lambda: turma.__setitem__("aliases", {"ana": "ANA"}),
        "edicao_de_nomes_desconhecida": lambda: edit_names(discarded_edit, "talvez"),
        "chave_desconhecida": lambda: document.__setitem__("dono", "eu"),
    }
    edits[case]()
    return document


HOSTILE = [
    "data_no_ano_1",
    "data_no_ano_9999",
    "turma_do_ano_1",
    "revisao_no_limite",
    "revisao_negativa",
    "turma_com_revisao_no_limite",
    "revisao_abaixo_dos_registros",
    "nul_no_time",
    "crlf_no_jogador",
    "bidi_no_nome_da_turma",
    "nul_no_motivo",
    "bidi_no_nome_juntado",
    "edicao_descartada_ilegivel",
    "edicao_descartada_com_nome_longo",
    "jogador_com_25_letras",
    "time_com_25_letras",
    "mais_trocas_de_link_que_revisoes",
    "mao_descartada_que_nao_existe",
    "ultimo_registro_descartado",
    "nome_juntado_a_ele_mesmo",
    "nome_juntado_a_ele_mesmo_escrito",
    "edicao_de_nomes_desconhecida",
    "chave_desconhecida",
]


def test_the_rich_turma_imports_as_it_is(app: Flask, rich: dict[str, Any]) -> None:
    """The turma the refusals below start from imports as it is: each refusal is its one
    change's."""
    assert not imported(app, resealed(rich)).again


@pytest.mark.parametrize("case", HOSTILE)
def test_a_file_with_a_value_no_tento_writes_is_refused_and_changes_nothing(
    app: Flask, rich: dict[str, Any], case: str
) -> None:
    """A file whose checksum was made anew over a value no Tento writes is refused in pt-BR,
    nothing written: a time out of 1970..now+1 day, a revision past the 32-bit columns' room
    or below the writes its records prove, a name or reason with NUL, a line break or a bidi
    control, a name longer than the forms take (24 for a player or a team), a discarded edit
    whose settings are unreadable or hold such a name or a way of counting its names no page
    offers, a discarded hand the rules never take, a merge of a name into itself (however it
    is spelled), a key this Tento does not know."""
    message = refused(app, resealed(hostile(rich, case)))
    assert message.startswith("O arquivo da turma tem um problema (")
    assert message.endswith("): nada foi importado.")


# --- the turma's file on the scorer's link only ----------------------------------------------


def test_the_turma_file_is_on_the_scorer_link_only(app: Flask) -> None:
    """Whoever imports a turma's file first holds the copy later imports of it lead to, so only
    the scorer's link gives it: the scorer's page links it on the scorer's token; the viewer's
    page does not, and the viewer's address of it answers 403 in pt-BR with no file, as the
    scorer's address does with the viewer's token."""
    client = app.test_client()
    table = open_table(client, jogadores="2", time_a="Ana", time_b="Beto")
    response = client.post(f"/m/{table}/turma", data={"rev": 0, "acao": "criar", "nome": "Quinta"})
    source = response.headers["Location"].rsplit("/", 1)[1]
    play(client, table, "normal:0:3")
    scorer_page = client.get(f"/turma/{source}").text
    view = re.search(r'href="[^"]*/vt/([^"/]+)" data-testid="turma-link-assistir"', scorer_page)
    assert view
    assert f'href="/turma/{source}/arquivo-da-turma.json"' in scorer_page
    viewer_page = client.get(f"/vt/{view.group(1)}").text
    assert "arquivo-da-turma" not in viewer_page
    assert by_testid(viewer_page, "exportar-turma") is None
    assert by_testid(viewer_page, "levar-turma-marcar")
    for path in (
        f"/vt/{view.group(1)}/arquivo-da-turma.json",
        f"/turma/{view.group(1)}/arquivo-da-turma.json",
    ):
        answer = client.get(path)
        assert answer.status_code == 403 and answer.mimetype == "text/html", path
        assert "Quinta" not in answer.text and "formato" not in answer.text
    assert SCORER_FILE in client.get(f"/vt/{view.group(1)}/arquivo-da-turma.json").text
    assert client.get(f"/vt/{'x' * 32}/arquivo-da-turma.json").status_code == 404
    download = client.get(f"/turma/{source}/arquivo-da-turma.json")
    assert download.status_code == 200 and download.json["formato"] == transfer.FORMAT


# --- a file from another Tento -----------------------------------------------------------------


@pytest.fixture
def laptop(tmp_path: Path) -> Iterator[Flask]:
    """Another Tento: a laptop's, on its own SQLite file, with a secret of its own."""
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "o notebook de quinta",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'notebook.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    with other.app_context():
        db.create_all()
    yield other
    with other.app_context():
        db.engine.dispose()


def test_a_file_exported_by_another_tento_imports_here(app: Flask, laptop: Flask) -> None:
    """A turma played on another Tento (its own database and secret) and downloaded from its
    scorer's page imports here through the form: the same everywhere, and every page of it
    answers."""
    source = rich_turma(laptop)
    download = laptop.test_client().get(f"/turma/{source}/arquivo-da-turma.json")
    assert download.status_code == 200
    client = app.test_client()
    sent = {"arquivo": (io.BytesIO(download.data), "turma.json")}
    answer = client.post("/importar-turma", data=sent, content_type="multipart/form-data")
    assert answer.status_code == 303, by_testid(answer.text, "mensagem")
    token = answer.headers["Location"].split("/")[2].split("?")[0]
    assert picture(app, token) == picture(laptop, source)
    every_turma_page_answers(app, token)


# --- the import fuzzed -------------------------------------------------------------------------


def every_turma_page_answers(app: Flask, token: str) -> None:
    """Every page of the turma of this scorer token and of each of its tables answers 200
    (the turma's, its viewer's, its exports and image; each table's board, live view,
    history, edit and share pages, exports and image), and an undo on each table is answered
    without a server error."""
    with app.app_context():
        turma = turmas.scorer_turma(token)
        view = turma.view_token
        tables = [(m.edit_token, m.view_token) for m in turmas.tables(turma, None)]
    paths = [
        f"/turma/{token}",
        f"/turma/{token}/arquivo-da-turma.json",
        f"/vt/{view}",
        f"/vt/{view}/exportar.csv",
        f"/vt/{view}/exportar.json",
        f"/vt/{view}/imagem.png",
    ]
    for edit, watch in tables:
        paths += [f"/m/{edit}{page}" for page in ("", "/placar", "/historico", "/editar")]
        paths += [f"/m/{edit}/compartilhar", f"/m/{edit}/turma"]
        paths += [f"/v/{watch}{page}" for page in ("", "/placar", "/imagem.png")]
        paths += [f"/v/{watch}/exportar.csv", f"/v/{watch}/exportar.json"]
    client = app.test_client()
    for path in paths:
        answer = client.get(path)
        answer.get_data()  # a streamed export is read to its end: a failure midway fails here
        answer.close()
        assert answer.status_code == 200, (path, answer.status_code)
    for edit, _watch in tables:
        assert post(client, edit, "desfazer").status_code < 500, edit


WORDS = [
    *(kind.value for kind in Kind),
    *("active", "undone", "discarded", "truco", "simples", "paulista", "mineiro"),
    *("sujo", "limpo", "fixa", "variavel", "cegas", "escuro", "Nós", "Eles", "Turma"),
    *(transfer.FORMAT, "antes", "depois", "revision", "player_names", "team_a", "seq"),
]
ODD = ["\x00", "\r\n", "\n", "\t", "\u202e", "\u2066", "\u200b", "\ufeff", "\x7f", "\x85"]
ODD += ["\u00a0", " ", "", "e\u0301", "ß", "\U0001f0a1", '"', "<b>", "=1+1", "{}", "[]"]
TEXTS = st.one_of(
    st.sampled_from(WORDS),
    st.lists(st.one_of(st.sampled_from(ODD), st.text(max_size=6)), max_size=5).map("".join),
    st.sampled_from(["x" * 24, "x" * 25, "x" * 40, "x" * 41, "x" * 200, "x" * 201, "x" * 5000]),
    st.sampled_from(["not json", "{}", '{"antes": {}, "depois": {}}', "[" * 50 + "]" * 50]),
)
DATES = st.sampled_from(
    [
        "0001-01-01T00:00:00",
        "9999-12-31T23:59:59.999999",
        "1969-12-31T23:59:59",
        "1970-01-01T00:00:00",
        "2025-05-01",
        "2025-05-01T22:00:00+14:00",
        "2025-02-30T00:00:00",
        "2999-01-01T00:00:00",
    ]
)
NUMBERS = st.one_of(
    st.integers(-3, 13),
    st.sampled_from([2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**53 + 1, 2**63, -(10**30)]),
    st.sampled_from([10**100, 0.5, 3.0, 1e308, -0.0]),
    st.floats(),
)
LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, TEXTS, DATES)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(TEXTS, inner, max_size=3)
    ),
    max_leaves=8,
)
# Values a Tento may write, odd ones among them (spaces at the ends, a name of 24, two sides
# named alike): put where a value of their type was, the file may well import.
PLAUSIBLE_TEXTS = st.sampled_from(
    ["Ana", "Zé ", " Bia", "Os  Zapeiros", "x" * 24, "João 🂡", "", "ana", "Nós", "Eles", "caio"]
)
PLAUSIBLE_DATES = st.sampled_from(
    ["1970-01-01T00:00:00", "2025-05-01T23:59:00.123456", "2025-05-01T22:00:00+14:00"]
)


def plausible(data: st.DataObject, value: Any) -> Any:
    """A value a Tento may write, of the type of `value` (a time for a time)."""
    if isinstance(value, bool) or value is None:
        return data.draw(st.one_of(st.booleans(), st.none(), PLAUSIBLE_TEXTS))
    if isinstance(value, int):
        return data.draw(st.integers(max(0, value - 2), max(0, value) + 40))
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            datetime.fromisoformat(value)
            return data.draw(PLAUSIBLE_DATES)
        return data.draw(PLAUSIBLE_TEXTS)
    return value
DEEP = "__fundo__"  # a value to be replaced, once dumped, by JSON nested deeper than any parser


def nested(depth: int) -> str:
    """JSON text of lists nested `depth` deep."""
    return "[" * depth + "]" * depth


def spot(data: st.DataObject, document: dict[str, Any]) -> tuple[Any, Any]:
    """A container of the document and a key or index in it (its size for a new element),
    reached by a random walk from the top; a record's settings text is walked into too (the
    caller dumps it back)."""
    here: Any = document
    depth = data.draw(st.sampled_from([5, 5, 5, 4, 4, 3, 3, 2, 1]))  # mostly a record's field
    while True:
        keys = list(here) if isinstance(here, dict) else list(range(len(here)))
        if not keys:
            return here, 0
        if here is document:  # mostly the tables, then the turma, seldom the format's keys
            keys = ["mesas"] * 8 + ["turma"] * 2 + keys if {"mesas", "turma"} <= set(keys) else keys
        key = data.draw(st.sampled_from(keys))
        below = here[key]
        depth -= 1
        if depth and isinstance(below, (dict, list)) and below:
            here = below
            continue
        return here, key


def listed(value: Any, key: str) -> list[Any]:
    """A mutated document's list under `key` of `value`, [] when there is none."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, list) else []


def edit_records(document: dict[str, Any]) -> list[list[Any]]:
    """The records of a (mutated) document whose settings are JSON text of a container."""
    found = []
    for table in listed(document, "mesas"):
        for record in listed(table, "registros"):
            if not isinstance(record, list) or len(record) != len(transfer.RECORD_FIELDS):
                continue
            text = record[field("settings")]
            with contextlib.suppress(TypeError, ValueError, RecursionError):
                if isinstance(json.loads(text), (dict, list)) and json.loads(text):
                    found.append(record)
    return found


def mutate(data: st.DataObject, document: dict[str, Any]) -> None:
    """One change anywhere in the document (or, in an edit's settings, inside their JSON
    text): a value replaced by a plausible one of its type or by a hostile one of any JSON
    type, a key or element dropped, a key or element added, an element doubled, or a value
    nested deeper than a parser takes."""
    edits = edit_records(document)
    inside = edits and data.draw(st.sampled_from([False] * 4 + [True]))
    record = data.draw(st.sampled_from(edits)) if inside else None
    root = json.loads(record[field("settings")]) if record else document
    container, key = spot(data, root)
    actions = ["parece", "parece", "parece", "troca", "troca", "tira", "poe", "dobra", "fundo"]
    action = data.draw(st.sampled_from(actions))
    present = key in container if isinstance(container, dict) else key < len(container)
    if action == "parece" and present:
        container[key] = plausible(data, container[key])
    elif action in ("troca", "fundo") and present:
        container[key] = DEEP if action == "fundo" else data.draw(VALUES)
    elif action == "tira" and present:
        del container[key]
    elif action == "dobra" and isinstance(container, list) and present:
        container.insert(key, copy.deepcopy(container[key]))
    elif isinstance(container, dict):
        container[data.draw(TEXTS)] = data.draw(VALUES)
    else:
        container.insert(data.draw(st.integers(0, len(container))), data.draw(VALUES))
    if record is not None:
        record[field("settings")] = json.dumps(root, ensure_ascii=False)


def sealed(document: dict[str, Any], reseal: bool) -> bytes:
    """The document as a file, its checksum made anew unless `reseal` is false (or a value
    nested too deep leaves nothing to make it of)."""
    if reseal:
        with contextlib.suppress(ValueError, RecursionError):
            document["conferencia"] = transfer.checksum(document)
    text = json.dumps(document, ensure_ascii=False)
    return text.replace(json.dumps(DEEP), nested(5000)).encode()


REFUSALS = (transfer.NOT_JSON, transfer.FOREIGN, transfer.ALTERED, transfer.TOO_BIG)


def portuguese_refusal(message: str | None) -> bool:
    """True for one of the import's pt-BR refusals."""
    broken = transfer.BROKEN.split("{detail}")
    newer = transfer.NEWER.split("{version}")
    return message is not None and (
        message in REFUSALS
        or (message.startswith(broken[0]) and message.endswith(broken[1]))
        or (message.startswith(newer[0]) and message.endswith(newer[1]))
    )


@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_a_mutated_file_is_refused_in_portuguese_or_imports_whole_never_a_500(
    app: Flask, rich: dict[str, Any], data: st.DataObject
) -> None:
    """A turma's file with one to three hostile changes anywhere (values of every JSON type,
    huge numbers, texts with NUL, line breaks and bidi controls, keys dropped and added,
    elements doubled, deep nesting), its checksum made anew, is never a server error: either
    it is refused with a pt-BR message and nothing is written, or it is imported whole and
    every page of the new turma and of each of its tables answers 200."""
    document = copy.deepcopy(rich)
    for _ in range(data.draw(st.sampled_from([1, 1, 1, 2, 3]))):
        mutate(data, document)
    sent = sealed(document, reseal=data.draw(st.sampled_from([True] * 9 + [False])))
    before = counts(app)
    client = app.test_client()
    upload = {"arquivo": (io.BytesIO(sent), "turma.json")}
    answer = client.post("/importar-turma", data=upload, content_type="multipart/form-data")
    assert answer.status_code < 500
    event(f"answered {answer.status_code}")
    if answer.status_code == 303:
        token = answer.headers["Location"].split("/")[2].split("?")[0]
        assert counts(app)[:2] == (before[0] + 1, before[1] + len(document["mesas"]))
        every_turma_page_answers(app, token)
    elif by_testid(answer.text, "ja-importada") is not None:
        assert answer.status_code == 200 and counts(app) == before
    else:
        assert answer.status_code in (413, 422)
        assert portuguese_refusal(by_testid(answer.text, "mensagem")), answer.text
        event(str(by_testid(answer.text, "mensagem"))[:90])
        assert counts(app) == before


def test_a_file_of_ordinary_tables_as_large_as_the_page_takes_passes_every_limit(
    laptop: Flask,
) -> None:
    """The import page takes files of 8 MB: a file that large of ordinary tables (an evening's
    table of 40 hands, over and over) is within every limit of the import, every table and
    record checked."""
    token = new_table(laptop, None, 4, 3, True)
    with laptop.app_context():
        turma = turmas.create_turma(token, 0, "Quinta").edit_token
    for number in range(40):
        step(laptop, turma, [token], ("marcar", 0, number))
    document = json.loads(exported(laptop, turma))
    (table,) = document["mesas"]
    size = len(json.dumps(table, ensure_ascii=False, separators=(",", ":")).encode())
    document["mesas"] = [table] * ((transfer.MAX_BYTES - 4096) // (size + 1))
    document["conferencia"] = transfer.checksum(document)
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    assert transfer.MAX_BYTES - 2 * size < len(data) <= transfer.MAX_BYTES
    with laptop.app_context():
        _turma, planned = transfer.plan(transfer.read_document(data)[0])
    assert len(planned) == len(document["mesas"])
    assert sum(len(p.records) for p in planned) == 40 * len(planned)


# --- what only a torneio writes ----------------------------------------------------------------


LONG_PAIRS = ("Zapeiros do Bairro Alto A", "Zapeiros do Bairro Alto B")  # cut at 24: the same


def test_a_torneio_match_saved_in_a_turma_moves_with_it(app: Flask, client: Any) -> None:
    """A torneio's final saved in a pair's turma holds what only a torneio writes: both sides
    named by their pairs cut to 24 characters (here the same name, a space at its end) and
    the clock's limit writing two corrections in one write. Its file imports all the same,
    the same everywhere, and every page of it answers."""
    fields = {"nome": "Copa", "mesas": "1", "formato": "1", "formato_final": "1"}
    response = client.post("/torneio/novo", data={**fields, "no_limite": "onze"})
    token = response.headers["Location"].rsplit("/", 1)[-1]
    for n, name in enumerate(LONG_PAIRS):
        form = {"jogador_1": f"A{n}", "jogador_2": f"B{n}", "nome": name}
        assert organiser_post(client, token, "inscrever", **form).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    table = table_at(client, token, 1)
    play(client, table, "normal:0:3")
    assert organiser_post(client, token, "rodada/1/comecar").status_code == 303
    with app.app_context():
        torneio = find_torneio(token, edit=True)
        assert torneio is not None
        begun = started(torneio.clock, 1)
        assert begun is not None
        sync(torneio, now=begun + timedelta(minutes=91))
    play(client, table, "ferro:0")
    organiser_page = client.get(f"/t/{token}").text
    tv = re.search(r'href="[^"]*/tv/([\w-]+)" data-testid="tv-link"', organiser_page)
    assert tv
    pairs = client.get(f"/tv/{tv.group(1)}/duplas").text
    link = re.search(r'href="([^"]+)" data-testid="salvar-dupla"', pairs)
    assert link
    saved = client.post(link.group(1), data={"nome": "Copa"})
    assert saved.status_code == 303
    source = saved.headers["Location"].rsplit("/", 1)[-1]
    data = client.get(f"/turma/{source}/arquivo-da-turma.json").data
    (mesa,) = json.loads(data)["mesas"]
    assert mesa["mesa"]["team_a"] == mesa["mesa"]["team_b"] == LONG_PAIRS[0][:24]
    assert LONG_PAIRS[0][:24].endswith(" ")
    first = imported(app, data)
    assert not first.again
    assert picture(app, first.turma.edit_token) == picture(app, source)
    every_turma_page_answers(app, first.turma.edit_token)
