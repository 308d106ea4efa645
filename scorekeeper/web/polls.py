"""Unchanged polls, answered before Flask: the request a thousand phones send every 2 s.

A board or live view polls `/m|v/<token>/placar?rev=<n>` with the revision it shows. While that is
the table's revision, the answer is a 204 with no body, and all it takes is one indexed read: this
WSGI layer does that read and answers, skipping Flask's request context, session, hooks and
routing (more than half of the poll's cost in a worker). Anything else, a changed board included,
goes on to Flask, as does any poll whose read fails (Flask answers it as usual); a changed poll
takes the revision read here along (`polled_revision`), so it is read once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import SecurityError
from werkzeug.wsgi import get_host

from ..domain.common.writes import TOKEN_SHAPE
from ..domain.mesa import current_revision

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
POLL = re.compile(rf"/([mv])/({TOKEN_SHAPE.pattern})/placar")
QUERY = re.compile(r"rev=(\d{1,10})(?:&tv=1)?")  # what the board's and live view's scripts send
READ = "tento.polled"  # in the WSGI environ: (edit, token, revision) of a poll passed on


class UnchangedPolls:
    """WSGI middleware: a poll of the current revision gets its 204 here, the rest go on."""

    def __init__(self, app: Flask, inner: WSGIApp, headers: dict[str, str]) -> None:
        """Wrap `inner` (the app's WSGI callable) for `app`; a 204 carries `headers` (every
        response's security headers), no caching and no indexing."""
        self.app, self.inner = app, inner
        no_store = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"}
        self.headers = list({**headers, **no_store}.items())

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        """204 for an unchanged poll from a trusted host, else the app's own answer."""
        if environ.get("REQUEST_METHOD") == "GET" and self._unchanged(environ):
            start_response("204 NO CONTENT", list(self.headers))
            return []
        return self.inner(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        """True when the request polls a table with the revision it has now."""
        path = POLL.fullmatch(environ.get("PATH_INFO", ""))
        query = QUERY.fullmatch(environ.get("QUERY_STRING", ""))
        if path is None or query is None:
            return False
        try:
            get_host(environ, self.app.config["TRUSTED_HOSTS"])
        except SecurityError:
            return False  # Flask refuses it (400)
        edit, token = path.group(1) == "m", path.group(2)
        with self.app.app_context():
            try:
                current = current_revision(token, edit=edit)
            except Exception:  # noqa: BLE001  (the poll goes on to Flask, which answers it)
                return False
        environ[READ] = (edit, token, current)
        return current is not None and query.group(1) == str(current)


def polled_revision(token: str, *, edit: bool) -> int | None:
    """The current revision of the table a poll names: the one read before Flask for this very
    request, else one indexed read now (None when no table has the token)."""
    read = request.environ.get(READ)
    if read is not None and read[:2] == (edit, token):
        return read[2]  # type: ignore[no-any-return]
    return current_revision(token, edit=edit)
