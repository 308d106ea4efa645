"""Turning a Board into what the templates show: names, buttons, the log, the deal, the chart."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..models import ACTIVE, Entry, Mesa
from ..rules import HAND_VALUES, Kind, MatchState, Outcome, Phase
from .forms import outcome_code
from .service import NOTE_LABELS, NOTES, Board

try:
    LOCAL_TZ: ZoneInfo | None = ZoneInfo("America/Sao_Paulo")
except ZoneInfoNotFoundError:  # pragma: no cover - tzdata is a dependency
    LOCAL_TZ = None


@dataclass(frozen=True)
class Tap:
    """A button on the board: its label, the value it posts and its test hook."""

    label: str
    code: str
    testid: str
    css: str = ""


def seat_names(mesa: Mesa) -> list[str]:
    """Each seat's name: the player's name, else 'Nós 1', 'Eles 1', 'Nós 2', 'Eles 2'."""
    names = list(mesa.player_names or [])
    result = []
    for seat in range(mesa.players):
        given = names[seat] if seat < len(names) else ""
        result.append(given or f"{mesa.team_names[seat % 2]} {seat // 2 + 1}")
    return result


_SIDE_TAPS = tuple(
    tuple(
        Tap(f"+{v}", outcome_code(Outcome(Kind.NORMAL, side, v)), f"tap-{'ab'[side]}-{v}")
        for v in HAND_VALUES
    )
    for side in (0, 1)
)


def side_taps(state: MatchState, side: int) -> tuple[Tap, ...]:
    """The +N buttons under one side during a normal hand."""
    return _SIDE_TAPS[side] if state.phase is Phase.NORMAL else ()


def special_name(special_at: int) -> str:
    """'mão de onze', or 'mão de dez' for tables that play it at 10."""
    return "mão de dez" if special_at == 10 else "mão de onze"


def special_taps(board: Board) -> list[Tap]:
    """The outcome buttons of a mão de onze or mão de ferro, coloured by the side they score for.

    The labels need no agreement with a team's name: the onze buttons' subject is "quem está com
    11" (as the board's explanation says), the ferro buttons say whose the hand is.
    """
    names = board.mesa.team_names
    taps: list[Tap] = []
    for outcome in board.state.legal_outcomes():
        kind, side = outcome.kind, outcome.side or 0
        css = f"team-{'ab'[side]}"
        code = outcome_code(outcome)
        if kind is Kind.ONZE_GANHOU:
            taps.append(Tap(f"Jogou e ganhou ({names[side]} +3)", code, "onze-ganhou", css))
        elif kind is Kind.ONZE_PERDEU:
            taps.append(Tap(f"Jogou e perdeu ({names[side]} +3)", code, "onze-perdeu", css))
        elif kind is Kind.ONZE_CORREU:
            taps.append(Tap(f"Correu ({names[side]} +1)", code, "onze-correu", css))
        elif kind is Kind.FERRO:
            taps.append(Tap(f"Mão de ferro para {names[side]}", code, f"ferro-{'ab'[side]}", css))
    return taps


def describe(rec: Entry, names: tuple[str, str]) -> str:
    """A record in words for the log, the confirmation and undo/redo, e.g. 'Nós +3'.

    No sentence makes a verb agree with a team's name ("Nós", "Ana", "Os Zapeiros" alike).
    """
    kind = Kind(rec.kind)
    name = names[rec.side or 0]
    if kind is Kind.ANULADA:
        return "Mão anulada"
    if kind is Kind.CORRECAO:
        return f"{name}: placar corrigido para {rec.points}"
    if kind is Kind.PROXIMA_PARTIDA:
        return "Próxima partida"
    if kind is Kind.NOVA_SERIE:
        return "Nova série"
    if kind is Kind.FERRO:
        return f"Mão de ferro para {name}"
    return f"{name} +{rec.outcome.gain}"


_ONZE_DETAILS = {
    Kind.ONZE_GANHOU: "jogou e ganhou",
    Kind.ONZE_PERDEU: "jogou e perdeu",
    Kind.ONZE_CORREU: "correu",
}


def detail(rec: Entry, special_at: int = 11) -> str | None:
    """What a record's headline leaves out: how a mão de onze went, the note, the reason."""
    kind = Kind(rec.kind)
    parts = []
    if kind in _ONZE_DETAILS:
        parts.append(f"{special_name(special_at)}: quem tinha {special_at} {_ONZE_DETAILS[kind]}")
    if rec.note in NOTE_LABELS:
        parts.append(NOTE_LABELS[rec.note or ""])
    if rec.reason:
        parts.append(rec.reason)
    return " · ".join(parts) or None


def game_won_text(names: tuple[str, str], side: int) -> str:
    """The heading of a won game, e.g. 'Partida para Os Zapeiros!'."""
    return f"Partida para {names[side]}!"


def series_won_text(names: tuple[str, str], side: int) -> str:
    """The heading of a won series, e.g. 'Série para Nós!'."""
    return f"Série para {names[side]}!"


