"""The rule book page, and the helpers that point a reason (or a table's option) at it."""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

from .. import mesas
from ..mesas.house_rules import HouseRule, TableSettings, house_rules
from ..pages.session import opened_table
from ..rules import Section, book_boxes

bp = Blueprint("regras", __name__)

SECTIONS: tuple[Section, ...] = tuple(Section)


@bp.app_template_global("rule_url")
def section_url(section: Section | None) -> str | None:
    """The rule book's address of a section ('/regras#truco'); None for no section."""
    if section is None:
        return None
    return url_for("regras.index", _anchor=section.value)


@bp.app_template_global("rule_number")
def section_number(section: Section) -> int:
    """A section's number in the rule book (1 for 'Cartas e manilhas')."""
    return SECTIONS.index(section) + 1


@bp.app_template_global("table_rules")
def table_rules(mesa: TableSettings | None) -> tuple[HouseRule, ...]:
    """'Regras desta mesa' of a table, one line each; none without a table."""
    return house_rules(mesa) if mesa is not None else ()


@bp.get("/regras")
def index() -> str:
    """The rule book; with 'Regras desta mesa' when the juiz was opened from a board."""
    mesa = opened_table(mesas.scorer_table)
    rules = table_rules(mesa)
    return render_template(
        "regras/index.html",
        sections=SECTIONS,
        boxes={section: book_boxes(section) for section in SECTIONS},
        mesa=mesa,
        chosen={rule.variant for rule in rules},
        board_href=url_for("juiz.back_to_board") if mesa is not None else None,
    )
