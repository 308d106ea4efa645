"""Wiring of the web layer: blueprints, error pages, security headers."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, render_template, request
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
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(500, lambda _e: error_page(500))
    app.after_request(_security_headers)
