"""The turma's pages: saving a table in a turma, the turma's page (scorer) and its read-only
page, "jogar de novo", merging names, the exports and the score's image for group chats.
Views parse, ask the domain (mesas.turmas, mesas.stats), present and render."""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    make_response,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from markupsafe import Markup

from .. import mesas
from ..errors import answer_refusals
from ..limits import opening_limit
from ..mesas import StaleTurma, turmas
from ..mesas.inputs import Write, visible
from ..rules import RulesError
from . import present

bp = Blueprint("turma", __name__)


@bp.after_request
def _no_index(response: Response) -> Response:
    """Keep the capability pages out of search engines even if a link leaks."""
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


@bp.app_template_global("shared_url")
def shared_url(endpoint: str, **values: Any) -> str:
    """An absolute link for a template to give away (see present.shared_url)."""
    return present.shared_url(endpoint, **values)


# --- saving a table in a turma --------------------------------------------------------------


def _save_page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The 'salvar na turma' page of the table with this scorer token."""
    mesa = mesas.scorer_table(token)
    page = render_template(
        "turma/save.html",
        mesa=mesa,
        names=mesa.team_names,
        current=turmas.turma_of(mesa),
        message=message,
        name_limit=turmas.MAX_NAME,
    )
    return make_response(page, status)


@bp.get("/m/<token>/turma")
def save(token: str) -> Response:
    """Create a turma for this table, or put it in one by pasting its link."""
    return _save_page(token)


def _joining() -> bool:
    """True when the 'salvar na turma' form joins a turma (opens none: not limited)."""
    return request.form.get("acao") != "criar"


@bp.post("/m/<token>/turma")
@opening_limit(exempt_when=_joining)
def save_post(token: str) -> Response:
    """The table goes in a new turma (acao=criar, nome) or in a pasted one (acao=entrar, link),
    a write on the table's revision; then the turma's page."""
    write = Write.read(request.form)
    action = request.form.get("acao", "")
    if action == "criar":
        turma = turmas.create_turma(token, write.rev, visible(request.form.get("nome", "")))
    elif action == "entrar":
        turma = turmas.join_turma(token, write.rev, request.form.get("link", ""))
    else:
        raise RulesError("Escolha criar uma turma ou entrar em uma.")
    _remember(turma.edit_token)
    return redirect(url_for("turma.page", token=turma.edit_token), 303)


def _remember(token: str) -> None:
    """This browser keeps its newest turma's scorer token (for 'voltar à turma')."""
    session.permanent = True
    session["turma"] = token


@bp.post("/m/<token>/jogar-de-novo")
@opening_limit()
def play_again_table(token: str) -> Response:
    """A new table like this one (same names, seating, rules, series), the deal one seat on."""
    again = turmas.play_again(mesas.scorer_table(token))
    session["mesas"] = mesas.remembered(session.get("mesas"), again.edit_token)
    return redirect(url_for("tables.board", token=again.edit_token), 303)


# --- the turma's pages -----------------------------------------------------------------------


LAST_ID = 2**31 - 1  # no table id is larger (an integer column): a larger ?antes= is this


def _before() -> int | None:
    """The ?antes=<table id> of a page of older tables; None (the newest) when absent or bad."""
    before = request.args.get("antes", type=int)
    return min(before, LAST_ID) if before is not None and before > 0 else None


def _turma_page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The scorer's page of a turma, with a refusal's message if any."""
    turma = turmas.scorer_turma(token)
    view = present.turma_view(turma, _before() if request.method == "GET" else None)
    context = present.page_context(view, scorer=True)
    rotated = request.args.get("trocados") == "1"
    page = render_template("turma/page.html", message=message, rotated=rotated, **context)
    return make_response(page, status)


@bp.get("/turma/<token>")
def page(token: str) -> Response:
    """The turma's page: its links and QR codes, its tables (30 a page, ?antes=<id> for older),
    its statistics."""
    return _turma_page(token)


@bp.get("/vt/<token>")
def viewer(token: str) -> Response:
    """The turma's read-only page: its tables (30 a page, ?antes=<id> for older), statistics
    and the table being played, live."""
    turma = turmas.viewer_turma(token)
    view = present.turma_view(turma, _before())
    live = present.live_now(view)
    live_html = Markup(render_template("share/_live.html", **live)) if live else None
    context = present.page_context(view, scorer=False)
    return make_response(render_template("turma/viewer.html", live_html=live_html, **context))


@bp.post("/turma/<token>/jogar-de-novo")
@opening_limit()
def play_again(token: str) -> Response:
    """The turma's newest table again, on the turma's revision; then its board."""
    again = turmas.play_again_in_turma(token, Write.read(request.form, StaleTurma).rev)
    session["mesas"] = mesas.remembered(session.get("mesas"), again.edit_token)
    return redirect(url_for("tables.board", token=again.edit_token), 303)


@bp.post("/turma/<token>/juntar-nomes")
def merge(token: str) -> Response:
    """Count one spelling of a name as another, on the turma's revision."""
    write = Write.read(request.form, StaleTurma)
    turma = turmas.scorer_turma(token)
    known = set(present.turma_view(turma).stats.names)
    wanted = turmas.Merge(request.form.get("de", ""), request.form.get("para", ""))
    turmas.merge_names(token, write.rev, wanted, known)
    return redirect(url_for("turma.page", token=token), 303)


