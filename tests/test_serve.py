"""`make run`'s server: waitress on the local network, the phones' address and its terminal QR code,
and a server that keeps answering while 50 slow clients hold connections open, holds 500 phones
with keep-alive, and closes clients that never finish a request (trickling or silent)."""

from __future__ import annotations

import io
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPResponse
from pathlib import Path

import pytest
import requests

from scorekeeper import create_app, serve
from scorekeeper.domain.mesa.service import new_token
from scorekeeper.domain.turma import transfer
from scorekeeper.extensions import db
from scorekeeper.models import Mesa, Turma

from . import processes
from .conftest import require_program
from .faults.server import server_env, upgrade
from .pgserver import free_port

LAN = "192.168.0.7"
SLOW_CLIENTS = 50
KEEP_ALIVE_PHONES = 500  # a tournament's audience, each watching the live score
TRICKLING_CLIENTS = 250  # more than the 200 connections waitress used to hold
SILENT_CLIENTS = 50
SOFT_OPEN_FILES = 256  # the server starts with macOS's soft limit of open files (Debian's: 1024)
TIMEOUT = 30  # generous: a busy machine only makes it slower
SCORE_A_3 = re.compile(r'data-testid="score-a"[^>]*>3<')
# print_ascii without a terminal: each character is two rows of modules (top, bottom).
HALF_BLOCKS = {"\xa0": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def no_lan() -> None:
    """lan_address() on a machine with no network."""
    return None


def decode_terminal_qr(text: str, tmp_path: Path, inverted: bool = False) -> str:
    """Read the QR code drawn with half blocks in `text` back with zbarimg (`inverted`: the
    blocks are the light modules, as drawn white on black in a terminal)."""
    zbar = require_program("zbarimg", "zbar-tools")
    text = ANSI.sub("", text).replace("\r", "")
    lines = [line for line in text.splitlines() if line and set(line) <= set(HALF_BLOCKS)]
    assert lines, text
    rows: list[list[int]] = []
    for line in lines:
        pairs = [HALF_BLOCKS[char] for char in line]
        if inverted:
            pairs = [(1 - top, 1 - bottom) for top, bottom in pairs]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    scale, width = 8, max(len(row) for row in rows)
    pixels = [
        " ".join(str(dark) for dark in row + [0] * (width - len(row)) for _ in range(scale))
        for row in rows
    ]
    image = tmp_path / "terminal-qr.pbm"
    body = "\n".join(line for line in pixels for _ in range(scale))
    image.write_text(f"P1\n{width * scale} {len(rows) * scale}\n{body}\n")
    done = subprocess.run([zbar, "--raw", "-q", str(image)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# --- Where the phones go ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "lan", "public", "expected"),
    [
        ("0.0.0.0", LAN, None, f"http://{LAN}:5000/"),
        ("::", LAN, None, f"http://{LAN}:5000/"),
        ("0.0.0.0", None, None, None),
        ("127.0.0.1", LAN, None, None),
        ("localhost", LAN, None, None),
        ("10.0.0.5", LAN, None, "http://10.0.0.5:5000/"),
        ("0.0.0.0", LAN, "https://tento.example.com.br/", "https://tento.example.com.br/"),
    ],
)
def test_the_phones_open_the_lan_address_unless_the_server_is_private(
    host: str, lan: str | None, public: str | None, expected: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """All interfaces: this machine's LAN address; loopback: none; PUBLIC_URL always wins."""
    monkeypatch.setattr(serve, "lan_address", lambda: lan)
    assert serve.phone_url(host, 5000, public) == expected


def test_the_terminal_shows_the_lan_address_as_text_and_as_a_qr_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first phone joins by scanning the computer's screen: the QR code reads the LAN URL."""
    monkeypatch.setattr(serve, "lan_address", lambda: LAN)
    out = io.StringIO()
    serve.announce("0.0.0.0", 5080, None, out)
    text = out.getvalue()
    assert f"abra http://{LAN}:5080/" in text
    assert "Neste computador: http://127.0.0.1:5080/" in text
    assert decode_terminal_qr(text, tmp_path) == f"http://{LAN}:5080/"


def test_in_a_terminal_the_qr_code_is_drawn_in_fixed_colours_and_still_reads(
    tmp_path: Path,
) -> None:
    """On a real terminal (dark or light theme) the code is white on black and decodes."""
    master, follower = os.openpty()
    try:
        with open(follower, "w", encoding="utf-8") as terminal:
            serve.print_qr(f"http://{LAN}:5000/", terminal)
        drawn = read_all(master)
    finally:
        os.close(master)
    assert "\x1b[48;5;232m" in drawn  # a black background of its own, whatever the theme
    assert decode_terminal_qr(drawn, tmp_path, inverted=True) == f"http://{LAN}:5000/"


def read_all(fd: int) -> str:
    """Everything waiting on a file descriptor, without blocking."""
    os.set_blocking(fd, False)
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except (BlockingIOError, OSError):  # nothing left (EIO: the other end is closed)
            break
        if not chunk:
            break
        data += chunk
    return data.decode()


def test_a_private_server_says_the_phones_cannot_open_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOST=127.0.0.1: no QR code, the local address, and how to serve the table instead."""
    monkeypatch.setattr(serve, "lan_address", lambda: LAN)
    out = io.StringIO()
    serve.announce("127.0.0.1", 5000, None, out)
    text = out.getvalue()
    assert "só para este computador" in text and "make run sem HOST" in text
    assert "http://127.0.0.1:5000/" in text and LAN not in text
    assert "█" not in text


def test_without_a_lan_address_the_terminal_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network found: say so in pt-BR, no made-up address, no QR code."""
    monkeypatch.setattr(serve, "lan_address", no_lan)
    out = io.StringIO()
    serve.announce("0.0.0.0", 5000, None, out)
    text = out.getvalue()
    assert "não achei o endereço deste computador na rede local" in text
    assert "http://127.0.0.1:5000/" in text and "█" not in text


def test_with_few_open_files_allowed_the_server_takes_no_more_connections_than_fit() -> None:
    """Each connection is a file: 600 files allowed leave 500 connections beside the spare ones."""
    assert serve.server_settings(600)["connection_limit"] == 600 - serve.SPARE_FILES
    assert serve.server_settings(100_000)["connection_limit"] == serve.CONNECTION_LIMIT


# --- The real server --------------------------------------------------------------------------


@dataclass
class Running:
    """A `python -m scorekeeper.serve` process, its base URL and its output (and its database's
    URL, when known)."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path
    database: str = ""


def serving(port: int) -> list[str]:
    """The command `make run HOST=127.0.0.1 PORT=<port>` runs after the migrations."""
    return [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)]


def lower_open_files() -> None:
    """In the server's process before it starts: a soft limit of SOFT_OPEN_FILES open files."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft = SOFT_OPEN_FILES if hard == resource.RLIM_INFINITY else min(SOFT_OPEN_FILES, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """`make run HOST=127.0.0.1`'s server on a free port and a migrated throw-away SQLite, started
    with few open files allowed, as on a laptop: it raises the limit for its connections itself."""
    folder = tmp_path_factory.mktemp("serve")
    url = f"sqlite:///{folder / 'serve.sqlite3'}"
    upgrade(url)
    env = {k: v for k, v in server_env(url).items() if k != "PUBLIC_URL"}
    port = free_port()
    log = folder / "serve.log"
    with log.open("wb") as out:
        process = processes.spawn(
            serving(port), env=env, stdout=out, stderr=subprocess.STDOUT,
            preexec_fn=lower_open_files,
        )  # fmt: skip
    running = Running(process, f"http://127.0.0.1:{port}", log, url)
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine only makes it slower
        while True:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            try:
                if requests.get(running.url + "/", timeout=5).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(0.1)
        yield running
    finally:
        processes.stop(process)  # by its process group: SIGTERM, then SIGKILL if it lingers


def open_table_over_http(session: requests.Session, base: str) -> tuple[str, str]:
    """Open a table as a phone does (home page, CSRF token, POST): its board URL and token."""
    home = session.get(base + "/", timeout=TIMEOUT)
    token = re.search(r'name="csrf_token" value="([^"]+)"', home.text)
    assert token, home.text[:500]
    created = session.post(base + "/mesas", data={"csrf_token": token.group(1)}, timeout=TIMEOUT)
    assert created.status_code == 200 and "/m/" in created.url, created.status_code
    board = re.search(r'name="csrf_token" value="([^"]+)"', created.text)
    assert board
    return created.url, board.group(1)


def tap_over_http(session: requests.Session, board: str, csrf: str) -> requests.Response:
    """The scorer's tap on the board at `board`: 3 points to team A (from the board's revision)."""
    page = session.get(board, timeout=TIMEOUT)
    assert page.status_code == 200
    rev = re.search(r'id="board"[^>]*data-rev="(\d+)"', page.text)
    assert rev
    return session.post(
        board + "/marcar",
        data={"rev": rev.group(1), "o": "normal:0:3"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
        timeout=TIMEOUT,
    )


def port_of(base: str) -> int:
    """The port of a base URL such as http://127.0.0.1:5000."""
    return int(base.rsplit(":", 1)[1])


def live_poll(session: requests.Session, board: str) -> str:
    """The path a phone watching the table at `board` polls: /v/<view token>/placar?rev=0."""
    live = session.get(board + "/compartilhar", timeout=TIMEOUT)
    view = re.search(r"/v/([A-Za-z0-9_-]+)", live.text)
    assert view
    return f"/v/{view.group(1)}/placar?rev=0"


def poll(phone: HTTPConnection, path: str) -> None:
    """One live poll on the phone's own connection, from before the tap: the score with the tap's
    3 points, and the connection kept open. (Waitress closes the connection after a 204, the
    answer to a poll of an unchanged score, so a phone that sees no change reconnects.)"""
    phone.request("GET", path)
    answer = phone.getresponse()
    body = answer.read().decode()
    assert answer.status == 200 and SCORE_A_3.search(body), answer.status
    assert not answer.will_close


def keep_alive_phones(phones: list[HTTPConnection], base: str, path: str, count: int) -> None:
    """Add `count` phones to `phones`, each on a connection of its own that polled `path` once
    and stays open (HTTP/1.1 keep-alive), as a phone watching the score does between polls."""
    for _ in range(count):
        phone = HTTPConnection("127.0.0.1", port_of(base), timeout=TIMEOUT)
        phones.append(phone)
        poll(phone, path)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed this connection (it reads as ended), without waiting."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True
    finally:
        sock.settimeout(TIMEOUT)


def closed_before(sock: socket.socket, until: float) -> bool:
    """Whether the server closes this connection before the monotonic clock reads `until`."""
    while (left := until - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            if not sock.recv(4096):
                return True
        except TimeoutError:
            return False
        except ConnectionError:
            return True
    return False


def trickling_clients(sockets: list[socket.socket], base: str, count: int) -> None:
    """Add `count` connections to `sockets`, each with a request begun and its headers open."""
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port_of(base)), timeout=TIMEOUT)
        sockets.append(sock)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")


def trickle(sockets: list[socket.socket], stop: threading.Event, trickled: threading.Event) -> None:
    """Until `stop`: one more header line on each connection every second, never the last one
    (`trickled` is set after the first round)."""
    while not stop.wait(1):
        for sock in sockets:
            try:
                sock.sendall(b"X-Lento: sim\r\n")
            except OSError:  # the server closed it
                pass
        trickled.set()


def slow_clients(base: str, count: int) -> list[socket.socket]:
    """`count` connections that send part of a request and hold (half headers, half bodies)."""
    port = port_of(base)
    sockets = []
    for number in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        sockets.append(sock)
        if number % 2:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: lento")
        else:
            sock.sendall(
                b"POST /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nab"
            )
    return sockets


def test_a_private_server_keeps_the_share_links_on_this_computer(server: Running) -> None:
    """Served on 127.0.0.1 only, the share page does not offer LAN links that cannot open."""
    session = requests.Session()
    board, _ = open_table_over_http(session, server.url)
    page = session.get(board + "/compartilhar", timeout=TIMEOUT).text
    assert "O servidor atende só este computador" in page
    assert f'data-testid="link-assistir">{server.url}/v/' in page
    assert "só para este computador" in server.log.read_text()


def test_the_server_keeps_answering_while_50_slow_clients_hold_connections(
    server: Running,
) -> None:
    """Slow phones hold sockets, not the threads: pages, a tap and a live poll still answer."""
    session = requests.Session()
    board, csrf = open_table_over_http(session, server.url)
    sockets = slow_clients(server.url, SLOW_CLIENTS)
    try:
        assert session.get(server.url + "/", timeout=TIMEOUT).status_code == 200
        tapped = tap_over_http(session, board, csrf)
        assert tapped.status_code == 200 and SCORE_A_3.search(tapped.text), tapped.text[:500]
        polled = session.get(server.url + live_poll(session, board), timeout=TIMEOUT)
        assert polled.status_code == 200 and SCORE_A_3.search(polled.text), polled.text[:500]
        for number, sock in enumerate(sockets):  # held, not dropped, within the request deadline
            sock.sendall(b"\r\n\r\n" if number % 2 else b"c" * 98)
            assert sock.recv(64).startswith(b"HTTP/1.1 "), number
    finally:
        for sock in sockets:
            sock.close()


def test_the_server_holds_500_keep_alive_phones_and_answers_a_new_phone_beside_them(
    server: Running,
) -> None:
    """A tournament's audience: 500 phones each polled the live score and keep their connection;
    a new phone opens a table and taps, and all 500 are still connected and still answered."""
    scorer = requests.Session()
    board, scorer_csrf = open_table_over_http(scorer, server.url)
    assert tap_over_http(scorer, board, scorer_csrf).status_code == 200
    path = live_poll(scorer, board)
    phones: list[HTTPConnection] = []
    try:
        keep_alive_phones(phones, server.url, path, KEEP_ALIVE_PHONES)
        newcomer = requests.Session()
        new_board, csrf = open_table_over_http(newcomer, server.url)
        tapped = tap_over_http(newcomer, new_board, csrf)
        assert tapped.status_code == 200 and SCORE_A_3.search(tapped.text), tapped.text[:500]
        dropped = [n for n, phone in enumerate(phones) if closed_by_server(phone.sock)]
        assert not dropped, f"{len(dropped)} of the {KEEP_ALIVE_PHONES} phones were disconnected"
        for phone in phones:
            poll(phone, path)
    finally:
        for phone in phones:
            phone.close()


def test_a_tap_is_answered_beside_250_clients_trickling_headers_until_the_deadline_closes_them(
    server: Running,
) -> None:
    """Clients that send a header line every second and never end the request do not freeze the
    server: a new phone opens a table and taps while they all hold their connections, and the
    request deadline then closes every one of them."""
    sockets: list[socket.socket] = []
    stop, trickled = threading.Event(), threading.Event()
    trickler = threading.Thread(target=trickle, args=(sockets, stop, trickled), daemon=True)
    started = time.monotonic()
    try:
        trickling_clients(sockets, server.url, TRICKLING_CLIENTS)
        trickler.start()
        assert trickled.wait(TIMEOUT)
        session = requests.Session()
        board, csrf = open_table_over_http(session, server.url)
        tapped = tap_over_http(session, board, csrf)
        assert tapped.status_code == 200 and SCORE_A_3.search(tapped.text), tapped.text[:500]
        early = [n for n, sock in enumerate(sockets) if closed_by_server(sock)]
        assert not early, f"{len(early)} closed before the tap was answered, not beside it"
        until = started + serve.REQUEST_DEADLINE + TIMEOUT
        held = [n for n, sock in enumerate(sockets) if not closed_before(sock, until)]
        assert not held, f"{len(held)} trickling clients still connected"
    finally:
        stop.set()
        if trickler.is_alive():
            trickler.join(timeout=TIMEOUT)
        for sock in sockets:
            sock.close()


def test_a_connection_that_never_sends_a_request_is_closed_by_the_deadline(
    server: Running,
) -> None:
    """50 connections opened and left silent are closed within the request deadline."""
    sockets: list[socket.socket] = []
    started = time.monotonic()
    try:
        for _ in range(SILENT_CLIENTS):
            sockets.append(socket.create_connection(("127.0.0.1", port_of(server.url)), TIMEOUT))
        until = started + serve.REQUEST_DEADLINE + TIMEOUT
        held = [n for n, sock in enumerate(sockets) if not closed_before(sock, until)]
        assert not held, f"{len(held)} silent connections still connected"
    finally:
        for sock in sockets:
            sock.close()


# --- A turma's file: as large as the import page says ------------------------------------------

MB = 1024 * 1024


@pytest.fixture(scope="module")
def turma_file(server: Running) -> bytes:
    """A turma's file as its page gives it, the turma written straight to the server's database
    (opening one through the pages would count against the limit on openings per address)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": server.database, "SECRET_KEY": "x"})
    with app.app_context():
        turma = Turma(edit_token=new_token(), view_token=new_token(), name="Turma grande")
        db.session.add(turma)
        db.session.flush()
        db.session.add(Mesa(edit_token=new_token(), view_token=new_token(), turma_id=turma.id))
        db.session.commit()
        scorer = turma.edit_token
        db.engine.dispose()
    exported = requests.get(f"{server.url}/turma/{scorer}/arquivo-da-turma.json", timeout=TIMEOUT)
    assert exported.status_code == 200
    return exported.content


def upload(session: requests.Session, base: str, data: bytes) -> requests.Response:
    """The import page's form sent with `data` as the file, as a browser sends it."""
    page = session.get(base + "/importar-turma", timeout=TIMEOUT)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf
    return session.post(
        base + "/importar-turma",
        data={"csrf_token": csrf.group(1)},
        files={"arquivo": ("turma.json", data, "application/json")},
        allow_redirects=False,
        timeout=TIMEOUT,
    )


def padded(data: bytes, size: int) -> bytes:
    """A JSON file of `size` bytes with the same content (spaces after it)."""
    return data + b" " * (size - len(data))


def test_a_turma_file_of_almost_8_mb_is_imported(server: Running, turma_file: bytes) -> None:
    """The import page promises 8 MB: a 7.9 MB file (its content padded with spaces) goes
    through waitress and is imported (waitress used to refuse any body over 1 MB in English)."""
    session = requests.Session()
    data = padded(turma_file, int(7.9 * MB))
    assert len(data) < transfer.MAX_BYTES
    answer = upload(session, server.url, data)
    assert answer.status_code == 303, answer.text[:500]
    assert "/turma/" in answer.headers["Location"] and "importada=1" in answer.headers["Location"]


def test_a_turma_file_over_8_mb_is_refused_by_the_import_page_in_portuguese(
    server: Running, turma_file: bytes
) -> None:
    """A 9 MB file gets the import page again with the limit in pt-BR (413), from Flask: waitress
    reads it, its limit being above the import's."""
    session = requests.Session()
    answer = upload(session, server.url, padded(turma_file, 9 * MB))
    assert answer.status_code == 413
    assert 'lang="pt-BR"' in answer.text and 'data-testid="importar-turma"' in answer.text
    assert transfer.TOO_BIG in answer.text


def test_a_body_past_the_servers_limit_is_refused_in_portuguese_unread(server: Running) -> None:
    """A body larger than waitress reads at all (64 MB) is refused from its headers alone, with
    the app's pt-BR error page (413), not waitress's English text."""
    head = (
        "POST /importar-turma HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {64 * MB}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port_of(server.url)), timeout=TIMEOUT) as sock:
        sock.sendall(head.encode())
        answer = HTTPResponse(sock)
        answer.begin()
        body = answer.read().decode()
    assert answer.status == 413
    assert answer.getheader("Content-Type") == "text/html; charset=utf-8"
    assert 'lang="pt-BR"' in body and "Pedido grande demais" in body
    assert "waitress" not in body.lower()
    assert serve.MAX_REQUEST_BODY < 64 * MB


def test_a_busy_port_is_a_clear_message(tmp_path: Path) -> None:
    """Another program on the port: a pt-BR message naming PORT=, exit status 1, no traceback."""
    env = server_env(f"sqlite:///{tmp_path / 'busy.sqlite3'}")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            serving(port), env=env, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 1
    assert f"A porta {port} já está em uso" in done.stderr and "PORT=" in done.stderr
    assert "Traceback" not in done.stderr


# --- make run's output: the phones' address in pt-BR, and a line per request with LOG=1 ------

REPO = Path(__file__).resolve().parents[1]
ANNOUNCEMENT = [
    "Tento no ar só para este computador (HOST=127.0.0.1): os celulares",
    "não abrem. Para a mesa toda, rode make run sem HOST.",
    "Neste computador: http://127.0.0.1:{port}/",
    "Ctrl+C para parar.",
]
REQUEST_LINE = re.compile(r"\d\d:\d\d:\d\d (GET|POST) (\S+) (\d{3}) \d+ ms")


@contextmanager
def make_run(tmp_path: Path, *options: str) -> Iterator[Running]:
    """`make run HOST=127.0.0.1 PORT=<free> <options>` on a new SQLite file (so `make db` runs
    every migration) with this test run's virtualenv, answering; stopped by its process group."""
    require_program("make", "make")
    url = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    env = {k: v for k, v in server_env(url).items() if k != "PUBLIC_URL"}
    port = free_port()
    log = tmp_path / "make-run.log"
    command = ["make", "--no-print-directory", "run", "HOST=127.0.0.1", f"PORT={port}",
               f"VENV={sys.prefix}", *options]  # fmt: skip
    with log.open("wb") as out:
        process = processes.spawn(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    running = Running(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine only makes it slower
        while "Ctrl+C" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield running
    finally:
        processes.stop(process)


def output_lines(running: Running, after: int) -> list[str]:
    """What `make run` printed, without the first-time install's line, once `after` lines are
    there (a request's line comes after its answer)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        lines = [
            line
            for line in running.log.read_text().splitlines()
            if not line.startswith("Instalando o Tento")
        ]
        if len(lines) >= after or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_make_run_says_only_where_to_go_in_portuguese(tmp_path: Path) -> None:
    """`make run` on a new database: the migrations, the server, a table's requests and Ctrl+C
    print nothing but the pt-BR announcement and "Tento parado." (no make command lines, no
    alembic or waitress notes, no traceback)."""
    with make_run(tmp_path) as running:
        open_table_over_http(requests.Session(), running.url)
        assert requests.get(running.url + "/nada", timeout=TIMEOUT).status_code == 404
        expected = [line.format(port=port_of(running.url)) for line in ANNOUNCEMENT]
        assert output_lines(running, len(expected)) == expected
        os.killpg(running.process.pid, signal.SIGINT)  # Ctrl+C in the terminal
        running.process.wait(timeout=TIMEOUT)
        assert output_lines(running, len(expected) + 2) == [*expected, "", "Tento parado."]


def test_make_run_log_1_prints_a_line_per_request_without_the_links_tokens(
    tmp_path: Path,
) -> None:
    """`make run LOG=1`: after the announcement, one line per request (time, method, path,
    status, ms); the board's path shows … in place of its token."""
    with make_run(tmp_path, "LOG=1") as running:
        session = requests.Session()
        board, csrf = open_table_over_http(session, running.url)
        assert tap_over_http(session, board, csrf).status_code == 200
        lines = output_lines(running, len(ANNOUNCEMENT) + 5)
    token = board.rsplit("/", 1)[1]
    assert lines[: len(ANNOUNCEMENT)] == [
        line.format(port=port_of(running.url)) for line in ANNOUNCEMENT
    ]
    requests_seen = [REQUEST_LINE.fullmatch(line) for line in lines[len(ANNOUNCEMENT) :]]
    assert all(requests_seen), lines
    seen = [(m.group(1), m.group(2), m.group(3)) for m in requests_seen if m]
    assert seen == [
        ("GET", "/", "200"),
        ("POST", "/mesas", "303"),
        ("GET", "/m/…", "200"),
        ("GET", "/m/…", "200"),
        ("POST", "/m/…/marcar", "200"),
    ]
    assert token not in running.log.read_text()
