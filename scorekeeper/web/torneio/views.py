"""The torneio's pages: the new-torneio form, the organiser's page and its steps, each mesa's
stable scorer link, and the bar's TV. Views parse, ask the domain
(scorekeeper.domain.torneio), present and render."""

from __future__ import annotations

import json

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from ... import caches
from ...domain.mesa import service
from ...domain.mesa.inputs import Write, number, visible
from ...domain.torneio import access, calls, reading, rounds, saving, setup, word
from ...domain.torneio.access import StaleTorneio
from ...domain.torneio.setup import Settings
from ...rules import DEFAULT_RULE_SET, RULE_SETS, either
from ..common.exports import CSV_TYPE, csv_lines, download
from ..common.links import shared_url
from ..errors import answer_refusals
from ..limits import opening_limit
from . import exports, present

bp = Blueprint("torneio", __name__)


def _poll_ms() -> int:
    """How often the TV and a free mesa's page ask for news (the app's POLL_INTERVAL_MS)."""
    return int(current_app.config["POLL_INTERVAL_MS"])


@bp.after_request
def _no_index(response: Response) -> Response:
    """Keep the capability pages out of search engines even if a link leaks."""
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


# --- creating ----------------------------------------------------------------------------------


def _new_page(message: str | None = None, status: int = 200) -> Response:
    """The new-torneio form, with a refusal's message if any."""
    page = render_template(
        "torneio/new.html",
        message=message,
        form=request.form,
        at_limit=setup.AT_LIMIT,
        max_mesas=setup.MAX_MESAS,
        trios_in=either(r.short_name for r in RULE_SETS.values() if 6 in r.players),
    )
    return make_response(page, status)


@bp.get("/torneio/novo")
def new() -> Response:
    """The form of a new torneio."""
    return _new_page()


def _settings() -> Settings:
    """The new-torneio form's settings, or a pt-BR refusal."""
    form = request.form
    return Settings(
        name=visible(form.get("nome", "")),
        variante=form.get("variante", DEFAULT_RULE_SET.code),
        players=number(form.get("jogadores", "4"), "jogadores"),
        best_of=number(form.get("formato", "3"), "formato"),
        final_best_of=number(form.get("formato_final", form.get("formato", "3")), "formato"),
        mesas=number(form.get("mesas", "4"), "mesas"),
        minutes=number(form.get("minutos", "90"), "minutos"),
        at_limit=form.get("no_limite", "lider"),
        third_place=form.get("terceiro") == "1",
    )


@bp.post("/torneio/novo")
@opening_limit()
def create() -> Response:
    """A new torneio; then its organiser's page."""
    torneio = setup.create_torneio(_settings())
    return redirect(url_for("torneio.page", token=torneio.edit_token), 303)


# --- the organiser -----------------------------------------------------------------------------


def _page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The organiser's page of a torneio, with a refusal's message if any."""
    torneio = access.organiser_torneio(token)
    snap = calls.sync(torneio)
    signup_url = shared_url("torneio.signup", token=snap.torneio.view_token)
    page = render_template(
        "torneio/page.html",
        message=message,
        signup_url=signup_url,
        signup_qr=present.signup_qr(signup_url),
        tv_url=shared_url("torneio.tv", token=snap.torneio.view_token),
        version=reading.version(snap.torneio.view_token),
        poll_ms=_poll_ms(),
        **present.context(snap),
    )
    return make_response(page, status)


@bp.get("/t/<token>")
def page(token: str) -> Response:
    """The organiser's page: registration, the draw, the bracket, the mesas' links, the TV's."""
    return _page(token)


@bp.get("/t/<token>/novidades")
def news(token: str) -> Response:
    """The organiser's page's poll: 204 while nothing changed since version ?v=, else a note
    with a link to see the page again (the page itself is not redrawn under the thumb)."""
    torneio = access.organiser_torneio(token)
    if request.args.get("v") == reading.version(torneio.view_token):
        return make_response("", 204)
    return make_response(render_template("torneio/_novidades.html", torneio=torneio))


