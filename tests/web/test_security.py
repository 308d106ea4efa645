"""What an adversarial pass found: NUL bytes, invisible characters in names, the session
cookie over HTTPS, path values no column can hold. Each test failed before its fix."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.domain.torneio import bracket
from scorekeeper.extensions import db
from scorekeeper.models import Torneio
from scorekeeper.web.converters import MATCH_KEY, Int32Converter

from .helpers import HX, by_testid, mesa_of, open_table, open_torneio, revision


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


def torneio_revision(app: Flask, token: str) -> int:
    """The torneio's revision: any organiser's step moves it."""
    with app.app_context():
        query = db.select(Torneio.revision).filter_by(edit_token=token)
        return int(db.session.execute(query).scalar_one())


@pytest.mark.parametrize(
    "path",
    [
        "/tv/{tv}/dupla/2147483648/turma",  # past a 32-bit column: PostgreSQL refused the query
        "/tv/{tv}/dupla/9223372036854775808/turma",  # past 64 bits: SQLite's driver refused it
        "/t/{t}/jogo/a%00b/decidir",  # NUL: PostgreSQL refuses it in text
        "/t/{t}/jogo/%00/anotar",
        "/t/{t}/jogo/-1/cancelar",
        "/t/a%00b/sortear",  # a NUL token reached the claim's UPDATE
        "/t/{t}/mesa/%EF%BC%91/pausar",  # a fullwidth 1, which int() reads as 1: mesa 1 paused
        "/t/{t}/rodada/%D9%A3/comecar",  # an Arabic-Indic 3
        "/t/{t}/dupla/4294967296/remover",
    ],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_path_value_no_column_can_hold_is_a_404_before_any_query(
    app: Flask, client: FlaskClient, path: str, method: str
) -> None:
    """An id past 32 bits, a NUL, a match key or a number not in the bracket's or ASCII's shape
    names nothing: 404 in pt-BR on both databases, nothing written (it used to be a 500, or a
    refusal after the query, or a Unicode digit taken for its ASCII one)."""
    organiser = open_torneio(client)
    assert client.get(f"/t/{organiser}").status_code == 200  # the first matches called
    with app.app_context():
        tv = db.session.execute(
            db.select(Torneio.view_token).filter_by(edit_token=organiser)
        ).scalar_one()
    before = torneio_revision(app, organiser)
    url = path.format(t=organiser, tv=tv)
    response = client.open(url, method=method, data={"rev": str(before), "dupla": "1"})
    assert response.status_code == 404, response.status_code
    assert 'lang="pt-BR"' in response.text and "Página não encontrada" in response.text
    assert torneio_revision(app, organiser) == before


def test_every_key_the_bracket_makes_is_a_path_the_organiser_can_post_to() -> None:
    """The routes take a match key by its shape (converters.MATCH_KEY): every key of every bracket
    size, the 3rd place's included, has it, so no organiser's step is refused as a 404."""
    for pairs in range(bracket.MIN_PAIRS, bracket.MAX_PAIRS + 1):
        rounds = bracket.rounds_for(pairs)
        keys = [bracket.key(r, i) for r in range(1, rounds + 1) for i in range(2 ** (rounds - r))]
        for key in [*keys, bracket.THIRD]:
            assert re.fullmatch(MATCH_KEY, key), key


@pytest.mark.parametrize("number", [0, 1, 9, 10, 1_999_999_999, 2**31 - 1])
def test_int_path_parameters_take_every_id_a_column_holds(number: int) -> None:
    """The `<int:>` converter's pattern takes every number from 0 to 2**31 - 1 and nothing past
    it, without leading zeros."""
    pattern = Int32Converter.regex
    assert re.fullmatch(pattern, str(number))
    assert not re.fullmatch(pattern, str(number + 2**31))
    assert not re.fullmatch(pattern, "0" + str(number))
