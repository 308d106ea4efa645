"""Tables (mesas): opening a table and keeping its score."""

from .views import bp

__all__ = ["bp"]
