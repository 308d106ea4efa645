"""No write ever touches another table: a rolled-back write leaves nothing in any app's caches,
record ids are never reused, and a client id names one write for good (sent again, it is a
retry; sent with another write, it is refused). Two apps on one database stand for two server
processes, each with its own caches."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.mesa import board_of, load_board, words
from scorekeeper.extensions import db
from scorekeeper.models import ENTRY_COLUMNS, HandRecord, Mesa, MesaWrite, entry

from ..profiles import examples
from .helpers import by_testid, open_table, post, revision, scores, second_worker


@contextmanager
def context(app: Flask) -> Iterator[None]:
    """An app context whose connections are closed on the way out."""
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()


def shown(app: Flask, token: str):  # type: ignore[no-untyped-def]
    """The table's board as `app` serves it now (from its caches where it has them)."""
    with context(app):
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        return load_board(mesa)


def folded(app: Flask, token: str):  # type: ignore[no-untyped-def]
    """The table's board as the fold of every stored record gives it (no cache involved)."""
    with context(app):
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(*ENTRY_COLUMNS).where(HandRecord.mesa_id == mesa.id).order_by(HandRecord.seq)
        )
        return board_of(mesa, [entry(row) for row in rows])


def same_board(app: Flask, token: str) -> bool:
    """True when `app` serves exactly the board the stored records fold to."""
    served, truth = shown(app, token), folded(app, token)
    return replace(served, mesa=truth.mesa) == truth


def test_a_replayed_client_id_never_shows_on_another_table(app: Flask) -> None:
    """The attack: on worker A, a tap on table 1, then its client id again with another tap at
    the newer revision (refused); worker B taps table 2. Worker A still shows table 2 exactly as
    stored, and its next tap there stores the true score."""
    worker_a, worker_b = app.test_client(), second_worker(app).test_client()
    first, second = open_table(worker_a), open_table(worker_b)
    cid = str(uuid.uuid4())
    assert post(worker_a, first, "marcar", rev=0, o="normal:0:3", cid=cid).status_code == 200
    replayed = post(worker_a, first, "marcar", rev=1, o="normal:0:1", cid=cid)
    assert scores(post(worker_b, second, "marcar", rev=0, o="normal:1:3").text) == (0, 3)
    assert scores(worker_a.get(f"/m/{second}").text) == (0, 3)
    assert scores(post(worker_a, second, "marcar", rev=1, o="normal:1:1").text) == (0, 4)
    for worker in (app, second_worker(app)):
        assert same_board(worker, first) and same_board(worker, second)
    assert scores(worker_b.get(f"/m/{second}").text) == (0, 4)
    assert replayed.status_code == 422 and scores(worker_a.get(f"/m/{first}").text) == (3, 0)


def record_ids(app: Flask) -> list[int]:
    """Every stored record's id, in the order they were made."""
    with context(app):
        return list(db.session.execute(db.select(HandRecord.id).order_by(HandRecord.id)).scalars())


def test_a_deleted_records_id_is_never_given_again(app: Flask) -> None:
    """Ids of stored records are never reused: with the newest record deleted (by hand, as no
    page deletes one), the next record, on any table, gets a new id. (SQLite without
    AUTOINCREMENT would hand out the deleted one again, to a cache that still knows it.)"""
    client = app.test_client()
    first, second = open_table(client), open_table(client)
    post(client, first, "marcar", rev=0, o="normal:0:3")
    post(client, first, "marcar", rev=1, o="normal:0:1")
    kept, deleted = record_ids(app)
    with context(app):
        db.session.execute(db.delete(HandRecord).where(HandRecord.id == deleted))
        db.session.commit()
    post(client, second, "marcar", rev=0, o="normal:1:1")
    assert record_ids(app)[0] == kept and record_ids(app)[-1] > deleted


def journal_rows(app: Flask, token: str) -> int:
    """How many writes the table journaled."""
    with context(app):
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        found = db.session.execute(db.select(MesaWrite).filter_by(mesa_id=mesa.id)).scalars()
        return len(list(found))


