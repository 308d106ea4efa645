"""Ao vivo: the share page and its QR codes, the live view, viewer refusals, rotation, headers."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper import caches, create_app
from scorekeeper.domain.common import writes
from scorekeeper.domain.mesa import service
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa
from scorekeeper.web.common import links
from scorekeeper.web.common.qr import qr_svg

from .helpers import decode_qr, mesa_of, open_table, play

MACHINE_IP = "192.168.1.23"  # what lan_address() answers in these tests
MACHINE = f"http://{MACHINE_IP}:5000"
LAN = MACHINE  # a phone on the Wi-Fi opens the address the app found itself
PUBLIC = "https://tento.example.com.br"
WRITE_ROUTES = ("marcar", "desfazer", "refazer", "nota", "corrigir", "trocar-links")
TO_ELEVEN = ("normal:0:9", "normal:0:1", "normal:0:1")
TO_FERRO = (*TO_ELEVEN[:2], "normal:1:9", "normal:1:1", "normal:0:1", "onze_correu:1")


def settings(tmp_path: Path, **extra: object) -> dict[str, object]:
    """The conftest app's settings (throw-away SQLite, CSRF off) plus `extra`."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'share.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        **extra,
    }


def make_app(tmp_path: Path, **extra: object) -> Iterator[Flask]:
    """An app like the conftest one with extra settings, its schema created."""
    made = create_app(settings(tmp_path, **extra))
    with made.app_context():
        db.create_all()
    yield made
    with made.app_context():
        db.engine.dispose()


@pytest.fixture
def local_app(app: Flask) -> Flask:
    """The conftest app with no PUBLIC_URL, whatever the environment says."""
    app.config["PUBLIC_URL"] = None
    return app


@pytest.fixture
def public_app(tmp_path: Path) -> Iterator[Flask]:
    """An app served at a configured PUBLIC_URL."""
    yield from make_app(tmp_path, PUBLIC_URL=PUBLIC)


def snapshot(app: Flask, mesa_id: int) -> tuple[object, ...]:
    """Everything a write could change: tokens, revision and every record."""
    with app.app_context():
        mesa = db.session.get(Mesa, mesa_id)
        assert mesa is not None
        rows = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa_id).order_by(HandRecord.seq)
        ).scalars()
        records = tuple((r.seq, r.kind, r.side, r.points, r.note, r.status) for r in rows)
        return (mesa.edit_token, mesa.view_token, mesa.revision, records)


def text_of(html: str, name: str) -> str | None:
    """The text of the first element with data-testid=name (tags stripped), or None."""
    match = re.search(rf'<(\w+)[^>]*data-testid="{name}"[^>]*>(.*?)</\1>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", match.group(2)).split()) if match else None


def live_rev(html: str) -> int:
    """The revision the live view was drawn from."""
    match = re.search(r'id="live"[^>]*data-rev="(\d+)"', html)
    assert match, html
    return int(match.group(1))


def qr_block(html: str, name: str) -> str:
    """The inline SVG inside the element with data-testid=name."""
    match = re.search(rf'data-testid="{name}"[^>]*>\s*(<svg.*?</svg>)', html, re.S)
    assert match, f"no QR SVG in {name}"
    return match.group(1)


# --- The share page and its QR codes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("opened_at", "public", "base"),
    [
        (LAN, False, LAN),
        ("http://127.0.0.1:5000", False, MACHINE),
        ("http://localhost:5000", False, MACHINE),
        (LAN, True, PUBLIC),
        ("http://127.0.0.1:5000", True, PUBLIC),
    ],
    ids=["lan-host", "127-uses-lan", "localhost-uses-lan", "PUBLIC_URL", "PUBLIC_URL-on-127"],
)
def test_both_qr_codes_decode_to_links_other_phones_can_open(
    opened_at: str, public: bool, base: str, local_app: Flask, public_app: Flask,
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Scanning 'Assistir' opens the live view, 'Marcar junto' the board, never at localhost."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    app = public_app if public else local_app
    client = app.test_client()
    edit = open_table(client)
    mesa = mesa_of(app, edit)
    page = client.get(f"/m/{edit}/compartilhar", base_url=opened_at)
    assert page.status_code == 200
    expected = {"qr-assistir": f"{base}/v/{mesa.view_token}", "qr-marcar": f"{base}/m/{edit}"}
    for name, url in expected.items():
        assert decode_qr(qr_block(page.text, name), tmp_path, name) == url
    assert text_of(page.text, "link-assistir") == expected["qr-assistir"]
    assert text_of(page.text, "link-marcar") == expected["qr-marcar"]
    assert page.text.count(f'data-copy="{expected["qr-assistir"]}"') == 1
    assert page.text.count(f'data-copy="{expected["qr-marcar"]}"') == 1


def test_the_scorer_code_hides_behind_mostrar_with_a_warning(local_app: Flask) -> None:
    """The 'Marcar junto' code sits in a closed <details> and says whoever scans it can score."""
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url=LAN).text
    details = re.search(r"<details class=\"reveal\">(.*?)</details>", html, re.S)
    assert details and 'data-testid="qr-marcar"' in details.group(1)
    assert 'data-testid="mostrar-marcar"' in details.group(1)
    assert "pode mudar o placar" in html
    watch = html.index('data-testid="qr-assistir"')
    assert "<details" not in html[html.rindex("<section", 0, watch) : watch]


