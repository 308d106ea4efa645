"""Wiring of the web layer: blueprints, error pages, security headers."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, render_template, request
from flask.globals import request_ctx
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

ERROR_TEXTS = {
    400: ("Pedido inválido", "O pedido não pôde ser entendido. Volte e tente de novo."),
    403: ("Sem permissão", "Este link só permite assistir ao placar, não marcar pontos."),
    404: ("Página não encontrada", "Este endereço não existe ou o link da mesa foi trocado."),
    405: ("Método não permitido", "Essa ação não pode ser feita assim."),
    413: ("Pedido grande demais", "O que foi enviado passou do limite."),
    429: ("Muitos pedidos", "Calma: foram muitos pedidos seguidos. Espere um pouco."),
    500: ("Erro no servidor", "Algo deu errado do nosso lado. Nada foi marcado; tente de novo."),
}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)


def error_page(status: int, detail: str | None = None) -> tuple[str, int]:
    """A pt-BR error page (or fragment for htmx) with the given status."""
    title, text = ERROR_TEXTS.get(status, ERROR_TEXTS[400])
    if request_ctx.url_adapter is None:  # e.g. a malformed Host: no URL can be built
        return f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{text}</p>", status
    template = "_error.html" if request.headers.get("HX-Request") == "true" else "error.html"
    return render_template(template, title=title, text=detail or text, status=status), status


def _http_error(error: HTTPException) -> Any:
    """Render any HTTP error in pt-BR."""
    if isinstance(error, CSRFError):
        return error_page(
            400, "O formulário expirou ou veio de outro lugar. Recarregue a página e tente de novo."
        )
    return error_page(error.code or 500)


def _security_headers(response: Response) -> Response:
    """CSP, nosniff, same-origin referrer and no framing on every response."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    if request.endpoint and request.endpoint != "static":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _open_table_limit() -> str:
    """The configured limit on opening tables, e.g. '10 per minute; 100 per day'."""
    return str(current_app.config["OPEN_TABLE_LIMIT"])


def _limit_opening_tables(app: Flask) -> None:
    """Rate-limit POST /mesas per client address (one limiter per app; taps are never limited)."""
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["tento_limiter"] = limiter  # the limit holds only a weak reference to it
    view = app.view_functions["tables.create"]
    app.view_functions["tables.create"] = limiter.limit(_open_table_limit, methods=["POST"])(view)
    # The decorated view checks its own limit; the extension's hook on every other request
    # (taps, polls) has nothing to check and cost a sixth of a poll's time: drop it.
    hooks = app.before_request_funcs.get(None, [])
    hooks[:] = [hook for hook in hooks if getattr(hook, "__self__", None) is not limiter]


def register(app: Flask) -> None:
    """Attach blueprints, error handlers and response headers to the app."""
    from .juiz import bp as juiz_bp
    from .pwa import bp as pwa_bp
    from .share import bp as share_bp
    from .tables import bp as tables_bp

    app.register_blueprint(tables_bp)
    app.register_blueprint(juiz_bp)
    app.register_blueprint(pwa_bp)
    app.register_blueprint(share_bp)
    _limit_opening_tables(app)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(500, lambda _e: error_page(500))
    app.after_request(_security_headers)
