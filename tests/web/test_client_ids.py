"""Every write carries a client-made id: a retry after a lost answer is never applied twice."""

from __future__ import annotations

import uuid

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa, MesaWrite

from .helpers import by_testid, open_table, post, revision, scores, tap


def count(app: Flask, model: type, token: str) -> int:
    """How many rows of `model` belong to the table with this scorer token."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(db.select(model).filter_by(mesa_id=mesa.id)).scalars()
        return len(list(rows))


def test_a_tap_sent_again_with_its_id_is_answered_with_the_board_and_not_counted_twice(
    app: Flask, client: FlaskClient
) -> None:
    """The answer to a tap was lost and the phone sent it again: 200, the same board, one
    record, the revision bumped once."""
    token = open_table(client)
    cid = str(uuid.uuid4())
    first = post(client, token, "marcar", rev=0, o="normal:0:3", cid=cid)
    again = post(client, token, "marcar", rev=0, o="normal:0:3", cid=cid)
    assert first.status_code == again.status_code == 200
    assert scores(again.text) == (3, 0)
    assert revision(client, token) == 1
    assert count(app, HandRecord, token) == 1
    assert count(app, MesaWrite, token) == 1


def test_a_repeat_after_another_phones_tap_is_still_recognised(
    app: Flask, client: FlaskClient
) -> None:
    """Another phone tapped between the lost answer and the retry: the retry is still the same
    tap (200, the current board), not a conflict and not a second count."""
    token = open_table(client)
    cid = str(uuid.uuid4())
    assert post(client, token, "marcar", rev=0, o="normal:0:1", cid=cid).status_code == 200
    assert tap(client, token, "normal:1:3").status_code == 200
    again = post(client, token, "marcar", rev=0, o="normal:0:1", cid=cid)
    assert again.status_code == 200
    assert scores(again.text) == (1, 3)
    assert by_testid(again.text, "mensagem") is None
    assert count(app, HandRecord, token) == 2


def test_a_new_id_on_an_old_revision_is_a_conflict_not_a_repeat(client: FlaskClient) -> None:
    """A different tap made on the board before another phone's tap still gets 409."""
    token = open_table(client)
    first = post(client, token, "marcar", rev=0, o="normal:0:1", cid=str(uuid.uuid4()))
    assert first.status_code == 200
    stale = post(client, token, "marcar", rev=0, o="normal:0:1", cid=str(uuid.uuid4()))
    assert stale.status_code == 409
    assert scores(stale.text) == (1, 0)


def test_undo_sent_again_with_its_id_undoes_once(app: Flask, client: FlaskClient) -> None:
    """Undo, redo and notes are writes too: a repeated undo takes back one step, not two."""
    token = open_table(client)
    tap(client, token, "normal:0:1")
    tap(client, token, "normal:0:3")
    cid = str(uuid.uuid4())
    assert scores(post(client, token, "desfazer", rev=2, cid=cid).text) == (1, 0)
    again = post(client, token, "desfazer", rev=2, cid=cid)
    assert again.status_code == 200
    assert scores(again.text) == (1, 0)
    assert revision(client, token) == 3


def test_the_same_id_on_two_tables_is_two_writes(app: Flask, client: FlaskClient) -> None:
    """Client ids are unique per table: another table's id does not block this one."""
    cid = str(uuid.uuid4())
    first, second = open_table(client), open_table(client)
    assert post(client, first, "marcar", rev=0, o="normal:0:1", cid=cid).status_code == 200
    assert post(client, second, "marcar", rev=0, o="normal:1:1", cid=cid).status_code == 200
    assert scores(client.get(f"/m/{second}").text) == (0, 1)


def test_a_malformed_client_id_is_refused_in_portuguese_and_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """An id that is no UUID gets 422 with a pt-BR message; nothing is recorded."""
    token = open_table(client)
    refused = post(client, token, "marcar", rev=0, o="normal:0:1", cid="x" * 300)
    assert refused.status_code == 422
    assert "recarregue a página" in (by_testid(refused.text, "mensagem") or "")
    assert count(app, HandRecord, token) == 0
    assert revision(client, token) == 0


def test_a_refused_write_journals_nothing_so_its_retry_is_judged_again(
    app: Flask, client: FlaskClient
) -> None:
    """An illegal tap (422) is not journaled: sent again it is refused again, not 'applied'."""
    token = open_table(client)
    tap(client, token, "normal:0:12")
    cid = str(uuid.uuid4())
    for _ in range(2):
        refused = post(client, token, "marcar", rev=1, o="normal:0:3", cid=cid)
        assert refused.status_code == 422
    assert count(app, MesaWrite, token) == 0
