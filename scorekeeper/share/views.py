"""The share page, link rotation, the read-only live view and robots.txt."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from ..extensions import csrf, db
from ..models import Mesa
from ..rules import Phase
from ..tables import present
from ..tables.service import Board, find_mesa, load_board, new_token, revision_is
from ..web import error_page
from .links import absolute_url, share_root
from .qr import qr_svg

bp = Blueprint("share", __name__)

ROBOTS = "User-agent: *\nDisallow: /m/\nDisallow: /v/\n"


def _scorer_mesa(token: str) -> Mesa:
    """The table for a scorer token; a 403 page for a viewer token, else a 404 page."""
    mesa = find_mesa(token, edit=True)
    if mesa is None:
        abort(403 if find_mesa(token, edit=False) is not None else 404)
    return mesa


def _viewer_mesa(token: str) -> Mesa:
    """The table for a viewer token, or a 404 page."""
    mesa = find_mesa(token, edit=False)
    if mesa is None:
        abort(404)
    return mesa


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
    mesa = _scorer_mesa(token)
    root = share_root()
    watch = absolute_url("share.live", root.url, token=mesa.view_token)
    score = absolute_url("tables.board", root.url, token=mesa.edit_token)
    board = load_board(mesa)
    return render_template(
        "share/index.html",
        mesa=mesa,
        names=mesa.team_names,
        state=board.state,
        watch_url=watch,
        watch_qr=qr_svg(watch, "qr-assistir", "QR code do placar ao vivo"),
        tv_url=url_for("share.live", token=mesa.view_token, tv=1),
        score_url=score,
        score_qr=qr_svg(score, "qr-marcar", "QR code para marcar junto"),
        address_note=root.note,
        rotated=request.args.get("trocados") == "1",
    )


@bp.post("/m/<token>/trocar-links")
def rotate(token: str) -> Any:
    """New tokens for the table: the old links stop working at once."""
    mesa = _scorer_mesa(token)
    old = mesa.edit_token
    mesa.edit_token = new_token()
    mesa.view_token = new_token()
    db.session.commit()
    recent = session.get("mesas")
    if isinstance(recent, list) and old in recent:
        session["mesas"] = [mesa.edit_token if t == old else t for t in recent]
    return redirect(url_for("share.index", token=mesa.edit_token, trocados=1), 303)


def phase_text(board: Board) -> str:
    """The kind of hand being played, or who won, in words that fit any team name."""
    state, names = board.state, board.mesa.team_names
    over = present.over_text(board)
    if over:
        return over
    if state.phase is Phase.MAO_DE_ONZE:
        side = names[state.onze_side or 0]
        player = present.onze_decider(board)
        who = f"{player} ({side})" if player else side
        return f"{present.special_name(board.mesa.special_at).capitalize()} · quem decide: {who}"
    if state.phase is Phase.MAO_DE_FERRO:
        return "Mão de ferro: quem ganhar leva a partida"
    return "Mão normal"


def live_context(board: Board, tv: bool, standalone: bool = False) -> dict[str, Any]:
    """Everything _live.html needs."""
    mesa, state = board.mesa, board.state
    poll_values: dict[str, Any] = {"token": mesa.view_token, "rev": mesa.revision}
    if tv:
        poll_values["tv"] = 1
    return {
        "mesa": mesa,
        "state": state,
        "names": mesa.team_names,
        "winner": state.series_winner if state.series_winner is not None else state.game_winner,
        "phase": phase_text(board),
        "deal": present.deal_text(board),
        "series_label": present.series_label(mesa, state),
        "last": present.last_line(board),
        "tv": tv,
        "poll_url": url_for("share.live_fragment", **poll_values),
        "standalone": standalone,
    }


def _tv() -> bool:
    """True when the 'modo TV' layout was asked for (?tv=1)."""
    return request.args.get("tv", "") not in ("", "0")


@bp.get("/v/<token>")
def live(token: str) -> str:
    """The read-only live score for everybody's phone (or a TV with ?tv=1)."""
    mesa = _viewer_mesa(token)
    tv = _tv()
    return render_template(
        "share/live.html",
        other_layout=url_for("share.live", token=token, **({} if tv else {"tv": 1})),
        **live_context(load_board(mesa), tv),
    )


@bp.get("/v/<token>/placar")
def live_fragment(token: str) -> Response:
    """The live fragment for polling: 204 with no body while the revision is unchanged."""
    if revision_is(token, request.args.get("rev"), edit=False):
        return Response(status=204)
    mesa = _viewer_mesa(token)
    page = render_template("share/_live.html", **live_context(load_board(mesa), _tv(), True))
    return make_response(page)


@bp.route("/v/<token>", methods=["POST", "PUT", "PATCH", "DELETE"])
@bp.route("/v/<token>/<path:rest>", methods=["POST", "PUT", "PATCH", "DELETE"])
@csrf.exempt
def refuse_write(token: str, rest: str = "") -> Any:
    """A viewer link can never write: 403 for a valid viewer token, else 404."""
    _viewer_mesa(token)
    return error_page(403)
