"""QR codes as inline SVG, made with qrcode's path factory (no Pillow), cached by URL."""

from __future__ import annotations

import re
from functools import lru_cache

import qrcode
import qrcode.image.svg
from markupsafe import Markup

_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>\s*")
_SIZE = re.compile(r'\s(width|height)="[^"]*"')
_ID = re.compile(r'\sid="([^"]*)"')
_NAME = re.compile(r"[^a-z0-9-]")


def _root_tag(svg: str) -> tuple[str, str]:
    """The opening <svg ...> tag and the rest of the document."""
    end = svg.index(">") + 1
    return svg[:end], svg[end:]


@lru_cache(maxsize=256)
def qr_svg(url: str, name: str, label: str) -> Markup:
    """`url` as an inline, responsive SVG QR code whose ids start with `name`."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage)
    svg = _DECLARATION.sub("", image.to_string(encoding="unicode"))
    prefix = _NAME.sub("-", name.lower())
    svg = _ID.sub(lambda m: f' id="{prefix}-{m.group(1)}"', svg)
    root, rest = _root_tag(svg)
    root = _SIZE.sub("", root)
    attributes = f' class="qr" role="img" aria-label="{Markup.escape(label)}"'
    root = root[:-1].rstrip("/ ") + attributes + ">"
    return Markup(root + rest)
