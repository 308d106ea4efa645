"""Cost that does not grow with the table's history: every record keeps the state after it (a
checkpoint), the board reads only its newest records, the history is paginated, and a table
holds at most 20,000 records."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import caches
from scorekeeper.domain.mesa import board, reading, service
from scorekeeper.extensions import db
from scorekeeper.rules import BEST_OF

from ..profiles import examples
from .helpers import (
    Action,
    boards,
    by_testid,
    counting_statements,
    domain_step,
    kept_board,
    open_table,
    post,
    revision,
    same,
    scores,
    second_worker,
    tap,
)

ACTIONS = st.lists(
    st.one_of(
        st.integers(min_value=0, max_value=40),
        st.sampled_from(["desfazer", "refazer"]),
        st.tuples(st.sampled_from([0, 1]), st.integers(min_value=0, max_value=11)),
    ),
    max_size=35,
)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS, series=st.sampled_from(["avulsas", "melhor_de_3"]))
def test_the_checkpointed_board_equals_the_full_fold_after_every_step(
    app: Flask, actions: list[Action], series: str
) -> None:
    """For any sequence of legal taps, undos, redos and corrections, the board read from the
    stored states (state, last record, log, numbers, chart, redo), the board the last write
    kept and the one it answered with all equal the fold of the whole log, after every step."""
    with app.app_context():
        token = service.open_table({"best_of": BEST_OF.spelled(series)}).edit_token
    checkpointed, _ = boards(app, token)
    for action in actions:
        written = domain_step(app, checkpointed, action)
        checkpointed, folded = boards(app, token)
        kept = kept_board(app, token)
        assert checkpointed == folded
        assert written is None or same(written.board, folded)
        assert same(kept, folded) or (kept is None and isinstance(action, (str, tuple)))


def route_step(app: Flask, client: FlaskClient, token: str, action: Action) -> int:
    """One step through its route; the answer's status."""
    if isinstance(action, str):
        return post(client, token, action).status_code
    if isinstance(action, tuple):
        side, points = action
        form = {"lado": str(side), "pontos": str(points), "motivo": "teste"}
        return post(client, token, "corrigir", **form).status_code
    legal = boards(app, token)[0].state.legal_outcomes()
    return tap(client, token, legal[action % len(legal)].code).status_code


def test_the_board_stays_equal_to_the_full_fold_through_the_routes(
    app: Flask, client: FlaskClient
) -> None:
    """Through the routes, taps, undos, redos and corrections (some refused) leave the stored
    board, the kept one and the page equal to the fold of the whole log after every step."""
    token = open_table(client, serie="melhor_de_3")
    steps: list[Action] = ["refazer", 3, (1, 5), "desfazer", "refazer", 0, (0, 11), 2]
    steps += ["desfazer", "desfazer", 6, "refazer", (1, 40)]
    statuses = []
    for action in steps:
        statuses.append(route_step(app, client, token, action))
        checkpointed, folded = boards(app, token)
        assert checkpointed == folded
        kept = kept_board(app, token)
        assert same(kept, folded) or (kept is None and isinstance(action, (str, tuple)))
        assert scores(client.get(f"/m/{token}").text) == folded.state.points
    assert statuses == [422, *[200] * 10, 422, 422]


def test_undo_and_redo_across_a_next_game_marker_read_the_stored_states(
    app: Flask, client: FlaskClient
) -> None:
    """Undoing 'Próxima partida' and redoing it move between the finished game and the new one,
    the board always equal to the full fold."""
    token = open_table(client)
    for code in ("normal:0:12", "proxima_partida", "normal:1:3"):
        assert tap(client, token, code).status_code == 200
    for route, want in (("desfazer", (0, 0)), ("desfazer", (12, 0)), ("refazer", (0, 0))):
        assert scores(post(client, token, route).text) == want
        checkpointed, folded = boards(app, token)
        assert checkpointed == folded


def test_a_game_longer_than_the_chart_draws_its_newest_hands(
    app: Flask, client: FlaskClient
) -> None:
    """A game with more hands than the chart's 30 draws its newest 30 (from the score before
    them), says so, and the board stays equal to the full fold."""
    token = open_table(client)
    for code in ("normal:0:12", "proxima_partida", "normal:0:1", *["anulada"] * 28):
        assert tap(client, token, code).status_code == 200
    checkpointed, folded = boards(app, token)
    assert checkpointed == folded and checkpointed.game[0] == (0, 0)
    assert len(checkpointed.game) == board.CHART_HANDS  # the game's start and 29 hands
    assert "· 29 mãos</figcaption>" in client.get(f"/m/{token}").text
    for code in ("normal:1:3", "anulada", "anulada"):
        assert tap(client, token, code).status_code == 200
    checkpointed, folded = boards(app, token)
    assert checkpointed == folded
    assert len(checkpointed.game) == board.CHART_HANDS + 1  # 30 hands from the one before
    assert checkpointed.game[0] == (1, 0) and checkpointed.game[-1] == (1, 3)
    html = client.get(f"/m/{token}").text
    assert "· últimas 30 mãos</figcaption>" in html
    assert '<polyline points="0,88 ' in html  # starts at 1 point, not at 0 x 0



