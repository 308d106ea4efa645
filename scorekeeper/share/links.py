"""Absolute links for the QR codes: PUBLIC_URL, the request's host or this machine's LAN address."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, request, url_for

LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "0.0.0.0")
PRIVATE_NOTE = "O servidor atende só este computador: os códigos não abrem em outro celular."
NO_LAN_NOTE = "Não achei este computador na rede local: sem Wi-Fi, os códigos só abrem nele."


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


def is_local_host(hostname: str) -> bool:
    """True for names and addresses only this machine can reach (localhost, 127.x, ::1)."""
    name = hostname.strip("[]").lower().rstrip(".")
    if name in LOCAL_NAMES or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def lan_address() -> str | None:
    """This machine's address on the local network, found without sending anything."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.255.255.255", 1))  # a UDP connect sends no packet
            address = str(sock.getsockname()[0])
    except OSError:
        address = ""
    if not address or is_local_host(address):
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if is_local_host(address) else address


@dataclass(frozen=True)
class ShareRoot:
    """Where the shared links point (None: the request's host) and a one-line note about it."""

    url: str | None = None
    note: str | None = None


def share_root() -> ShareRoot:
    """PUBLIC_URL if set; opened as localhost, this machine's LAN address; else the request's."""
    public = (current_app.config.get("PUBLIC_URL") or "").strip().rstrip("/")
    if public:
        return ShareRoot(public)
    parts = urlsplit(request.host_url)
    if not is_local_host(parts.hostname or ""):
        return ShareRoot()
    if not current_app.config.get("SERVES_LAN", True):
        return ShareRoot(note=PRIVATE_NOTE)
    address = lan_address()
    if address is None:
        return ShareRoot(note=NO_LAN_NOTE)
    default = 443 if parts.scheme == "https" else 80
    try:
        port = parts.port or default
    except ValueError:  # a malformed Host header
        port = default
    netloc = address if port == default else f"{address}:{port}"
    note = f"Os códigos levam ao endereço deste computador na rede local, {netloc}."
    return ShareRoot(f"{parts.scheme}://{netloc}{request.script_root}", note)
