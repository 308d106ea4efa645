"""Configuration: defaults that need nothing set, overridable by environment variables."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


def database_url(instance_path: str) -> str:
    """DATABASE_URL (postgres:// normalised to psycopg 3), else SQLite in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{Path(instance_path) / 'tento.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one kept in the instance folder across restarts."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(secrets.token_hex(32))
        tmp.replace(path)
    return path.read_text().strip()


def defaults(instance_path: str) -> dict[str, Any]:
    """The configuration used when nothing is set."""
    url = database_url(instance_path)
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": url,
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_SSL_STRICT": True,
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", "").strip().rstrip("/") or None,
        "MAX_CONTENT_LENGTH": 16 * 1024,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 365,
        # The cookie is sent again only when the session changes, not on every tap and poll.
        "SESSION_REFRESH_EACH_REQUEST": False,
        # Opening tables is rate-limited per client; the counts live in this process unless
        # RATELIMIT_STORAGE_URI points at Redis or memcached (needed with several processes).
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "").strip() or "memory://",
        # Redis unreachable: count in this process's memory meanwhile, never a 500 on opening.
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        # Said outright: the limiter is one object for every app a process builds (tests build
        # many), and an app that leaves this out would inherit the last one's choice.
        "RATELIMIT_ENABLED": True,
        "OPEN_TABLE_LIMIT": os.environ.get("OPEN_TABLE_LIMIT", "").strip()
        or "10 per minute; 100 per day",
        # The host names the app answers to (comma-separated); any other Host gets a 400. Shared
        # links use a Host only when it is one of these (or PUBLIC_URL, or the LAN address).
        "TRUSTED_HOSTS": [h.strip() for h in os.environ.get("TRUSTED_HOSTS", "").split(",")
                          if h.strip()] or None,  # fmt: skip
        # How many proxies in front of the app set X-Forwarded-For/-Proto/-Host (0: none).
        "TRUSTED_PROXIES": int(os.environ.get("TRUSTED_PROXIES", "0") or 0),
        # Static files: versioned URLs (?v=<hash>) are cached for a year; everything text is
        # compressed (brotli or gzip, whichever the browser takes).
        "STATIC_MAX_AGE": 60 * 60 * 24 * 365,
        "COMPRESS_REGISTER": False,  # registered by assets.init_app, which skips empty bodies
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],
        "COMPRESS_MIN_SIZE": 500,
        # Pages and fragments are small and made per request: brotli at quality 2 with a 64 KB
        # window costs a third of the default (4, 4 MB) for a few percent more bytes.
        "COMPRESS_BR_LEVEL": 2,
        "COMPRESS_BR_WINDOW": 16,
        # The per-process caches kept (scorekeeper/caches.py): all, none ('0') or those named.
        "CACHES": os.environ.get("TENTO_CACHES", ""),
        # How often a board and a live view ask for a new score, in milliseconds: the pages'
        # scripts and htmx pollers read it from <body data-poll-ms>.
        "POLL_INTERVAL_MS": int(os.environ.get("POLL_INTERVAL_MS", "") or 2000),
    }


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL journal, a busy timeout and foreign keys for SQLite connections only."""
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
