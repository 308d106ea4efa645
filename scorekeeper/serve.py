"""`make run`: Tento on waitress for the phones at the table, with the address they open.

`python -m scorekeeper.serve [--host 0.0.0.0] [--port 5000] [--log]` serves the app (migrate first:
`flask --app scorekeeper db upgrade`), prints the address other phones open and shows it as a QR
code in the terminal, so the first phone joins by scanning the computer's screen.

Waitress reads every request whole in its I/O thread before one of its 4 worker threads runs the
app, and buffers every answer, so a slow phone holds a socket, never a thread. Left alone it does
not bound how long a socket is held: `channel_timeout` counts silence, so a client that sends a
header line every few seconds is never closed, and at `connection_limit` (it was 200) waitress
stops accepting, so about 200 such clients left every new phone hanging. Two changes:

- A request deadline (RequestDeadlineChannel): a connection that has not sent a whole request,
  headers and body, REQUEST_DEADLINE seconds after its first byte (for the first request: after
  the connection opened) is closed. A phone's request is a kilobyte or two that arrives within a
  second or two even over a Wi-Fi that resends it; a trickling or silent client is gone in 20 s.
- Room for a tournament's audience: CONNECTION_LIMIT connections at once, each a file descriptor,
  so at start the soft limit of open files is raised to fit (within the hard limit; laptops often
  start at 256 or 1024). An idle keep-alive viewer costs a socket and a few kilobytes, and is
  closed after `channel_timeout` seconds of silence.

So 250 trickling clients leave 750 places for the phones, and a client that takes every place,
reconnecting each time one is closed, holds each for at most the deadline unless it sends whole
requests: the phones it keeps out wait in the kernel's accept queue, first come first served, so
a tap waits about 20 s at worst instead of forever. A cap per address was not chosen: behind a
tunnel or proxy (PUBLIC_URL) every phone arrives from one address, and a client on the Wi-Fi can
take several. Waitress stays (it already keeps slow clients off the threads; gunicorn's sync and
thread workers give each one a thread) with this small subclass, as no option of its own does it.

Bodies: the import page takes a turma's file of up to transfer.MAX_BYTES (8 MB), and Flask
refuses a larger one there with the page again, in pt-BR (413). Waitress reads bodies of up to
twice the import's whole request (MAX_REQUEST_BODY), so a file a little too large still gets that
answer; a larger body it refuses from its headers, unread, and like any request it refuses
itself (a malformed one) with the app's pt-BR error page (PortugueseErrorTask), not its English
text. Every other page keeps Flask's small limit (MAX_CONTENT_LENGTH), answered in pt-BR.
"""

from __future__ import annotations

import argparse
import errno
import logging
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

import qrcode
from waitress import create_server
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask

from . import create_app
from .domain.turma import transfer
from .web import errors, security_headers
from .web.common.links import is_local_host, lan_address

ALL_INTERFACES = ("", "0.0.0.0", "::")

# Seconds a connection has to send one whole request (see the module's docstring).
REQUEST_DEADLINE = 20
# Connections held at once: 500 viewers with keep-alive, the scorers and slow clients beside them.
CONNECTION_LIMIT = 1000
# The largest body waitress reads: twice an import's request (see the module's docstring).
MAX_REQUEST_BODY = 2 * transfer.MAX_UPLOAD
# File descriptors kept for everything but the connections: the database, logs, the app's files,
# request bodies and answers that waitress spools to temporary files.
SPARE_FILES = 100

# poll(), not select(): select() cannot watch a descriptor numbered 1024 or above.
SERVER_SETTINGS: dict[str, Any] = {
    "threads": 4,
    "connection_limit": CONNECTION_LIMIT,
    "channel_timeout": 60,
    "max_request_body_size": MAX_REQUEST_BODY,
    "asyncore_use_poll": True,
}


# A path segment that is a capability token (32 URL-safe characters): kept out of the log.
TOKEN = re.compile(r"(?<=/)[A-Za-z0-9_-]{32}(?=/|$)")


class RequestLog:
    """WSGI middleware for `make run LOG=1`: one line per request on `out`, e.g.
    `21:04:05 POST /m/…/marcar 200 12 ms`, the links' tokens left out."""

    def __init__(self, app: Callable[..., Iterable[bytes]], out: TextIO) -> None:
        """Log the requests `app` answers."""
        self.app = app
        self.out = out

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        """Answer the request, then write its line."""
        started = time.monotonic()
        status = ["-"]

        def starting(code: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            """Note the status as the app starts its answer."""
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, *exc_info)

        body = self.app(environ, starting)
        took = (time.monotonic() - started) * 1000
        path = TOKEN.sub("…", environ.get("PATH_INFO", ""))
        line = f"{time.strftime('%H:%M:%S')} {environ['REQUEST_METHOD']} {path} {status[0]}"
        print(f"{line} {took:.0f} ms", file=self.out, flush=True)
        return body


