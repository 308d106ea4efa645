"""QR codes as inline SVG, made with qrcode's path factory (no Pillow), cached by URL."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import qrcode
from markupsafe import Markup
from qrcode.image.svg import SvgPathImage

from ... import caches

_NAME = re.compile(r"[^a-z0-9-]")


@caches.memo(caches.QR_CODES)
def qr_svg(url: str, name: str, label: str) -> Markup:
    """`url` as an inline SVG QR code sized by its container (no width or height), labelled for
    screen readers, whose path id starts with `name` (two codes can share a page)."""
    image = qrcode.make(url, image_factory=SvgPathImage)
    svg = image.get_image()
    for size in ("width", "height"):
        svg.attrib.pop(size, None)
    svg.attrib.update({"class": "qr", "role": "img", "aria-label": label})
    image.path.set("id", f"{_NAME.sub('-', name.lower())}-qr-path")
    return Markup(ET.tostring(svg, encoding="unicode"))
