"""A turma: a group of friends' tables, their statistics, exports and shared results."""

from .views import bp

__all__ = ["bp"]
