"""The rule book pages (Truco Paulista, Truco Mineiro), and the helpers that point a reason (or a
table's option) at them."""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

from ...domain.mesa import service
from ...domain.mesa.house_rules import HouseRule, TableSettings, house_rules
from ...rules import Section, book_boxes
from ...rules.sections import MineiroSection
from ..common.session import opened_table

bp = Blueprint("regras", __name__)

SECTIONS: tuple[Section, ...] = tuple(Section)
MINEIRO: tuple[MineiroSection, ...] = tuple(MineiroSection)


@bp.app_template_global("rule_url")
def section_url(section: Section | MineiroSection | None) -> str | None:
    """The rule book's address of a section ('/regras#truco', '/regras/mineiro#mineiro-truco');
    None for no section."""
    if section is None:
        return None
    page = "regras.mineiro" if isinstance(section, MineiroSection) else "regras.index"
    return url_for(page, _anchor=section.value)


@bp.app_template_global("rule_number")
def section_number(section: Section | MineiroSection) -> int:
    """A section's number on its page of the rule book (1 for 'Cartas e manilhas')."""
    if isinstance(section, MineiroSection):
        return MINEIRO.index(section) + 1
    return SECTIONS.index(section) + 1


@bp.app_template_global("table_rules")
def table_rules(mesa: TableSettings | None) -> tuple[HouseRule, ...]:
    """'Regras desta mesa' of a table, one line each; none without a table."""
    return house_rules(mesa) if mesa is not None else ()


@bp.get("/regras")
def index() -> str:
    """The rule book; with 'Regras desta mesa' when the juiz was opened from a board."""
    mesa = opened_table(service.scorer_table)
    rules = table_rules(mesa)
    return render_template(
        "regras/index.html",
        sections=SECTIONS,
        boxes={section: book_boxes(section) for section in SECTIONS},
        mesa=mesa,
        chosen={rule.variant for rule in rules},
        board_href=url_for("juiz.back_to_board") if mesa is not None else None,
    )


@bp.get("/regras/mineiro")
def mineiro() -> str:
    """The rule book's Truco Mineiro page: each rule, and what differs from the Paulista one;
    with 'Regras desta mesa' when the juiz was opened from a Mineiro board."""
    mesa = opened_table(service.scorer_table)
    return render_template(
        "regras/mineiro.html",
        sections=MINEIRO,
        paulista=Section,
        mesa=mesa if mesa is not None and mesa.variante == "mineiro" else None,
        board_href=url_for("juiz.back_to_board") if mesa is not None else None,
    )