def test_the_mostrar_button_reads_esconder_when_open_without_javascript(local_app: Flask) -> None:
    """The summary holds both words; live.css shows 'mostrar' closed and 'esconder' open."""
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url=LAN).text
    summary = re.search(r'<summary[^>]*data-testid="mostrar-marcar">(.*?)</summary>', html, re.S)
    assert summary
    assert '<span class="when-closed">mostrar</span>' in summary.group(1)
    assert '<span class="when-open">esconder</span>' in summary.group(1)
    css = client.get("/static/css/live.css").text
    compact = re.sub(r";}", "}", re.sub(r"\s*([,{};:])\s*", r"\1", css))
    assert ".reveal:not([open]) .when-open,.reveal[open] .when-closed{display:none}" in compact


def test_the_board_links_to_the_share_page(local_app: Flask) -> None:
    """The board's 'Compartilhar' leads to this page."""
    client = local_app.test_client()
    edit = open_table(client)
    board = client.get(f"/m/{edit}").text
    assert f'href="/m/{edit}/compartilhar" data-testid="compartilhar"' in board
    assert client.get(f"/m/{edit}/compartilhar").status_code == 200


@pytest.mark.parametrize("host", ["http://localhost:5000", "http://127.0.0.1:5000"])
def test_share_page_on_localhost_uses_the_lan_address_and_says_so_in_one_line(
    host: str, local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links to localhost are useless to another phone: the LAN address, right away, no restart."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    client = local_app.test_client()
    edit = open_table(client)
    mesa = mesa_of(local_app, edit)
    html = client.get(f"/m/{edit}/compartilhar", base_url=host).text
    assert text_of(html, "nota-endereco") == (
        f"Os códigos levam ao endereço deste computador na rede local, {MACHINE_IP}:5000."
    )
    assert text_of(html, "link-assistir") == f"{MACHINE}/v/{mesa.view_token}"
    assert "HOST=0.0.0.0" not in html and "pare o servidor" not in html
    assert "localhost:5000" not in html and "127.0.0.1:5000" not in html


@pytest.mark.parametrize(
    ("opened_at", "expected"),
    [
        ("http://127.0.0.1:5078", "http://10.0.0.5:5078"),
        ("https://localhost", "https://10.0.0.5"),
        ("http://localhost", "http://10.0.0.5"),
        ("http://[::1]:8080", "http://10.0.0.5:8080"),
        ("http://127.0.0.1:5000/tento", "http://10.0.0.5:5000/tento"),
    ],
)
def test_the_lan_links_keep_the_requests_scheme_port_and_prefix(
    opened_at: str, expected: str, local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the host changes: the server answers on the same scheme, port and path on the LAN."""
    monkeypatch.setattr(links, "lan_address", lambda: "10.0.0.5")
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url=opened_at).text
    assert text_of(html, "link-marcar") == f"{expected}/m/{edit}"


def test_without_a_lan_address_the_page_says_so_in_one_line(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No network at all: say so, keep the request's links, no made-up address."""
    monkeypatch.setattr(links, "lan_address", lambda: None)
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url="http://localhost:5000").text
    assert text_of(html, "nota-endereco") == links.NO_LAN_NOTE
    assert "não achei" in links.NO_LAN_NOTE.lower()
    assert text_of(html, "link-marcar") == f"http://localhost:5000/m/{edit}"


def test_a_private_server_keeps_the_links_local_and_says_why(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Served on 127.0.0.1 only (make run HOST=127.0.0.1): LAN links would not open; say so."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    local_app.config["SERVES_LAN"] = False
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url="http://127.0.0.1:5000").text
    assert text_of(html, "nota-endereco") == links.PRIVATE_NOTE
    assert text_of(html, "link-marcar") == f"http://127.0.0.1:5000/m/{edit}"
    assert MACHINE_IP not in html


def test_no_note_on_a_lan_host(local_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone on the LAN already has a usable address: its own host is kept, nothing to say."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url=LAN).text
    assert 'data-testid="nota-endereco"' not in html
    assert text_of(html, "link-marcar") == f"{LAN}/m/{edit}"


def test_a_forged_host_never_reaches_the_shared_links(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Host header nobody vouched for (not PUBLIC_URL, not the LAN address the app found, not
    on TRUSTED_HOSTS) is not what the QR codes carry: they use the LAN address, on the port the
    server listens on."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    client = local_app.test_client()
    edit = open_table(client)
    html = client.get(
        f"/m/{edit}/compartilhar",
        base_url="http://127.0.0.1:5000",
        headers={"Host": "evil.example:6666"},
    ).text
    assert "evil.example" not in html
    assert text_of(html, "link-marcar") == f"http://{MACHINE_IP}:5000/m/{edit}"


def test_trusted_hosts_are_kept_and_every_other_host_refused(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With TRUSTED_HOSTS, a listed host is used as asked for; any other Host gets a 400."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    client = local_app.test_client()
    edit = open_table(client)
    local_app.config["TRUSTED_HOSTS"] = ["placar.casa"]
    html = client.get(f"/m/{edit}/compartilhar", base_url="http://placar.casa").text
    assert text_of(html, "link-marcar") == f"http://placar.casa/m/{edit}"
    forged = client.get(f"/m/{edit}/compartilhar", headers={"Host": "evil.example"})
    assert forged.status_code == 400
    assert "evil.example" not in forged.text


def test_public_url_wins_even_on_localhost(
    public_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PUBLIC_URL the links use it, whatever address the page was opened with."""
    monkeypatch.setattr(links, "lan_address", lambda: MACHINE_IP)
    client = public_app.test_client()
    edit = open_table(client)
    html = client.get(f"/m/{edit}/compartilhar", base_url="http://127.0.0.1:5000").text
    assert 'data-testid="nota-endereco"' not in html
    assert text_of(html, "link-marcar") == f"{PUBLIC}/m/{edit}"
    assert MACHINE_IP not in html


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("localhost", True),
        ("LOCALHOST", True),
        ("app.localhost", True),
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("192.168.0.7", False),
        ("10.0.0.5", False),
        ("tento.example.com.br", False),
        ("", False),
    ],
)
def test_local_hosts(host: str, local: bool) -> None:
    """Which hostnames only this machine can reach."""
    assert links.is_local_host(host) is local


def test_lan_address_never_raises_and_is_never_loopback() -> None:
    """Whatever the machine's network, the answer is an address other phones could use, or None."""
    address = links.lan_address()
    assert address is None or not links.is_local_host(address)


def test_lan_address_falls_back_and_gives_up_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """No route: the host name's address; nothing at all: None."""

    def no_socket(*_args: object, **_kwargs: object) -> object:
        raise OSError("no network")

    monkeypatch.setattr(links.socket, "socket", no_socket)
    monkeypatch.setattr(links.socket, "gethostbyname", lambda _name: "192.168.5.5")
    assert links.lan_address() == "192.168.5.5"
    monkeypatch.setattr(links.socket, "gethostbyname", lambda _name: "127.0.1.1")
    assert links.lan_address() is None
    monkeypatch.setattr(links.socket, "gethostbyname", no_socket)
    assert links.lan_address() is None


def test_qr_svg_is_responsive_with_unique_ids_and_cached() -> None:
    """No mm sizes, viewBox kept, no XML declaration or style attribute, one id per code."""
    first = qr_svg("http://example.com/v/a", "qr-assistir", "Assistir")
    second = qr_svg("http://example.com/m/b", "qr-marcar", "Marcar")
    for svg in (first, second):
        root = svg[: svg.index(">")]
        assert svg.startswith("<svg") and "viewBox=" in root
        assert "width=" not in root and "height=" not in root and "mm" not in root
        assert "style=" not in svg and "<?xml" not in svg
    ids = re.findall(r'\sid="([^"]+)"', first + second)
    assert len(ids) == len(set(ids))
    assert qr_svg("http://example.com/v/a", "qr-assistir", "Assistir") is first


def test_the_share_page_has_no_inline_styles_or_scripts(local_app: Flask) -> None:
    """The CSP forbids them: classes in live.css, behaviour in static/js (copy.js, live.js)."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    pages = {f"/m/{edit}/compartilhar": "copy", f"/v/{view}": "live", f"/v/{view}?tv=1": "live"}
    for url, script in pages.items():
        html = client.get(url, base_url=LAN).text
        assert " style=" not in html and " on" + "click=" not in html
        assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
        assert "css/live.css" in html and f"js/{script}.js" in html
    assert client.get("/static/css/live.css").status_code == 200


# --- The live view ---------------------------------------------------------------------------


def test_live_view_shows_the_score_with_the_boards_hooks_and_no_tap(
    local_app: Flask,
) -> None:
    """Big score, names, tally, kind of hand, last hand, deal; nothing to press."""
    client = local_app.test_client()
    edit = open_table(client, time_a="Zé", time_b="Tião")
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:1:3", htmx=False)
    html = client.get(f"/v/{view}").text
    assert text_of(html, "score-a") == "0" and text_of(html, "score-b") == "3"
    assert text_of(html, "series-a") == "0" and text_of(html, "series-b") == "0"
    assert "Zé" in html and "Tião" in html
    assert text_of(html, "fase") == "Mão normal"
    assert re.fullmatch(r"Última mão: Tião \+3 · \d\d:\d\d", text_of(html, "ultima") or "")
    assert "Dá as cartas" in (text_of(html, "vez") or "")
    live = html[html.index('id="live"') :]
    assert "<form" not in html and "hx-post" not in html and 'type="submit"' not in html
    assert "<button" not in live and "<input" not in live and "tap-" not in live
    assert edit not in html


def test_live_view_before_any_hand(local_app: Flask) -> None:
    """A fresh table says no hand was logged yet."""
    client = local_app.test_client()
    view = mesa_of(local_app, open_table(client)).view_token
    html = client.get(f"/v/{view}").text
    assert text_of(html, "ultima") == "Nenhuma mão marcada ainda."


def test_live_view_names_the_mao_de_onze_side_and_the_mao_de_ferro(local_app: Flask) -> None:
    """The kind of hand being played, as the board has it."""
    client = local_app.test_client()
    edit = open_table(client, time_a="Zé", time_b="Tião")
    view = mesa_of(local_app, edit).view_token
    for code in TO_ELEVEN:
        play(client, edit, code, htmx=False)
    assert text_of(client.get(f"/v/{view}").text, "fase") == "Mão de onze · quem decide: Zé"
    second = open_table(client)
    second_view = mesa_of(local_app, second).view_token
    for code in TO_FERRO:
        play(client, second, code, htmx=False)
    html = client.get(f"/v/{second_view}").text
    assert "Mão de ferro" in (text_of(html, "fase") or "")
    assert "phase-mao_de_ferro" in html


def test_live_view_shows_the_winner_and_the_series_tally(local_app: Flask) -> None:
    """After a game the tally moves and the winner is named."""
    client = local_app.test_client()
    edit = open_table(client, serie="melhor_de_3")
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:0:12", htmx=False)
    html = client.get(f"/v/{view}").text
    assert text_of(html, "fase") == "Partida para Nós!"
    assert text_of(html, "series-a") == "1"
    assert "Melhor de 3" in (text_of(html, "serie") or "")


def test_live_view_polls_every_two_seconds_with_its_revision(local_app: Flask) -> None:
    """The poller carries the revision shown and swaps the whole #live region."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    html = client.get(f"/v/{view}").text
    poll = re.search(r'<div class="poll"([^>]*)>', html)
    assert poll, html
    assert f'hx-get="/v/{view}/placar?rev=0"' in poll.group(1)
    assert 'hx-trigger="every 2s"' in poll.group(1) and "[" not in poll.group(1)
    assert 'hx-target="#live"' in poll.group(1) and 'hx-swap="outerHTML"' in poll.group(1)


def test_unchanged_poll_is_204_with_an_empty_body(local_app: Flask) -> None:
    """A thousand phones cost almost nothing while nobody scores."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:0:1", htmx=False)
    response = client.get(f"/v/{view}/placar?rev=1", headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.data == b""


def terminate_other_connections(app: Flask) -> int:
    """Close every other connection to the test database from the server side, as a restart
    of PostgreSQL would; how many were closed."""
    with app.app_context(), db.engine.connect() as connection:
        closed = connection.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar_one()
        db.engine.dispose()  # this one too: only the polls engine's pool keeps dead connections
    return int(closed)


@pytest.mark.parametrize("app", ["postgresql"], indirect=True)
def test_polls_and_taps_survive_the_server_dropping_connections(local_app: Flask) -> None:
    """A poll whose pooled connection the server closed gets a new one (no 500), and taps go on
    (tests/web/test_connections.py: the same with no pool disposed, and a real restart)."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    assert client.get(f"/v/{view}/placar?rev=0").status_code == 204  # the polls pool is warm
    assert terminate_other_connections(local_app) >= 1
    assert client.get(f"/v/{view}/placar?rev=0").status_code == 204
    play(client, edit, "normal:0:3", htmx=False)
    assert client.get(f"/v/{view}/placar?rev=1").status_code == 204


def test_changed_poll_answers_the_new_fragment(local_app: Flask) -> None:
    """After a tap, a poll with the old revision gets the fresh #live fragment."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    before = client.get(f"/v/{view}").text
    assert live_rev(before) == 0
    client.post(f"/m/{edit}/marcar", data={"rev": "0", "o": "normal:0:3"})
    response = client.get(f"/v/{view}/placar?rev=0", headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith("<title>") and "<html" not in html
    assert live_rev(html) == 1 and text_of(html, "score-a") == "3"
    assert f"/v/{view}/placar?rev=1" in html
    assert client.get(f"/v/{view}/placar").status_code == 200  # no revision: the fragment


def test_a_kept_live_fragment_never_outlives_its_revision(local_app: Flask) -> None:
    """Every viewer of a revision gets the same fragment (drawn once); a tap, an undo, a note, the
    TV layout and a link rotation each show at once, never an older fragment."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:0:3", htmx=False)
    first = client.get(f"/v/{view}/placar?rev=0").text
    assert client.get(f"/v/{view}/placar?rev=0").text == first  # the table's next viewer
    assert live_rev(first) == 1 and text_of(first, "score-a") == "3"
    assert 'class="live tv' in client.get(f"/v/{view}/placar?rev=0&tv=1").text
    assert 'class="live tv' not in client.get(f"/v/{view}/placar?rev=0").text
    play(client, edit, "normal:1:1", htmx=False)
    second = client.get(f"/v/{view}/placar?rev=1").text
    assert live_rev(second) == 2 and text_of(second, "score-b") == "1"
    client.post(f"/m/{edit}/desfazer", data={"rev": "2"})
    undone = client.get(f"/v/{view}/placar?rev=2").text
    assert live_rev(undone) == 3 and text_of(undone, "score-b") == "0"
    with local_app.app_context():
        record = db.session.execute(db.select(HandRecord.id)).scalars().first()
    client.post(f"/m/{edit}/nota", data={"rev": "3", "registro": str(record), "nota": "truco"})
    noted = client.get(f"/v/{view}/placar?rev=3").text
    assert live_rev(noted) == 4 and "truco" in (text_of(noted, "ultima") or "")
    client.post(f"/m/{edit}/trocar-links", data={"rev": "4"})
    assert client.get(f"/v/{view}/placar?rev=3").status_code == 404


def test_the_kept_live_fragments_stay_bounded(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker keeps at most its cache's bound of live fragments, dropping the least recently
    used: the newest table's and the one asked for again stay."""
    monkeypatch.setattr(caches, "LIVE", replace(caches.LIVE, bound=2))
    client = local_app.test_client()
    views = []
    for _ in range(4):
        views.append(mesa_of(local_app, open_table(client)).view_token)
        assert client.get(f"/v/{views[-1]}/placar").status_code == 200
        assert client.get(f"/v/{views[0]}/placar").status_code == 200  # asked for again
        with local_app.app_context():
            kept = caches.store(caches.LIVE)
        assert {key[0] for key in kept} == {views[0], views[-1]}


def test_modo_tv_adds_its_layout_and_keeps_it_while_polling(local_app: Flask) -> None:
    """?tv=1 is the room-sized layout, kept in the poll URL and in the fragments."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    html = client.get(f"/v/{view}?tv=1").text
    assert re.search(r'id="live" class="live tv', html)
    assert f"/v/{view}/placar?rev=0&amp;tv=1" in html
    play(client, edit, "normal:1:1", htmx=False)
    fragment = client.get(f"/v/{view}/placar?rev=0&tv=1").text
    assert re.search(r'id="live" class="live tv', fragment)
    assert 'class="live tv' not in client.get(f"/v/{view}").text


# --- Permissions -----------------------------------------------------------------------------


@pytest.mark.parametrize("route", WRITE_ROUTES)
def test_the_viewer_token_is_refused_on_every_write_route(local_app: Flask, route: str) -> None:
    """403 in pt-BR, and nothing changes: not the score, the log, the revision or the tokens."""
    client = local_app.test_client()
    edit = open_table(client)
    play(client, edit, "normal:0:3", htmx=False)
    mesa = mesa_of(local_app, edit)
    before = snapshot(local_app, mesa.id)
    form = {
        "rev": str(mesa.revision),
        "o": "normal:1:3",
        "registro": "1",
        "nota": "truco",
        "lado": "1",
        "pontos": "9",
        "motivo": "tentando",
    }
    response = client.post(f"/m/{mesa.view_token}/{route}", data=form)
    assert response.status_code == 403
    assert "Sem permissão" in response.text and 'lang="pt-BR"' in response.text
    htmx = client.post(f"/m/{mesa.view_token}/{route}", data=form, headers={"HX-Request": "true"})
    assert htmx.status_code == 403
    assert snapshot(local_app, mesa.id) == before


@pytest.mark.parametrize("path", ["", "/marcar", "/placar", "/trocar-links", "/a/b"])
def test_posting_anything_under_the_viewer_link_is_refused(local_app: Flask, path: str) -> None:
    """The live view's own URLs accept no write either."""
    client = local_app.test_client()
    edit = open_table(client)
    mesa = mesa_of(local_app, edit)
    before = snapshot(local_app, mesa.id)
    response = client.post(f"/v/{mesa.view_token}{path}", data={"rev": "0", "o": "normal:0:3"})
    assert response.status_code == 403 and "Sem permissão" in response.text
    assert client.post(f"/v/{'x' * 32}{path}").status_code == 404
    assert snapshot(local_app, mesa.id) == before


def test_the_viewer_token_cannot_apply_a_juiz_ruling(local_app: Flask) -> None:
    """The juiz applies only to a table opened with its scorer token: a viewer token cannot
    attach the juiz to the table (403), and 'aplicar' without a table applies nothing (404)."""
    client = local_app.test_client()
    edit = open_table(client)
    mesa = mesa_of(local_app, edit)
    before = snapshot(local_app, mesa.id)
    viewer = local_app.test_client()
    assert viewer.get(f"/m/{mesa.view_token}/juiz").status_code == 403
    form = {"mesa": mesa.view_token, "rev": "0", "tipo": "normal", "lado": "0", "pontos": "3"}
    assert viewer.post("/juiz/aplicar", data=form).status_code == 404
    assert snapshot(local_app, mesa.id) == before


def test_the_viewer_token_does_not_open_the_board_or_the_share_page(local_app: Flask) -> None:
    """The scorer's pages (and their poll) refuse a viewer link with 403."""
    client = local_app.test_client()
    view = mesa_of(local_app, open_table(client)).view_token
    for url in (f"/m/{view}", f"/m/{view}/placar?rev=0", f"/m/{view}/compartilhar"):
        assert client.get(url).status_code == 403


def test_the_scorer_token_is_not_a_viewer_token(local_app: Flask) -> None:
    """Each link opens only its own pages."""
    client = local_app.test_client()
    edit = open_table(client)
    assert client.get(f"/v/{edit}").status_code == 404


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/v/{t}"),
        ("get", "/v/{t}/placar?rev=0"),
        ("get", "/m/{t}/compartilhar"),
        ("post", "/m/{t}/trocar-links"),
        ("get", "/m/{t}"),
    ],
)
def test_a_made_up_token_is_a_portuguese_404(client: FlaskClient, method: str, url: str) -> None:
    """Unknown, too long or empty-looking tokens: the pt-BR not-found page."""
    open_table(client)
    for token in ("naoexiste", "A" * 32, "x" * 65):
        response = getattr(client, method)(url.format(t=token))
        assert response.status_code == 404
        assert "Página não encontrada" in response.text and 'lang="pt-BR"' in response.text


def test_tokens_have_at_least_128_bits(local_app: Flask) -> None:
    """Both tokens (and rotated ones) come from `secrets` with at least 16 random bytes."""
    client = local_app.test_client()
    edit = open_table(client)
    mesa = mesa_of(local_app, edit)
    fresh = [service.new_token() for _ in range(50)]
    for token in (mesa.edit_token, mesa.view_token, *fresh):
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) >= 16
    assert len(set(fresh)) == len(fresh)


def test_tokens_are_compared_in_constant_time(
    local_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lookup confirms the token with hmac.compare_digest."""
    client = local_app.test_client()
    view = mesa_of(local_app, open_table(client)).view_token
    calls: list[tuple[bytes, bytes]] = []
    real = writes.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(writes.hmac, "compare_digest", spy)
    assert client.get(f"/v/{view}").status_code == 200
    assert (view.encode(), view.encode()) in calls


# --- Rotation --------------------------------------------------------------------------------


def test_trocar_links_kills_the_old_links_and_the_new_ones_work(local_app: Flask) -> None:
    """New tokens at once: old scorer and viewer links are 404, the score is kept."""
    client = local_app.test_client()
    edit = open_table(client)
    play(client, edit, "normal:0:6", htmx=False)
    old = mesa_of(local_app, edit)
    old_qr = client.get(f"/m/{edit}/compartilhar").text
    response = client.post(f"/m/{edit}/trocar-links", data={"rev": str(old.revision)})
    assert response.status_code == 303
    new = mesa_of(local_app, edit_token_from(response.headers["Location"]))
    assert new.id == old.id and new.revision == old.revision + 1
    assert {new.edit_token, new.view_token}.isdisjoint({old.edit_token, old.view_token})
    for url in (
        f"/m/{old.edit_token}",
        f"/m/{old.edit_token}/placar?rev=0",
        f"/m/{old.edit_token}/compartilhar",
        f"/v/{old.view_token}",
        f"/v/{old.view_token}/placar?rev=0",
    ):
        assert client.get(url).status_code == 404, url
    stale = client.post(f"/m/{old.edit_token}/marcar", data={"rev": str(old.revision), "o": "a"})
    assert stale.status_code == 404
    page = client.get(response.headers["Location"])
    assert page.status_code == 200 and 'data-testid="links-trocados"' in page.text
    assert qr_block(page.text, "qr-assistir") != qr_block(old_qr, "qr-assistir")
    live = client.get(f"/v/{new.view_token}").text
    assert text_of(live, "score-a") == "6"
    assert client.get(f"/m/{new.edit_token}").status_code == 200


def edit_token_from(location: str) -> str:
    """The scorer token in a /m/<token>/compartilhar redirect."""
    match = re.search(r"/m/([A-Za-z0-9_-]+)/compartilhar", location)
    assert match, location
    return match.group(1)


def test_trocar_links_keeps_the_table_in_this_browsers_list(local_app: Flask) -> None:
    """The home page's 'Suas mesas' follows the new scorer link."""
    client = local_app.test_client()
    edit = open_table(client)
    rotated = client.post(f"/m/{edit}/trocar-links", data={"rev": "0"})
    new = edit_token_from(rotated.headers["Location"])
    home = client.get("/").text
    assert f"/m/{new}" in home and f"/m/{edit}" not in home


def test_trocar_links_needs_the_csrf_token(csrf_app: Flask) -> None:
    """With CSRF on (as in production) a forged post is refused; the page's own form works."""
    client = csrf_app.test_client()
    home = client.get("/").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', home)
    assert token
    created = client.post("/mesas", data={"csrf_token": token.group(1)})
    edit = edit_from_board(created.headers["Location"])
    mesa = mesa_of(csrf_app, edit)
    assert client.post(f"/m/{edit}/trocar-links").status_code == 400
    assert mesa_of(csrf_app, edit).view_token == mesa.view_token
    page = client.get(f"/m/{edit}/compartilhar").text
    form = re.search(r'action="/m/[^"]+/trocar-links">\s*<input[^>]*value="([^"]+)"', page)
    assert form
    data = {"csrf_token": form.group(1), "rev": str(mesa.revision)}
    assert client.post(f"/m/{edit}/trocar-links", data=data).status_code == 303
    assert client.post(f"/v/{mesa.view_token}/marcar").status_code == 404  # rotated away


def test_rotating_links_is_a_compare_and_swap(app: Flask) -> None:
    """Ten phones rotating at once from the same page: one does it, the others are told their
    link is gone (404) or the board changed (409); the links the winner got are the table's."""
    edit = open_table(app.test_client())
    mesa = mesa_of(app, edit)

    def rotate(_: int) -> tuple[int, str]:
        response = app.test_client().post(
            f"/m/{edit}/trocar-links", data={"rev": str(mesa.revision)}
        )
        return response.status_code, response.headers.get("Location", "")

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(rotate, range(10)))
    done = [where for status, where in answers if status == 303]
    assert len(done) == 1
    assert all(status in (404, 409) for status, _ in answers if status != 303)
    after = mesa_of(app, edit_token_from(done[0]))
    assert after.revision == mesa.revision + 1
    assert app.test_client().get(done[0]).status_code == 200


def test_a_stale_rotation_is_refused_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    """Rotating from a share page drawn before a tap: 409 with the message, same links."""
    edit = open_table(client)
    play(client, edit, "normal:0:1", htmx=False)
    refused = client.post(f"/m/{edit}/trocar-links", data={"rev": "0"})
    assert refused.status_code == 409
    assert "mudou em outro aparelho" in (text_of(refused.text, "mensagem") or "")
    assert mesa_of(app, edit).edit_token == edit


def test_the_home_page_says_when_another_phone_rotated_a_tables_links(
    app: Flask, client: FlaskClient
) -> None:
    """A table of this browser whose links another phone rotated is not dropped silently: the
    home page says so once."""
    edit = open_table(client)
    other = app.test_client()
    assert other.post(f"/m/{edit}/trocar-links", data={"rev": "0"}).status_code == 303
    home = client.get("/").text
    assert "trocados em outro aparelho" in (text_of(home, "mesas-trocadas") or "")
    assert 'data-testid="mesas-trocadas"' not in client.get("/").text


def edit_from_board(location: str) -> str:
    """The scorer token in a /m/<token> redirect."""
    match = re.search(r"/m/([A-Za-z0-9_-]+)$", location)
    assert match, location
    return match.group(1)


def test_viewer_refusal_is_403_even_with_csrf_on(csrf_app: Flask) -> None:
    """A post under a viewer link, forged or not, is a 403 rather than a form error."""
    client = csrf_app.test_client()
    with csrf_app.app_context():
        mesa = Mesa(edit_token=service.new_token(), view_token=service.new_token())
        db.session.add(mesa)
        db.session.commit()
        view = mesa.view_token
    assert client.post(f"/v/{view}/marcar").status_code == 403


# --- Headers and robots.txt ------------------------------------------------------------------


def test_security_headers_on_every_page(local_app: Flask) -> None:
    """CSP without inline code or eval, no sniffing, same-origin referrer, no framing."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:0:1", htmx=False)
    pages = {
        "/": 200,
        f"/m/{edit}": 200,
        f"/m/{edit}/compartilhar": 200,
        f"/v/{view}": 200,
        f"/v/{view}?tv=1": 200,
        f"/v/{view}/placar?rev=0": 200,
        f"/v/{view}/placar?rev=1": 204,
        f"/m/{view}": 403,
        "/v/naoexiste": 404,
        "/nada/aqui": 404,
        "/robots.txt": 200,
    }
    for url, status in pages.items():
        response = client.get(url)
        assert response.status_code == status, url
        csp = response.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, url
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        assert response.headers.get("Referrer-Policy") == "same-origin", url
    refused = client.post(f"/v/{view}/marcar")
    assert refused.status_code == 403
    assert "frame-ancestors 'none'" in refused.headers["Content-Security-Policy"]


def test_capability_pages_ask_not_to_be_indexed(local_app: Flask) -> None:
    """A leaked link should not end up in a search engine."""
    client = local_app.test_client()
    edit = open_table(client)
    view = mesa_of(local_app, edit).view_token
    for url in (f"/m/{edit}/compartilhar", f"/v/{view}"):
        response = client.get(url)
        assert "noindex" in response.headers.get("X-Robots-Tag", "")
        assert '<meta name="robots" content="noindex' in response.text


def test_robots_txt_keeps_crawlers_off_the_table_paths(client: FlaskClient) -> None:
    """Scorer and viewer links are private: crawlers stay off /m/ and /v/."""
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    lines = response.text.splitlines()
    assert "User-agent: *" in lines and "Disallow: /m/" in lines and "Disallow: /v/" in lines
    assert "Disallow: /" not in lines


def test_public_url_with_a_path_prefix_keeps_it(tmp_path: Path) -> None:
    """PUBLIC_URL may name a folder (behind a proxy): the links keep it, once."""
    for app in make_app(tmp_path, PUBLIC_URL="https://example.com.br/tento/"):
        app.config["PUBLIC_URL"] = "https://example.com.br/tento"
        client = app.test_client()
        edit = open_table(client)
        view = mesa_of(app, edit).view_token
        html = client.get(f"/m/{edit}/compartilhar").text
        assert text_of(html, "link-assistir") == f"https://example.com.br/tento/v/{view}"
        assert text_of(html, "link-marcar") == f"https://example.com.br/tento/m/{edit}"


def test_live_view_announces_the_score_to_screen_readers(local_app: Flask) -> None:
    """#live carries the words announce.js reads out after every swap."""
    client = local_app.test_client()
    edit = open_table(client, time_a="Zé", time_b="Tião")
    view = mesa_of(local_app, edit).view_token
    play(client, edit, "normal:0:3", htmx=False)
    assert 'data-announce="Zé 3, Tião 0"' in client.get(f"/v/{view}").text


@pytest.mark.parametrize("host", ["localhost:abc", "[::1]:5000", "127.0.0.1:99999"])
def test_odd_host_headers_never_break_the_share_page(local_app: Flask, host: str) -> None:
    """Whatever Host a client sends, the page renders (never a 500)."""
    client = local_app.test_client()
    edit = open_table(client)
    response = client.get(f"/m/{edit}/compartilhar", headers={"Host": host})
    assert response.status_code in (200, 400)
