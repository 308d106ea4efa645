"""The installable shell: service worker and offline page."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for

from ... import caches

bp = Blueprint("pwa", __name__)

# What every page links (base.html), the home page's name limits and rule set's choices, and
# what the offline page needs to keep and send the taps made without network (pwa/offline.html).
SHELL = (
    "css/app.css",
    "js/prefs.js",
    "js/settings.js",
    "js/preferences.js",
    "js/install.js",
    "js/limits.js",
    "js/variante.js",
    "js/writes.js",
    "js/slot.js",
    "js/offline.js",
    "vendor/htmx-2.0.11.min.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)


@caches.memo(caches.STATIC_FILES)
def shell_version(static_folder: str) -> str:
    """A digest of the shell files, so that a new release replaces the cached shell."""
    digest = hashlib.sha256()
    for name in SHELL:
        digest.update((Path(static_folder) / name).read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole app."""
    shell = [url_for("pwa.offline"), *(url_for("static", filename=name) for name in SHELL)]
    version = shell_version(str(current_app.static_folder))
    response = Response(
        render_template("pwa/sw.js", shell=shell, version=version), mimetype="text/javascript"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    """The page shown by the service worker when there is no network."""
    return render_template("pwa/offline.html")