@pytest.mark.parametrize(
    ("route", "first", "other"),
    [
        ("marcar", {"o": "normal:0:3"}, {"o": "normal:1:3"}),
        ("marcar", {"o": "normal:0:3"}, {"o": "normal:0:1"}),
        ("desfazer", {}, {"rota": "refazer"}),
        ("corrigir", {"lado": "0", "pontos": "5", "motivo": "a"}, {"lado": "0", "pontos": "5"}),
    ],
)
def test_a_client_id_reused_for_another_write_is_refused_and_changes_nothing(
    app: Flask, client: FlaskClient, route: str, first: dict[str, str], other: dict[str, str]
) -> None:
    """The same client id with a different write (another outcome, another route, another
    reason) is a client's bug, not a retry: a pt-BR 422, the board unchanged."""
    token = open_table(client)
    post(client, token, "marcar", rev=0, o="normal:1:1")
    cid = str(uuid.uuid4())
    assert post(client, token, route, rev=1, cid=cid, **first).status_code == 200
    before = scores(client.get(f"/m/{token}").text)
    other = {"motivo": "b", **other} if route == "corrigir" else dict(other)
    other_route = other.pop("rota", route)
    refused = post(client, token, other_route, rev=2, cid=cid, **other)
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == words.REUSED_MESSAGE
    assert scores(client.get(f"/m/{token}").text) == before
    assert revision(client, token) == 2 and journal_rows(app, token) == 1


def test_the_same_write_sent_again_at_a_newer_revision_is_still_a_retry(
    app: Flask, client: FlaskClient
) -> None:
    """A tap whose answer was lost, sent again with the board's newer revision (the phone saw
    the board move meanwhile): answered as a retry, 200 with no message, counted once."""
    token = open_table(client)
    cid = str(uuid.uuid4())
    assert post(client, token, "marcar", rev=0, o="normal:0:3", cid=cid).status_code == 200
    again = post(client, token, "marcar", rev=1, o="normal:0:3", cid=cid)
    assert again.status_code == 200 and by_testid(again.text, "mensagem") is None
    assert scores(again.text) == (3, 0) and revision(client, token) == 1


# --- Property: replays interleaved with ordinary writes, on two workers -----------------------

STEP = st.tuples(
    st.sampled_from([0, 1]),  # the worker
    st.sampled_from([0, 1]),  # the table
    st.sampled_from(["tap", "same", "other", "stale", "desfazer", "refazer", "nota"]),
    st.integers(0, 40),
)


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(STEP, min_size=1, max_size=20))
def test_two_workers_serve_every_table_as_stored_whatever_is_replayed(
    app: Flask, steps: list[tuple[int, int, str, int]]
) -> None:
    """Any sequence of taps, undos, redos, notes, stale writes and client ids sent again (with
    the same write or another) on two workers: after every step both workers serve every table
    exactly as its stored records fold, and a fresh worker agrees."""
    workers = [app, second_worker(app)]
    clients = [worker.test_client() for worker in workers]
    tables = [open_table(clients[0]), open_table(clients[0])]
    used: list[tuple[str, str, str]] = []  # (table, client id, outcome) of applied taps
    for worker, table, kind, pick in steps:
        client, token = clients[worker], tables[table]
        board = shown(workers[worker], token)
        legal = [o.code for o in board.state.legal_outcomes()] or ["anulada"]
        code = legal[pick % len(legal)]
        if kind in ("same", "other") and used:
            old_table, cid, old_code = used[pick % len(used)]
            sent = old_code if kind == "same" else ("anulada" if old_code != "anulada" else code)
            post(client, old_table, "marcar", o=sent, cid=cid)
        elif kind == "stale":
            post(client, token, "marcar", rev=max(board.mesa.revision - 1, 0), o=code)
        elif kind in ("desfazer", "refazer"):
            post(client, token, kind, cid=str(uuid.uuid4()))
        elif kind == "nota" and board.last is not None:
            post(client, token, "nota", registro=str(board.last.id), nota="truco")
        else:
            cid = str(uuid.uuid4())
            if post(client, token, "marcar", o=code, cid=cid).status_code == 200:
                used.append((token, cid, code))
        for every in (*workers, second_worker(app)):
            assert all(same_board(every, t) for t in tables)
