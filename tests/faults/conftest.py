"""Fixtures of the fault tests: a fresh, migrated database of each engine per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import DATABASES
from ..pgserver import new_database
from .server import upgrade


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated database (`flask db upgrade`), SQLite file or PostgreSQL, for a real server."""
    if request.param == "postgresql":
        url = new_database(request.getfixturevalue("pg_url"), "tento_fault")
    else:
        url = f"sqlite:///{tmp_path / 'fault.sqlite3'}"
    upgrade(url)
    return url
