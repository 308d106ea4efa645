"""Why the tables' domain did not do what it was asked: each becomes a response elsewhere."""

from __future__ import annotations


class UnknownTable(Exception):
    """No table has this token (it never had one, or its links were rotated): a 404."""


class ViewOnly(Exception):
    """A viewer's token where a scorer's is needed: a 403."""


class StaleRevision(Exception):
    """The board changed since the client drew it."""


class AlreadyApplied(Exception):
    """The table applied a write with this client id before (its answer was lost on the way
    back and the phone sent it again): answer with the current board, apply nothing."""

    def __init__(self, record_id: int) -> None:
        super().__init__(record_id)
        self.record_id = record_id


class ReusedClientId(Exception):
    """A client id the table journaled for another write came with this one (a client's bug,
    never a retry): refused, nothing applied."""
