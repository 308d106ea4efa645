"""The helpers the web, domain, fault and bench tests share: driving a table, a turma and a
torneio through the Flask test client, reading what the database holds, stepping a table
through the domain, counting statements and rows, decoding a QR code. Each is defined here
once; the browser tier's own live in tests/browser/pages.py."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, event
from werkzeug.test import TestResponse

from scorekeeper import caches, create_app
from scorekeeper.domain.mesa import board, board_of, service
from scorekeeper.extensions import db
from scorekeeper.models import ENTRY_COLUMNS, HandRecord, Mesa, entry
from scorekeeper.rules import Kind, Outcome, RulesError

from ..conftest import require_program

HX = {"HX-Request": "true"}


def open_table(client: FlaskClient, **form: str) -> str:
    """Open a table with the given form fields and return its scorer token."""
    response = client.post("/mesas", data=form)
    assert response.status_code == 303, response.text
    location = response.headers["Location"]
    match = re.search(r"/m/([A-Za-z0-9_-]+)$", location)
    assert match, location
    return match.group(1)


def by_testid(html: str, name: str) -> str | None:
    """The text of the element with data-testid=name (first one), or None."""
    match = re.search(rf'data-testid="{name}"[^>]*>([^<]*)<', html)
    return match.group(1).strip() if match else None


def showing(html: str) -> str:
    """A page without its <template>s: what the board shows now, not the layouts of the phases
    a tap may lead to (kept for the forecast)."""
    return re.sub(r"<template\b.*?</template>", "", html, flags=re.S)


def scores(html: str) -> tuple[int, int]:
    """Both sides' scores as shown."""
    return int(by_testid(html, "score-a") or -1), int(by_testid(html, "score-b") or -1)


def revision(client: FlaskClient, token: str, missing: int | None = None) -> int:
    """The revision the board is drawn from; `missing` where the page shows no board (a
    table taken back), when given."""
    html = client.get(f"/m/{token}").text
    match = re.search(r'id="board"[^>]*data-rev="(\d+)"', html)
    if match is None and missing is not None:
        return missing
    assert match
    return int(match.group(1))


def post(
    client: FlaskClient,
    token: str,
    route: str,
    rev: int | None = None,
    *,
    htmx: bool = True,
    **form: str,
) -> TestResponse:
    """POST to a board route as htmx does (as a plain form when `htmx` is false), with the
    current revision unless given."""
    data = {"rev": str(revision(client, token) if rev is None else rev), **form}
    return client.post(f"/m/{token}/{route}", data=data, headers=HX if htmx else {})


def tap(
    client: FlaskClient, token: str, code: str, rev: int | None = None, *, htmx: bool = True
) -> TestResponse:
    """Tap one outcome button."""
    return post(client, token, "marcar", rev, htmx=htmx, o=code)


def play(client: FlaskClient, token: str, *codes: str, htmx: bool = True) -> TestResponse:
    """Tap several outcomes in a row, each expected to be accepted (htmx's 200, a plain
    form's 303 to the board)."""
    response = None
    for code in codes:
        response = tap(client, token, code, htmx=htmx)
        accepted = 200 if htmx else 303
        assert response.status_code == accepted, (code, by_testid(response.text, "mensagem"))
    assert response is not None
    return response


# --- a turma ---------------------------------------------------------------------------------