def over_text(board: Board) -> str | None:
    """Who took the series (or the game) once it is over; None while it is being played."""
    state, names = board.state, board.mesa.team_names
    if state.phase is Phase.SERIES_OVER and state.series_winner is not None:
        return series_won_text(names, state.series_winner)
    if state.phase is Phase.GAME_OVER and state.game_winner is not None:
        return game_won_text(names, state.game_winner)
    return None


def to_local(moment: datetime) -> datetime:
    """A stored (naive UTC) time in Brasília time."""
    aware = moment.replace(tzinfo=UTC)
    return aware.astimezone(LOCAL_TZ) if LOCAL_TZ else aware


def local_time(moment: datetime) -> str:
    """HH:MM in Brasília time."""
    return to_local(moment).strftime("%H:%M")


@dataclass(frozen=True)
class LogEntry:
    """One line of the log."""

    record: Entry
    text: str
    detail: str | None
    number: str
    score: str
    time: str
    active: bool


def log_entries(board: Board, limit: int | None = None) -> list[LogEntry]:
    """The records (the newest `limit`, or all), newest first, numbered 'partida.mão' if active."""
    names, special_at = board.mesa.team_names, board.mesa.special_at
    numbers: dict[int, str] = {}
    for rec, before in zip(board.active, board.states, strict=False):
        if Kind(rec.kind).is_hand:
            numbers[rec.id] = f"{before.game_number}.{before.hand_in_game}"
    return [
        LogEntry(
            record=rec,
            text=describe(rec, names),
            detail=detail(rec, special_at),
            number=numbers.get(rec.id, ""),
            score=f"{rec.score_a} x {rec.score_b}",
            time=local_time(rec.created_at),
            active=rec.status == ACTIVE,
        )
        for rec in reversed(board.records[-limit:] if limit else board.records)
    ]


@dataclass(frozen=True)
class LastLine:
    """The live view's line about the latest record: 'Última mão: Nós +3 · truco aceito · 21:03'."""

    lead: str | None
    text: str
    detail: str | None
    time: str


_MARKER_TEXTS = {
    Kind.PROXIMA_PARTIDA: "Nova partida começou",
    Kind.NOVA_SERIE: "Nova série começou",
}


def last_line(board: Board) -> LastLine | None:
    """The latest active record for the live view: a hand as 'Última mão', a marker or a
    correction by its own name; None before anything was recorded."""
    rec = board.last
    if rec is None:
        return None
    kind = Kind(rec.kind)
    text = _MARKER_TEXTS.get(kind) or describe(rec, board.mesa.team_names)
    lead = "Última mão" if kind.is_hand else None
    return LastLine(lead, text, detail(rec, board.mesa.special_at), local_time(rec.created_at))


def chart_points(board: Board) -> tuple[str, str, int]:
    """SVG polyline points for both sides over the current game's hands, and the hand count."""
    current = (board.state.series_number, board.state.game_number)
    series = [s.points for s in board.states if (s.series_number, s.game_number) == current]
    if not series or series[0] != (0, 0):
        series.insert(0, (0, 0))
    width, height = 300, 96
    steps = max(len(series) - 1, 1)

    def line(side: int) -> str:
        return " ".join(
            f"{round(i * width / steps, 1)},{round(height - p[side] * height / 12, 1)}"
            for i, p in enumerate(series)
        )

    return line(0), line(1), len(series) - 1


def deal_text(board: Board) -> str:
    """Who deals (pé) and who plays first (mão) this hand."""
    mesa, state = board.mesa, board.state
    if mesa.player_names:
        seats = seat_names(mesa)
        return f"Dá as cartas (pé): {seats[state.pe]} · Começa (mão): {seats[state.mao]}"
    return f"Dá as cartas: {mesa.team_names[state.dealing_side]}"


def onze_decider(board: Board) -> str | None:
    """In 2x2 with names: the first player of the side at eleven in this hand's play order."""
    mesa, state = board.mesa, board.state
    side = state.onze_side
    if side is None or mesa.players != 4 or not mesa.player_names:
        return None
    seats = seat_names(mesa)
    order = [(state.mao + i) % mesa.players for i in range(mesa.players)]
    return seats[next(seat for seat in order if seat % 2 == side)]


def notes_for(rec: Entry | None) -> tuple[tuple[str, str], ...]:
    """The optional notes offered after a normal hand."""
    if rec is None or rec.kind != Kind.NORMAL.value:
        return ()
    return NOTES.get(rec.points or 0, ())


def series_label(mesa: Mesa, state: MatchState) -> str:
    """'Melhor de 3 · partida 2' or 'Partida 4'."""
    game = f"Partida {state.game_number}"
    if mesa.best_of in (3, 5):
        return f"Melhor de {mesa.best_of} · {game.lower()}"
    return game


def deal_short(board: Board) -> str:
    """The deal in a few words for a short screen: 'pé: Ana · mão: Beto' or 'dá: Nós'."""
    mesa, state = board.mesa, board.state
    if mesa.player_names:
        seats = seat_names(mesa)
        return f"pé: {seats[state.pe]} · mão: {seats[state.mao]}"
    return f"dá: {mesa.team_names[state.dealing_side]}"
