"""The Flask-Migrate history builds exactly the schema the models describe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import PACKAGE_DIR, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .pgserver import new_database

MIGRATIONS = str(PACKAGE_DIR / "migrations")


@pytest.fixture
def migrating_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty SQLite file: no schema, the migrations make it; its connections
    closed at the end."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite3'}", "SECRET_KEY": "x"}
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def test_migrations_upgrade_to_the_models_schema(migrating_app: Flask) -> None:
    """`flask db upgrade` on an empty database leaves no difference with the models."""
    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []
        tables = set(db.inspect(db.engine).get_table_names())
        assert {"mesa", "hand_record", "alembic_version"} <= tables


def test_migrations_upgrade_to_the_models_schema_on_postgresql(pg_url: str) -> None:
    """The same history on PostgreSQL (the engine for more than one machine): no difference."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": new_database(pg_url), "SECRET_KEY": "x"})
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []
        db.engine.dispose()


def test_the_state_migration_stores_each_records_checkpoint(migrating_app: Flask) -> None:
    """Upgrading a database made before checkpoints: every record of a table's current branch
    (active, then undone) gets the state after it, and the board reads as the full fold."""
    from sqlalchemy import text

    from scorekeeper.domain.mesa import board_of, load_board
    from scorekeeper.models import ENTRY_COLUMNS, HandRecord, Mesa, entry

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="9b1f3c2d4e5a")
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO mesa (id, edit_token, view_token, revision, created_at, players,"
                    " best_of, first_dealer, special_at, ferro_mode, deck, manilhas, tie_opener,"
                    " team_a, team_b, player_names) VALUES (1, 'e', 'v', 6, '2026-12-01', 4, 3,"
                    " 0, 11, 'cegas', 'sujo', 'variavel', 'mao', 'Nós', 'Eles', '[]')"
                )
            )
            rows = [  # seq, kind, side, points, status
                (1, "normal", 0, 12, "active"),
                (2, "proxima_partida", None, None, "active"),
                (3, "normal", 1, 3, "discarded"),
                (4, "normal", 1, 6, "active"),
                (5, "normal", 0, 1, "undone"),
            ]
            for seq, kind, side, points, status in rows:
                connection.execute(
                    text(
                        "INSERT INTO hand_record (mesa_id, seq, kind, side, points, status,"
                        " score_a, score_b, created_at) VALUES (1, :seq, :kind, :side, :points,"
                        " :status, 0, 0, '2026-12-01')"
                    ),
                    {"seq": seq, "kind": kind, "side": side, "points": points, "status": status},
                )
        upgrade(directory=MIGRATIONS)
        mesa = db.session.get(Mesa, 1)
        records = [
            entry(row)
            for row in db.session.execute(db.select(*ENTRY_COLUMNS).order_by(HandRecord.seq))
        ]
        assert [r.state is None for r in records] == [False, False, True, False, False]
        assert load_board(mesa) == board_of(mesa, records)
        assert load_board(mesa).state.points == (0, 6)


def _count_records() -> int:
    """How many hand records the database holds."""
    from sqlalchemy import func, select

    from scorekeeper.models import HandRecord

    return int(db.session.execute(select(func.count()).select_from(HandRecord)).scalar_one())


def test_the_turma_migration_keeps_every_table_and_record_both_ways(migrating_app: Flask) -> None:
    """Adding (and removing) the turma columns on SQLite never copies the mesa table with its
    foreign keys on: the hand records, which cascade from it, are all still there."""
    from flask_migrate import downgrade

    from scorekeeper.domain.mesa import open_table
    from scorekeeper.domain.mesa.service import record_outcome
    from scorekeeper.rules import Kind, Outcome

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS)
        token = open_table({}).edit_token
        for revision in range(3):
            record_outcome(token, revision, Outcome(Kind.NORMAL, 0, 3))
        downgrade(directory=MIGRATIONS, revision="c3d5e7f9a1b2")
        assert _count_records() == 3
        upgrade(directory=MIGRATIONS)
        assert _count_records() == 3


