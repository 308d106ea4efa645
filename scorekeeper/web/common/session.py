"""The table the juiz was opened from: its scorer token is kept in the browser's session, never
in a juiz URL, so a ruling's link can be shared without handing out the score."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import session

from ...domain.mesa import BadLink

JUIZ_TABLE = "juiz"  # the session key of the table the juiz was opened from
T = TypeVar("T")


def opened_table(load: Callable[[str], T]) -> T | None:
    """What `load` reads of the table this browser opened the juiz from, else None; a table
    whose links were rotated is forgotten (the juiz then works on its own)."""
    token = session.get(JUIZ_TABLE)
    if not isinstance(token, str):
        return None
    try:
        return load(token)
    except BadLink:
        session.pop(JUIZ_TABLE, None)
        return None
