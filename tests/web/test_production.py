"""Production settings: rate limit on opening tables, versioned and cached static files,
compression, and the weight budgets of the first load and of a tap."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.database import polls_engine
from scorekeeper.extensions import db
from scorekeeper.models import Mesa
from scorekeeper.web import polls

from .helpers import HX, counting_statements, open_table, revision, tap

GZIP = {"Accept-Encoding": "gzip"}
FIRST_LOAD_BUDGET = 30 * 1024
TAP_BUDGET = 3 * 1024
YEAR = 60 * 60 * 24 * 365


def first_load_urls(html: str) -> list[str]:
    """Every asset a browser fetches on first load: stylesheets, scripts, icons, the manifest."""
    urls = re.findall(r'<(?:link|script)\b[^>]*?(?:href|src)="([^"]+)"', html)
    return list(dict.fromkeys(url.replace("&amp;", "&") for url in urls))


def gzip_size(client: FlaskClient, url: str, **kwargs: object) -> int:
    """The size on the wire of a GET with gzip accepted."""
    response = client.get(url, headers=GZIP, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == 200, url
    return len(response.get_data())


def test_opening_tables_is_rate_limited_per_client_with_a_portuguese_429(app: Flask) -> None:
    """Past the limit, POST /mesas is a pt-BR 429 page; other clients and taps are not limited."""
    limited = create_app({**app.config, "RATELIMIT_ENABLED": True, "OPEN_TABLE_LIMIT": "3/minute"})
    client = limited.test_client()
    tokens = [open_table(client) for _ in range(3)]
    refused = client.post("/mesas")
    assert refused.status_code == 429
    assert "Muitos pedidos" in refused.text and 'lang="pt-BR"' in refused.text
    fragment = client.post("/mesas", headers=HX)
    assert fragment.status_code == 429 and "Espere um pouco" in fragment.text
    other = limited.test_client()
    assert other.post("/mesas", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 303
    for i in range(12):  # taps are never rate-limited
        assert tap(client, tokens[0], f"normal:{i % 2}:1").status_code == 200
    with limited.app_context():
        db.engine.dispose()


def test_the_rate_limit_is_configurable_and_can_be_switched_off(tmp_path: Path) -> None:
    """OPEN_TABLE_LIMIT sets the limit; RATELIMIT_ENABLED=False switches it off."""
    url = f"sqlite:///{tmp_path / 'limit.sqlite3'}"
    settings = {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False}
    one = create_app({**settings, "OPEN_TABLE_LIMIT": "1 per day"})
    with one.app_context():
        db.create_all()
    client = one.test_client()
    assert client.post("/mesas").status_code == 303
    assert client.post("/mesas").status_code == 429
    free = create_app({**settings, "RATELIMIT_ENABLED": False, "OPEN_TABLE_LIMIT": "1 per day"})
    assert all(free.test_client().post("/mesas").status_code == 303 for _ in range(5))


def test_an_unreachable_redis_never_makes_opening_a_table_a_500(tmp_path: Path) -> None:
    """The limit's Redis down (nothing listens on its port): openings go on, counted in the
    process meanwhile, and the limit still refuses past it."""
    url = f"sqlite:///{tmp_path / 'redis-down.sqlite3'}"
    app = create_app(
        {
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:9/0",  # the discard port: refused
            "OPEN_TABLE_LIMIT": "2 per minute",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    assert [client.post("/mesas").status_code for _ in range(3)] == [303, 303, 429]


def test_only_the_limited_view_pays_for_the_rate_limiter(tmp_path: Path) -> None:
    """Opening a table goes through the limiter; a tap, a poll or a page is exempt before any
    limit is resolved (the limiter's work is most of a tap's overhead otherwise)."""
    from scorekeeper.extensions import limiter

    url = f"sqlite:///{tmp_path / 'exempt.sqlite3'}"
    app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    (exempt,) = limiter._request_filters
    asked = {
        ("POST", "/mesas"): False,
        ("POST", "/m/abc/marcar"): True,
        ("GET", "/m/abc"): True,
        ("GET", "/v/abc/placar"): True,
        ("GET", "/juiz"): True,
    }
    for (method, path), want in asked.items():
        with app.test_request_context(path, method=method):
            assert exempt() is want, path


def test_static_urls_are_versioned_and_cached_for_a_year(client: FlaskClient) -> None:
    """url_for('static') adds ?v=<content hash>: immutable for a year; other URLs revalidate."""
    token = open_table(client)
    html = client.get(f"/m/{token}").text
    assets = [u for u in first_load_urls(html) if u.startswith("/static/")]
    assert assets and all(re.search(r"\?v=[0-9a-f]{10}$", u) for u in assets)
    versioned = client.get(assets[0])
    assert versioned.headers["Cache-Control"] == f"public, max-age={YEAR}, immutable"
    bare = client.get(assets[0].split("?")[0])
    assert bare.status_code == 200 and bare.headers["Cache-Control"] == "no-cache"
    stale = client.get(assets[0].split("?")[0] + "?v=0000000000")
    assert stale.headers["Cache-Control"] == "no-cache"


def test_the_service_worker_caches_the_same_versioned_urls_the_pages_use(
    client: FlaskClient,
) -> None:
    """The shell list in sw.js matches the page's asset URLs, so the offline shell keeps working."""
    html = client.get("/").text
    worker = client.get("/sw.js").text
    for url in first_load_urls(html):
        if url.startswith("/static/js/") or url.startswith("/static/css/app"):
            assert f'"{url}"' in worker, url


