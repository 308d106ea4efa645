"""Error pages in pt-BR, and the one way a refusal is answered, for every page family: no
blueprint imports the app's wiring for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, render_template
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from markupsafe import escape
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from ..domain.mesa import BadLink, InputError, Refusal, answer_of
from ..rules import RulesError

ERROR_TEXTS = {
    400: ("Pedido inválido", "O pedido não pôde ser entendido. Volte e tente de novo."),
    403: ("Sem permissão", "Este link só permite assistir ao placar, não marcar pontos."),
    404: ("Página não encontrada", "Este endereço não existe ou o link da mesa foi trocado."),
    405: ("Método não permitido", "Essa ação não pode ser feita assim."),
    413: ("Pedido grande demais", "O que foi enviado passou do limite."),
    429: ("Muitos pedidos", "Calma: foram muitos pedidos seguidos. Espere um pouco."),
    500: ("Erro no servidor", "Algo deu errado do nosso lado. Nada foi marcado; tente de novo."),
    503: (
        "Banco de dados fora do ar",
        "O servidor não alcançou o banco de dados agora. Tente de novo em instantes.",
    ),
}
RETRY_AFTER = "2"  # seconds: a database server restarting is back within a few
EXPIRED_FORM = "O formulário expirou ou veio de outro lugar. Recarregue a página e tente de novo."


BARE_PAGE = """<!doctype html>
<html lang="pt-BR">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} · Tento</title>
  <link rel="stylesheet" href="/static/css/app.css">
</head>
<body>
  <main id="main"><section class="card error-page" role="alert">
    <h1>{title}</h1>
    <p>{text}</p>
    <p><a class="button" href="/">Voltar ao início</a></p>
  </section></main>
</body>
</html>
"""


def bare_page(status: int) -> str:
    """The pt-BR error page for `status` drawn without Flask (no URL can be built, or the server
    refused the request before the app saw it), in the app's style from its stylesheet."""
    title, text = ERROR_TEXTS.get(status, ERROR_TEXTS[400])
    return BARE_PAGE.format(title=escape(title), text=escape(text))


def error_page(status: int, detail: str | None = None) -> tuple[str, int]:
    """A pt-BR error page with the given status."""
    title, text = ERROR_TEXTS.get(status, ERROR_TEXTS[400])
    if request_ctx.url_adapter is None:  # e.g. a malformed Host: no URL can be built
        return bare_page(status), status
    return render_template("error.html", title=title, text=detail or text, status=status), status


def bad_link(error: BadLink) -> tuple[str, int]:
    """A token that names no table (404), or a viewer's token where a scorer's is needed (403)."""
    return error_page(error.status)


Redraw = Callable[[str | None, int], Any]


def answer_refusals(bp: Blueprint, redraw: Redraw) -> None:
    """Answer every refusal on a blueprint's pages, the domain's InputError and the rules'
    RulesError included, in one way: `redraw(message, status)` draws the page the request came
    from again with the refusal's message and status; a link that reaches no page (then or
    meanwhile) gets its error page."""

    def refused(error: Refusal | RulesError | InputError) -> Any:
        if isinstance(error, BadLink):
            return bad_link(error)
        status, message = answer_of(error)
        try:
            return redraw(message, status)
        except BadLink as gone:
            return bad_link(gone)

    bp.register_error_handler(Refusal, refused)
    bp.register_error_handler(RulesError, refused)
    bp.register_error_handler(InputError, refused)


def _http_error(error: HTTPException) -> Any:
    """Render any HTTP error in pt-BR."""
    if isinstance(error, CSRFError):
        return error_page(400, EXPIRED_FORM)
    return error_page(error.code or 500)


def database_unreachable(_error: OperationalError) -> Any:
    """The database could not be reached (a server restarting, a lock held too long): a pt-BR
    503 the phone's script retries, never a 500. A write the database never got is not applied;
    one it applied is recognised by its client id when sent again."""
    page, status = error_page(503)
    return page, status, {"Retry-After": RETRY_AFTER}


def register(app: Flask) -> None:
    """Answer HTTP errors and links that reach no table with pt-BR pages."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(BadLink, bad_link)
    app.register_error_handler(OperationalError, database_unreachable)
    app.register_error_handler(500, lambda _e: error_page(500))
