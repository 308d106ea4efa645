"""Bad input: random and malformed data on every route never gives a 500 nor changes anything it
refuses; tampered tokens, CSRF, oversize bodies, markup in names and absurd lengths."""

from __future__ import annotations

import html as htmllib
import re
from urllib.parse import quote, urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa

from ..profiles import examples
from .helpers import HX, open_table, play, revision, scores

FORM_FIELDS = (
    "rev",
    "o",
    "registro",
    "nota",
    "lado",
    "pontos",
    "motivo",
    "mesa",
    "tipo",
    "csrf_token",
    "time_a",
    "time_b",
    "jogador_0",
    "jogador_1",
    "jogador_2",
    "jogador_3",
    "jogadores",
    "serie",
    "ferro",
    "mao_especial",
    "baralho",
    "manilhas",
    "empate",
    "pe",
    "rodadas",
)
QUERY_KEYS = (
    "vira",
    "rodada",
    "jogadores",
    "baralho",
    "manilhas",
    "empate",
    "abre",
    "mao",
    "jogadas",
    "anteriores",
    "cobrir",
    "rodadas",
    "mesa",
    "rev",
    "tv",
    "trocados",
    "v",
    "o",
)
SPECIAL_VALUES = (
    "0",
    "1",
    "-1",
    "3",
    "12",
    "13",
    "normal:0:1",
    "normal:1:3",
    "normal:2:3",
    "normal:0:99",
    "anulada",
    "ferro:0",
    "onze_ganhou:1",
    "correcao:0:5",
    "nova_serie",
    "proxima_partida",
    "normal:0:1:1",
    "::",
    "truco",
    "seis",
    "simples",
    "nos",
    "eles",
    "empate",
    "4p",
    "X:4p",
    "7o,3c,Ae",
    "nos,eles,empate",
    "sujo",
    "limpo",
    "fixa",
    "variavel",
    "melhor_de_3",
    "2",
    "4",
    "\x00",
    "%00",
    "NaN",
    "1e309",
    "１",
    "٣",
    "\u202e",
    "' OR 1=1 --",
    "<script>x()</script>",
)
HUGE_INTS = st.integers(min_value=-(2**80), max_value=2**80).map(str)
VALUES = st.one_of(
    st.sampled_from(SPECIAL_VALUES),
    HUGE_INTS,
    st.integers(min_value=-3, max_value=20).map(str),
    st.text(max_size=40),
    st.text(alphabet="0123456789:-_abcdefnorsu ", max_size=20),
)
FORMS = st.dictionaries(
    st.one_of(st.sampled_from(FORM_FIELDS), st.text(min_size=1, max_size=10)), VALUES, max_size=8
)
TOKEN_KINDS = ("edit", "view", "tampered", "random", "empty-ish")
POST_ROUTES = (
    "/mesas",
    "/m/{t}/marcar",
    "/m/{t}/desfazer",
    "/m/{t}/refazer",
    "/m/{t}/nota",
    "/m/{t}/corrigir",
    "/m/{t}/trocar-links",
    "/juiz/aplicar",
    "/v/{t}",
    "/v/{t}/marcar",
)
GET_ROUTES = (
    "/",
    "/m/{t}",
    "/m/{t}/placar",
    "/m/{t}/compartilhar",
    "/v/{t}",
    "/v/{t}/placar",
    "/juiz",
    "/juiz/rodada",
    "/juiz/mao",
    "/offline",
    "/sw.js",
    "/robots.txt",
    "/static/css/app.css",
    "/{junk}",
    "/m/{t}/{junk}",
    "/v/{t}/{junk}",
    "/juiz/{junk}",
    "/static/{junk}",
)
HUGE_REV = str(2**70)


def snapshot(app: Flask) -> tuple[object, ...]:
    """Every row a write could change, in a stable order."""
    with app.app_context():
        mesas = db.session.execute(db.select(Mesa).order_by(Mesa.id)).scalars()
        tables = tuple(
            (m.id, m.edit_token, m.view_token, m.revision, m.team_a, m.team_b) for m in mesas
        )
        rows = db.session.execute(
            db.select(HandRecord).order_by(HandRecord.mesa_id, HandRecord.seq)
        ).scalars()
        records = tuple(
            (r.mesa_id, r.seq, r.kind, r.side, r.points, r.note, r.status) for r in rows
        )
        return tables, records


