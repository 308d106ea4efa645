"""Where the QR codes point: PUBLIC_URL, a host that can be believed, or this machine's LAN
address: never a Host header nobody vouched for."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from flask import current_app, request

from ..urls import absolute_url, public_url

LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "0.0.0.0")
PRIVATE_NOTE = "O servidor atende só este computador: os códigos não abrem em outro celular."
NO_LAN_NOTE = "Não achei este computador na rede local: sem Wi-Fi, os códigos só abrem nele."


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


def _trusted_host(hostname: str) -> bool:
    """True when the request's Host can be believed: on an allow-list (TRUSTED_HOSTS: Flask has
    already refused any other), or the LAN address this app found itself."""
    if current_app.config.get("TRUSTED_HOSTS"):
        return not is_local_host(hostname)
    return hostname == lan_address()


def _port(asked: int | None, default: int) -> int:
    """The port phones should use: the one this machine's own browser asked for, else the one
    the server listens on (a Host header from elsewhere is not believed)."""
    if asked:
        return asked
    try:
        return int(request.environ.get("SERVER_PORT") or default)
    except ValueError:
        return default


def share_root() -> ShareRoot:
    """PUBLIC_URL if set; a host that can be believed (see _trusted_host) as it was asked for;
    else (localhost, or a Host header anybody could have written) this machine's LAN address,
    on the port the server really listens on."""
    public = public_url()
    if public:
        return ShareRoot(public)
    parts = urlsplit(request.host_url)
    hostname = parts.hostname or ""
    if _trusted_host(hostname):
        return ShareRoot()
    if is_local_host(hostname) and not current_app.config.get("SERVES_LAN", True):
        return ShareRoot(note=PRIVATE_NOTE)
    address = lan_address()
    if address is None:
        return ShareRoot(note=NO_LAN_NOTE)
    default = 443 if request.scheme == "https" else 80
    port = _port(parts.port if is_local_host(hostname) else None, default)
    netloc = address if port == default else f"{address}:{port}"
    note = f"Os códigos levam ao endereço deste computador na rede local, {netloc}."
    return ShareRoot(f"{request.scheme}://{netloc}{request.script_root}", note)


def whatsapp_url(message: str) -> str:
    """WhatsApp's link that lets the user pick a chat to send `message` to."""
    return "https://wa.me/?text=" + quote(message, safe="")


def shared_url(endpoint: str, **values: Any) -> str:
    """An absolute link to give away (a QR code, the chat): under PUBLIC_URL or the address
    other phones can open, as the share page's."""
    return absolute_url(endpoint, share_root().url, **values)
