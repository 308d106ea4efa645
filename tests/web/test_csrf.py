"""CSRF protection on every POST, with the token from the page (form field or htmx header)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from .helpers import scores


def page_token(html: str) -> str:
    """The CSRF token embedded in a page's forms."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match.group(1)


def open_with_csrf(client: FlaskClient) -> str:
    """Open a table the way a browser does and return its board path."""
    token = page_token(client.get("/").text)
    response = client.post("/mesas", data={"csrf_token": token})
    assert response.status_code == 303
    return response.headers["Location"]


def test_post_without_csrf_token_is_refused_in_portuguese(csrf_app: Flask) -> None:
    """A forged POST (no token) gets 400 with a pt-BR explanation and records nothing."""
    client = csrf_app.test_client()
    refused = client.post("/mesas")
    assert refused.status_code == 400
    assert "Recarregue a página" in refused.text
    board = open_with_csrf(client)
    tap = client.post(f"{board}/marcar", data={"rev": "0", "o": "normal:0:3"})
    assert tap.status_code == 400
    assert scores(client.get(board).text) == (0, 0)


def test_csrf_token_works_as_form_field_and_as_htmx_header(csrf_app: Flask) -> None:
    """The page's token is accepted in the form (no JS) and in the X-CSRFToken header (htmx)."""
    client = csrf_app.test_client()
    board = open_with_csrf(client)
    token = page_token(client.get(board).text)
    form = {"rev": "0", "o": "normal:0:3", "csrf_token": token}
    plain = client.post(f"{board}/marcar", data=form)
    assert plain.status_code == 303
    htmx = client.post(
        f"{board}/marcar",
        data={"rev": "1", "o": "normal:1:1"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert htmx.status_code == 200
    assert scores(htmx.text) == (3, 1)


def test_csrf_token_does_not_expire_during_an_evening(csrf_app: Flask) -> None:
    """WTF_CSRF_TIME_LIMIT is None: a board stays open for hours."""
    assert csrf_app.config["WTF_CSRF_TIME_LIMIT"] is None
