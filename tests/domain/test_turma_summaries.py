"""A table's summary for its turma's statistics, brought up to date from a checkpoint: after any
writes it equals the fold of every active record, and after a tap it reads as much on a table of
thousands of records as on a short one."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, select, update

from scorekeeper.domain.mesa import service
from scorekeeper.domain.mesa.words import NOTES
from scorekeeper.domain.turma import mesa_summary, stored_summaries
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, ENTRY_COLUMNS, HandRecord, Mesa, MesaSummary, entry, utcnow
from scorekeeper.rules import Kind, MatchState, Outcome, RulesError

from ..profiles import examples
from ..web.helpers import counting_rows, counting_statements

_RECORDS = HandRecord.__table__


def fresh(mesa_id: int) -> Mesa:
    """The table as it is now (its revision moved on by writes on their own connections)."""
    db.session.rollback()
    mesa = db.session.get(Mesa, mesa_id)
    assert mesa is not None
    return mesa


def cold(mesa: Mesa) -> dict[str, Any]:
    """The table's summary folded from every active record, as a first read makes it."""
    query = (
        select(*ENTRY_COLUMNS)
        .where(_RECORDS.c.mesa_id == mesa.id, _RECORDS.c.status == ACTIVE)
        .order_by(_RECORDS.c.seq)
    )
    return mesa_summary.summarize(mesa, [entry(row) for row in db.session.execute(query)])


def stored(mesa: Mesa) -> Any:
    """The table's stored summary row, if any."""
    table = MesaSummary.__table__
    return db.session.execute(select(table).where(table.c.mesa_id == mesa.id)).first()


def shown(summary: dict[str, Any]) -> dict[str, Any]:
    """What a summary says of the table, without its checkpoints."""
    return {key: value for key, value in summary.items() if key != "marks"}


def domain_tap(mesa: Mesa, outcome: Outcome, reason: str | None = None) -> None:
    """Record an outcome on the table, as the tap (or correction) view does."""
    service.record_outcome(mesa.edit_token, mesa.revision, outcome, reason)


def note_newest(mesa: Mesa, choice: int) -> None:
    """Note how the newest active record ended, when it is a normal hand."""
    last = service.read_board(mesa).last
    if last is None or last.kind != Kind.NORMAL.value:
        raise RulesError("no normal hand to note")
    codes = [code for code, _ in NOTES[last.points or 0]]
    service.set_note(mesa.edit_token, mesa.revision, last.id, codes[choice % len(codes)])


def write(mesa: Mesa, kind: str, args: list[Any]) -> None:
    """One write of a step of the property test below, or the summary stored."""
    if kind == "marcar":
        legal = service.read_board(mesa).state.legal_outcomes()
        domain_tap(mesa, legal[args[0] % len(legal)])
    elif kind == "corrigir":
        domain_tap(mesa, Outcome(Kind.CORRECAO, args[0], args[1]), "teste")
    elif kind == "nota":
        note_newest(mesa, args[0])
    elif kind == "desfazer":
        service.undo(mesa.edit_token, mesa.revision)
    elif kind == "refazer":
        service.redo(mesa.edit_token, mesa.revision)
    else:
        stored_summaries.summaries([mesa])


def act(mesa_id: int, action: tuple[Any, ...]) -> None:
    """Apply one step of the property test below to the table (undos and redos come a few at a
    time, and 'nota_abaixo' notes an older hand: undos, a note, the redos); a write refused
    changes nothing and ends the step."""
    kind, *args = action
    if kind == "nota_abaixo":
        depth, choice = args
        for step in (("desfazer", depth), ("nota", choice), ("refazer", depth)):
            act(mesa_id, step)
        return
    for _ in range(args[0] if kind in ("desfazer", "refazer") else 1):
        try:
            write(fresh(mesa_id), kind, args)
        except RulesError:
            return


TAPS = st.tuples(st.just("marcar"), st.integers(0, 40))
STEPS = st.lists(
    st.one_of(
        TAPS,
        TAPS,
        st.tuples(st.just("resumo")),
        st.tuples(st.just("resumo")),
        st.tuples(st.just("desfazer"), st.integers(1, 6)),
        st.tuples(st.just("refazer"), st.integers(1, 6)),
        st.tuples(st.just("nota"), st.integers(0, 1)),
        st.tuples(st.just("nota_abaixo"), st.integers(1, 6), st.integers(0, 1)),
        st.tuples(st.just("nota_abaixo"), st.integers(1, 6), st.integers(0, 1)),
        st.tuples(st.just("corrigir"), st.integers(0, 1), st.integers(0, 11)),
    ),
    min_size=5,
    max_size=40,
)


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@example(  # a note on the hand below the shallowest checkpoint, made between undo and redo
    opening=[("marcar", 0)] * 5, steps=[("resumo",), ("nota_abaixo", 2, 1)], best_of=0
)
@given(
    opening=st.lists(TAPS, min_size=2, max_size=30),
    steps=STEPS,
    best_of=st.sampled_from([0, 3]),
)
def test_a_summary_brought_up_to_date_equals_the_fold_of_every_active_record(
    app: Flask,
    monkeypatch: pytest.MonkeyPatch,
    opening: list[tuple[Any, ...]],
    steps: list[tuple[Any, ...]],
    best_of: int,
) -> None:
    """After any taps, next-game markers, corrections, undos, redos, notes on the newest active
    record (also between undos and their redos) and summaries stored on the way, the summary
    brought up to date from the stored one equals the fold of every active record."""
    monkeypatch.setattr(stored_summaries, "MARGIN", 2)  # checkpoints among a few dozen records
    with app.app_context():
        mesa_id = service.open_table({"players": 2, "best_of": best_of}).id
        for action in [*opening, ("resumo",), *steps]:
            act(mesa_id, action)
            mesa = fresh(mesa_id)
            assert shown(stored_summaries.refreshed(mesa, stored(mesa))) == shown(cold(mesa))


