"""The share page, link rotation, the read-only live view and robots.txt."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from ... import caches
from ...domain.mesa import service
from ...domain.mesa.inputs import Write
from ...domain.turma import turmas
from ...extensions import csrf
from ..common.links import share_root, whatsapp_url
from ..common.live import live_context
from ..common.qr import qr_svg
from ..errors import answer_refusals, error_page
from ..polls import polled_revision
from ..urls import absolute_url

bp = Blueprint("share", __name__)

ROBOTS = "User-agent: *\nDisallow: /m/\nDisallow: /v/\nDisallow: /turma/\nDisallow: /vt/\n"


@bp.after_request
def _no_index(response: Response) -> Response:
    """Keep the capability pages out of search engines even if a link leaks."""
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


@bp.get("/robots.txt")
def robots() -> Response:
    """Crawlers stay off the table paths."""
    return Response(ROBOTS, mimetype="text/plain")


@bp.get("/m/<token>/compartilhar")
def index(token: str) -> str:
    """The share page: the viewers' QR code and, behind a tap, the scorer's."""
    return _share_page(token)


def _share_page(token: str, message: str | None = None) -> str:
    """The share page of the table with this scorer token, with a refusal's message if any."""
    board = service.scorer_board(token)
    mesa = board.mesa
    root = share_root()
    watch = absolute_url("share.live", root.url, token=mesa.view_token)
    score = absolute_url("mesa.board", root.url, token=mesa.edit_token)
    return render_template(
        "share/index.html",
        mesa=mesa,
        names=mesa.team_names,
        state=board.state,
        watch_url=watch,
        watch_whatsapp=whatsapp_url(f"Placar ao vivo: {' x '.join(mesa.team_names)}\n{watch}"),
        watch_qr=qr_svg(watch, "qr-assistir", "QR code do placar ao vivo"),
        tv_url=url_for("share.live", token=mesa.view_token, tv=1),
        score_url=score,
        score_qr=qr_svg(score, "qr-marcar", "QR code para marcar junto"),
        address_note=root.note,
        rotated=request.args.get("trocados") == "1",
        message=message,
    )


def _not_rotated(message: str | None, status: int) -> Any:
    """Links not rotated: the board changed (or the links were rotated) on another phone
    since this page was drawn, or the form was not one of ours. The page again, with why."""
    return _share_page(str((request.view_args or {}).get("token", "")), message), status


answer_refusals(bp, _not_rotated)


@bp.post("/m/<token>/trocar-links")
def rotate(token: str) -> Any:
    """New tokens for the table: the old links stop working at once."""
    mesa = service.rotate_links(token, Write.read(request.form).rev)
    session["mesas"] = service.remembered(session.get("mesas"), mesa.edit_token, replaced=token)
    return redirect(url_for("share.index", token=mesa.edit_token, trocados=1), 303)


def _tv() -> bool:
    """True when the 'modo TV' layout was asked for (?tv=1)."""
    return request.args.get("tv", "") not in ("", "0")


@bp.get("/v/<token>")
def live(token: str) -> str:
    """The read-only live score for everybody's phone (or a TV with ?tv=1)."""
    board = service.viewer_board(token)
    tv = _tv()
    return render_template(
        "share/live.html",
        other_layout=url_for("share.live", token=token, **({} if tv else {"tv": 1})),
        turma=turmas.turma_of(board.mesa),
        **live_context(board, tv),
    )




@bp.get("/v/<token>/placar")
def live_fragment(token: str) -> Response:
    """The live fragment for polling: 204 with no body while the revision is unchanged. A
    revision's fragment is drawn once per worker and kept for the table's other viewers (a table
    changes only by a write, and every write moves its revision on)."""
    current = polled_revision(token, edit=False)
    if current is not None and request.args.get("rev") == str(current):
        return Response(status=204)
    tv, root = _tv(), request.script_root
    page = caches.recall(caches.LIVE, (token, current, tv, root)) if current is not None else None
    if page is None:
        board = service.viewer_board(token)
        page = render_template("share/_live.html", **live_context(board, tv, True))
        caches.keep(caches.LIVE, (token, board.mesa.revision, tv, root), page)
    return make_response(page)


@bp.route("/v/<token>", methods=["POST", "PUT", "PATCH", "DELETE"])
@bp.route("/v/<token>/<path:rest>", methods=["POST", "PUT", "PATCH", "DELETE"])
@csrf.exempt
def refuse_write(token: str, rest: str = "") -> Any:
    """A viewer link can never write: 403 for a valid viewer token, else 404."""
    service.viewer_table(token)
    return error_page(403)