def unsigned(body: bytes) -> bytes:
    """A response without its CSRF tokens' values (signed with the second they were made in,
    so two requests a second apart differ there only)."""
    return re.sub(rb"[\w-]{20,}\.[\w-]{6}\.[\w-]{20,}", b"TOKEN", body)


def test_text_responses_and_static_files_are_compressed(client: FlaskClient) -> None:
    """Pages, fragments and static text come gzip-compressed when the browser accepts it."""
    token = open_table(client)
    html = client.get(f"/m/{token}").text
    script = next(u for u in first_load_urls(html) if "writes.js" in u)
    for url in (f"/m/{token}", script):
        response = client.get(url, headers=GZIP)
        assert response.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in response.headers["Vary"]
        plain = client.get(url)
        plain.direct_passthrough = False
        assert unsigned(gzip.decompress(response.get_data())) == unsigned(plain.get_data())
    static = client.get(script, headers=GZIP)
    again = client.get(script, headers={**GZIP, "If-None-Match": static.headers["ETag"]})
    assert again.status_code == 304 and not again.get_data()
    part = client.get(script.split("?")[0], headers={**GZIP, "Range": "bytes=0-99"})
    assert part.status_code == 206 and "Content-Encoding" not in part.headers
    unchanged = client.get(f"/m/{token}/placar?rev={revision(client, token)}", headers=GZIP)
    assert unchanged.status_code == 204 and not unchanged.get_data()


def test_first_load_and_tap_weigh_within_budget(client: FlaskClient) -> None:
    """The board's first load (page and every asset it links) is at most 30 KB compressed, and
    a tap's response at most 3 KB."""
    token = open_table(client)
    for i in range(8):  # a board with a log, as in a real game
        assert tap(client, token, f"normal:{i % 2}:1").status_code == 200
    page = client.get(f"/m/{token}").text
    total = gzip_size(client, f"/m/{token}")
    total += sum(gzip_size(client, url) for url in first_load_urls(page))
    assert total <= FIRST_LOAD_BUDGET, total
    response = client.post(
        f"/m/{token}/marcar",
        data={"rev": str(revision(client, token)), "o": "normal:0:1"},
        headers={**HX, **GZIP},
    )
    assert response.status_code == 200
    assert len(response.get_data()) <= TAP_BUDGET, len(response.get_data())


def test_behind_a_trusted_proxy_the_client_address_is_the_forwarded_one(tmp_path: Path) -> None:
    """With TRUSTED_PROXIES=1 the rate limit counts the X-Forwarded-For client, not the proxy."""
    url = f"sqlite:///{tmp_path / 'proxy.sqlite3'}"
    proxied = create_app(
        {
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "TRUSTED_PROXIES": 1,
            "OPEN_TABLE_LIMIT": "1 per day",
        }
    )
    with proxied.app_context():
        db.create_all()
    client = proxied.test_client()
    for address in ("203.0.113.1", "203.0.113.2"):
        headers = {"X-Forwarded-For": address}
        assert client.post("/mesas", headers=headers).status_code == 303
        assert client.post("/mesas", headers=headers).status_code == 429


def test_a_changed_live_poll_another_viewer_asked_for_costs_a_single_query(
    app: Flask, client: FlaskClient
) -> None:
    """After a tap, the first viewer's poll draws the new fragment; every other viewer's poll
    of that revision gets it from the worker after the one indexed read of the revision."""
    edit = open_table(client)
    tap(client, edit, "normal:0:3")
    statements: list[str] = []
    with app.app_context():
        view = db.session.execute(db.select(Mesa.view_token)).scalar_one()
        first = client.get(f"/v/{view}/placar?rev=0", headers={**HX, **GZIP})
        with counting_statements(db.engine, polls_engine(), statements):
            again = client.get(f"/v/{view}/placar?rev=0", headers={**HX, **GZIP})
    assert first.status_code == again.status_code == 200
    assert again.get_data() == first.get_data()
    assert len(statements) == 1 and "revision" in statements[0].lower(), statements


