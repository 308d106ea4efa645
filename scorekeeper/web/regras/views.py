"""The rule book: one page per rule set (the default's at /regras, each other's at
/regras/<its page>), and the helpers that point a reason (or a table's option) at them."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for

from ...domain.mesa import service
from ...domain.mesa.house_rules import HouseRule, TableSettings, house_rules
from ...rules import DEFAULT_RULE_SET, RULE_SETS, BookSection, Section, Variant, book_boxes, book_of
from ..common.session import opened_table

bp = Blueprint("regras", __name__)

SECTIONS: tuple[BookSection, ...] = DEFAULT_RULE_SET.book.sections
# The other rule sets' pages, by the name of each under /regras.
PAGES: dict[str, Variant] = {
    rules.book.page: rules for rules in RULE_SETS.values() if rules.book.page is not None
}


@bp.app_template_global("rule_book")
def book_url(rules: Variant, anchor: str | None = None) -> str:
    """The address of a rule set's page of the rule book ('/regras', '/regras/mineiro'), at
    `anchor` when given."""
    if rules.book.page is None:
        return url_for("regras.index", _anchor=anchor)
    return url_for("regras.page", name=rules.book.page, _anchor=anchor)


@bp.app_template_global("rule_sets")
def rule_sets() -> tuple[Variant, ...]:
    """Every rule set, the default first (the rule book's tabs, the forms' choices)."""
    return tuple(RULE_SETS.values())


@bp.app_template_global("rules_of")
def rules_of(code: str | None) -> Variant:
    """The rule set a stored code names; the default for none or an unknown one."""
    return RULE_SETS.get(code or "", DEFAULT_RULE_SET)


@bp.app_template_global("default_rules")
def default_rules() -> Variant:
    """The default rule set, which a page leaves unsaid."""
    return DEFAULT_RULE_SET


@bp.app_template_global("rule_url")
def section_url(section: BookSection | None) -> str | None:
    """The rule book's address of a section ('/regras#truco', '/regras/mineiro#mineiro-truco');
    None for no section."""
    if section is None:
        return None
    return book_url(book_of(section), section.value)


@bp.app_template_global("rule_number")
def section_number(section: BookSection) -> int:
    """A section's number on its page of the rule book (1 for 'Cartas e manilhas')."""
    return book_of(section).book.number(section)


@bp.app_template_global("table_rules")
def table_rules(mesa: TableSettings | None) -> tuple[HouseRule, ...]:
    """'Regras desta mesa' of a table, one line each; none without a table."""
    return house_rules(mesa) if mesa is not None else ()


@bp.get("/regras")
def index() -> str:
    """The rule book; with 'Regras desta mesa' when the juiz was opened from a board."""
    mesa = opened_table(service.scorer_table)
    rules = table_rules(mesa)
    sections = DEFAULT_RULE_SET.book.sections
    return render_template(
        "regras/index.html",
        sections=sections,
        boxes={
            section: book_boxes(section) for section in sections if isinstance(section, Section)
        },
        mesa=mesa,
        chosen={rule.variant for rule in rules},
        board_href=url_for("juiz.back_to_board") if mesa is not None else None,
        rules=DEFAULT_RULE_SET,
    )


@bp.get("/regras/<name>")
def page(name: str) -> str:
    """Another rule set's page of the rule book: each rule, and what differs from the default
    rule set's; with 'Regras desta mesa' when the juiz was opened from a board of that rule
    set."""
    rules = PAGES.get(name)
    if rules is None:
        abort(404)
    mesa = opened_table(service.scorer_table)
    return render_template(
        f"regras/{name}.html",
        sections=rules.book.sections,
        base=Section,
        mesa=mesa if mesa is not None and mesa.variante == rules.code else None,
        board_href=url_for("juiz.back_to_board") if mesa is not None else None,
        rules=rules,
    )
