"""The juiz: rulings on a round or a hand, with their reasons, shareable by link."""

from .views import bp

__all__ = ["bp"]
