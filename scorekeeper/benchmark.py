"""The bare route that bench/ measures as the ceiling; registered only with TENTO_BENCH=1."""

from __future__ import annotations

from flask import Flask, Response

SIZE = 2048
ROW = '<li class="entry"><span class="n">{n:02d}</span> Eles +3 · 4 x 7 · 21:{n:02d}</li>\n'


def _fragment() -> bytes:
    """A log-like HTML fragment of exactly SIZE bytes."""
    head, tail = '<div id="board" class="board">\n<ol class="log">\n', "</ol>\n</div>\n"
    rows = ""
    n = 0
    while len((head + rows + ROW.format(n=n) + tail).encode()) <= SIZE:
        rows += ROW.format(n=n)
        n += 1
    body = (head + rows + tail).encode()
    return body + b" " * (SIZE - len(body))


FRAGMENT = _fragment()


def bare() -> Response:
    """A constant 2 KB HTML fragment: Flask and gunicorn with no database and no template."""
    return Response(FRAGMENT, mimetype="text/html")


def register(app: Flask) -> None:
    """Add /_bench/bare to the app."""
    app.add_url_rule("/_bench/bare", "bench_bare", bare)