def new_turma(client: FlaskClient, token: str, name: str = "Quinta") -> str:
    """Save the table in a new turma named `name`; the turma's scorer token."""
    data = {"rev": revision(client, token), "acao": "criar", "nome": name}
    response = client.post(f"/m/{token}/turma", data=data)
    assert response.status_code == 303, response.text
    found = re.search(r"/turma/([A-Za-z0-9_-]+)$", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def join_turma(client: FlaskClient, token: str, turma: str) -> None:
    """Put a table in the turma by pasting its link."""
    data = {"rev": revision(client, token), "acao": "entrar", "link": turma}
    assert client.post(f"/m/{token}/turma", data=data).status_code == 303


def turma_rev(client: FlaskClient, token: str) -> int:
    """The revision the turma's page is drawn from."""
    found = re.search(r'data-testid="turma" data-rev="(\d+)"', client.get(f"/turma/{token}").text)
    assert found
    return int(found.group(1))


# --- a torneio: opened and drawn, an organiser's step, a mesa's match, the bracket ----------


def torneio_rev_in(html: str) -> str:
    """The torneio revision an organiser's page was drawn at."""
    found = re.search(r'data-testid="torneio" data-rev="(\d+)"', html)
    assert found
    return found.group(1)


def torneio_rev(client: FlaskClient, token: str) -> str:
    """The torneio revision the organiser's page is drawn at now."""
    return torneio_rev_in(client.get(f"/t/{token}").text)


def organiser_post(
    client: FlaskClient, token: str, route: str, rev: str | None = None, **form: str
) -> TestResponse:
    """An organiser's step posted from the page as drawn now (at `rev` when given)."""
    data = {"rev": torneio_rev(client, token) if rev is None else rev, **form}
    return client.post(f"/t/{token}/{route}", data=data)


def tv_path_in(html: str) -> str:
    """The TV's read-only link (its path) on an organiser's page."""
    found = re.search(r'<a href="([^"]+)" data-testid="tv-link"', html)
    assert found
    return urlsplit(found.group(1)).path


def tv_path(client: FlaskClient, token: str) -> str:
    """The TV's path, from the organiser's page as drawn now."""
    return tv_path_in(client.get(f"/t/{token}").text)


def open_torneio(client: FlaskClient, pairs: int = 4, **form: str) -> str:
    """A torneio (the form's fields as given, else 'Copa' on 2 mesas) with `pairs` pairs
    A<n> e B<n>, drawn; its organiser token."""
    fields = {"nome": "Copa", "mesas": "2", **form}
    response = client.post("/torneio/novo", data=fields)
    assert response.status_code == 303, response.text
    token = response.headers["Location"].rsplit("/", 1)[-1]
    for n in range(pairs):
        names = {"jogador_1": f"A{n}", "jogador_2": f"B{n}"}
        assert organiser_post(client, token, "inscrever", **names).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    return token


def one_game_torneio(client: FlaskClient, pairs: int = 4, mesas: int = 2, **form: str) -> str:
    """A drawn torneio of one-game matches (no 3rd place unless `form` asks) on `mesas` mesas;
    its organiser token."""
    fields = {"mesas": str(mesas), "formato": "1", "formato_final": "1", **form}
    return open_torneio(client, pairs, **fields)


def final_begun_then_semi_reopened(client: FlaskClient) -> tuple[str, str, str, str]:
    """A one-game torneio of 4 pairs on 2 mesas: both semi-finals won by their side a, the
    final (called to mesa 1) at 0 x 3, then the first semi reopened by its phone's undo. The
    organiser's token and the scorer tokens of the two semis and of the final."""
    token = one_game_torneio(client, mesas=2)
    first, second = table_at(client, token, 1), table_at(client, token, 2)
    play(client, first, "normal:0:12")
    play(client, second, "normal:0:12")
    final = table_at(client, token, 1)
    play(client, final, "normal:1:3")
    assert post(client, first, "desfazer").status_code == 200
    return token, first, second, final


def table_at(client: FlaskClient, token: str, number: int) -> str:
    """The scorer token of the match now at mesa `number`, through the mesa's stable link."""
    page = client.get(f"/t/{token}").text
    shape = rf'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link" data-mesa="{number}"'
    link = re.search(shape, page)
    assert link
    response = client.get(link.group(1))
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1]


def board_at(client: FlaskClient, link: str) -> str | None:
    """The scorer token of the match now called to the mesa of this stable link (None: the
    mesa is free, and its page says so)."""
    response = client.get(link)
    if response.status_code == 200:
        assert 'data-testid="mesa-livre"' in response.text
        return None
    assert response.status_code == 303
    found = re.search(r"/m/([A-Za-z0-9_-]+)$", response.headers["Location"])
    assert found
    return found.group(1)


def matches(client: FlaskClient, token: str) -> dict[str, dict[str, str]]:
    """Each match of the organiser's bracket by key, with its data- attributes."""
    page = client.get(f"/t/{token}").text
    found = {}
    for tag in re.findall(r'<article[^>]*data-testid="jogo"[^>]*>', page):
        attrs = dict(re.findall(r'data-([\w-]+)="([^"]*)"', tag))
        found[attrs["key"]] = attrs
    return found


def csv_rows_in(text: str) -> list[dict[str, str]]:
    """A CSV export's rows by its header (a byte-order mark first, cells separated by ';')."""
    assert text.startswith("\ufeff"), text[:40]
    return list(csv.DictReader(io.StringIO(text[1:]), delimiter=";"))


# --- what the database holds ----------------------------------------------------------------


def mesa_of(app: Flask, token: str) -> Mesa:
    """The table with this scorer token, read afresh and detached from the session."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        db.session.expunge(mesa)
        return mesa


def view_token(app: Flask, token: str) -> str:
    """The viewers' token of the table with this scorer token."""
    return str(mesa_of(app, token).view_token)


def records(app: Flask, token: str) -> list[HandRecord]:
    """Every record of the table with this scorer token, in order."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return list(
            db.session.execute(
                db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
            ).scalars()
        )


def reasons_of(app: Flask, token: str) -> list[str | None]:
    """The reason stored on each of a table's records, in order."""
    return [record.reason for record in records(app, token)]


def second_worker(app: Flask) -> Flask:
    """Another app on the same database, as a second server process has (its own caches)."""
    return create_app({**app.config})


def flashed(client: FlaskClient, *, take: bool = False) -> list[str]:
    """The messages waiting in the session for the next page (taken off it when `take`)."""
    with client.session_transaction() as session:
        waiting = session.pop("_flashes", []) if take else session.get("_flashes", [])
        return [message for _, message in waiting]


def query_of(href: str) -> dict[str, str]:
    """A link's query string (as a page writes it, &amp; and all) as single values."""
    return {k: v[0] for k, v in parse_qs(urlsplit(href.replace("&amp;", "&")).query).items()}


# --- a table stepped through the domain, as its routes step it -------------------------------

