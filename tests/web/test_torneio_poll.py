"""The TV's poll: one read while nothing changed, and the body drawn once a
version in a process for every screen (caches.TV_BODIES), never older than the version asked."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import caches, create_app
from scorekeeper.extensions import db

from .helpers import board_at, counting_statements, play
from .test_torneio_exports import drawn_torneio, mesa_paths

VERSION = re.compile(r'data-versao="([^"]+)"')


def version_of(html: str) -> str:
    """The version a TV body was drawn for."""
    found = VERSION.search(html)
    assert found
    return found.group(1)


def placar(html: str, mesa: int) -> str | None:
    """The score the TV shows at a mesa."""
    found = re.search(rf'data-testid="tv-mesa" data-mesa="{mesa}" data-placar="([^"]+)"', html)
    return found.group(1) if found else None


def test_an_unchanged_tv_poll_is_one_read(app: Flask, client: FlaskClient) -> None:
    """While nothing changed, the TV's poll answers 204 after one statement."""
    _edit, tv = drawn_torneio(client)
    now = version_of(client.get(f"/tv/{tv}").text)
    sent: list[str] = []
    with app.app_context(), counting_statements(db.engine, None, sent):
        assert client.get(f"/tv/{tv}/estado?v={now}").status_code == 204
    assert len(sent) == 1, sent


def test_a_tap_on_another_worker_reaches_every_screen(app: Flask, client: FlaskClient) -> None:
    """A screen on a worker that kept the TV's body for a version sees a tap made on another
    worker at its next poll; a second screen at the old version gets the same new body; at
    the new version, nothing (204)."""
    edit, tv = drawn_torneio(client)
    screens = create_app({**app.config}).test_client()  # another worker, its own caches
    old = version_of(screens.get(f"/tv/{tv}").text)
    assert screens.get(f"/tv/{tv}/estado?v=0").status_code == 200  # keeps the body of `old`
    board = board_at(client, mesa_paths(client, edit)[0])
    assert board is not None
    play(client, board, "normal:0:3")
    first = screens.get(f"/tv/{tv}/estado?v={old}")
    assert first.status_code == 200 and placar(first.text, 1) == "3-0"
    second = screens.get(f"/tv/{tv}/estado?v={old}")
    assert second.text == first.text
    assert screens.get(f"/tv/{tv}/estado?v={version_of(first.text)}").status_code == 204


def test_the_tv_poll_is_the_same_with_caches_off(app: Flask, client: FlaskClient) -> None:
    """TENTO_CACHES=0 changes no TV body, only its cost."""
    edit, tv = drawn_torneio(client)
    play(client, board_at(client, mesa_paths(client, edit)[1]) or "", "normal:1:1")
    cold = create_app({**app.config, "CACHES": "0"})
    warm = create_app({**app.config})
    bodies = [w.test_client().get(f"/tv/{tv}/estado?v=0").text for w in (cold, warm, warm)]
    assert bodies[0] == bodies[1] == bodies[2]
    assert placar(bodies[0], 2) == "0-1"
    with cold.app_context():
        assert len(caches.store(caches.TV_BODIES)) == 0
