"""Wiring of the web layer: blueprints, error pages, security headers."""

from __future__ import annotations

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface

from . import converters, errors

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)


def security_headers() -> dict[str, str]:
    """CSP, nosniff, same-origin referrer and no framing: what every response carries."""
    return {
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
    }


def _security_headers(response: Response) -> Response:
    """The security headers on every response; no caching of the app's own pages."""
    for name, value in security_headers().items():
        response.headers.setdefault(name, value)
    if request.endpoint and request.endpoint != "static":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def htmx_interval(ms: int) -> str:
    """A duration for htmx's `every` trigger: whole seconds as '2s', else milliseconds '200ms'."""
    return f"{ms // 1000}s" if ms % 1000 == 0 else f"{ms}ms"


class SessionOverHttps(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS (or the app is known
    to be served over it), so a phone on HTTPS never sends it in the clear."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """SESSION_COOKIE_SECURE, or this request's own scheme."""
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def register(app: Flask) -> None:
    """Attach path converters, blueprints, error handlers and response headers to the app."""
    from .juiz import bp as juiz_bp
    from .mesa import bp as mesa_bp
    from .pwa import bp as pwa_bp
    from .regras import bp as regras_bp
    from .share import bp as share_bp
    from .torneio import bp as torneio_bp
    from .turma import bp as turma_bp

    converters.register(app)  # before the routes that use them
    app.register_blueprint(mesa_bp)
    app.register_blueprint(juiz_bp)
    app.register_blueprint(pwa_bp)
    app.register_blueprint(share_bp)
    app.register_blueprint(regras_bp)
    app.register_blueprint(turma_bp)
    app.register_blueprint(torneio_bp)
    errors.register(app)
    app.add_template_filter(htmx_interval)
    app.session_interface = SessionOverHttps()
    app.after_request(_security_headers)
