"""Shared fixtures: an app on a throw-away SQLite database and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """A fresh app with its own SQLite file and CSRF checks off (see test_csrf for them on)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


def require_program(program: str, package: str) -> str:
    """The path of an outside program a test needs; skip naming its package, fail under CI=true."""
    import os
    import shutil

    path = shutil.which(program)
    if path:
        return path
    message = f"{program} not found: install the Debian package {package} (make test does, as root)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)
