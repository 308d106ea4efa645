"""Flask extensions, created once and bound to the app in create_app."""

from flask import Flask, current_app
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for the models."""


# Objects stay usable after commit: a view reads the table it just opened or rotated, no reload.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
htmx = Htmx()
compress = Compress()
# Only opening tables is limited (tables.create); taps, polls and pages never are.
limiter = Limiter(key_func=get_remote_address)

POLLS = "tento.polls"


def init_polls(app: Flask) -> None:
    """On a database server, a second engine for the unchanged-poll read (`revision_is`).

    Its connections stay in autocommit and are not reset on return, and it skips the pre-ping:
    a poll costs one round trip (a dropped connection is retried once instead). SQLite has no
    round trips to save: polls read on the main engine.
    """
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    app.extensions[POLLS] = (
        None
        if url.startswith("sqlite")
        else create_engine(url, isolation_level="AUTOCOMMIT", pool_reset_on_return=None)
    )


def polls_engine() -> Engine | None:
    """The current app's polls engine (None on SQLite)."""
    engine: Engine | None = current_app.extensions.get(POLLS)
    return engine
