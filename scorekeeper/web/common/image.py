"""The images for a link pasted in a group chat (Open Graph): a table's score (the names, the
score, the series and the date) and a torneio's podium, drawn with Pillow in DejaVu Sans Bold
(vendored beside this file, with its licence, so that every accent shows on any server)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ... import caches

FONT = Path(__file__).resolve().parent / "DejaVuSans-Bold.ttf"
WIDTH, HEIGHT = 1200, 630  # the size chat apps show large
GREEN, WHITE, GOLD, SOFT = "#0f5132", "#ffffff", "#ffd54a", "#cfe8d9"


@caches.memo(caches.SCORE_IMAGES)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """The vendored font at a size."""
    return ImageFont.truetype(str(FONT), size)


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> ImageFont.FreeTypeFont:
    """The font at `size`, or smaller until `text` fits in `width` pixels."""
    while size > 18 and draw.textlength(text, font=_font(size)) > width:
        size -= 4
    return _font(size)


@caches.memo(caches.SCORE_IMAGES)
def score_png(
    names: tuple[str, str],
    points: tuple[int, int],
    line: str,
    date: str,
    heading: str,
    winner: int | None,
    players: tuple[str, str] = ("", ""),
) -> bytes:
    """A 1200x630 PNG: a heading, both names (and each side's players) over their scores, a
    line (the series) and the date; the winner's score in gold."""
    image = Image.new("RGB", (WIDTH, HEIGHT), GREEN)
    draw = ImageDraw.Draw(image)
    draw.text(
        (WIDTH / 2, 60), heading, font=_fitted(draw, heading, 44, 1100), fill=SOFT, anchor="mt"
    )
    for side in (0, 1):
        centre = WIDTH * (1 + 2 * side) / 4
        name = names[side]
        draw.text((centre, 150), name, font=_fitted(draw, name, 56, 520), fill=WHITE, anchor="mt")
        seated = players[side]
        if seated:
            font = _fitted(draw, seated, 32, 520)
            draw.text((centre, 218), seated, font=font, fill=SOFT, anchor="mt")
        colour = GOLD if winner == side else WHITE
        draw.text((centre, 262), str(points[side]), font=_font(200), fill=colour, anchor="mt")
    draw.text((WIDTH / 2, 340), "x", font=_font(80), fill=SOFT, anchor="mt")
    draw.text((WIDTH / 2, 500), line, font=_fitted(draw, line, 40, 1100), fill=WHITE, anchor="mt")
    draw.text((WIDTH / 2, 560), date, font=_font(32), fill=SOFT, anchor="mt")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@caches.memo(caches.SCORE_IMAGES)
def podium_png(heading: str, places: tuple[tuple[str, str], ...], line: str) -> bytes:
    """A 1200x630 PNG of a podium: a heading (the torneio), each place's label and name (the
    champion first, in gold, larger) and a line (the rules, the date)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), GREEN)
    draw = ImageDraw.Draw(image)
    draw.text(
        (WIDTH / 2, 50), heading, font=_fitted(draw, heading, 48, 1100), fill=SOFT, anchor="mt"
    )
    top = 140
    for rank, (label, name) in enumerate(places):
        size, colour = (88, GOLD) if rank == 0 else (56, WHITE)
        draw.text((WIDTH / 2, top), label, font=_font(30), fill=SOFT, anchor="mt")
        font = _fitted(draw, name, size, 1100)
        draw.text((WIDTH / 2, top + 40), name, font=font, fill=colour, anchor="mt")
        top += 40 + size + 40
    draw.text((WIDTH / 2, 570), line, font=_fitted(draw, line, 30, 1100), fill=SOFT, anchor="mt")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
