"""What the board and the history pages show: the buttons, the log, the chart and the context
of `_board.html`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask import get_template_attribute, request, url_for
from flask_wtf.csrf import generate_csrf
from htmx_flask import request as hx_request
from markupsafe import Markup

from ... import caches
from ...domain.mesa import Board, forecast, words
from ...domain.mesa.board import CHART_HANDS
from ...domain.torneio import reading
from ...domain.torneio.reading import champions_word
from ...domain.turma import turmas
from ...models import ACTIVE, Entry, Mesa
from ...rules import (
    DEFAULT_RULE_SET,
    FERRO_MODE,
    SPECIAL_AT,
    VARIANTS,
    Kind,
    MatchState,
    Outcome,
    Phase,
    Variant,
)
from ..common import board_words
from ..common.links import shared_url, whatsapp_url

# The board's own routes, /m/<token>/<path>: the views and board_urls share these.
PATHS = {
    "history": "historico",
    "poll": "placar",
    "tap": "marcar",
    "undo": "desfazer",
    "redo": "refazer",
    "note": "nota",
    "fix": "corrigir",
    "juiz": "juiz",
    "edit": "editar",
}


def board_urls(token: str) -> dict[str, str]:
    """The board's URL and its action URLs, built with one url_for (all under the board's)."""
    base = url_for("mesa.board", token=token)
    return {"board": base, **{name: f"{base}/{path}" for name, path in PATHS.items()}}


def board_context(board: Board, message: str | None = None, status: int = 200) -> dict[str, Any]:
    """Everything _board.html needs; `message` goes to the feedback slot."""
    state, last = board.state, board.last
    chart_a, chart_b, hands, cut = chart_points(board)
    closed = closed_match(board.mesa)
    shown = layout(board, closed=closed.text if closed else "")
    news = reading.table_news(board.mesa, state.phase is Phase.SERIES_OVER)
    return {
        "board": board,
        "layout": shown,
        "closed": closed,
        "torneio_news": news,
        "champions_word": champions_word(board.mesa.players),
        "forecast": forecast.board_forecast(state),
        "forecast_url": forecast_url(board.mesa.special_at, state.config.variant.code),
        "mesa": board.mesa,
        "urls": board_urls(board.mesa.edit_token),
        # htmx sends the token in a header (base.html); only the page's plain forms carry it
        "csrf": None if hx_request.htmx else generate_csrf(),
        "state": state,
        "Phase": type(state.phase),
        "names": board.mesa.team_names,
        "deal": board_words.deal_text(board),
        "deal_short": board_words.deal_short(board),
        "onze_decider": board_words.onze_decider(board),
        "ferro_mode": FERRO_MODE.choice_or_default(board.mesa.ferro_mode),
        "special_hand": SPECIAL_AT.choice_or_default(board.mesa.special_at),
        "rules": state.config.variant,
        "running_hint": board_words.RUNNING_HINTS[state.config.variant.code],
        "series_label": board_words.series_label(board.mesa, state),
        "log": log_entries(board.mesa, board.recent, board.numbers),
        "chart": {"a": chart_a, "b": chart_b, "hands": hands, "cut": cut},
        "result": result_share(board),
        "message": message,
        "status": status,
        "last_text": words.record_text(last, board.mesa.team_names) if last else None,
        "last_detail": board_words.detail(last, board.mesa.special_at) if last else None,
        "notes": board_words.notes_for(last, state.config.variant),
    }


def page_context(board: Board) -> dict[str, Any]:
    """What the board's page adds to its fragment: the layouts a tap may lead to (for the
    forecast), the turma the table is in and, for a torneio's match, its torneio and when its
    round ends."""
    match = reading.match_of_table(board.mesa)
    ends = match.ends if match is not None else None
    return {
        "forecast_layouts": forecast_layouts(board),
        "turma": turmas.turma_of(board.mesa),
        "torneio_match": match,
        "round_ends": words.local_time(ends.replace(tzinfo=None)) if ends else None,
    }


@dataclass(frozen=True)
class Closed:
    """A torneio match decided off its board or called off: why, in words, and the mesa's link
    its phones go to (the match called there now)."""

    text: str
    url: str


CLOSED_WORDS = {
    reading.WO: "W.O.: o organizador deu este jogo para {name}.",
    reading.OVERRIDE: "O organizador deu este jogo para {name}.",
    reading.TIME: "O tempo da rodada acabou e deu este jogo para {name}.",
    reading.CANCELED: (
        "O organizador cancelou este jogo: o placar fica guardado, mas não conta para a chave."
    ),
}
CLOSED_SHORT = "Jogo encerrado: os toques nesta mesa não contam mais."


def closed_text(match: reading.TableMatch) -> str:
    """Why a closed match's table takes no more writes, in words ('' while it is open)."""
    if match.closed is None:
        return ""
    return CLOSED_WORDS.get(match.closed, CLOSED_SHORT).format(name=match.given_to)


