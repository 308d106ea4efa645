"""The bench's app (bench/wsgi.py): Tento's own app with the routes the bench measures it
against, which Tento's app never has."""

from __future__ import annotations

import uuid

from flask import Flask

from bench.wsgi import create_app as bench_app
from scorekeeper.extensions import db

from ..web.helpers import open_table, revision, scores, view_token


def test_the_bench_routes_are_in_the_bench_app_only(app: Flask) -> None:
    """/_bench/bare is a 404 in Tento's app and a 2 KB fragment in the bench's."""
    assert app.test_client().get("/_bench/bare").status_code == 404
    bench = bench_app({**app.config})
    response = bench.test_client().get("/_bench/bare")
    assert response.status_code == 200 and len(response.get_data()) == 2048
    with bench.app_context():
        db.engine.dispose()


def test_the_bench_write_floor_moves_a_current_revision_only(app: Flask) -> None:
    """/_bench/write/<token> (the bench app only) is one compare-and-swap on the revision: the
    current revision moves on by one and adds no record; a stale one gets 409, changes nothing."""
    assert app.test_client().post("/_bench/write/x", data={"rev": "0"}).status_code == 404
    bench = bench_app({**app.config})
    client = bench.test_client()
    token = open_table(client)
    assert client.post(f"/_bench/write/{token}", data={"rev": "0"}).status_code == 200
    assert revision(client, token) == 1
    stale = client.post(f"/_bench/write/{token}", data={"rev": "0"})
    assert stale.status_code == 409 and len(stale.get_data()) == 2048
    assert revision(client, token) == 1
    assert "Nenhuma mão" in client.get(f"/v/{view_token(bench, token)}").text
    with bench.app_context():
        db.engine.dispose()


def test_the_bench_tap_write_records_a_tap_once_and_answers_no_board(app: Flask) -> None:
    """/_bench/tap/<token> (the bench app only) writes a tap as the tap view does, once per client
    id, and answers the bare route's 2 KB instead of the board; a stale revision, a retried id or
    an illegal outcome gets 409 and changes nothing."""
    assert app.test_client().post("/_bench/tap/x", data={"rev": "0"}).status_code == 404
    bench = bench_app({**app.config})
    client = bench.test_client()
    token = open_table(client)
    c1, c2, c3 = (str(uuid.uuid4()) for _ in range(3))
    done = client.post(f"/_bench/tap/{token}", data={"rev": "0", "o": "normal:0:3", "cid": c1})
    assert done.status_code == 200 and len(done.get_data()) == 2048
    assert revision(client, token) == 1
    for refused in (
        {"rev": "0", "o": "normal:0:3", "cid": c2},  # stale
        {"rev": "1", "o": "normal:0:3", "cid": c1},  # the same tap sent again
        {"rev": "1", "o": "normal:0:2", "cid": c3},  # no hand is worth 2
    ):
        assert client.post(f"/_bench/tap/{token}", data=refused).status_code == 409
    assert revision(client, token) == 1
    assert scores(client.get(f"/m/{token}").text) == (3, 0)
    with bench.app_context():
        db.engine.dispose()
