"""The juiz: rulings on a round or a hand, with their reasons, shareable by link."""

JUIZ_TABLE = "juiz"  # the session key of the table the juiz was opened from (never a URL)

from .views import bp  # noqa: E402  (the views read JUIZ_TABLE)

__all__ = ["JUIZ_TABLE", "bp"]