def tokens(app: Flask) -> tuple[str, str]:
    """The first table's current scorer and viewer tokens."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).order_by(Mesa.id)).scalars().first()
        assert mesa is not None
        return mesa.edit_token, mesa.view_token


def token_for(app: Flask, kind: str) -> str:
    """A token of the given kind for the first table."""
    edit, view = tokens(app)
    return {
        "edit": edit,
        "view": view,
        "tampered": edit[:-1] + ("A" if edit[-1] != "A" else "B"),
        "random": "x" * 32,
        "empty-ish": "%20",
    }[kind]


def assert_handled(response: TestResponse) -> None:
    """No server error, and any refusal is the app's own pt-BR page (never Werkzeug's English)."""
    assert response.status_code < 500, response.text[:500]
    if response.status_code >= 400 and response.mimetype == "text/html":
        assert "lang=en" not in response.text and "Bad Request" not in response.text


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> str:
    """A table with a few hands, an undone one among them: every write route has something."""
    token = open_table(client, jogadores="4", jogador_0="Ana", serie="melhor_de_3")
    play(client, token, "normal:0:3", "normal:1:1", "normal:0:1")
    rev = revision(client, token)
    assert (
        client.post(f"/m/{token}/desfazer", data={"rev": str(rev)}, headers=HX).status_code == 200
    )
    return token


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.sampled_from(POST_ROUTES),
    token_kind=st.sampled_from(TOKEN_KINDS),
    form=FORMS,
    htmx=st.booleans(),
    with_rev=st.sampled_from(["current", "none", "given", "huge"]),
)
def test_random_posts_never_fail_and_refusals_change_nothing(
    app: Flask,
    client: FlaskClient,
    table: str,
    route: str,
    token_kind: str,
    form: dict[str, str],
    htmx: bool,
    with_rev: str,
) -> None:
    """Random and malformed form data on every POST route: < 500, and a refusal changes nothing."""
    token = token_for(app, token_kind)
    edit, _ = tokens(app)
    data = dict(form)
    if with_rev == "current":
        data["rev"] = str(revision(client, edit))
    elif with_rev == "huge":
        data["rev"] = HUGE_REV
    if route == "/juiz/aplicar" and token_kind != "random":
        data["mesa"] = token
    before = snapshot(app)
    response = client.post(route.format(t=token), data=data, headers=HX if htmx else {})
    assert_handled(response)
    if response.status_code >= 400:
        assert snapshot(app) == before


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.sampled_from(GET_ROUTES),
    token_kind=st.sampled_from(TOKEN_KINDS),
    junk=st.text(max_size=30),
    query=st.dictionaries(st.one_of(st.sampled_from(QUERY_KEYS), st.text(max_size=8)), VALUES),
    raw_query=st.sampled_from(["", "&&==", "%zz", "%ff%fe", "a=%00", "rev=" + HUGE_REV, ";;", "?"]),
    htmx=st.booleans(),
)
def test_random_paths_and_query_strings_never_fail_nor_change_anything(
    app: Flask,
    client: FlaskClient,
    table: str,
    route: str,
    token_kind: str,
    junk: str,
    query: dict[str, str],
    raw_query: str,
    htmx: bool,
) -> None:
    """Random paths and query strings on every GET route (juiz included): < 500, nothing written."""
    token = token_for(app, token_kind)
    if "mesa" in query and token_kind in ("edit", "view"):
        query["mesa"] = token
    path = route.format(t=token, junk=quote(junk, safe=""))
    url = path + "?" + "&".join(part for part in (urlencode(query), raw_query) if part)
    before = snapshot(app)
    response = client.get(url, headers=HX if htmx else {})
    assert_handled(response)
    assert snapshot(app) == before


@pytest.mark.parametrize(
    "route,form",
    [
        ("marcar", {"o": "normal:0:3"}),
        ("desfazer", {}),
        ("refazer", {}),
        ("corrigir", {"lado": "0", "pontos": "5", "motivo": "errei"}),
        ("nota", {"registro": "1", "nota": "truco"}),
    ],
)
@pytest.mark.parametrize("rev", ["-1", HUGE_REV, "-" + HUGE_REV, "1.0", " 0 ", "0x0", ""])
def test_absurd_revisions_are_refused_without_a_change(
    app: Flask, client: FlaskClient, table: str, route: str, form: dict[str, str], rev: str
) -> None:
    """Revisions that are negative, beyond 64 bits or not integers: 409 or 422, never a 500."""
    before = snapshot(app)
    response = client.post(f"/m/{table}/{route}", data={"rev": rev, **form}, headers=HX)
    assert response.status_code in (409, 422), (rev, response.status_code)
    assert snapshot(app) == before


def test_absurd_record_ids_are_refused(app: Flask, client: FlaskClient, table: str) -> None:
    """A note on a record id beyond 64 bits is a refusal, not a crash."""
    before = snapshot(app)
    for record in (HUGE_REV, "-1", "0", "999999"):
        data = {"rev": str(revision(client, table)), "registro": record, "nota": "truco"}
        response = client.post(f"/m/{table}/nota", data=data, headers=HX)
        assert response.status_code == 422
    assert snapshot(app) == before


@pytest.mark.parametrize("where", ["last", "first", "truncated", "longer", "upper", "view"])
def test_tampered_tokens_cannot_write(
    app: Flask, client: FlaskClient, table: str, where: str
) -> None:
    """A scorer token with one character changed, cut, extended or recased, or the viewer token,
    writes nothing: 404 (or 403 for the viewer token) on every write route."""
    edit, view = tokens(app)
    flip = {"A": "B"}
    tampered = {
        "last": edit[:-1] + flip.get(edit[-1], "A"),
        "first": flip.get(edit[0], "A") + edit[1:],
        "truncated": edit[:-1],
        "longer": edit + "A",
        "upper": edit.upper() if edit.upper() != edit else edit.lower(),
        "view": view,
    }[where]
    before = snapshot(app)
    rev = str(revision(client, edit))
    for route in ("marcar", "desfazer", "refazer", "nota", "corrigir", "trocar-links"):
        data = {"rev": rev, "o": "normal:0:1", "lado": "0", "pontos": "1", "motivo": "x"}
        response = client.post(f"/m/{tampered}/{route}", data=data, headers=HX)
        assert response.status_code == (403 if where == "view" else 404), route
    applied = client.post(
        "/juiz/aplicar", data={"mesa": tampered, "rev": rev, "tipo": "anulada"}, headers=HX
    )
    assert applied.status_code in (403, 404)
    assert client.get(f"/m/{tampered}").status_code == (403 if where == "view" else 404)
    assert snapshot(app) == before


def csrf_token_of(html: str) -> str:
    """The CSRF token embedded in a page's forms."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match.group(1)