def test_the_turma_summary_migration_keeps_every_turma_table_and_record_both_ways(
    migrating_app: Flask,
) -> None:
    """Adding (and removing) turma.departures and turma_summary keeps every turma, its tables
    and their hand records; an upgraded turma starts with no departure."""
    from flask_migrate import downgrade
    from sqlalchemy import func, select

    from scorekeeper.domain.mesa import open_table
    from scorekeeper.domain.mesa.service import record_outcome
    from scorekeeper.domain.turma.turmas import create_turma
    from scorekeeper.models import Mesa, Turma
    from scorekeeper.rules import Kind, Outcome

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS)
        token = open_table({}).edit_token
        for revision in range(3):
            record_outcome(token, revision, Outcome(Kind.NORMAL, 0, 3))
        turma_id = create_turma(token, 3, "Quinta").id
        downgrade(directory=MIGRATIONS, revision="d4e6f8a0b2c4")
        assert _count_records() == 3
        held = select(func.count()).select_from(Mesa).where(Mesa.turma_id == turma_id)
        assert db.session.execute(held).scalar_one() == 1
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        assert _count_records() == 3
        assert db.session.execute(held).scalar_one() == 1
        assert db.session.get(Turma, turma_id).departures == 0


def test_the_ids_migration_keeps_every_record_and_never_gives_a_deleted_id_again(
    migrating_app: Flask,
) -> None:
    """Upgrading a SQLite database made before it: hand_record becomes AUTOINCREMENT with every
    record kept (a deleted record's id is never handed out again), journaled writes carry no
    fingerprint yet and tables no link change; downgrading keeps every record too."""
    from flask_migrate import downgrade
    from sqlalchemy import delete, func, select, text

    from scorekeeper.domain.mesa import open_table
    from scorekeeper.domain.mesa.service import record_outcome
    from scorekeeper.models import HandRecord, Mesa, MesaWrite
    from scorekeeper.rules import Kind, Outcome

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="e5f7a9b1c3d5")
        with db.engine.begin() as connection:
            connection.execute(text("ALTER TABLE mesa_write ADD COLUMN fingerprint VARCHAR(64)"))
            connection.execute(
                text("ALTER TABLE mesa ADD COLUMN link_changes INTEGER DEFAULT 0 NOT NULL")
            )
            connection.execute(text("ALTER TABLE hand_record ADD COLUMN settings TEXT"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN variante VARCHAR(16)"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN torneio_id INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN copied_from_id INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN torneio_mesa INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN closed VARCHAR(16)"))
        token = open_table({}).edit_token  # the models need today's columns: added, then gone
        for revision in range(3):
            record_outcome(token, revision, Outcome(Kind.NORMAL, 0, 1), client_id=f"c{revision}")
        with db.engine.begin() as connection:
            connection.execute(text("ALTER TABLE mesa_write DROP COLUMN fingerprint"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN link_changes"))
            connection.execute(text("ALTER TABLE hand_record DROP COLUMN settings"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN variante"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN torneio_id"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN copied_from_id"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN torneio_mesa"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN closed"))
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        schema = db.session.execute(
            text("SELECT sql FROM sqlite_master WHERE name = 'hand_record'")
        ).scalar_one()
        assert "AUTOINCREMENT" in schema and _count_records() == 3
        journal = db.session.execute(select(MesaWrite.fingerprint)).scalars().all()
        assert journal == [None, None, None]
        assert db.session.execute(select(Mesa.link_changes)).scalar_one() == 0
        newest = db.session.execute(select(func.max(HandRecord.id))).scalar_one()
        db.session.execute(delete(HandRecord).where(HandRecord.id == newest))
        db.session.commit()
        record_outcome(token, 3, Outcome(Kind.NORMAL, 1, 1))
        assert db.session.execute(select(func.max(HandRecord.id))).scalar_one() > newest
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="e5f7a9b1c3d5")
        assert _count_records() == 3


def test_the_edits_migration_keeps_the_log_and_its_downgrade_drops_only_the_edits(
    migrating_app: Flask,
) -> None:
    """Upgrading a database made before edits: every record is kept with no settings, the table
    can be edited; downgrading drops the edits' records (their settings gone) and keeps the rest,
    ids still never reused (AUTOINCREMENT)."""
    from flask_migrate import downgrade
    from sqlalchemy import select, text

    from scorekeeper.domain.mesa import open_table
    from scorekeeper.domain.mesa.service import edit_table, record_outcome
    from scorekeeper.models import HandRecord
    from scorekeeper.rules import Kind, Outcome

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="f6a8b0c2d4e6")
        with db.engine.begin() as connection:
            connection.execute(text("ALTER TABLE hand_record ADD COLUMN settings TEXT"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN variante VARCHAR(16)"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN torneio_id INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN copied_from_id INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN torneio_mesa INTEGER"))
            connection.execute(text("ALTER TABLE mesa ADD COLUMN closed VARCHAR(16)"))
        mesa = open_table({})
        token = mesa.edit_token
        settings = {
            "players": 4, "best_of": 3, "special_at": 11, "ferro_mode": "cegas", "deck": "sujo",
            "manilhas": "variavel", "tie_opener": "mao", "team_a": "Nós", "team_b": "Eles",
            "player_names": [],
        }  # fmt: skip
        record_outcome(token, 0, Outcome(Kind.NORMAL, 0, 1))
        with db.engine.begin() as connection:
            connection.execute(text("ALTER TABLE hand_record DROP COLUMN settings"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN variante"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN torneio_id"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN copied_from_id"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN torneio_mesa"))
            connection.execute(text("ALTER TABLE mesa DROP COLUMN closed"))
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        assert db.session.execute(select(HandRecord.settings)).scalars().all() == [None]
        edit_table(token, 1, {**settings, "team_a": "Patos"}, 1)
        record_outcome(token, 2, Outcome(Kind.NORMAL, 1, 3))
        kinds = db.session.execute(select(HandRecord.kind).order_by(HandRecord.seq)).scalars()
        assert list(kinds) == ["normal", "mesa_editada", "normal"]
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="f6a8b0c2d4e6")
        schema = db.session.execute(
            text("SELECT sql FROM sqlite_master WHERE name = 'hand_record'")
        ).scalar_one()
        assert "AUTOINCREMENT" in schema and "settings" not in schema
        kinds = db.session.execute(text("SELECT kind FROM hand_record ORDER BY seq")).scalars()
        assert list(kinds) == ["normal", "normal"]


def test_the_rule_set_migration_makes_every_existing_table_paulista_both_ways(
    migrating_app: Flask,
) -> None:
    """Upgrading a database made before rule sets: every table and record is kept and every
    table plays Truco Paulista; downgrading drops only the column."""
    from flask_migrate import downgrade
    from sqlalchemy import text

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="a7b9c1d3e5f7")
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO mesa (id, edit_token, view_token, revision, created_at, players,"
                    " best_of, first_dealer, special_at, ferro_mode, deck, manilhas, tie_opener,"
                    " team_a, team_b, player_names, link_changes) VALUES (1, 'e', 'v', 1,"
                    " '2026-01-01', 4, 0, 0, 11, 'cegas', 'sujo', 'variavel', 'mao', 'Nós',"
                    " 'Eles', '[]', 0)"
                )
            )
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        mesa = db.session.get(Mesa, 1)
        assert mesa is not None and mesa.variante == "paulista"
        assert mesa.match_config.variant.code == "paulista"
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="a7b9c1d3e5f7")
        columns = db.session.execute(text("SELECT * FROM mesa")).keys()
        assert "variante" not in columns
        assert db.session.execute(text("SELECT count(*) FROM mesa")).scalar_one() == 1


