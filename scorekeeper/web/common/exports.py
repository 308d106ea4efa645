"""What every export shares: CSV text a pt-BR spreadsheet opens safely (a byte-order mark, ';'
between cells, no cell a formula) and the response a browser saves as a file."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

from flask import Response

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula


CSV_TYPE = "text/csv"  # Flask adds "; charset=utf-8"
# What a pt-BR spreadsheet opens in columns, accents right: a byte-order mark first, then cells
# separated by ';' (its decimal separator is the comma).
CSV_BOM, CSV_DELIMITER = "\ufeff", ";"


def as_text(cell: Any) -> Any:
    """A CSV cell a spreadsheet shows as it is: text that could start a formula ('=1+1',
    '+cmd|...', '@SUM(A1)', a tab or CR first) gets a leading apostrophe; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def as_cell(cell: Any) -> Any:
    """A CSV cell as a pt-BR spreadsheet reads it: a decimal with a comma, text made safe
    (`as_text`)."""
    if isinstance(cell, float):
        return f"{cell:g}".replace(".", ",")
    return as_text(cell)


def csv_lines(header: Sequence[str], rows: Iterator[Sequence[Any]]) -> Iterator[str]:
    """CSV text for a pt-BR spreadsheet, a line at a time: the byte-order mark and the header
    row first, cells separated by ';', no cell a formula."""
    buffer = io.StringIO()
    buffer.write(CSV_BOM)
    writer = csv.writer(buffer, delimiter=CSV_DELIMITER)
    for row in _chain(header, rows):
        writer.writerow([as_cell(cell) for cell in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def _chain(header: Sequence[str], rows: Iterator[Sequence[Any]]) -> Iterator[Sequence[Any]]:
    """The header, then the rows."""
    yield header
    yield from rows


PIECE = 1 << 15  # what a streamed export writes at once, about (fewer, fuller writes)


def batched(pieces: Iterator[str]) -> Iterator[str]:
    """Text pieces joined into pieces of at least PIECE characters (the last one shorter),
    as they come."""
    size = PIECE
    held: list[str] = []
    length = 0
    for piece in pieces:
        held.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)


def download(body: Any, mimetype: str, filename: str) -> Response:
    """A response the browser saves as `filename`."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
