"""The pages' scripts: one behaviour per file, each page loading only those it uses, their timings
in settings.js with the poll interval from the server, and the board's revision in a header."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import config

from .helpers import HX, open_table, revision, tap, view_token

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
MOST_LINES = 400
COMMON = {"prefs", "settings", "preferences", "install"}  # base.html: every page
BOARD = {"feedback", "awake", "announce", "writes", "forecast", "slot", "offline", "follow"}


def scripts_of(html: str) -> list[str]:
    """The names of the static/js scripts a page links, in order ('writes' for js/writes.js)."""
    return re.findall(r'<script src="/static/js/([a-z-]+)\.js\?v=[0-9a-f]+"', html)


def data_rev(html: str) -> int:
    """The revision a board fragment is drawn from, as its data-rev says."""
    match = re.search(r'id="board"[^>]*data-rev="(\d+)"', html)
    assert match, html[:200]
    return int(match.group(1))


@pytest.mark.parametrize("path", sorted(SCRIPTS.glob("*.js")), ids=lambda p: p.name)
def test_every_script_says_what_it_is_for_and_stays_under_400_lines(path: Path) -> None:
    """Its first line is a comment saying what it is for; it holds at most 400 lines."""
    lines = path.read_text().splitlines()
    assert lines[0].startswith("// ") and len(lines[0]) > 20, path.name
    assert len(lines) <= MOST_LINES, (path.name, len(lines))


def test_each_page_loads_the_scripts_of_its_own_behaviours(app: Flask, client: FlaskClient) -> None:
    """The board has the writes, the forecast, the polling, the tap feedback and the result's
    share and copy, and no juiz or live view script; the other pages have theirs and not the
    board's."""
    edit = open_table(client)
    view = view_token(app, edit)
    pages = {
        f"/m/{edit}": COMMON | BOARD | {"turma", "copy"},
        f"/v/{view}": COMMON | {"awake", "announce", "live"},
        f"/m/{edit}/compartilhar": COMMON | {"copy"},
        "/juiz": COMMON | {"juiz"},
        "/offline": COMMON | {"writes", "slot", "offline"},
        "/": COMMON | {"limits", "variante"},
        f"/m/{edit}/editar": COMMON | {"limits", "names"},
    }
    for url, expected in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert set(scripts_of(response.text)) == expected, url


def test_settings_come_before_every_script_that_reads_them(client: FlaskClient) -> None:
    """Deferred scripts run in order: settings.js (the timings) first, right after prefs.js."""
    board = scripts_of(client.get(f"/m/{open_table(client)}").text)
    assert board[:2] == ["prefs", "settings"], board
    assert board.index("writes") < board.index("slot") < board.index("follow"), board


def test_the_poll_interval_is_two_seconds_unless_poll_interval_ms_says_otherwise(
    app: Flask, client: FlaskClient
) -> None:
    """<body data-poll-ms> (the scripts' interval) and the live view's htmx trigger follow
    POLL_INTERVAL_MS: 2000 by default, 200 when set so."""
    edit = open_table(client)
    view = view_token(app, edit)
    assert 'data-poll-ms="2000"' in client.get(f"/m/{edit}").text
    assert 'hx-trigger="every 2s"' in client.get(f"/v/{view}").text
    app.config["POLL_INTERVAL_MS"] = 200
    assert 'data-poll-ms="200"' in client.get(f"/m/{edit}").text
    assert 'data-poll-ms="200"' in client.get("/").text
    assert 'hx-trigger="every 200ms"' in client.get(f"/v/{view}").text
    tap(client, edit, "normal:0:1")
    assert 'hx-trigger="every 200ms"' in client.get(f"/v/{view}/placar?rev=0").text


def test_poll_interval_ms_is_read_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """POLL_INTERVAL_MS=500 in the environment sets the interval; unset, it is 2000."""
    monkeypatch.setenv("SECRET_KEY", "t")
    monkeypatch.delenv("POLL_INTERVAL_MS", raising=False)
    assert config.defaults(str(tmp_path))["POLL_INTERVAL_MS"] == 2000
    monkeypatch.setenv("POLL_INTERVAL_MS", "500")
    assert config.defaults(str(tmp_path))["POLL_INTERVAL_MS"] == 500


def test_every_board_fragment_carries_its_revision_in_x_tento_rev(client: FlaskClient) -> None:
    """A tap's answer, a refusal (409, 422) and a changed poll carry X-Tento-Rev, equal to the
    fragment's data-rev; an unchanged poll and an unknown table carry none."""
    edit = open_table(client)
    answers = {
        "tap": tap(client, edit, "normal:0:3"),
        "stale": tap(client, edit, "normal:0:1", rev=0),
        "illegal": tap(client, edit, "normal:0:5"),
        "poll": client.get(f"/m/{edit}/placar?rev=0"),
    }
    assert [a.status_code for a in answers.values()] == [200, 409, 422, 200]
    for name, answer in answers.items():
        assert answer.headers.get("X-Tento-Rev") == str(data_rev(answer.text)) == "1", name
    unchanged = client.get(f"/m/{edit}/placar?rev={revision(client, edit)}")
    assert unchanged.status_code == 204 and "X-Tento-Rev" not in unchanged.headers
    missing = client.post("/m/nenhuma/marcar", data={"rev": "0", "o": "normal:0:1"}, headers=HX)
    assert missing.status_code == 404 and "X-Tento-Rev" not in missing.headers
