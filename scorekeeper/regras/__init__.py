"""The rule book (/regras): the rules of Truco Paulista as this app applies them, a numbered
section per rule, each at the anchor its `Section` names, so that every reason links to it."""

from .views import SECTIONS, bp, section_number, section_url, table_rules

__all__ = ["SECTIONS", "bp", "section_number", "section_url", "table_rules"]
