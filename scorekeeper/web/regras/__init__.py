"""The rule book (/regras): the rules of Truco Paulista as this app applies them, a numbered
section per rule, each at the anchor its `Section` names, so that every reason links to it; and
the Truco Mineiro page (/regras/mineiro), one section per `MineiroSection`, each difference from
Paulista marked and linked to the Paulista section."""

from .views import MINEIRO, SECTIONS, bp, section_number, section_url, table_rules

__all__ = ["MINEIRO", "SECTIONS", "bp", "section_number", "section_url", "table_rules"]
