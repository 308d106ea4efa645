"""Installable app: the manifest, the icons, and a service worker that caches only the shell."""

from __future__ import annotations

import json
import re
import struct

import pytest
from flask.testing import FlaskClient

# The manifest, icons and service worker are static: no database engine matters.
pytestmark = pytest.mark.sqlite_only


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_makes_the_app_installable(client: FlaskClient) -> None:
    """Name, short name, start URL, standalone display, colours, 192/512 and maskable icons."""
    home = client.get("/").text
    href = re.search(r'<link rel="manifest" href="([^"]+)"', home)
    assert href
    manifest = json.loads(client.get(href.group(1)).data)
    assert manifest["name"] and manifest["short_name"] == "Tento"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {}
    for icon in manifest["icons"]:
        data = client.get(icon["src"]).data
        sizes[(icon["sizes"], icon.get("purpose", "any"))] = png_size(data)
    assert sizes[("192x192", "any")] == (192, 192)
    assert sizes[("512x512", "any")] == (512, 512)
    assert sizes[("512x512", "maskable")] == (512, 512)


def test_service_worker_caches_only_the_static_shell(client: FlaskClient) -> None:
    """The worker pre-caches CSS, JS, icons and the offline page, and never a board."""
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", response.text).group(1))
    assert "/offline" in shell
    assert all(path == "/offline" or path.startswith("/static/") for path in shell)
    for path in shell:
        assert client.get(path).status_code == 200, path
    assert "/m/" not in response.text and "/v/" not in response.text
    assert 'request.mode === "navigate"' in response.text


def test_offline_page_is_portuguese(client: FlaskClient) -> None:
    """The page the worker shows without network explains that the score is safe."""
    html = client.get("/offline").text
    assert "Sem conexão" in html and "guardado no servidor" in html
