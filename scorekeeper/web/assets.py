"""Static files: versioned URLs (?v=<content hash>) cached for a year, everything else
revalidated; text files sent compressed at the best level, compressed once per process."""

from __future__ import annotations

import gzip
import hashlib
import os
from typing import Any

import brotli
from flask import Flask, Response, current_app, request, url_for
from flask_compress import Compress
from markupsafe import Markup, escape
from werkzeug.security import safe_join

from .. import caches

VERSION_LENGTH = 10
COMPRESSIBLE = ("text/", "application/javascript", "application/manifest+json", "image/svg+xml")


@caches.memo(caches.STATIC_FILES)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """A short content hash of a file (the stat values key the cache)."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:VERSION_LENGTH]


def static_version(static_folder: str, filename: str) -> str | None:
    """The version of a static file, or None when it does not exist."""
    path = safe_join(static_folder, filename)
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def static_url(filename: str) -> str:
    """The versioned URL of a static file, as url_for('static', filename=...) gives it, made
    once per process for the templates (a page links a dozen files: building each URL and
    looking at each file every time cost a fifth of a board page). Static files do not change
    under a running server, a release restarts it; in debug mode every call looks again."""
    app = current_app
    if app.debug:
        return url_for("static", filename=filename)
    folder, url_path = str(app.static_folder), str(app.static_url_path)
    return _static_url(request.script_root, url_path, folder, filename)


def script_tags(*names: str) -> Markup:
    """Deferred <script> tags for static/js/<name>.js, in order, made once per process like
    static_url (a board links ten of them)."""
    app = current_app
    if app.debug:
        return _tags([url_for("static", filename=f"js/{name}.js") for name in names])
    folder, url_path = str(app.static_folder), str(app.static_url_path)
    return _script_tags(request.script_root, url_path, folder, names)


@caches.memo(caches.STATIC_FILES)
def _script_tags(root: str, url_path: str, folder: str, names: tuple[str, ...]) -> Markup:
    """The script tags of these scripts under this script root."""
    return _tags([_static_url(root, url_path, folder, f"js/{name}.js") for name in names])


def _tags(urls: list[str]) -> Markup:
    """Deferred script tags for these URLs."""
    return Markup("".join(f'\n  <script src="{escape(url)}" defer></script>' for url in urls))


@caches.memo(caches.STATIC_FILES)
def _static_url(root: str, url_path: str, folder: str, filename: str) -> str:
    """A static file's URL under this script root, with its version when it exists."""
    version = static_version(folder, filename)
    url = f"{root}{url_path}/{filename}"
    return f"{url}?v={version}" if version else url


def _add_version(endpoint: str, values: dict[str, Any]) -> None:
    """url_for('static', filename=...) gains ?v=<hash>, so a new release gets new URLs."""
    if endpoint != "static" or "v" in values or "filename" not in values:
        return
    version = static_version(str(current_app.static_folder), str(values["filename"]))
    if version:
        values["v"] = version


@caches.memo(caches.STATIC_FILES)
def _compressed(path: str, version: str, encoding: str) -> bytes:
    """A static file compressed with brotli (quality 11) or gzip (level 9), once per version."""
    with open(path, "rb") as handle:
        data = handle.read()
    if encoding == "br":
        return bytes(brotli.compress(data, quality=11))
    return gzip.compress(data, compresslevel=9, mtime=0)


def _encoding() -> str | None:
    """br or gzip, whichever the request accepts best (br on a tie), else None."""
    best = request.accept_encodings.best_match(("br", "gzip"))
    return str(best) if best else None


def _compress(response: Response, path: str, version: str) -> Response:
    """Send a whole static text file compressed, with an ETag of its own per encoding."""
    encoding = _encoding()
    response.vary.add("Accept-Encoding")
    if encoding is None or not response.mimetype.startswith(COMPRESSIBLE):
        return response
    etag, _ = response.get_etag()
    response.direct_passthrough = False
    response.set_data(_compressed(path, version, encoding))
    response.headers["Content-Encoding"] = encoding
    if etag:
        response.set_etag(f"{etag}-{encoding}")
    return response.make_conditional(request)


def _static_response(response: Response) -> Response:
    """A year (immutable) for a static file asked for by its current version, else revalidate;
    the body compressed when the browser accepts it."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    filename = str((request.view_args or {}).get("filename", ""))
    version = static_version(str(current_app.static_folder), filename)
    if version and request.args.get("v") == version:
        max_age = current_app.config["STATIC_MAX_AGE"]
        response.headers["Cache-Control"] = f"public, max-age={max_age}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    path = safe_join(str(current_app.static_folder), filename)
    if response.status_code == 200 and version and path:
        return _compress(response, path, version)
    return response


def init_app(app: Flask, compress: Compress) -> None:
    """Attach the versioning and caching hooks, and Flask-Compress for responses with a body."""

    def compress_response(response: Response) -> Response:
        """Flask-Compress, skipped without a whole body (it would label a 204 as compressed)."""
        if response.status_code in (204, 206, 304) or request.method == "HEAD":
            return response
        return compress.after_request(response)

    app.url_defaults(_add_version)
    app.add_template_global(static_url)
    app.add_template_global(script_tags)
    app.after_request(compress_response)
    app.after_request(_static_response)