def closed_match(mesa: Mesa) -> Closed | None:
    """What a closed torneio table's board says and where it leads; None while it is open."""
    if mesa.closed is None:
        return None
    match = reading.match_of_table(mesa)
    if match is None:
        return Closed(CLOSED_SHORT, url_for("mesa.board", token=mesa.edit_token))
    url = url_for("torneio.mesa", token=match.mesa_token, encerrado=mesa.closed)
    return Closed(closed_text(match), url)


@dataclass(frozen=True)
class ResultShare:
    """A finished game's result to give away: its words, the live link, and both together for
    WhatsApp or a copy."""

    title: str
    text: str
    url: str

    @property
    def message(self) -> str:
        """The words and the link, as a message to paste."""
        return f"{self.text}\n{self.url}"

    @property
    def whatsapp(self) -> str:
        """WhatsApp's link that opens a chat picker with the message."""
        return whatsapp_url(self.message)


def result_share(board: Board) -> ResultShare | None:
    """The result of the game (or series) the board shows as over; None while it is played."""
    title = board_words.over_text(board)
    if title is None:
        return None
    state, names = board.state, board.mesa.team_names
    score = f"{names[0]} {state.points[0]} x {state.points[1]} {names[1]}"
    text = f"{title} {score} · partidas {state.wins[0]} x {state.wins[1]}"
    if state.config.variant is not DEFAULT_RULE_SET:  # the default goes unsaid
        text = f"{text} · {state.config.variant.name}"
    url = shared_url("share.live", token=board.mesa.view_token)
    return ResultShare(title, text, url)


@dataclass(frozen=True)
class Layout:
    """What a phase lays out on the board (mesa/_taps.html): the state it shows, its key
    (forecast.phase_key), the side taps, the special hand's taps, who decide a mão de onze
    and the end's heading. A forecast layout (a phase the taps may lead to) leaves out what
    only the server's answer can tell."""

    state: MatchState
    key: str
    taps: tuple[tuple[Tap, ...], tuple[Tap, ...]]
    special: list[Tap]
    onze_pair: tuple[str, ...]  # who decides a mão de onze together (2x2, with names)
    winner_text: str | None
    forecast: bool = False
    closed: str = ""  # why a torneio match is over off its board: no taps then


def layout(board: Board, forecast_only: bool = False, closed: str = "") -> Layout:
    """The layout of a board's phase (none of its taps once its torneio match is closed)."""
    state = board.state
    taps = ((), ()) if closed else (side_taps(state, 0), side_taps(state, 1))
    return Layout(
        state,
        forecast.phase_key(state),
        taps,
        [] if closed else special_taps(board),
        () if forecast_only else board_words.onze_pair(board),
        board_words.over_text(board),
        forecast_only,
        closed,
    )


def forecast_layouts(board: Board) -> list[Layout]:
    """The layout of every phase a tap made before the server answers may lead to, drawn once
    with the page (the script sets their score and tally from the forecast)."""
    states = forecast.layout_states(board.mesa.match_config)
    return [layout(replace(board, state=state), forecast_only=True) for state in states]


@caches.memo(caches.FORECASTS)
def forecast_table(special_at: int, rules: str = DEFAULT_RULE_SET.code) -> tuple[str, str]:
    """The game table of forecast.game_table as JSON, and a short hash of it for its URL."""
    text = json.dumps(forecast.game_table(special_at, rules), separators=(",", ":"))
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


# views.forecast's routes, built here without url_for: the default rule set's, another's
FORECAST_PATH = "/previsao/{}.json"
FORECAST_RULES_PATH = "/previsao/{}/{}.json"


def forecast_url(special_at: int, rules: str = DEFAULT_RULE_SET.code) -> str:
    """The forecast table's URL, versioned by its content (kept by the browser for a year):
    spelled out, as url_for would cost a tap's answer more than the rest of the forecast."""
    if rules == DEFAULT_RULE_SET.code:
        path = FORECAST_PATH.format(special_at)
    else:
        path = FORECAST_RULES_PATH.format(rules, special_at)
    return f"{request.script_root}{path}?v={forecast_table(special_at, rules)[1]}"


@dataclass(frozen=True)
class Tap:
    """A button on the board: its label, the value it posts and its test hook."""

    label: str
    code: str
    testid: str
    css: str = ""