@bp.post("/turma/<token>/trocar-links")
def rotate(token: str) -> Response:
    """New links for the turma, on its revision: the old ones stop working at once."""
    turma = turmas.rotate_turma_links(token, Write.read(request.form, StaleTurma).rev)
    if session.get("turma") == token:
        _remember(turma.edit_token)
    return redirect(url_for("turma.page", token=turma.edit_token, trocados=1), 303)


def _refused(message: str | None, status: int) -> Response:
    """A write not applied: the page it came from again (a table's 'salvar na turma', or the
    turma's page), with why."""
    token = str((request.view_args or {}).get("token", ""))
    if request.path.startswith("/m/"):
        return _save_page(token, message, status)
    return _turma_page(token, message, status)


answer_refusals(bp, _refused)


# --- exports ---------------------------------------------------------------------------------

def _download(body: Any, mimetype: str, filename: str) -> Response:
    """A response the browser saves as `filename`."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/m/<token>/exportar.csv")
def export_table_csv(token: str) -> Response:
    """A table's whole log as CSV (a header row, one row per record)."""
    mesa = mesas.scorer_table(token)
    lines = present.csv_lines(present.LOG_HEADER, present.log_rows(mesa, mesas.all_records(mesa)))
    return _download(stream_with_context(lines), "text/csv", "tento-mesa.csv")


@bp.get("/m/<token>/exportar.json")
def export_table_json(token: str) -> Response:
    """A table's whole log as JSON."""
    mesa = mesas.scorer_table(token)
    body = json.dumps(present.log_json(mesa, mesas.all_records(mesa)), ensure_ascii=False, indent=1)
    return _download(body, "application/json", "tento-mesa.json")


def _turma_for_export(token: str) -> Any:
    """A turma by its scorer or viewer token (the exports carry no token)."""
    found = turmas.find_turma(token, edit=True) or turmas.find_turma(token, edit=False)
    if found is None:
        raise turmas.UnknownTurma()
    view = present.turma_history(found)
    return view, view.found


@bp.get("/turma/<token>/exportar.csv")
@bp.get("/vt/<token>/exportar.csv")
def export_turma_csv(token: str) -> Response:
    """A turma's games as CSV (a header row, one row per game, oldest first)."""
    view, found = _turma_for_export(token)
    lines = present.csv_lines(present.GAMES_HEADER, iter(present.turma_games(view, found)))
    return _download(lines, "text/csv", "tento-turma.csv")


@bp.get("/turma/<token>/exportar.json")
@bp.get("/vt/<token>/exportar.json")
def export_turma_json(token: str) -> Response:
    """A turma's history as JSON: tables, games, players, pairs, head-to-heads."""
    view, found = _turma_for_export(token)
    body = json.dumps(present.turma_json(view, found), ensure_ascii=False, indent=1)
    return _download(body, "application/json", "tento-turma.json")


# --- the score as an image (Open Graph) -----------------------------------------------------


IMMUTABLE = "public, max-age=31536000, immutable"


def _png(board: mesas.Board | None, heading: str) -> Response:
    """The image of a table's score (or of an empty turma). Asked for at the table's revision
    (?rev=, as the live view's preview link does) it never changes and may be kept anywhere;
    otherwise it is the score now, and no cache keeps it."""
    response = Response(present.score_image(board, heading), mimetype="image/png")
    current = board is not None and request.args.get("rev") == str(board.mesa.revision)
    response.headers["Cache-Control"] = IMMUTABLE if current else "no-cache"
    return response


@bp.get("/v/<token>/imagem.png")
def live_image(token: str) -> Response:
    """The live view's score as a PNG, for the link's preview in a group chat."""
    return _png(mesas.viewer_board(token), "Tento · placar ao vivo")


@bp.get("/vt/<token>/imagem.png")
def viewer_image(token: str) -> Response:
    """The turma's newest table as a PNG, for the turma link's preview."""
    turma = turmas.viewer_turma(token)
    newest = turmas.tables(turma, 1)
    return _png(mesas.load_board(newest[0]) if newest else None, turma.name)