def test_a_record_another_worker_undid_or_noted_shows_as_it_is_now(
    app: Flask, client: FlaskClient
) -> None:
    """A board takes what never changes in a record from its app's cache, and its status and
    note from the database: what another server process changed shows at once."""
    token = open_table(client)
    for code in ("normal:1:1", "normal:0:3"):
        assert tap(client, token, code).status_code == 200
    assert "desfeito" not in client.get(f"/m/{token}").text  # both records cached here
    other = second_worker(app).test_client()
    assert post(other, token, "desfazer").status_code == 200
    html = client.get(f"/m/{token}").text
    assert scores(html) == (0, 1) and "(desfeito)" in html
    assert post(other, token, "refazer").status_code == 200
    newest = boards(app, token)[0].recent[0]
    assert post(other, token, "nota", registro=str(newest.id), nota="truco").status_code == 200
    checkpointed, folded = boards(app, token)
    assert checkpointed == folded and checkpointed.recent[0].note == "truco"
    html = client.get(f"/m/{token}").text
    assert scores(html) == (3, 1) and "truco aceito" in html


def test_a_write_on_the_board_its_app_kept_reads_no_record(
    app: Flask, client: FlaskClient
) -> None:
    """A committed write keeps the board it leaves: the next write in the same app claims the
    revision and writes without reading the table's records, the board page too. A write from
    another app moves the revision on, so the kept board is not used again, and every board
    stays equal to the full fold."""
    token = open_table(client)
    assert tap(client, token, "normal:0:3").status_code == 200
    sent: list[str] = []
    with app.app_context(), counting_statements(db.engine, None, sent):
        assert tap(client, token, "normal:1:1").status_code == 200
        assert scores(client.get(f"/m/{token}").text) == (3, 1)
    reads = [s for s in sent if "FROM hand_record" in s]
    assert sent and not reads, sent
    assert same(kept_board(app, token), boards(app, token)[1])
    assert post(second_worker(app).test_client(), token, "desfazer").status_code == 200
    assert kept_board(app, token) is None  # kept at the revision before the other app's undo
    sent.clear()
    with app.app_context(), counting_statements(db.engine, None, sent):
        assert scores(tap(client, token, "normal:0:6").text) == (9, 0)
    assert [s for s in sent if "FROM hand_record" in s], sent
    checkpointed, folded = boards(app, token)
    assert checkpointed == folded and same(kept_board(app, token), folded)


def test_the_kept_boards_are_bounded(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An app keeps the boards of at most its cache's bound of tables, the most recently used."""
    monkeypatch.setattr(caches, "BOARDS", replace(caches.BOARDS, bound=2))
    tokens = [open_table(client) for _ in range(3)]
    for token in tokens[:2]:
        assert tap(client, token, "normal:0:1").status_code == 200
    assert client.get(f"/m/{tokens[0]}").status_code == 200  # the first is used again
    assert tap(client, tokens[2], "normal:1:1").status_code == 200  # the second goes
    with app.app_context():
        assert len(caches.store(caches.BOARDS)) == 2
    assert kept_board(app, tokens[1]) is None
    assert kept_board(app, tokens[0]) is not None and kept_board(app, tokens[2]) is not None


def test_a_table_refuses_records_past_its_limit_in_portuguese(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the limit (20,000 records; 3 here) a new record is refused with a pt-BR message
    and nothing changes; undo still works."""
    monkeypatch.setattr(service, "MAX_RECORDS", 3)
    token = open_table(client)
    for _ in range(3):
        assert tap(client, token, "anulada").status_code == 200
    refused = tap(client, token, "normal:0:1")
    assert refused.status_code == 422
    assert "limite" in (by_testid(refused.text, "mensagem") or "")
    assert revision(client, token) == 3
    assert post(client, token, "desfazer").status_code == 200


def test_the_history_is_paginated_and_numbers_every_page(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole log comes a page at a time (newest first), each page numbering its hands
    'partida.mão' as the board does, and the last page links no further."""
    monkeypatch.setattr(reading, "HISTORY_PAGE", 4)
    token = open_table(client)
    for _ in range(10):
        assert tap(client, token, "anulada").status_code == 200
    numbers: list[str] = []
    url: str | None = f"/m/{token}/historico"
    pages = 0
    while url:
        html = client.get(url).text
        numbers += re.findall(r'<span class="num">([^<]*)</span>', html)
        older = re.search(r'href="([^"]+)" data-testid="historico-anteriores"', html)
        url = older.group(1).replace("&amp;", "&") if older else None
        pages += 1
    assert pages == 3
    assert numbers == [f"1.{n}" for n in range(10, 0, -1)]


def test_a_huge_or_odd_history_cursor_is_a_page_not_an_error(client: FlaskClient) -> None:
    """?antes= beyond 32 bits, negative or not a number: the newest page, never a 500."""
    token = open_table(client)
    tap(client, token, "normal:0:1")
    for cursor in ("9" * 30, "-5", "x"):
        response = client.get(f"/m/{token}/historico?antes={cursor}")
        assert response.status_code == 200
