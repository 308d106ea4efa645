"""The rule book (/regras): the rules of the default rule set as this app applies them, a
numbered section per rule, each at the anchor its `Section` names, so that every reason links to
it; and a page for each other rule set (/regras/<its page>), one section per section of its
`Book`, each difference from the default marked and linked to the default's section."""

from .views import PAGES, SECTIONS, book_url, bp, section_number, section_url, table_rules

__all__ = ["PAGES", "SECTIONS", "book_url", "bp", "section_number", "section_url", "table_rules"]
