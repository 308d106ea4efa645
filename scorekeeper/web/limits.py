"""The one rate limit: opening tables and turmas, per client address. Every way to open one (a
new table, "jogar de novo" on a table or a turma, a new turma) counts against the same budget
(OPEN_TABLE_LIMIT); every other request skips the limiter's work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request

from ..extensions import limiter

OPENING = "abrir"  # the shared limit's scope
_LIMITED: set[str] = set()  # the views with a limit ('module.qualname'): no other request waits
View = TypeVar("View", bound=Callable[..., Any])


def _name(view: Callable[..., Any]) -> str:
    """A view's 'module.qualname'."""
    return f"{view.__module__}.{view.__qualname__}"


def _opening_limit() -> str:
    """The configured limit on opening tables and turmas, e.g. '10 per minute; 100 per day'."""
    return str(current_app.config["OPEN_TABLE_LIMIT"])


def opening_limit(exempt_when: Callable[[], bool] | None = None) -> Callable[[View], View]:
    """The shared limit on opening tables and turmas, and the view remembered as limited: every
    other request skips the limiter's work (resolving limits costs about 0.4 ms a request)."""

    def decorate(view: View) -> View:
        _LIMITED.add(_name(view))
        shared = limiter.shared_limit(_opening_limit, scope=OPENING, exempt_when=exempt_when)
        return shared(view)  # type: ignore[return-value]

    return decorate


@limiter.request_filter
def _unlimited() -> bool:
    """True (the request is exempt) unless its view has a limit."""
    view = current_app.view_functions.get(request.endpoint or "")
    return view is None or _name(view) not in _LIMITED
