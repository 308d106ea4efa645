"""A turma moved to another Tento in one file: imported, it equals the turma it came from
(every board, history, statistic and export the same, with new ids and tokens); the same file
imported twice changes nothing; a file that is not a turma's, of another version, too big,
altered or inconsistent is refused in pt-BR and changes nothing."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper import create_app, mesas
from scorekeeper.extensions import db
from scorekeeper.mesas import service, transfer
from scorekeeper.mesas import stats as stats_domain
from scorekeeper.mesas import turmas as turmas_domain
from scorekeeper.mesas.settings import TableSettings
from scorekeeper.mesas.words import NOTES
from scorekeeper.models import Entry, HandRecord, Mesa, Turma
from scorekeeper.pages import exports
from scorekeeper.rules import Kind, Outcome, RulesError
from scorekeeper.turma import present

from ..profiles import examples
from .helpers import by_testid, open_table, play

SECRET = "test"  # the conftest app's SECRET_KEY
NAMES = ("Ana", "Beto", "Caio", "Duda", "Zé", "José")
TEAMS = ("Nós", "Eles", "Brabos", "Patos")


# --- what a turma shows, ids and tokens aside ------------------------------------------------


def stripped(record: Entry) -> Entry:
    """A record without its id."""
    return replace(record, id=0)


def board_picture(board: mesas.Board) -> tuple[Any, ...]:
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
    """A table's settings, without ids and tokens."""
    skipped = {"id", "edit_token", "view_token", "turma_id", "previous_id"}
    return {c.name: getattr(mesa, c.name) for c in Mesa.__table__.columns if c.name not in skipped}


def picture(app: Flask, turma_token: str) -> dict[str, Any]:
    """What a turma shows anywhere, ids and tokens aside: its name and merges, each table's
    settings, rematch link, board, history and exports (oldest first), the statistics of its
    pages and of its exports, and its file."""
    with app.test_request_context("/"):
        turma = turmas_domain.scorer_turma(turma_token)
        ordered = list(reversed(turmas_domain.tables(turma, None)))
        place = {m.id: i for i, m in enumerate(ordered)}
        page = present.turma_view(turma)
        return {
            "turma": (turma.name, turma.aliases, turma.created_at),
            "tables": [
                (
                    settings_of(m),
                    place.get(m.previous_id) if m.previous_id else None,
                    board_picture(mesas.load_board(m)),
                    history_picture(m.edit_token),
                    "".join(
                        exports.csv_lines(
                            present.LOG_CSV_HEADER, present.log_rows(m, mesas.all_records(m))
                        )
                    ),
                    present.log_json(m, mesas.all_records(m)),
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
        document = transfer.export_turma(turmas_domain.scorer_turma(turma_token))
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
        token = mesas.open_table(settings).edit_token
    if turma is not None:
        with app.app_context():
            turmas_domain.join_turma(token, 0, turma)
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
    with app.app_context(), contextlib.suppress(RulesError):
        if kind == "marcar":
            legal = mesas.scorer_board(token).state.legal_outcomes()
            service.record_outcome(token, mesa.revision, legal[args[1] % len(legal)])
        elif kind == "corrigir":
            correction = Outcome(Kind.CORRECAO, args[1], args[2])
            service.record_outcome(token, mesa.revision, correction, "=conta errada")
        elif kind == "nota":
            last = mesas.scorer_board(token).last
            codes = [code for code, _ in NOTES.get(last.points or 0, ())] if last else []
            if last is not None and last.kind == Kind.NORMAL.value and codes:
                service.set_note(token, mesa.revision, last.id, codes[args[1] % len(codes)])
        elif kind == "desfazer":
            service.undo(token, mesa.revision)
        elif kind == "refazer":
            service.redo(token, mesa.revision)
        elif kind == "de_novo":
            again = turmas_domain.play_again(service.scorer_table(token)).edit_token
            if again not in tokens:
                tokens.append(again)
        elif kind == "trocar":
            tokens[tokens.index(token)] = service.rotate_links(token, mesa.revision).edit_token
        elif kind == "editar":
            names = [NAMES[(i + args[1]) % len(NAMES)] for i in range(mesa.players)]
            wanted = {**TableSettings.of(mesa).columns(), "player_names": names}
            wanted.update(team_a=TEAMS[args[1] % len(TEAMS)], best_of=args[2])
            service.edit_table(token, mesa.revision, wanted, args[1] % mesa.players)
        elif kind == "juntar":
            row = turmas_domain.scorer_turma(turma)
            source, target = (stats_domain.folded(NAMES[i % len(NAMES)]) for i in args[1:])
            merge, known = present.merge_of(row, source, target)
            turmas_domain.merge_names(turma, row.revision, merge, known)


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
        turma = turmas_domain.create_turma(first, 0, "Truco de quinta").edit_token
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
    """The viewer's page links the turma's file; the import form (linked from the home page)
    takes it, opens the new turma's page with new links, and the same file again changes
    nothing and links the turma already imported (its scorer page for the browser that
    imported it, its viewer page for another)."""
    client = app.test_client()
    table = open_table(client, jogadores="2", time_a="Ana", time_b="Beto")
    response = client.post(f"/m/{table}/turma", data={"rev": 0, "acao": "criar", "nome": "Quinta"})
    source = response.headers["Location"].rsplit("/", 1)[1]
    play(client, table, "normal:0:3", "normal:1:9", "normal:1:1", "normal:1:1", "onze_correu:0")
    view = re.search(r'href="[^"]*/vt/([^"/]+)"', client.get(f"/turma/{source}").text)
    assert view
    viewer_page = client.get(f"/vt/{view.group(1)}").text
    link = re.search(r'href="([^"]+)" data-testid="exportar-turma"', viewer_page)
    assert link and link.group(1).startswith(f"/vt/{view.group(1)}/")
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
        turma = turmas_domain.create_turma(token, 0, "Quinta").edit_token
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


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    """The app with CSRF checks on, as in production."""
    app = create_app(
        {"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite3'}"}
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


def test_the_import_form_checks_its_csrf_token_and_takes_files_larger_than_a_form(
    csrf_app: Flask,
) -> None:
    """The import form posts with the page's CSRF token (without it: a 400 in pt-BR, nothing
    written), and takes a turma's file far larger than the 16 KB any other form may send."""
    token = new_table(csrf_app, None, 2, 0, True)
    with csrf_app.app_context():
        turma = turmas_domain.create_turma(token, 0, "Longa").edit_token
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
        turma = turmas_domain.create_turma(token, service.scorer_table(token).revision, "Minas")
        turma_token = turma.edit_token
    data = exported(app, turma_token)
    first = imported(app, data)
    assert picture(app, first.turma.edit_token) == picture(app, turma_token)
    assert '"variante":"mineiro"' in data.decode()
    with app.app_context():
        (mesa,) = turmas_domain.tables(turmas_domain.scorer_turma(first.turma.edit_token), None)
        assert mesa.variante == "mineiro" and mesa.players == 6
