"""The turma's pages: saving a table in a turma, the turma's page (scorer) and its read-only
page, "jogar de novo", merging names, the exports and the score's image for group chats.
Views parse, ask the domain (turmas, transfer), present and render."""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from ...domain.mesa import Board, InputError, StaleTurma, UnknownTable, service
from ...domain.mesa.inputs import Write, visible
from ...domain.turma import transfer, turmas
from ...extensions import csrf
from ...rules import VARIANTS
from ..common import links
from ..common.exports import CSV_TYPE, batched, csv_lines, download
from ..errors import answer_refusals, error_page
from ..limits import opening_limit
from . import present

bp = Blueprint("turma", __name__)


@bp.after_request
def _no_index(response: Response) -> Response:
    """Keep the capability pages out of search engines even if a link leaks."""
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


@bp.app_template_global("shared_url")
def shared_url(endpoint: str, **values: Any) -> str:
    """An absolute link for a template to give away (see web.common.links.shared_url)."""
    return links.shared_url(endpoint, **values)


# --- saving a table in a turma --------------------------------------------------------------


def _save_page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The 'salvar na turma' page of the table with this scorer token."""
    mesa = service.scorer_table(token)
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
        raise InputError("Escolha criar uma turma ou entrar em uma.")
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
    again = turmas.play_again(service.scorer_table(token))
    session["mesas"] = service.remembered(session.get("mesas"), again.edit_token)
    return redirect(url_for("mesa.board", token=again.edit_token), 303)


# --- the turma's pages -----------------------------------------------------------------------


LAST_ID = 2**31 - 1  # no table id is larger (an integer column): a larger ?antes= is this


def _before() -> int | None:
    """The ?antes=<table id> of a page of older tables; None (the newest) when absent or bad."""
    before = request.args.get("antes", type=int)
    return min(before, LAST_ID) if before is not None and before > 0 else None


def _turma_page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The scorer's page of a turma, with a refusal's message if any."""
    turma = turmas.scorer_turma(token)
    view = present.turma_view(turma, _before() if request.method == "GET" else None, names=True)
    context = present.page_context(view, scorer=True)
    rotated = request.args.get("trocados") == "1"
    imported = request.args.get("importada") == "1"
    page = render_template(
        "turma/page.html", message=message, rotated=rotated, imported=imported, **context
    )
    return make_response(page, status)


@bp.get("/turma/<token>")
def page(token: str) -> Response:
    """The turma's page: its links and QR codes, its tables (30 a page, ?antes=<id> for older),
    the first places of its statistics."""
    return _turma_page(token)


@bp.get("/vt/<token>")
def viewer(token: str) -> Response:
    """The turma's read-only page: its tables (30 a page, ?antes=<id> for older), the first
    places of its statistics and the table being played, live."""
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
    session["mesas"] = service.remembered(session.get("mesas"), again.edit_token)
    return redirect(url_for("mesa.board", token=again.edit_token), 303)


@bp.post("/turma/<token>/juntar-nomes")
def merge(token: str) -> Response:
    """Count one spelling of a name as another, on the turma's revision."""
    write = Write.read(request.form, StaleTurma)
    turma = turmas.scorer_turma(token)
    source, target = request.form.get("de", ""), request.form.get("para", "")
    wanted, known = present.merge_of(turma, source, target)
    turmas.merge_names(token, write.rev, wanted, known)
    return redirect(url_for("turma.page", token=token), 303)


LIST = "<any(jogadores, duplas, trios, confrontos):lista>"  # the statistics' lists


def _list_page(turma: Any, lista: str, *, scorer: bool) -> Response:
    """A page of one list of the turma's statistics (?regras=<code>, ?pagina=<n>)."""
    code = request.args.get("regras")
    if code is not None and code not in VARIANTS:
        abort(404)
    number = request.args.get("pagina", default=1, type=int)  # past the last: the last
    view = present.list_view(turma, lista, code, min(number, LAST_ID) if number > 0 else 1)
    if view is None:
        abort(404)
    token = turma.edit_token if scorer else turma.view_token
    context = present.page_context_list(view, scorer=scorer, token=token)
    return make_response(render_template("turma/list.html", **context))


@bp.get(f"/turma/<token>/estatisticas/{LIST}")
def stats_list(token: str, lista: str) -> Response:
    """One list of the turma's statistics (players, pairs, trios, head-to-heads), 50 a page."""
    return _list_page(turmas.scorer_turma(token), lista, scorer=True)


@bp.get(f"/vt/<token>/estatisticas/{LIST}")
def viewer_stats_list(token: str, lista: str) -> Response:
    """One list of the turma's statistics on the read-only link, 50 a page."""
    return _list_page(turmas.viewer_turma(token), lista, scorer=False)


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
    if request.endpoint == "turma.import_post":
        return _import_page(message, status)
    token = str((request.view_args or {}).get("token", ""))
    if request.path.startswith("/m/"):
        return _save_page(token, message, status)
    return _turma_page(token, message, status)


answer_refusals(bp, _refused)


# --- exports ---------------------------------------------------------------------------------
# Every export is on a viewer token (a table's /v/, a turma's /vt/): a copied export link hands
# out nothing more than watching. (The turma's file to import elsewhere is not an export: it is
# on the scorer's link, below.) The scorer-token addresses of old answer too (they give away
# nothing their token does not), but no page links them any more: the viewer's rule, listed
# last, is added first, and url_for builds the first rule of an endpoint.


def _table_for_export(token: str) -> Any:
    """A table by its viewer or scorer token (the exports carry no token)."""
    found = service.find_mesa(token, edit=False) or service.find_mesa(token, edit=True)
    if found is None:
        raise UnknownTable()
    return found


