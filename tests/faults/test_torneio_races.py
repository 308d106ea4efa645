"""Against a real server (gunicorn, 2 workers): the organiser's 'Desfazer o sorteio' and 'Trocar'
racing a mesa's first tap never lose an acknowledged tap. Each round releases both requests at
once; whichever wins, a tap answered 200 is on its table, and the torneio is either undone (or
swapped) with no tap, or kept with it."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import requests
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.domain.torneio import setup
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa, Torneio

from .server import CSRF, REQUEST_TIMEOUT, Scorer, running

ROUNDS = 12
PAIRS = [["Ana", "Beto"], ["Caio", "Duda"], ["Edu", "Fia"], ["Gil", "Hugo"]]


def drawn_torneio(app: Flask) -> str:
    """A torneio of four pairs on two mesas, drawn (no match called yet); its organiser token."""
    with app.app_context():
        torneio = setup.create_torneio(setup.Settings(name="Copa", mesas=2))
        for revision, names in enumerate(PAIRS):
            setup.register(torneio.edit_token, revision, names, "", "")
        setup.draw_bracket(torneio.edit_token, len(PAIRS))
        return str(torneio.edit_token)


class Organiser:
    """The organiser's phone: its session, the CSRF token and the revision its page shows."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.session = requests.Session()
        self.page = ""

    def load(self) -> str:
        """The organiser's page (the first load calls the matches to the mesas)."""
        self.page = self.session.get(f"{self.base}/t/{self.token}", timeout=REQUEST_TIMEOUT).text
        return self.page

    def mesa_link(self, number: int) -> str:
        """Mesa `number`'s stable link, as the page shows it."""
        shape = rf'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link" data-mesa="{number}"'
        found = re.search(shape, self.page)
        assert found
        return found.group(1)

    def post(self, route: str, **form: str) -> requests.Response:
        """An organiser's step from the page as loaded last."""
        rev = re.search(r'data-testid="torneio" data-rev="(\d+)"', self.page)
        csrf = CSRF.search(self.page)
        assert rev and csrf
        data = {"rev": rev.group(1), "csrf_token": csrf.group(1), **form}
        url = f"{self.base}/t/{self.token}/{route}"
        return self.session.post(url, data=data, timeout=REQUEST_TIMEOUT, allow_redirects=False)


def table_token(base: str, link: str) -> str:
    """The scorer token of the match a mesa's link leads to."""
    response = requests.get(base + link, timeout=REQUEST_TIMEOUT, allow_redirects=False)
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1]


Send = Callable[[], requests.Response]


def at_once(tap: Send, step: Send) -> tuple[int, int]:
    """Both requests released by one barrier; their statuses (the tap's first)."""
    barrier = threading.Barrier(2, timeout=60)

    def go(call: Send) -> int:
        barrier.wait()
        return call().status_code

    with ThreadPoolExecutor(2) as pool:
        tapped, stepped = pool.map(go, [tap, step])
    return tapped, stepped


def taps_on(app: Flask, table: str) -> int | None:
    """How many records the table with this scorer token has (None: the table is gone)."""
    with app.app_context():
        found = db.session.execute(
            select(Mesa).where(Mesa.edit_token == table)
        ).scalar_one_or_none()
        if found is None:
            return None
        query = select(func.count()).where(HandRecord.mesa_id == found.id)
        return int(db.session.execute(query).scalar_one())


def is_drawn(app: Flask, token: str) -> bool:
    """True while the torneio keeps its draw."""
    with app.app_context():
        torneio = db.session.execute(
            select(Torneio).where(Torneio.edit_token == token)
        ).scalar_one()
        return torneio.slots is not None


def test_undoing_the_draw_racing_the_first_tap_never_loses_the_tap(
    database_url: str, tmp_path: Path
) -> None:
    """Each round: a fresh drawn torneio, mesa 1's first tap and the undo of the draw at once.
    A tap answered 200 is on its table and the draw stands (the undo refused); an undo that
    went through leaves no table and no tap (the tap refused, 404 or 409)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    outcomes: set[tuple[int, int]] = set()
    with running(database_url, tmp_path) as server:
        for _ in range(ROUNDS):
            token = drawn_torneio(app)
            organiser = Organiser(server.url, token)
            organiser.load()
            table = table_token(server.url, organiser.mesa_link(1))
            organiser.load()
            phone = Scorer(server.url)
            phone.open(table)
            tapped, undone = at_once(
                partial(phone.post, table, "marcar", 0, o="normal:0:1"),
                partial(organiser.post, "desfazer-sorteio"),
            )
            outcomes.add((tapped, undone))
            if tapped == 200:
                assert undone == 422 and taps_on(app, table) == 1 and is_drawn(app, token)
            else:
                assert tapped in (404, 409) and undone == 303
                assert taps_on(app, table) is None and not is_drawn(app, token)
    with app.app_context():
        db.engine.dispose()
    assert outcomes <= {(200, 422), (404, 303), (409, 303)}, outcomes


def test_a_swap_racing_the_first_tap_never_leaves_a_tapped_match_off_the_bracket(
    database_url: str, tmp_path: Path
) -> None:
    """Each round: mesa 1's first tap and a swap that changes its match's pairs, at once. A tap
    answered 200 is on its table, its match still the bracket's (the swap refused); a swap that
    went through took the untouched call back (the tap refused) and the mesa's link leads to
    the match as the bracket has it now."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    with running(database_url, tmp_path) as server:
        for _ in range(ROUNDS):
            token = drawn_torneio(app)
            organiser = Organiser(server.url, token)
            organiser.load()
            table = table_token(server.url, organiser.mesa_link(1))
            page = organiser.load()
            ids = re.findall(r'name="dupla" value="(\d+)"', page[page.index('data-key="1-0"') :])
            other = re.findall(r'name="dupla" value="(\d+)"', page[page.index('data-key="1-1"') :])
            assert ids and other
            phone = Scorer(server.url)
            phone.open(table)
            tapped, swapped = at_once(
                partial(phone.post, table, "marcar", 0, o="normal:0:1"),
                partial(organiser.post, "trocar", de=ids[0], para=other[0]),
            )
            after = organiser.load()
            assert 'data-testid="jogo-fora-da-chave"' not in after
            if tapped == 200:
                assert swapped == 422 and taps_on(app, table) == 1
            else:
                assert tapped in (404, 409) and swapped == 303
                assert taps_on(app, table) is None
                assert table_token(server.url, organiser.mesa_link(1)) != table
    with app.app_context():
        db.engine.dispose()
