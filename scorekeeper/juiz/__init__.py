"""The juiz: rulings on a round or a hand, with their reasons, shareable by link."""

from .session import JUIZ_TABLE, opened_table
from .views import bp

__all__ = ["JUIZ_TABLE", "bp", "opened_table"]
