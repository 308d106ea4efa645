"""Ao vivo: the share page (QR codes), the read-only live view and robots.txt."""

from .views import bp

__all__ = ["bp"]
