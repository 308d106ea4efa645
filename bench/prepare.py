"""The bench's throw-away database: the schema, default tables, tables with a long history, and
the tables files that the wrk scripts read ("edit view revision" per line, fresh revisions)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, insert, literal, select, text

from scorekeeper.domain.mesa import new_token
from scorekeeper.models import ACTIVE, HandRecord, Mesa, utcnow
from scorekeeper.rules import Kind, MatchConfig, MatchState, Outcome, Phase

# One game of a long evening, 20 records: +1 for each side in turn up to 8 x 8, a void hand, a
# truco for side 0 (11 x 8), the mão de onze played and won (12: the game is over), the next
# game. Every record is legal where it stands and the table never reaches the end of a series.
GAME = (
    *(Outcome(Kind.NORMAL, n % 2, 1) for n in range(16)),
    Outcome(Kind.ANULADA),
    Outcome(Kind.NORMAL, 0, 3),
    Outcome(Kind.ONZE_GANHOU, 0),
    Outcome(Kind.PROXIMA_PARTIDA),
)
_OVER = (Phase.GAME_OVER, Phase.SERIES_OVER)
_RECORDS = HandRecord.__table__
_MESAS = Mesa.__table__


def migrate(database_url: str, env: dict[str, str]) -> None:
    """`flask db upgrade` on the bench database, as a deployment does."""
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip


@contextmanager
def engine_of(database_url: str) -> Iterator[Engine]:
    """A plain engine on the bench database for the time of a with block."""
    engine = create_engine(database_url)
    try:
        yield engine
    finally:
        engine.dispose()


def new_tables(engine: Engine, count: int, revision: int = 0) -> list[int]:
    """`count` default tables (their settings are the models' defaults) at `revision`: their ids."""
    rows = [
        {"edit_token": new_token(), "view_token": new_token(), "revision": revision}
        for _ in range(count)
    ]
    with engine.begin() as connection:
        connection.execute(insert(_MESAS), rows)
        tokens = [row["edit_token"] for row in rows]
        found = connection.execute(select(_MESAS.c.id).where(_MESAS.c.edit_token.in_(tokens)))
        return sorted(found.scalars())


def history(count: int) -> list[Outcome]:
    """`count` legal records, game after game; the last one never ends a game, so that a void
    hand is legal next (the tap the wrk script sends on a table past 16 records)."""
    state = MatchState(MatchConfig())
    outcomes = []
    for n in range(count):
        outcome = GAME[n % len(GAME)]
        after = state.apply(outcome)
        if n == count - 1 and after.phase in _OVER:
            outcome, after = Outcome(Kind.ANULADA), state.apply(Outcome(Kind.ANULADA))
        outcomes.append(outcome)
        state = after
    return outcomes


def history_rows(mesa_id: int, outcomes: Sequence[Outcome]) -> list[dict[str, object]]:
    """The hand_record rows of a table whose log is `outcomes`, with the scores and the state
    (the checkpoint a board starts from) after each, as the app writes them."""
    state, rows, now = MatchState(MatchConfig()), [], utcnow()
    for seq, outcome in enumerate(outcomes, start=1):
        state = state.apply(outcome)
        rows.append(
            {
                "mesa_id": mesa_id, "seq": seq, "kind": outcome.kind.value, "side": outcome.side,
                "points": outcome.points, "note": None, "reason": None, "status": ACTIVE,
                "score_a": state.points[0], "score_b": state.points[1], "created_at": now,
                "state": state.snapshot(),
            }
        )  # fmt: skip
    return rows


def tables_with_history(engine: Engine, tables: int, records: int) -> list[int]:
    """`tables` default tables whose logs hold `records` legal records each (revision `records`):
    one log written row by row, then copied to the others by one INSERT … SELECT."""
    ids = new_tables(engine, tables, revision=records)
    if not records or not ids:
        return ids
    template, others = ids[0], ids[1:]
    columns = [c for c in _RECORDS.c if c.name not in ("id", "mesa_id")]
    copied = (
        select(_MESAS.c.id, *columns)
        .select_from(_RECORDS.join(_MESAS, _MESAS.c.id.in_(others)))
        .where(_RECORDS.c.mesa_id == literal(template))
    )
    with engine.begin() as connection:
        connection.execute(insert(_RECORDS), history_rows(template, history(records)))
        connection.execute(insert(_RECORDS).from_select([_RECORDS.c.mesa_id, *columns], copied))
    return ids


def analyze(engine: Engine) -> None:
    """Fresh planner statistics after the bulk inserts, as autovacuum gives a live database
    soon after a table grows (without them PostgreSQL plans for empty tables)."""
    with engine.begin() as connection:
        connection.execute(text("ANALYZE"))


def write_tables(engine: Engine, path: Path, ids: Sequence[int]) -> str:
    """The tables `ids` as lines 'edit view revision', read fresh from the database (taps move
    the revisions on): the file the wrk scripts read."""
    wanted = select(_MESAS.c.id, _MESAS.c.edit_token, _MESAS.c.view_token, _MESAS.c.revision)
    with engine.connect() as connection:
        rows = {row.id: row for row in connection.execute(wanted.where(_MESAS.c.id.in_(ids)))}
    path.write_text("".join(f"{rows[i][1]} {rows[i][2]} {rows[i][3]}\n" for i in ids))
    return str(path)