def _ladder_taps(rules: Variant) -> tuple[tuple[Tap, ...], tuple[Tap, ...]]:
    """Each side's +N buttons: one per value of the rule set's ladder."""
    return tuple(  # type: ignore[return-value]
        tuple(
            Tap(f"+{v}", Outcome(Kind.NORMAL, side, v).code, f"tap-{'ab'[side]}-{v}")
            for v in rules.ladder
        )
        for side in (0, 1)
    )


_SIDE_TAPS = {code: _ladder_taps(rules) for code, rules in VARIANTS.items()}


def side_taps(state: MatchState, side: int) -> tuple[Tap, ...]:
    """The +N buttons under one side during a normal hand, from the table's ladder."""
    if state.phase is not Phase.NORMAL:
        return ()
    return _SIDE_TAPS[state.config.variant.code][side]


def special_taps(board: Board) -> list[Tap]:
    """The outcome buttons of a mão de onze or mão de ferro, coloured by the side they score for.

    The labels need no agreement with a team's name: the onze buttons' subject is "quem está com
    11" (as the board's explanation says), the ferro buttons say whose the hand is.
    """
    if board.state.phase not in (Phase.MAO_DE_ONZE, Phase.MAO_DE_FERRO):
        return []
    names = board.mesa.team_names
    taps: list[Tap] = []
    for outcome in board.state.legal_outcomes():
        kind, side, gain = outcome.kind, outcome.side or 0, outcome.gain
        css = f"team-{'ab'[side]}"
        code = outcome.code
        if kind is Kind.ONZE_GANHOU:
            taps.append(Tap(f"Jogou e ganhou ({names[side]} +{gain})", code, "onze-ganhou", css))
        elif kind is Kind.ONZE_PERDEU:
            taps.append(Tap(f"Jogou e perdeu ({names[side]} +{gain})", code, "onze-perdeu", css))
        elif kind is Kind.ONZE_CORREU:
            taps.append(Tap(f"Correu ({names[side]} +{gain})", code, "onze-correu", css))
        elif kind is Kind.FERRO:
            taps.append(Tap(f"Mão de ferro para {names[side]}", code, f"ferro-{'ab'[side]}", css))
    return taps


@dataclass(frozen=True)
class LogEntry:
    """What one line of the log shows."""

    text: str
    detail: str | None
    number: str
    score: str
    time: str
    active: bool


def log_entries(mesa: Mesa, records: Sequence[Entry], numbers: Mapping[int, str]) -> Markup:
    """The log's lines as one piece of HTML for records (newest first), active hands numbered
    'partida.mão'; empty without records. Each line is Markup already: joined as text."""
    names, special_at = mesa.team_names, mesa.special_at
    lines = [log_line(rec, numbers.get(rec.id, ""), names, special_at) for rec in records]
    return Markup("\n".join(lines))


@caches.memo(caches.LOG_LINES)
def log_line(record: Entry, number: str, names: tuple[str, str], special_at: int) -> Markup:
    """One line of the log, rendered once: everything it shows is in its arguments (a record's
    status and note are fields of the record), so a board shows its thirty lines at the cost
    of one, whatever the table's history."""
    line = get_template_attribute("mesa/_log.html", "line")
    entry = LogEntry(
        text=words.record_text(record, names),
        detail=board_words.detail(record, special_at),
        number=number,
        score=f"{record.score_a} x {record.score_b}",
        time=words.local_time(record.created_at),
        active=record.status == ACTIVE,
    )
    return Markup(line(entry))


CHART_WIDTH, CHART_HEIGHT = 300, 96  # the chart's viewBox; a point is CHART_HEIGHT / 12 high


def chart_xs(steps: int) -> tuple[str, ...]:
    """The x coordinates of a chart of `steps` hands, as SVG text (the same for every board)."""
    return tuple(f"{round(i * CHART_WIDTH / steps, 1):g}" for i in range(steps + 1))


def chart_points(board: Board) -> tuple[str, str, int, bool]:
    """SVG polyline points for both sides over the current game's hands, the hand count, and
    whether those are only the game's newest hands (a game longer than the chart)."""
    series = list(board.game)
    cut = len(series) > CHART_HANDS
    if not cut and (not series or series[0] != (0, 0)):
        series.insert(0, (0, 0))
    xs = chart_xs(max(len(series) - 1, 1))

    def line(side: int) -> str:
        return " ".join(
            f"{x},{CHART_HEIGHT - points[side] * CHART_HEIGHT // 12}"
            for x, points in zip(xs, series, strict=False)
        )

    return line(0), line(1), len(series) - 1, cut
