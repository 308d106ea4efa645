"""`make run`: Tento on waitress for the phones at the table, with the address they open.

`python -m scorekeeper.serve [--host 0.0.0.0] [--port 5000]` serves the app (migrate first:
`flask --app scorekeeper db upgrade`), prints the address other phones open and shows it as a QR
code in the terminal, so the first phone joins by scanning the computer's screen.
"""

from __future__ import annotations

import argparse
import errno
import sys
from typing import Any, TextIO

import qrcode
from waitress import create_server

from . import create_app
from .share.links import is_local_host, lan_address

ALL_INTERFACES = ("", "0.0.0.0", "::")

# Waitress reads every request whole in its I/O thread before a worker thread sees it, and
# buffers every response, so slow or idle phones hold a socket, never a thread: the threads
# only run the app. 200 connections leave room for a room full of phones with keep-alive.
SERVER_SETTINGS: dict[str, Any] = {
    "threads": 4,
    "connection_limit": 200,
    "channel_timeout": 60,
    "max_request_body_size": 1024 * 1024,
    "asyncore_use_poll": True,
}


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


def main(argv: list[str] | None = None) -> int:
    """Serve Tento until Ctrl+C; 1 with a pt-BR message if the address cannot be opened."""
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.serve", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0", help="0.0.0.0: the local network")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    app = create_app()
    app.config["SERVES_LAN"] = args.host in ALL_INTERFACES or not is_local_host(args.host)
    try:
        server = create_server(app, host=args.host, port=args.port, **SERVER_SETTINGS)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(f"A porta {args.port} já está em uso: rode make run PORT=5001", file=sys.stderr)
        else:
            print(f"Não consegui abrir {args.host}:{args.port} ({error}).", file=sys.stderr)
        return 1
    announce(args.host, args.port, app.config.get("PUBLIC_URL"), sys.stdout)
    server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