def test_the_torneio_migration_keeps_every_table_and_record_both_ways(migrating_app: Flask) -> None:
    """Upgrading a database made before torneios: every table and record is kept and no table
    plays a torneio match; downgrading drops the torneio tables and the column only."""
    from flask_migrate import downgrade
    from sqlalchemy import inspect, text

    from scorekeeper.models import Mesa

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="b8c0d2e4f6a8")
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO mesa (id, edit_token, view_token, revision, created_at, players,"
                    " best_of, first_dealer, special_at, ferro_mode, deck, manilhas, tie_opener,"
                    " team_a, team_b, player_names, link_changes, variante) VALUES (1, 'e', 'v',"
                    " 1, '2026-01-01', 4, 0, 0, 11, 'cegas', 'sujo', 'variavel', 'mao', 'Nós',"
                    " 'Eles', '[]', 0, 'paulista')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO hand_record (mesa_id, seq, kind, side, points, status, score_a,"
                    " score_b, created_at) VALUES (1, 1, 'normal', 0, 3, 'active', 3, 0,"
                    " '2026-01-01')"
                )
            )
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        mesa = db.session.get(Mesa, 1)
        assert mesa is not None and mesa.torneio_id is None
        assert _count_records() == 1
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="b8c0d2e4f6a8")
        tables = inspect(db.engine).get_table_names()
        assert not {"torneio", "jogo", "dupla", "torneio_mesa", "sumula"} & set(tables)
        assert "torneio_id" not in db.session.execute(text("SELECT * FROM mesa")).keys()
        assert _count_records() == 1