@pytest.mark.parametrize("csrf", ["missing", "garbage", "other-session", "header-garbage"])
def test_every_post_route_needs_a_valid_csrf_token(
    app: Flask, client: FlaskClient, table: str, csrf: str
) -> None:
    """With CSRF on, a missing, forged or foreign token is refused in pt-BR and writes nothing."""
    app.config["WTF_CSRF_ENABLED"] = True
    edit, view = tokens(app)
    other = app.test_client()
    foreign = csrf_token_of(other.get("/").text)
    client.get("/")  # this client's own session
    rev = str(revision(client, edit))
    before = snapshot(app)
    fields = {"rev": rev, "o": "normal:0:1", "lado": "0", "pontos": "1", "motivo": "x"}
    fields |= {"mesa": edit, "tipo": "anulada", "registro": "1", "nota": "simples"}
    headers = dict(HX)
    if csrf == "garbage":
        fields["csrf_token"] = "IjEyMyI.garbage.token"
    elif csrf == "other-session":
        fields["csrf_token"] = foreign
    elif csrf == "header-garbage":
        headers["X-CSRFToken"] = "not-a-token"
    routes = [route.format(t=edit) for route in POST_ROUTES if not route.startswith("/v/")]
    for route in routes:
        response = client.post(route, data=fields, headers=headers)
        assert response.status_code == 400, route
        assert "Recarregue a página" in response.text
    for route in ("/v/{t}", "/v/{t}/marcar"):
        response = client.post(route.format(t=view), data=fields, headers=headers)
        assert response.status_code == 403
    assert snapshot(app) == before


def test_the_page_token_still_works_with_csrf_on(
    app: Flask, client: FlaskClient, table: str
) -> None:
    """The control for the test above: the page's own token is accepted."""
    app.config["WTF_CSRF_ENABLED"] = True
    edit, _ = tokens(app)
    page = client.get(f"/m/{edit}").text
    rev = str(revision(client, edit))
    data = {"rev": rev, "o": "normal:1:3", "csrf_token": csrf_token_of(page)}
    assert client.post(f"/m/{edit}/marcar", data=data, headers=HX).status_code == 200