class PortugueseErrorTask(ErrorTask):
    """Waitress's own refusals (a body past MAX_REQUEST_BODY, a malformed request) as the app's
    pt-BR error page, not waitress's English text."""

    def execute(self) -> None:
        """The error page with the refusal's status; the connection closed after it."""
        status = int(self.request.error.code)
        body = errors.bare_page(status).encode()
        self.status = f"{status} {self.request.error.reason}"
        self.response_headers.extend(
            [("Content-Type", "text/html; charset=utf-8"), *security_headers().items()]
        )
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class RequestDeadlineChannel(HTTPChannel):
    """A waitress connection closed when a request is not read whole within REQUEST_DEADLINE,
    and refused in pt-BR."""

    error_task_class = PortugueseErrorTask

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The first request's time runs from the connection's opening."""
        self.reading_since: float | None = time.monotonic()
        super().__init__(*args, **kwargs)

    def received(self, data: bytes) -> bool:
        """Start the clock on a request's first byte; stop it once no request is left half read."""
        if self.reading_since is None:
            self.reading_since = time.monotonic()
        done: bool = super().received(data)
        if self.request is None:
            self.reading_since = None
        return done

    def readable(self) -> bool:
        """Past the deadline, with no request being answered: close, as waitress's timeout does."""
        # The I/O loop asks every connection at least once a second (asyncore_loop_timeout).
        late = self.reading_since is not None and (
            time.monotonic() - self.reading_since > REQUEST_DEADLINE
        )
        if late and not self.requests:
            self.will_close = True
        return bool(super().readable())


def phone_url(host: str, port: int, public_url: str | None) -> str | None:
    """The address other phones open, or None if only this computer can reach the server."""
    if public_url:
        return public_url.rstrip("/") + "/"
    if host in ALL_INTERFACES:
        address = lan_address()
        return f"http://{address}:{port}/" if address else None
    if is_local_host(host):
        return None
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def print_qr(url: str, out: TextIO) -> None:
    """`url` as a QR code of text blocks; in a terminal, dark on light whatever its colours."""
    code = qrcode.QRCode()
    code.add_data(url)
    code.print_ascii(out=out, tty=out.isatty())


def announce(host: str, port: int, public_url: str | None, out: TextIO) -> None:
    """Tell the person at the computer, in pt-BR, where the phones and this computer go."""
    here = f"http://127.0.0.1:{port}/" if host in ALL_INTERFACES or is_local_host(host) else None
    phones = phone_url(host, port, public_url)
    if phones:
        print(f"Tento no ar. Nos celulares (mesmo Wi-Fi), abra {phones}", file=out)
        print("ou escaneie este código com a câmera:", file=out)
        print_qr(phones, out)
    elif host in ALL_INTERFACES:
        print("Tento no ar, mas não achei o endereço deste computador na rede local:", file=out)
        print("conecte-o ao Wi-Fi dos celulares e abra Compartilhar no placar.", file=out)
    else:
        print("Tento no ar só para este computador (HOST=127.0.0.1): os celulares", file=out)
        print("não abrem. Para a mesa toda, rode make run sem HOST.", file=out)
    if here:
        print(f"Neste computador: {here}", file=out)
    print("Ctrl+C para parar.", file=out, flush=True)


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files to `wanted` (at most the hard limit): the
    number of files it may now open."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return int(soft)
    return int(target)


def server_settings(open_files: int) -> dict[str, Any]:
    """SERVER_SETTINGS with no more connections than `open_files` leaves room for."""
    limit = max(1, min(CONNECTION_LIMIT, open_files - SPARE_FILES))
    return {**SERVER_SETTINGS, "connection_limit": limit}


def create_server_with_deadline(app: Any, host: str, port: int, settings: dict[str, Any]) -> Any:
    """Waitress's server (on every address `host` names), its connections under the deadline."""
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, host=host, port=port, **settings)
    for listener in sockets.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = RequestDeadlineChannel
    return server


def main(argv: list[str] | None = None) -> int:
    """Serve Tento until Ctrl+C; 1 with a pt-BR message if the address cannot be opened."""
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.serve", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0", help="0.0.0.0: the local network")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--log", action="store_true", help="one line per request (make run LOG=1)")
    args = parser.parse_args(argv)
    # Waitress's own notes are English and for developers ("Task queue depth is 2"): errors only.
    logging.getLogger("waitress").setLevel(logging.ERROR)
    app = create_app()
    app.config["SERVES_LAN"] = args.host in ALL_INTERFACES or not is_local_host(args.host)
    wsgi: Any = RequestLog(app, sys.stdout) if args.log else app
    settings = server_settings(raise_open_files(CONNECTION_LIMIT + SPARE_FILES))
    if settings["connection_limit"] < CONNECTION_LIMIT:
        print(f"Este computador só deixa abrir {settings['connection_limit']} conexões de uma vez"
              " (ulimit -n).", file=sys.stderr)  # fmt: skip
    try:
        server = create_server_with_deadline(wsgi, args.host, args.port, settings)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(f"A porta {args.port} já está em uso: rode make run PORT=5001", file=sys.stderr)
        else:
            print(f"Não consegui abrir {args.host}:{args.port} ({error}).", file=sys.stderr)
        return 1
    announce(args.host, args.port, app.config.get("PUBLIC_URL"), sys.stdout)
    server.run()  # until Ctrl+C, which waitress catches
    print("\nTento parado.", flush=True)
    return 0


def run() -> int:
    """main(), and a Ctrl+C before the server is up ends it as quietly as one after."""
    try:
        return main()
    except KeyboardInterrupt:
        print("\nTento parado.", flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(run())
