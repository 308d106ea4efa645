"""The Flask-Migrate history builds exactly the schema the models describe."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from scorekeeper import PACKAGE_DIR, create_app
from scorekeeper.extensions import db

from .pgserver import new_database


def test_migrations_upgrade_to_the_models_schema(tmp_path: Path) -> None:
    """`flask db upgrade` on an empty database leaves no difference with the models."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite3'}", "SECRET_KEY": "x"}
    )
    with app.app_context():
        upgrade(directory=str(PACKAGE_DIR / "migrations"))
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []
        tables = set(db.inspect(db.engine).get_table_names())
        assert {"mesa", "hand_record", "alembic_version"} <= tables


def test_migrations_upgrade_to_the_models_schema_on_postgresql(pg_url: str) -> None:
    """The same history on PostgreSQL (the engine for more than one machine): no difference."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": new_database(pg_url), "SECRET_KEY": "x"})
    with app.app_context():
        upgrade(directory=str(PACKAGE_DIR / "migrations"))
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []
        db.engine.dispose()