def _done(token: str) -> Response:
    """After an organiser's step: its page again (a GET, so a reload repeats nothing)."""
    return redirect(url_for("torneio.page", token=token), 303)


def _rev() -> int:
    """The torneio revision the organiser's page was drawn at."""
    return Write.read(request.form, StaleTorneio).rev


@bp.post("/t/<token>/inscrever")
def register(token: str) -> Response:
    """A pair registered at the door."""
    names = [request.form.get(f"jogador_{i}", "") for i in (1, 2, 3)]
    setup.register(
        token,
        _rev(),
        [visible(n) for n in names],
        visible(request.form.get("nome", "")),
        visible(request.form.get("reserva", "")),
    )
    return _done(token)


@bp.post("/t/<token>/dupla/<int:pair>/editar")
def edit(token: str, pair: int) -> Response:
    """A pair's players, name or reserve corrected."""
    names = [request.form.get(f"jogador_{i}", "") for i in (1, 2, 3)]
    setup.edit_pair(
        token,
        _rev(),
        pair,
        [visible(n) for n in names],
        visible(request.form.get("nome", "")),
        visible(request.form.get("reserva", "")),
    )
    return _done(token)


@bp.post("/t/<token>/dupla/<int:pair>/remover")
def remove(token: str, pair: int) -> Response:
    """A pair taken out before the draw."""
    setup.remove_pair(token, _rev(), pair)
    return _done(token)


@bp.post("/t/<token>/dupla/<int:pair>/marcar")
def mark(token: str, pair: int) -> Response:
    """A pair's 'pago' or 'presente' switched."""
    setup.toggle_mark(token, _rev(), pair, request.form.get("marca", ""))
    return _done(token)


@bp.post("/t/<token>/sortear")
def draw(token: str) -> Response:
    """The bracket drawn; the first matches called to the mesas."""
    setup.draw_bracket(token, _rev())
    return _done(token)


@bp.post("/t/<token>/desfazer-sorteio")
def undo_draw(token: str) -> Response:
    """The draw taken back before the first game: registration opens again."""
    setup.undo_draw(token, _rev())
    return _done(token)


@bp.post("/t/<token>/rodada/<int:rodada>/desfazer")
def undo_start(token: str, rodada: int) -> Response:
    """A round's clock started by mistake taken back."""
    rounds.undo_start(token, _rev(), rodada)
    return _done(token)


@bp.post("/t/<token>/trocar")
def swap(token: str) -> Response:
    """Two pairs exchange places in the bracket before the first game."""
    first = number(request.form.get("de", ""), "dupla")
    second = number(request.form.get("para", ""), "dupla")
    setup.swap_pairs(token, _rev(), first, second)
    return _done(token)


@bp.post("/t/<token>/jogo/<matchkey:key>/decidir")
def decide(token: str, key: str) -> Response:
    """The organiser's word on a match: a W.O., an override, or taken back."""
    how = request.form.get("como", "")
    raw = request.form.get("dupla", "")
    pair = None if how == "desfeito" else number(raw, "dupla")
    word.decide(token, _rev(), key, pair, how)
    return _done(token)


@bp.post("/t/<token>/jogo/<matchkey:key>/anotar")
def note(token: str, key: str) -> Response:
    """A line in a match's súmula."""
    word.note(token, _rev(), key, visible(request.form.get("texto", "")))
    return _done(token)


@bp.post("/t/<token>/rodada/<int:rodada>/comecar")
def start_round(token: str, rodada: int) -> Response:
    """A bracket round's clock started."""
    rounds.start_round(token, _rev(), rodada)
    return _done(token)


@bp.post("/t/<token>/jogo/<matchkey:key>/cancelar")
def call_off(token: str, key: str) -> Response:
    """A match the bracket no longer has called off its mesa."""
    word.call_off(token, _rev(), key)
    return _done(token)


@bp.post("/t/<token>/mesa/<int:mesa>/pausar")
def pause(token: str, mesa: int) -> Response:
    """A mesa paused or back in play."""
    word.set_paused(token, _rev(), mesa, request.form.get("pausar") == "1")
    return _done(token)