def test_a_note_made_between_undos_and_their_redos_is_counted(app: Flask) -> None:
    """Undoing down to the first hand, past every checkpoint, noting a run from truco on it and
    redoing everything leaves every checkpoint active with its note: the summary counts the run
    all the same (more writes were made than any checkpoint was deep)."""
    with app.app_context():
        mesa_id = service.open_table({"players": 2}).id
        above = stored_summaries.MARGIN + 8
        domain_tap(fresh(mesa_id), Outcome(Kind.NORMAL, 0, 1))
        for _ in range(above):
            domain_tap(fresh(mesa_id), Outcome.parse("anulada"))
        stored_summaries.summaries([fresh(mesa_id)])
        act(mesa_id, ("desfazer", above))
        note_newest(fresh(mesa_id), 1)  # correram_truco: side 1 ran
        act(mesa_id, ("refazer", above))
        summary = stored_summaries.summaries([fresh(mesa_id)])[mesa_id]
        assert summary["ran"] == [0, 1]
        assert shown(summary) == shown(cold(fresh(mesa_id)))


def filled(count: int) -> int:
    """A table of `count` records (hands, games won and next-game markers) inserted straight
    into the database with their stored states, as that many taps leave it; its id."""
    mesa = service.open_table({"players": 2})
    state = MatchState(mesa.match_config)
    rows = []
    for seq in range(1, count + 1):
        legal = state.legal_outcomes()
        outcome = legal[seq * 7 % len(legal)]
        state = state.apply(outcome)
        rows.append(
            {
                "mesa_id": mesa.id,
                "seq": seq,
                "kind": outcome.kind.value,
                "side": outcome.side,
                "points": outcome.points,
                "status": ACTIVE,
                "score_a": state.points[0],
                "score_b": state.points[1],
                "created_at": utcnow(),
                "state": state.snapshot(),
            }
        )
    with db.engine.begin() as connection:
        connection.execute(insert(_RECORDS), rows)
        connection.execute(update(Mesa.__table__).where(Mesa.id == mesa.id).values(revision=count))
    return mesa.id


def reads_after_taps(app: Flask, count: int, taps: int) -> tuple[int, int]:
    """The SQL statements and the rows the database sends back when a table of `count` records,
    its summary stored, has `taps` more taps and its summary is brought up to date and stored."""
    with app.app_context():
        mesa_id = filled(count)
        stored_summaries.summaries([fresh(mesa_id)])
        for _ in range(taps):
            mesa = fresh(mesa_id)
            domain_tap(mesa, service.read_board(mesa).state.legal_outcomes()[0])
        mesa = fresh(mesa_id)
        db.session.close()  # the next statements check a connection out, counted
        statements: list[str] = []
        rows: list[int] = []
        with counting_statements(db.engine, None, statements), counting_rows(db.engine, rows):
            summary = stored_summaries.summaries([mesa])[mesa_id]
        assert shown(summary) == shown(cold(fresh(mesa_id)))
        return len(statements), len(rows)


def test_a_summary_after_a_tap_reads_as_much_on_a_long_table_as_on_a_short_one(
    app: Flask,
) -> None:
    """One tap on a table of 3,000 records: bringing its summary up to date sends the same SQL
    statements and gets the same number of rows back as on a table of 100, under a hundred:
    it reads the records after a checkpoint, never the whole table."""
    short, long = reads_after_taps(app, 100, 1), reads_after_taps(app, 3000, 1)
    assert long == short
    statements, rows = long
    assert statements <= 3 and rows < 100


def test_a_summary_after_many_taps_reads_in_proportion_to_them(app: Flask) -> None:
    """A hundred taps on a table of 3,000 records since its summary was stored: bringing it up
    to date reads at most three rows a tap (from a checkpoint deeper than a hundred records
    and at most about twice as deep), not the whole table."""
    statements, rows = reads_after_taps(app, 3000, 100)
    assert statements <= 3 and rows <= 3 * 100 + 1  # and the stored summary's row