Action = int | str | tuple[int, int]  # a legal pick, "desfazer" / "refazer", or (side, points)


def boards(app: Flask, token: str) -> tuple[board.Board, board.Board]:
    """The table's board as the app reads it (from checkpoints, not from the board its last
    write kept) and as the full fold gives it."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(*ENTRY_COLUMNS).where(HandRecord.mesa_id == mesa.id).order_by(HandRecord.seq)
        )
        return service.read_board(mesa), board_of(mesa, [entry(row) for row in rows])


def kept_board(app: Flask, token: str) -> board.Board | None:
    """The board the app kept from its last write on the table, if it is the current one."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        kept: board.Board | None = caches.store(caches.BOARDS).get(token)
        return kept if kept is not None and kept.mesa.revision == mesa.revision else None


def same(kept: board.Board | None, folded: board.Board) -> bool:
    """True when a kept board shows what the fold does (its table read in another session)."""
    return kept is not None and replace(kept, mesa=folded.mesa) == folded


def domain_step(app: Flask, read: board.Board, action: Action) -> service.Written | None:
    """One step as its route takes it (a tap, an undo or redo, a correction), on the revision
    of the board just read (`read`); None when the rules refuse it (the route's 422). A tap
    picks among the outcomes legal on `read`, so it is never refused."""
    token, rev = read.mesa.edit_token, read.mesa.revision
    with app.app_context():
        try:
            if action == "desfazer":
                return service.undo(token, rev)
            if action == "refazer":
                return service.redo(token, rev)
            if isinstance(action, tuple):
                return service.record_outcome(token, rev, Outcome(Kind.CORRECAO, *action), "teste")
            legal = read.state.legal_outcomes()
            return service.record_outcome(token, rev, legal[action % len(legal)])
        except RulesError:
            assert not isinstance(action, int), "a legal tap refused"
            return None


@contextmanager
def counting_statements(
    engine: Engine, polls: Engine | None, statements: list[str]
) -> Iterator[None]:
    """Append every statement sent to the database to `statements`: the main engine's through
    SQLAlchemy's events, the polls engine's (psycopg, straight through the driver) through a
    counting cursor on each connection it hands out."""

    class Counting(psycopg.Cursor):  # type: ignore[type-arg]
        """A psycopg cursor that notes what it executes."""

        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            """Note the statement, then run it."""
            statements.append(str(query))
            return super().execute(query, params, **options)

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def counting_cursors(dbapi_connection: Any, *_: object) -> None:
        dbapi_connection.cursor_factory = Counting

    event.listen(engine, "before_cursor_execute", count)
    if polls is not None:
        event.listen(polls, "checkout", counting_cursors)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", count)
        if polls is not None:
            event.remove(polls, "checkout", counting_cursors)


@contextmanager
def counting_rows(engine: Engine, rows: list[int]) -> Iterator[None]:
    """Append 1 to `rows` for every row read from the database on a connection of `engine`
    checked out meanwhile, whatever reads it: the driver's row factory (sqlite3's or psycopg's)
    counts them, and is given back at the end."""
    originals: dict[Any, Any] = {}

    def counted(dbapi_connection: Any, *_: object) -> None:
        if dbapi_connection in originals:  # checked out again: counting already
            return
        original = originals[dbapi_connection] = dbapi_connection.row_factory
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.row_factory = lambda _cursor, row: rows.append(1) or row
            return

        def factory(cursor: Any) -> Any:
            make = original(cursor)
            return lambda values: rows.append(1) or make(values)

        dbapi_connection.row_factory = factory

    event.listen(engine, "checkout", counted)
    try:
        yield
    finally:
        event.remove(engine, "checkout", counted)
        for dbapi_connection, original in originals.items():
            dbapi_connection.row_factory = original


class FormValues(HTMLParser):
    """What a page's form would post as it is drawn: text inputs, checked radios, selected
    options."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the value a field posts."""
        found = {key: value or "" for key, value in attrs}
        name = found.get("name", "")
        if tag == "input" and found.get("type") == "radio":
            if "checked" in found:
                self.values[name] = found["value"]
        elif tag == "input" and name:
            self.values[name] = found.get("value", "")
        elif tag == "select":
            self.select = name
        elif tag == "option" and self.select and "selected" in found:
            self.values[self.select] = found["value"]


def edit_form(client: FlaskClient, token: str) -> dict[str, str]:
    """The edit form's values as drawn for the table now (its rev and cid among them)."""
    parser = FormValues()
    parser.feed(client.get(f"/m/{token}/editar").text)
    parser.values.pop("csrf_token", None)
    return parser.values


def decode_qr(svg: str, tmp_path: Path, name: str) -> str:
    """Rasterise the SVG with rsvg-convert and read it back with zbarimg."""
    rsvg = require_program("rsvg-convert", "librsvg2-bin")
    zbar = require_program("zbarimg", "zbar-tools")
    source, png = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
    source.write_text(svg)
    subprocess.run(
        [rsvg, "-w", "400", "-h", "400", "-b", "white", str(source), "-o", str(png)], check=True
    )
    done = subprocess.run(
        [zbar, "--raw", "-q", str(png)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