@bp.get("/t/<token>/mesas")
def mesa_cards(token: str) -> Response:
    """One card per mesa with its link and QR code, to print and leave on each mesa."""
    snap = reading.snapshot(access.organiser_torneio(token))
    page = render_template("torneio/cartoes.html", **present.context(snap))
    return make_response(page)


# --- pairs signing up from their phones ----------------------------------------------------------


def _signup_page(token: str, message: str | None = None, status: int = 200) -> Response:
    """The public sign-up form (the TV's token), with a refusal's message if any."""
    torneio = access.viewer_torneio(token)
    if torneio.view_token != token:
        raise access.UnknownTorneio()
    page = render_template(
        "torneio/inscricao.html",
        torneio=torneio,
        message=message,
        signed=request.args.get("inscrita", ""),
        closed=torneio.slots is not None,
        form=request.form,
    )
    return make_response(page, status)


@bp.get("/tv/<token>/inscricao")
def signup(token: str) -> Response:
    """Pairs register themselves until the draw, from the link or QR code the organiser shows."""
    return _signup_page(token)


@bp.post("/tv/<token>/inscricao")
def signup_post(token: str) -> Response:
    """A pair signed up: the same fields and checks as the organiser's form. Not under the
    opening limit: at a hosted torneio every phone in the bar may share one address, and a
    torneio takes at most the bracket's pairs, until the draw."""
    names = [visible(request.form.get(f"jogador_{i}", "")) for i in (1, 2, 3)]
    name = setup.sign_up(
        token,
        names,
        visible(request.form.get("nome", "")),
        visible(request.form.get("reserva", "")),
    )
    return redirect(url_for("torneio.signup", token=token, inscrita=name), 303)


# --- the mesas' links --------------------------------------------------------------------------


def _free_page(
    number_: int, paused: bool, token: str, snap: reading.Snapshot, said: str | None
) -> Response:
    """A mesa with no match now (free or paused): says so (and why its last match ended, when
    its phone came from it) and follows the next call."""
    page = render_template(
        "torneio/livre.html",
        number=number_,
        paused=paused,
        token=token,
        said=said,
        poll_ms=_poll_ms(),
        **present.context(snap),
    )
    return make_response(page)


@bp.get("/tm/<token>")
def mesa(token: str) -> Response:
    """A mesa's link for the whole evening: the board of the match now called to it, or a page
    saying the mesa is free that follows the next call. From a match decided off its board
    (?encerrado=<why>), the page it leads to says so."""
    said = present.ENDED_BEFORE.get(request.args.get("encerrado", ""))
    found = access.mesa_by_token(token)
    torneio = access.torneio_by_id(found.torneio_id)
    snap = calls.sync(torneio)
    called = snap.at_mesa(found.number)
    if request.headers.get("HX-Request"):
        if called is None:
            return make_response("", 204)
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url_for("mesa.board", token=called.mesa.edit_token)
        return response
    if called is None:
        return _free_page(found.number, found.paused, token, snap, said)
    if said:
        flash(said)
    return redirect(url_for("mesa.board", token=called.mesa.edit_token), 303)


@bp.get("/m/<token>/torneio")
def next_at_table(token: str) -> Response:
    """From a torneio match's board: the mesa's link (the next match called to it)."""
    table = service.scorer_table(token)
    found = access.mesa_of_table(table)
    return redirect(url_for("torneio.mesa", token=found.token), 303)


# --- the TV ------------------------------------------------------------------------------------


@bp.get("/tv/<token>")
def tv(token: str) -> Response:
    """The bar's TV: every mesa's live score, the next calls, the bracket, the podium."""
    torneio = access.viewer_torneio(token)
    snap = calls.sync(torneio)
    view_token = snap.torneio.view_token
    page = render_template(
        "torneio/tv.html",
        version=reading.version(view_token),
        poll_ms=_poll_ms(),
        watch_url=shared_url("torneio.tv", token=view_token),
        qr=present.tv_qr(shared_url("torneio.tv", token=view_token)),
        **present.context(snap),
    )
    return make_response(page)


