"""Small helpers for driving a table through the Flask test client."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import psycopg
from flask.testing import FlaskClient
from sqlalchemy import Engine, event
from werkzeug.test import TestResponse

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


def revision(client: FlaskClient, token: str) -> int:
    """The revision the board is drawn from."""
    html = client.get(f"/m/{token}").text
    match = re.search(r'id="board"[^>]*data-rev="(\d+)"', html)
    assert match
    return int(match.group(1))


def post(client: FlaskClient, token: str, route: str, rev: int | None = None, **form: str):
    """POST to a board route as htmx does, with the current revision unless given."""
    data = {"rev": str(revision(client, token) if rev is None else rev), **form}
    return client.post(f"/m/{token}/{route}", data=data, headers=HX)


def tap(client: FlaskClient, token: str, code: str, rev: int | None = None) -> TestResponse:
    """Tap one outcome button."""
    return post(client, token, "marcar", rev, o=code)


def play(client: FlaskClient, token: str, *codes: str) -> TestResponse:
    """Tap several outcomes in a row, each expected to be accepted."""
    response = None
    for code in codes:
        response = tap(client, token, code)
        assert response.status_code == 200, (code, by_testid(response.text, "mensagem"))
    assert response is not None
    return response


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
