"""Property: any sequence of legal taps, undos and redos keeps the board equal to the log's fold."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, HandRecord, Mesa
from scorekeeper.rules import Kind, Outcome, fold
from scorekeeper.tables.forms import outcome_code

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
            response = tap(client, token, outcome_code(legal[action % len(legal)]))
            assert response.status_code == 200
        after = revision(client, token)
        assert after == before + (1 if response.status_code == 200 else 0)
        assert response.status_code in (200, 422)
        state = active_state(app, token)
        shown = scores(response.text)
        assert shown == state.points
        assert all(0 <= p <= 12 for p in shown)
