"""Tento: the score keeper for Truco Paulista played with real cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import caches, config
from .database import init_engines
from .extensions import compress, csrf, db, htmx, limiter, migrate
from .web import assets

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """templates/ or static/: inside the package when installed, at the repo's top level in dev."""
    inside = PACKAGE_DIR / name
    return str(inside if inside.is_dir() else PACKAGE_DIR.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(config.defaults(app.instance_path))
    if test_config:
        app.config.from_mapping(test_config)
    if isinstance(app.config["CACHES"], str):  # TENTO_CACHES as set: the names of those kept
        app.config["CACHES"] = caches.setting(app.config["CACHES"])
    # Served over HTTPS (an https PUBLIC_URL): the session cookie is always Secure; otherwise it
    # is Secure per request (web.SessionOverHttps).
    if str(app.config.get("PUBLIC_URL") or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    db.init_app(app)
    init_engines(app)
    migrate.init_app(app, db, directory=str(PACKAGE_DIR / "migrations"))
    csrf.init_app(app)
    htmx.init_app(app)
    compress.init_app(app)
    limiter.init_app(app)
    assets.init_app(app, compress)
    from . import models  # noqa: F401  (register the tables with SQLAlchemy)
    from .web import register, security_headers

    register(app)
    from .web.polls import UnchangedPolls

    app.wsgi_app = UnchangedPolls(app, app.wsgi_app, security_headers())  # type: ignore[method-assign]
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    return app