@pytest.mark.parametrize("route", ["/mesas", "/m/{t}/marcar", "/m/{t}/corrigir", "/juiz/aplicar"])
def test_oversize_bodies_are_refused_with_413_in_portuguese(
    app: Flask, client: FlaskClient, table: str, route: str
) -> None:
    """A body over MAX_CONTENT_LENGTH (16 KB) is a 413 page in pt-BR and changes nothing."""
    edit, _ = tokens(app)
    before = snapshot(app)
    data = {"rev": str(revision(client, edit)), "o": "normal:0:1", "motivo": "x" * 20_000}
    data |= {"mesa": edit, "lado": "0", "pontos": "1", "time_a": "y" * 20_000}
    response = client.post(route.format(t=edit), data=data)
    assert response.status_code == 413
    assert "Pedido grande demais" in response.text and 'lang="pt-BR"' in response.text
    fragment = client.post(route.format(t=edit), data=data, headers=HX)
    assert fragment.status_code == 413 and "Pedido grande demais" in fragment.text
    assert snapshot(app) == before


def test_absurd_lengths_are_refused_in_portuguese(
    app: Flask, client: FlaskClient, table: str
) -> None:
    """Names and reasons far over their limits: 422 with the limit in pt-BR, nothing written."""
    edit, _ = tokens(app)
    before = snapshot(app)
    for field in ("time_a", "time_b", "jogador_0", "jogador_3"):
        response = client.post("/mesas", data={field: "Z" * 10_000})
        assert response.status_code == 422 and "muito longo" in response.text
    data = {"rev": str(revision(client, edit)), "lado": "0", "pontos": "5", "motivo": "m" * 5_000}
    response = client.post(f"/m/{edit}/corrigir", data=data, headers=HX)
    assert response.status_code == 422 and "no máximo 200 caracteres" in response.text
    for url in (
        "/juiz/rodada?jogadas=" + "4p," * 3_000,
        "/juiz/rodada?vira=" + "Z" * 10_000,
        "/juiz/mao?rodadas=" + "nos," * 3_000,
        f"/juiz/mao?mesa={'x' * 5_000}",
        f"/m/{'x' * 5_000}",
        f"/v/{'x' * 5_000}/placar?rev={'9' * 5_000}",
    ):
        assert_handled(client.get(url))
    assert snapshot(app) == before


HOSTILE = {
    "time_a": "<script>x()</script>",
    "time_b": '"><img src=x onerror=y>',
    "jogador_0": "<b>Zé</b>",
    "jogador_1": "<svg/onload=z>",
    "jogador_2": "'\"><u>&amp;",
    "jogador_3": "{{ 7*7 }}",
}
RAW_MARKUP = ("<script>x()", "<img src=x", "<b>Zé", "<svg/onload", "<u>&amp;", "onerror=y>")


def test_markup_in_team_and_player_names_is_escaped_everywhere(
    app: Flask, client: FlaskClient
) -> None:
    """HTML and script in names are shown as text on the board, log, live view, share page and
    juiz: the raw markup never reaches a page, and no template expression is evaluated."""
    edit = open_table(client, jogadores="4", **HOSTILE)
    play(client, edit, "normal:0:3", "normal:1:1")
    corrected = client.post(
        f"/m/{edit}/corrigir",
        data={"rev": str(revision(client, edit)), "lado": "1", "pontos": "4", "motivo": "<i>oops"},
        headers=HX,
    )
    assert corrected.status_code == 200
    _, view = tokens(app)
    pages = {
        "board": client.get(f"/m/{edit}").text,
        "board fragment": client.get(f"/m/{edit}/placar?rev=0").text,
        "tap response": client.post(
            f"/m/{edit}/marcar",
            data={"rev": str(revision(client, edit)), "o": "normal:0:1"},
            headers=HX,
        ).text,
        "home": client.get("/").text,
        "share": client.get(f"/m/{edit}/compartilhar").text,
        "live": client.get(f"/v/{view}").text,
        "live fragment": client.get(f"/v/{view}/placar?rev=0").text,
        "tv": client.get(f"/v/{view}?tv=1").text,
        "juiz": client.get(f"/m/{edit}/juiz", follow_redirects=True).text,
        "juiz rodada": client.get("/juiz/rodada?vira=4o&jogadas=5c,6c").text,
        "juiz mao": client.get("/juiz/mao?rodadas=nos").text,
    }
    for name, page in pages.items():
        for raw in RAW_MARKUP:
            assert raw not in page, (name, raw)
        assert "<i>oops" not in page, name
    assert htmllib.escape(HOSTILE["time_a"], quote=False) in pages["board"]
    assert "&lt;script&gt;x()&lt;/script&gt;" in pages["live"]
    assert "&lt;script&gt;x()&lt;/script&gt;" in pages["share"]
    assert "&lt;b&gt;Zé&lt;/b&gt;" in pages["juiz rodada"]
    assert "{{ 7*7 }}" in htmllib.unescape(pages["juiz rodada"])
    assert scores(pages["tap response"]) == (4, 4)
