"""Property: any sequence of legal taps, undos and redos keeps the board equal to the log's fold."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, HandRecord, Mesa
from scorekeeper.rules import Kind, Outcome, fold

from .helpers import open_table, post, revision, scores, tap

ACTIONS = st.lists(
    st.one_of(st.integers(min_value=0, max_value=40), st.sampled_from(["desfazer", "refazer"])),
    max_size=40,
)


def active_state(app: Flask, token: str):  # type: ignore[no-untyped-def]
    """The fold of the table's active records, read straight from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        active = db.session.execute(
            db.select(HandRecord)
            .filter_by(mesa_id=mesa.id, status=ACTIVE)
            .order_by(HandRecord.seq)
        ).scalars()
        return fold(mesa.match_config, [Outcome(Kind(r.kind), r.side, r.points) for r in active])


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS, series=st.sampled_from(["avulsas", "melhor_de_3"]))
def test_board_always_shows_the_fold_of_active_records(
    app: Flask, client: FlaskClient, actions: list[int | str], series: str
) -> None:
    """Shown score == fold of active records, never above 12; an accepted write adds 1 to rev."""
    token = open_table(client, serie=series)
    for action in actions:
        before = revision(client, token)
        if isinstance(action, str):
            response = post(client, token, action)
        else:
            legal = active_state(app, token).legal_outcomes()
            response = tap(client, token, legal[action % len(legal)].code)
            assert response.status_code == 200
        after = revision(client, token)
        assert after == before + (1 if response.status_code == 200 else 0)
        assert response.status_code in (200, 422)
        state = active_state(app, token)
        shown = scores(response.text)
        assert shown == state.points
        assert all(0 <= p <= 12 for p in shown)


def log_rows(app: Flask, token: str) -> list[tuple[int, str, int | None, int | None, str]]:
    """Every record of the table as (seq, kind, side, points, status), in order."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        ).scalars()
        return [(r.seq, r.kind, r.side, r.points, r.status) for r in rows]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    taps=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=30),
    data=st.data(),
)
def test_k_undos_then_k_redos_give_back_the_same_board_and_log(
    app: Flask, client: FlaskClient, taps: list[int], data: st.DataObject
) -> None:
    """Undo and redo are exact mirrors: after any taps, k undos and k redos restore the score,
    the phase, the series and every record's status."""
    token = open_table(client, serie="melhor_de_3")
    for pick in taps:
        legal = active_state(app, token).legal_outcomes()
        assert tap(client, token, legal[pick % len(legal)].code).status_code == 200
    before_state, before_log = active_state(app, token), log_rows(app, token)
    k = data.draw(st.integers(min_value=1, max_value=len(taps)), label="k")
    for _ in range(k):
        assert post(client, token, "desfazer").status_code == 200
    for _ in range(k):
        assert post(client, token, "refazer").status_code == 200
    assert active_state(app, token) == before_state
    assert log_rows(app, token) == before_log
