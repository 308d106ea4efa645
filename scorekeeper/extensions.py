"""Flask extensions, created once and bound to the app in create_app."""

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for the models."""


# Objects stay usable after commit: a view reads the table it just opened or rotated, no reload.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
htmx = Htmx()
compress = Compress()
# Only opening tables and turmas is limited (see limits.py); taps, polls and pages never are.
limiter = Limiter(key_func=get_remote_address)
