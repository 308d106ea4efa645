"""The torneio's pages: creating one, the organiser's page, the mesas' links and the bar's TV."""

from .views import bp

__all__ = ["bp"]
