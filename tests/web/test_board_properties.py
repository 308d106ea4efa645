"""Property: any sequence of legal taps, undos and redos keeps the board equal to the log's fold.

The properties drive the tables' domain (record_outcome, undo, redo), each step as its request
does it: the board read for its revision, then the write, each in an app context of its own. A
fixed sequence beside each drives the same steps through the routes, and checks that the pages
answer and show what the domain holds."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.mesa import Board, service
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, HandRecord, Mesa
from scorekeeper.rules import BEST_OF, Kind, MatchState, Outcome, fold

from ..profiles import examples
from .helpers import Action, domain_step, open_table, post, revision, scores, tap

ACTIONS = st.lists(
    st.one_of(st.integers(min_value=0, max_value=40), st.sampled_from(["desfazer", "refazer"])),
    max_size=40,
)
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def active_state(app: Flask, token: str) -> MatchState:
    """The fold of the table's active records, read straight from the database."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        active = db.session.execute(
            db.select(HandRecord)
            .filter_by(mesa_id=mesa.id, status=ACTIVE)
            .order_by(HandRecord.seq)
        ).scalars()
        return fold(mesa.match_config, [Outcome(Kind(r.kind), r.side, r.points) for r in active])


def log_rows(app: Flask, token: str) -> list[tuple[int, str, int | None, int | None, str]]:
    """Every record of the table as (seq, kind, side, points, status), in order."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        ).scalars()
        return [(r.seq, r.kind, r.side, r.points, r.status) for r in rows]


# --- through the domain -----------------------------------------------------------------------


def new_table(app: Flask, series: str) -> str:
    """Open a table of this series (the form's name for it); its scorer token."""
    with app.app_context():
        return service.open_table({"best_of": BEST_OF.spelled(series)}).edit_token


def board(app: Flask, token: str) -> Board:
    """The board as the board page reads it."""
    with app.app_context():
        return service.scorer_board(token)


@settings(PROPERTY, max_examples=examples(40))
@given(actions=ACTIONS, series=st.sampled_from(["avulsas", "melhor_de_3"]))
def test_the_board_always_holds_the_fold_of_active_records(
    app: Flask, actions: list[Action], series: str
) -> None:
    """After every step the board a write answers with (or, refused, the board read again)
    holds the fold of the active records, never above 12; an accepted write adds 1 to the
    revision, a refused one changes nothing; a tap is never refused."""
    token = new_table(app, series)
    read = board(app, token)
    for action in actions:
        written = domain_step(app, read, action)
        assert written is not None or isinstance(action, str)
        now = board(app, token)
        assert now.mesa.revision == read.mesa.revision + (1 if written is not None else 0)
        state = active_state(app, token)
        shown = written.board if written is not None else now
        assert shown.state == state and now.state == state
        assert all(0 <= p <= 12 for p in shown.state.points)
        read = now


@settings(PROPERTY, max_examples=examples(30))
@given(
    taps=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=30),
    data=st.data(),
)
def test_k_undos_then_k_redos_give_back_the_same_board_and_log(
    app: Flask, taps: list[int], data: st.DataObject
) -> None:
    """Undo and redo are exact mirrors: after any taps, k undos and k redos restore the score,
    the phase, the series and every record's status."""
    token = new_table(app, "melhor_de_3")
    for pick in taps:
        assert domain_step(app, board(app, token), pick) is not None
    before_state, before_log = active_state(app, token), log_rows(app, token)
    k = data.draw(st.integers(min_value=1, max_value=len(taps)), label="k")
    for route in ["desfazer"] * k + ["refazer"] * k:
        assert domain_step(app, board(app, token), route) is not None
    assert active_state(app, token) == before_state
    assert log_rows(app, token) == before_log


# --- the same steps through the routes ---------------------------------------------------------

# Nothing to undo (refused), taps, undos and redos, nothing left to redo (refused), a tap that
# discards what was undone.
STEPS: list[Action] = ["desfazer", 0, 7, 3, "desfazer", "desfazer", "refazer", "refazer"]
STEPS += ["refazer", 12, "desfazer", 5, "refazer"]


def test_the_board_page_shows_the_fold_of_active_records_after_each_route(
    app: Flask, client: FlaskClient
) -> None:
    """Through the routes: every answer shows the fold of the active records, an accepted
    write (200) adds 1 to the revision, a refused one (422) changes nothing."""
    token = open_table(client, serie="melhor_de_3")
    statuses = []
    for action in STEPS:
        before = revision(client, token)
        if isinstance(action, str):
            response = post(client, token, action)
        else:
            legal = active_state(app, token).legal_outcomes()
            response = tap(client, token, legal[action % len(legal)].code)
        statuses.append(response.status_code)
        after = revision(client, token)
        assert after == before + (1 if response.status_code == 200 else 0)
        assert scores(response.text) == active_state(app, token).points
        assert scores(client.get(f"/m/{token}").text) == active_state(app, token).points
    assert statuses == [422, *[200] * 7, 422, 200, 200, 200, 422]


def test_two_undos_then_two_redos_through_the_routes_give_back_the_board_and_log(
    app: Flask, client: FlaskClient
) -> None:
    """Through the routes: after taps, two undos and two redos restore the score and the log."""
    token = open_table(client, serie="melhor_de_3")
    for pick in (0, 9, 4, 21):
        legal = active_state(app, token).legal_outcomes()
        assert tap(client, token, legal[pick % len(legal)].code).status_code == 200
    before_state, before_log = active_state(app, token), log_rows(app, token)
    shown = scores(client.get(f"/m/{token}").text)
    for route in ("desfazer", "desfazer", "refazer", "refazer"):
        assert post(client, token, route).status_code == 200
    assert active_state(app, token) == before_state
    assert log_rows(app, token) == before_log
    assert scores(client.get(f"/m/{token}").text) == shown == before_state.points