@bp.get("/tv/<token>/estado")
def tv_state(token: str) -> Response:
    """The TV's poll: 204 while nothing changed since version ?v=, else the TV's body, drawn once
    a version in this process and kept for the other screens (caches.TV_BODIES)."""
    now = reading.version(token)
    if now is None:
        torneio = access.viewer_torneio(token)  # the organiser's token: 404 unless it is one
        now = reading.version(torneio.view_token)
    if now is not None and request.args.get("v") == now:
        return make_response("", 204)
    key = (token, now, request.script_root)
    body = caches.recall(caches.TV_BODIES, key)
    if body is None:
        snap = calls.sync(access.viewer_torneio(token))
        # `now` was read before this snapshot: the body shows that version or a later one
        body = render_template(
            "torneio/_tv.html", version=now, poll_ms=_poll_ms(), **present.context(snap)
        )
        caches.keep(caches.TV_BODIES, key, body)
    return make_response(body)


# --- a pair's matches saved in its turma ---------------------------------------------------------


@bp.get("/tv/<token>/duplas")
def pairs(token: str) -> Response:
    """Every pair, each with a link to save its matches in its turma."""
    torneio, found = saving.pairs(token)
    return make_response(render_template("torneio/duplas.html", torneio=torneio, pairs=found))


def _save_page(token: str, pair: int, message: str | None = None, status: int = 200) -> Response:
    """A pair's finished matches and the form that saves them in a turma."""
    found = saving.pair_matches(token, pair)
    page = render_template("torneio/salvar.html", found=found, token=token, message=message)
    return make_response(page, status)


@bp.get("/tv/<token>/dupla/<int:pair>/turma")
def save(token: str, pair: int) -> Response:
    """Save a pair's matches in its turma: paste the turma's link or name a new one."""
    return _save_page(token, pair)


@bp.post("/tv/<token>/dupla/<int:pair>/turma")
@opening_limit()
def save_post(token: str, pair: int) -> Response:
    """The pair's finished matches copied into the turma (each once); then the turma's page."""
    form = request.form
    turma = saving.save_in_turma(
        token, pair, form.get("link", ""), visible(form.get("nome", "")) or "Turma"
    )
    return redirect(url_for("turma.page", token=turma.edit_token), 303)


# --- the end: exports and the result image (on the TV's read-only token) ------------------------


def _read(token: str) -> reading.Snapshot:
    """The torneio of a TV (or organiser) token as it stands, read without calling any match."""
    return reading.snapshot(access.viewer_torneio(token))


@bp.get("/tv/<token>/torneio.csv")
def export_csv(token: str) -> Response:
    """Every match and hand as CSV: a row per hand, then a result row per match."""
    snap = _read(token)
    lines = csv_lines(exports.CSV_HEADER, exports.csv_rows(snap))
    return download(stream_with_context(lines), CSV_TYPE, exports.filename(snap, "csv"))


@bp.get("/tv/<token>/torneio.json")
def export_json(token: str) -> Response:
    """The torneio as JSON: settings, pairs, the bracket with winners, each match's hands."""
    snap = _read(token)
    body = json.dumps(exports.torneio_json(snap), ensure_ascii=False, indent=1)
    return download(body, "application/json", exports.filename(snap, "json"))


@bp.get("/tv/<token>/resultado.png")
def result_image(token: str) -> Response:
    """The podium as a PNG for the group chat."""
    response = Response(exports.result_png(_read(token)), mimetype="image/png")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _refused(message: str | None, status: int) -> Response:
    """A step not taken: the page it came from again, with why."""
    if request.endpoint == "torneio.create":
        return _new_page(message, status)
    if request.endpoint in ("torneio.signup", "torneio.signup_post"):
        return _signup_page(str((request.view_args or {}).get("token", "")), message, status)
    if request.endpoint in ("torneio.save", "torneio.save_post"):
        args = request.view_args or {}
        return _save_page(str(args.get("token", "")), int(args.get("pair", 0)), message, status)
    token = str((request.view_args or {}).get("token", ""))
    return _page(token, message, status)


answer_refusals(bp, _refused)
