"""What a path parameter may be, checked by the router before any view runs: a segment of
another shape names nothing, and is a 404 (in pt-BR, errors.py) before any query is made.

Every plain parameter (`<token>`, `<rules>`) is a word of URL-safe characters, as capability
tokens and codes are: never a NUL (PostgreSQL refuses it in text), a space or 5,000 characters.
Every `<int:...>` is a count or an id a 32-bit integer column can hold, in ASCII digits (Python's
`\\d` would take '٣' for 3). A match's key (`<matchkey:key>`) is the bracket's own shape.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter, IntegerConverter, Map

from ..domain.common.writes import TOKEN_SHAPE
from ..domain.mesa.inputs import INT_LIMIT
from ..domain.torneio.bracket import THIRD

# bracket.key(round, index): '<round>-<index>' (round from 1, index from 0), or THIRD
MATCH_KEY = rf"[1-9][0-9]?-(?:0|[1-9][0-9]{{0,2}})|{THIRD}"


class WordConverter(BaseConverter):
    """A plain path parameter: a capability token or a code, in URL-safe characters."""

    regex = TOKEN_SHAPE.pattern


def decimal_up_to(limit: int) -> str:
    """A regex of the decimal numbers from 0 to `limit` (at least 10), without leading zeros:
    a larger one never matches, so its path is a 404 whatever other methods the path has."""
    digits = str(limit)
    width = len(digits)
    parts = ["0", f"[1-9][0-9]{{0,{width - 2}}}"]  # fewer digits than the limit
    for place, digit in enumerate(digits):  # as many: below the limit's digit at `place`
        lowest = 1 if place == 0 else 0
        if int(digit) > lowest:
            parts.append(f"{digits[:place]}[{lowest}-{int(digit) - 1}][0-9]{{{width - place - 1}}}")
    return "|".join([*parts, digits])


class Int32Converter(IntegerConverter):
    """`<int:...>`: a non-negative integer in ASCII digits that an integer column can hold."""

    regex = decimal_up_to(INT_LIMIT - 1)

    def __init__(self, url_map: Map) -> None:
        """Werkzeug's integer converter, bounded by the columns' 32 bits."""
        super().__init__(url_map, min=0, max=INT_LIMIT - 1)


class MatchKeyConverter(BaseConverter):
    """`<matchkey:key>`: a torneio match's key, e.g. '1-0' or '3'."""

    regex = MATCH_KEY


def register(app: Flask) -> None:
    """The converters above, in the app's router before any route is added."""
    converters = app.url_map.converters
    converters["default"] = converters["string"] = WordConverter
    converters["int"] = Int32Converter
    converters["matchkey"] = MatchKeyConverter
