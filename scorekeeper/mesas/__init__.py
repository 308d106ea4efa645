"""The tables (mesas): the domain every page family builds on."""

from . import words
from .board import Board, board_of
from .refusals import AlreadyApplied, ReusedClientId, StaleRevision, UnknownTable, ViewOnly
from .service import (
    LogPage,
    Written,
    current_revision,
    load_board,
    log_page,
    new_token,
    open_table,
    recent_tables,
    record_outcome,
    redo,
    remembered,
    rotate_links,
    scorer_board,
    scorer_table,
    set_note,
    undo,
    viewer_board,
    viewer_table,
)

__all__ = [
    "LogPage",
    "log_page",
    "AlreadyApplied",
    "Board",
    "ReusedClientId",
    "StaleRevision",
    "UnknownTable",
    "ViewOnly",
    "Written",
    "board_of",
    "load_board",
    "new_token",
    "open_table",
    "recent_tables",
    "record_outcome",
    "redo",
    "remembered",
    "current_revision",
    "rotate_links",
    "scorer_board",
    "scorer_table",
    "set_note",
    "undo",
    "viewer_board",
    "viewer_table",
    "words",
]
