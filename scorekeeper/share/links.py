"""Absolute links for the QR codes and the hint for serving the local network."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, request, url_for

LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "0.0.0.0")


def absolute_url(endpoint: str, **values: Any) -> str:
    """The endpoint's absolute URL: PUBLIC_URL when configured, else the request's host."""
    public = (current_app.config.get("PUBLIC_URL") or "").strip().rstrip("/")
    if not public:
        try:
            return url_for(endpoint, _external=True, **values)
        except (UnicodeError, ValueError):  # a Host header that is no host name
            abort(400)
    path = url_for(endpoint, **values)
    root = request.script_root
    if root and path.startswith(root):
        path = path[len(root) :]
    return public + path


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
class LocalHint:
    """Why the links only work on this machine, and how to reach it from other phones."""

    host: str
    command: str
    suggestion: str | None


def local_hint(path: str) -> LocalHint | None:
    """A hint when links would point at localhost; `path` is the page to suggest on the LAN."""
    if current_app.config.get("PUBLIC_URL"):
        return None
    parts = urlsplit(request.host_url)
    hostname = parts.hostname or ""
    if not is_local_host(hostname):
        return None
    default = 443 if parts.scheme == "https" else 80
    try:
        port = parts.port or default
    except ValueError:  # a malformed Host header
        port = default
    command = "make run HOST=0.0.0.0" + ("" if port == 5000 else f" PORT={port}")
    address = lan_address()
    suggestion = None
    if address:
        netloc = address if port == default else f"{address}:{port}"
        suggestion = f"{parts.scheme}://{netloc}{path}"
    return LocalHint(host=hostname, command=command, suggestion=suggestion)