def test_the_closed_tables_migration_closes_the_matches_already_decided(
    migrating_app: Flask,
) -> None:
    """Upgrading a database with a torneio: each match's table learns its mesa's number, a
    match the organiser decided is closed as it was decided and keeps the pairs it was decided
    between; a match still played stays open."""
    from sqlalchemy import text

    with migrating_app.app_context():
        upgrade(directory=MIGRATIONS, revision="c9d1e3f5a7b9")
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO torneio (id, edit_token, view_token, revision, created_at, name,"
                    " variante, players, best_of, final_best_of, mesas, minutes, at_limit,"
                    " third_place, clock) VALUES (1, 'te', 'tv', 3, '2026-12-01', 'Copa',"
                    " 'paulista', 4, 1, 1, 2, 90, 'lider', 0, '{}')"
                )
            )
            for mesa, token in ((1, "m1"), (2, "m2")):
                connection.execute(
                    text(
                        "INSERT INTO mesa (id, edit_token, view_token, revision, created_at,"
                        " players, best_of, first_dealer, special_at, ferro_mode, deck, manilhas,"
                        " tie_opener, team_a, team_b, player_names, variante, link_changes,"
                        " torneio_id) VALUES (:id, :token, :view, 0, '2026-12-01', 4, 1, 0, 11,"
                        " 'cegas', 'sujo', 'variavel', 'mao', 'A', 'B', '[]', 'paulista', 0, 1)"
                    ),
                    {"id": mesa, "token": token, "view": f"v{token}"},
                )
            connection.execute(
                text(
                    "INSERT INTO jogo (torneio_id, key, mesa_number, mesa_id, pair_a, pair_b,"
                    " called_at, decided, decided_how) VALUES (1, '1-0', 1, 1, 7, 8,"
                    " '2026-12-01', 8, 'wo'), (1, '1-1', 2, 2, 9, 10, '2026-12-01', NULL, NULL)"
                )
            )
        upgrade(directory=MIGRATIONS)
        rows = db.session.execute(
            text("SELECT id, torneio_mesa, closed FROM mesa ORDER BY id")
        ).all()
        assert [tuple(r) for r in rows] == [(1, 1, "wo"), (2, 2, None)]
        decided = db.session.execute(
            text("SELECT decided_a, decided_b FROM jogo ORDER BY id")
        ).all()
        assert [tuple(r) for r in decided] == [(7, 8), (None, None)]