@contextmanager
def reaching_flask(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests that get past the unchanged-poll layer to Flask."""
    layer = app.wsgi_app
    inner, reached = layer.inner, []  # type: ignore[attr-defined]

    def noting(environ: dict[str, Any], start_response: Any) -> Any:
        reached.append(environ["PATH_INFO"] + "?" + environ.get("QUERY_STRING", ""))
        return inner(environ, start_response)

    layer.inner = noting  # type: ignore[attr-defined]
    try:
        yield reached
    finally:
        layer.inner = inner  # type: ignore[attr-defined]


def test_an_unchanged_poll_is_answered_before_flask_with_every_security_header(
    app: Flask, client: FlaskClient
) -> None:
    """A board's or live view's poll of the current revision gets its 204 without Flask (no
    request context, session or hooks), with the headers Flask's own answer carries."""
    edit = open_table(client)
    with app.app_context():
        view = db.session.execute(db.select(Mesa.view_token)).scalar_one()
    with reaching_flask(app) as reached:
        fast = [client.get(url, headers=HX) for url in (
            f"/m/{edit}/placar?rev=0", f"/v/{view}/placar?rev=0", f"/v/{view}/placar?rev=0&tv=1"
        )]  # fmt: skip
        page = client.get(f"/v/{view}")
    assert reached == [f"/v/{view}?"]
    for answer in fast:
        assert answer.status_code == 204 and answer.data == b""
        assert "Set-Cookie" not in answer.headers
        for name in (
            "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy",
            "X-Frame-Options", "Cache-Control", "X-Robots-Tag",
        ):  # fmt: skip
            assert answer.headers[name] == page.headers[name], name


def test_every_other_poll_goes_on_to_flask(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed board, another query, a token of the other kind or none, a Host not trusted
    and a read that fails all reach Flask, which answers them as before."""
    edit = open_table(client)
    with app.app_context():
        view = db.session.execute(db.select(Mesa.view_token)).scalar_one()
    others = {
        f"/m/{edit}/placar?rev=1": 200,
        f"/m/{edit}/placar?rev=0&x=1": 204,
        f"/m/{edit}/placar": 200,
        f"/m/{view}/placar?rev=0": 403,
        f"/v/{edit}/placar?rev=0": 404,
        f"/v/{view[:-1]}/placar?rev=0": 404,
    }
    with reaching_flask(app) as reached:
        for url, status in others.items():
            assert client.get(url, headers=HX).status_code == status, url
    assert reached == [url if "?" in url else url + "?" for url in others]
    app.config["TRUSTED_HOSTS"] = ["tento.example"]
    with reaching_flask(app) as reached:
        assert client.get(f"/v/{view}/placar?rev=0", headers=HX).status_code == 400
        ok = client.get(f"/v/{view}/placar?rev=0", headers=HX, base_url="http://tento.example")
    assert ok.status_code == 204 and reached == [f"/v/{view}/placar?rev=0"]
    app.config["TRUSTED_HOSTS"] = None

    calls: list[str] = []
    read = polls.current_revision

    def failing_once(token: str, *, edit: bool) -> int | None:
        calls.append(token)
        if len(calls) == 1:
            raise OSError("the database went away")
        return read(token, edit=edit)

    monkeypatch.setattr(polls, "current_revision", failing_once)
    with reaching_flask(app) as reached:
        assert client.get(f"/v/{view}/placar?rev=0", headers=HX).status_code == 204
    assert reached == [f"/v/{view}/placar?rev=0"] and calls == [view, view]


def test_unchanged_polls_answer_204_after_a_single_query(app: Flask, client: FlaskClient) -> None:
    """An unchanged poll (board or live view) costs one indexed read and sends no body; a change,
    a tampered token or a token of the other kind still gets the full answer or the refusal."""
    edit = open_table(client)
    statements: list[str] = []
    with app.app_context():
        view = db.session.execute(db.select(Mesa.view_token)).scalar_one()
        with counting_statements(db.engine, polls_engine(), statements):
            for url in (f"/m/{edit}/placar?rev=0", f"/v/{view}/placar?rev=0"):
                statements.clear()
                fast = client.get(url, headers={**HX, **GZIP})
                assert fast.status_code == 204 and fast.data == b""
                assert "Content-Encoding" not in fast.headers
                assert len(statements) == 1, statements
    assert client.get(f"/m/{edit}/placar?rev=1").status_code == 200
    assert client.get(f"/m/{edit}/placar").status_code == 200
    assert client.get(f"/m/{view}/placar?rev=0").status_code == 403
    assert client.get(f"/v/{edit}/placar?rev=0").status_code == 404
    assert client.get(f"/v/{view[:-1]}/placar?rev=0").status_code == 404