@bp.get("/m/<token>/exportar.csv")
@bp.get("/v/<token>/exportar.csv")
def export_table_csv(token: str) -> Response:
    """A table's whole log as CSV (a header row, one row per record)."""
    mesa = _table_for_export(token)
    rows = present.log_rows(mesa, service.all_records(mesa))
    lines = csv_lines(present.LOG_CSV_HEADER, rows)
    return download(stream_with_context(lines), CSV_TYPE, "tento-mesa.csv")


@bp.get("/m/<token>/exportar.json")
@bp.get("/v/<token>/exportar.json")
def export_table_json(token: str) -> Response:
    """A table's whole log as JSON."""
    mesa = _table_for_export(token)
    log = present.log_json(mesa, service.all_records(mesa))
    body = json.dumps(log, ensure_ascii=False, indent=1)
    return download(body, "application/json", "tento-mesa.json")


def _turma_for_export(token: str) -> Any:
    """A turma by its viewer or scorer token (the exports carry no token)."""
    found = turmas.find_turma(token, edit=False) or turmas.find_turma(token, edit=True)
    if found is None:
        raise turmas.UnknownTurma()
    return found


@bp.get("/turma/<token>/exportar.csv")
@bp.get("/vt/<token>/exportar.csv")
def export_turma_csv(token: str) -> Response:
    """A turma's games as CSV (a header row, one row per game, oldest first), written as the
    tables are read."""
    turma = _turma_for_export(token)
    lines = batched(csv_lines(present.GAMES_HEADER, present.turma_games(turma)))
    return download(stream_with_context(lines), CSV_TYPE, "tento-turma.csv")


@bp.get("/turma/<token>/exportar.json")
@bp.get("/vt/<token>/exportar.json")
def export_turma_json(token: str) -> Response:
    """A turma's history as JSON: tables, games, players, pairs, head-to-heads, written as
    they are read."""
    turma = _turma_for_export(token)
    body = present.turma_json(turma)
    return download(stream_with_context(body), "application/json", "tento-turma.json")


# --- a turma moved to another Tento ----------------------------------------------------------


# The turma's file is on the scorer's link only: whoever imports a file first holds the copy
# the same file's later imports are sent to, so a viewer must not be able to take it.
SCORER_FILE = (
    "O arquivo da turma só se baixa pelo link de marcar da turma: peça a quem marca os pontos."
)


@bp.get("/turma/<token>/arquivo-da-turma.json")
def export_turma_file(token: str) -> Response:
    """The turma's file, to import into another Tento: every table and record, no token."""
    turma = turmas.scorer_turma(token)
    body = json.dumps(transfer.export_turma(turma), ensure_ascii=False, separators=(",", ":"))
    return download(body, "application/json", present.turma_filename(turma))


@bp.get("/vt/<token>/arquivo-da-turma.json")
def viewer_turma_file(token: str) -> tuple[str, int]:
    """Where the viewer's link gave the turma's file: a 403 saying whose link gives it now."""
    turmas.viewer_turma(token)
    return error_page(403, SCORER_FILE)


def _import_page(
    message: str | None = None, status: int = 200, again: transfer.Imported | None = None
) -> Response:
    """The 'importar turma' page, with a refusal's message, or the turma a file was imported
    into before: its scorer link only for the browser that holds it, else its viewer link."""
    found = None
    if again is not None:
        turma = again.turma
        mine = session.get("turma") == turma.edit_token
        url = (
            url_for("turma.page", token=turma.edit_token)
            if mine
            else url_for("turma.viewer", token=turma.view_token)
        )
        found = {"turma": turma, "url": url, "mine": mine}
    page = render_template(
        "turma/import.html", message=message, found=found, limit_mb=transfer.MAX_BYTES >> 20
    )
    return make_response(page, status)


@bp.get("/importar-turma")
def import_form() -> Response:
    """The form that imports a turma's file from another Tento."""
    return _import_page()


@bp.post("/importar-turma")
@csrf.exempt  # checked below, once the upload's own size limit is set
@opening_limit()
def import_post() -> Response:
    """Import a turma's file (its tables and records, with new links); then its page. The same
    file again imports nothing and says where it went; a bad file changes nothing."""
    request.max_content_length = transfer.MAX_UPLOAD
    try:
        if current_app.config["WTF_CSRF_ENABLED"]:
            csrf.protect()
        upload = request.files.get("arquivo")
    except RequestEntityTooLarge:
        return _import_page(transfer.TOO_BIG, 413)
    data = upload.read(transfer.MAX_BYTES + 1) if upload else b""
    if not data:
        return _import_page("Escolha o arquivo da turma.", 422)
    imported = transfer.import_turma(data, current_app.config["SECRET_KEY"])
    if imported.again:
        return _import_page(again=imported)
    _remember(imported.turma.edit_token)
    return redirect(url_for("turma.page", token=imported.turma.edit_token, importada=1), 303)


# --- the score as an image (Open Graph) -----------------------------------------------------


IMMUTABLE = "public, max-age=31536000, immutable"


def _png(board: Board | None, heading: str) -> Response:
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
    return _png(service.viewer_board(token), "Tento · placar ao vivo")


@bp.get("/vt/<token>/imagem.png")
def viewer_image(token: str) -> Response:
    """The turma's newest table as a PNG, for the turma link's preview."""
    turma = turmas.viewer_turma(token)
    newest = turmas.tables(turma, 1)
    return _png(service.load_board(newest[0]) if newest else None, turma.name)
