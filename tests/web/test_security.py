"""What an adversarial pass found: NUL bytes, invisible characters in names, the session
cookie over HTTPS. Each test failed before its fix."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .helpers import HX, by_testid, open_table, revision


def mesa_of(app: Flask, token: str) -> Mesa:
    """The table with this scorer token."""
    with app.app_context():
        return db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()


def test_nul_bytes_never_reach_the_database(app: Flask, client: FlaskClient) -> None:
    """A NUL in a name or a reason is stripped; in a token it names no table: a clear answer
    on both databases, never a 500 (PostgreSQL refuses NUL in text)."""
    edit = open_table(client, time_a="a\x00b", jogador_0="Zé\x00")
    assert mesa_of(app, edit).team_a == "ab"
    fixed = client.post(
        f"/m/{edit}/corrigir",
        data={"rev": str(revision(client, edit)), "lado": "0", "pontos": "3", "motivo": "why\x00"},
        headers=HX,
    )
    assert fixed.status_code == 200
    view = mesa_of(app, edit).view_token
    for url in (f"/m/{edit}\x00", "/v/abc\x00/placar?rev=0", f"/v/{view}\x00", "/m/%00"):
        assert client.get(url).status_code == 404, url
    tap = client.post(f"/m/{edit}\x00/marcar", data={"rev": "1", "o": "anulada"})
    assert tap.status_code == 404


@pytest.mark.parametrize(
    "name",
    ["\u200b\u200b", "\u202e", "\x00", "\u2060\ufeff", " \u200d "],
    ids=["zero-width", "bidi-override", "nul", "word-joiner", "joiner-and-spaces"],
)
def test_a_name_with_nothing_visible_is_refused(client: FlaskClient, name: str) -> None:
    """A team or player name made only of invisible characters is refused in pt-BR, not turned
    into the default name."""
    for field in ("time_a", "jogador_2"):
        refused = client.post("/mesas", data={field: name})
        assert refused.status_code == 422
        assert "invisíveis" in (by_testid(refused.text, "mensagem") or "")


def test_names_lose_invisible_and_bidi_characters(app: Flask, client: FlaskClient) -> None:
    """Control, zero-width and bidi-override characters are removed, the rest kept (NFC)."""
    edit = open_table(client, time_a="Os\u200b Zap\u202eeiros", time_b="Cafe\u0301")
    mesa = mesa_of(app, edit)
    assert mesa.team_a == "Os Zapeiros"
    assert mesa.team_b == "Café" and len(mesa.team_b) == 4


def test_two_sides_equal_once_normalised_are_refused(client: FlaskClient) -> None:
    """'Café' and 'CAFE\u0301' (or with a zero-width space) are the same team to a reader."""
    refused = client.post("/mesas", data={"time_a": "Café", "time_b": "CAFE\u0301\u200b"})
    assert refused.status_code == 422
    assert "nomes diferentes" in (by_testid(refused.text, "mensagem") or "")


def cookie_flags(client: FlaskClient, **kwargs: object) -> str:
    """The Set-Cookie header of opening a table (the session cookie)."""
    response = client.post("/mesas", **kwargs)  # type: ignore[arg-type]
    return response.headers.get("Set-Cookie", "")


def test_the_session_cookie_is_secure_over_https(app: Flask, tmp_path: object) -> None:
    """HttpOnly and SameSite=Lax always; Secure when the request came over HTTPS, when a trusted
    proxy says so, or when PUBLIC_URL is https."""
    plain = cookie_flags(app.test_client())
    assert "HttpOnly" in plain and "SameSite=Lax" in plain and "Secure" not in plain
    assert "Secure" in cookie_flags(app.test_client(), base_url="https://localhost")
    proxied = create_app({**app.config, "TRUSTED_PROXIES": 1})
    assert "Secure" in cookie_flags(
        proxied.test_client(), headers={"X-Forwarded-Proto": "https"}
    )
    assert "Secure" not in cookie_flags(
        app.test_client(), headers={"X-Forwarded-Proto": "https"}
    )  # no trusted proxy: the header is anybody's
    public = create_app({**app.config, "PUBLIC_URL": "https://tento.example.com.br"})
    assert "Secure" in cookie_flags(public.test_client())
