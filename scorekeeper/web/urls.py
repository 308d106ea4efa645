"""Absolute links for what leaves the app (QR codes, shared rulings): under a base URL when one
is given (PUBLIC_URL, or the address the share page found), else under the request's host."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, request, url_for


def public_url() -> str | None:
    """PUBLIC_URL, the app's base URL when it is served behind a real domain; None when unset."""
    return (current_app.config.get("PUBLIC_URL") or "").strip().rstrip("/") or None


def absolute_url(endpoint: str, root: str | None = None, **values: Any) -> str:
    """The endpoint's absolute URL under `root` (a base URL) when given, else the request's host."""
    if not root:
        try:
            return url_for(endpoint, _external=True, **values)
        except (UnicodeError, ValueError):  # a Host header that is no host name
            abort(400)
    path = url_for(endpoint, **values)
    prefix = request.script_root
    if prefix and path.startswith(prefix):
        path = path[len(prefix) :]
    return root + path
