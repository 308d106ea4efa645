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


def special_taps(board: Board) -> list[Tap]:
    """The outcome buttons of a mão de onze or mão de ferro."""
    state = board.state
    names = board.mesa.team_names
    taps: list[Tap] = []
    for outcome in state.legal_outcomes():
        kind = outcome.kind
        if kind is Kind.ONZE_GANHOU:
            taps.append(Tap("Jogou e ganhou (+3)", outcome_code(outcome), "onze-ganhou", "win"))
        elif kind is Kind.ONZE_PERDEU:
            label = f"Jogou e perdeu ({names[outcome.side or 0]} +3)"
            taps.append(Tap(label, outcome_code(outcome), "onze-perdeu", "lose"))
        elif kind is Kind.ONZE_CORREU:
            label = f"Correu ({names[outcome.side or 0]} +1)"
            taps.append(Tap(label, outcome_code(outcome), "onze-correu", "lose"))
        elif kind is Kind.FERRO:
            side = outcome.side or 0
            label = f"{names[side]} venceram"
            taps.append(Tap(label, outcome_code(outcome), f"ferro-{'ab'[side]}", "win"))
    return taps


def describe(rec: Entry, names: tuple[str, str]) -> str:
    """A record in words for the log and the confirmation, e.g. 'Nós +3'."""
    kind = Kind(rec.kind)
    if kind is Kind.ANULADA:
        return "Mão anulada"
    if kind is Kind.CORRECAO:
        return f"{names[rec.side or 0]} corrigido para {rec.points}"
    if kind is Kind.PROXIMA_PARTIDA:
        return "Próxima partida"
    if kind is Kind.NOVA_SERIE:
        return "Nova série"
    if kind is Kind.FERRO:
        return f"{names[rec.side or 0]} venceram a mão de ferro"
    return f"{names[rec.side or 0]} +{rec.outcome.gain}"


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
    kind: str
    note: str | None
    number: str
    score: str
    time: str
    active: bool


def log_entries(board: Board, limit: int | None = None) -> list[LogEntry]:
    """The records (the newest `limit`, or all), newest first, numbered 'partida.mão' if active."""
    names = board.mesa.team_names
    numbers: dict[int, str] = {}
    for rec, before in zip(board.active, board.states, strict=False):
        if Kind(rec.kind).is_hand:
            numbers[rec.id] = f"{before.game_number}.{before.hand_in_game}"
    entries = []
    for rec in reversed(board.records[-limit:] if limit else board.records):
        kind = Kind(rec.kind)
        detail = rec.reason if kind is Kind.CORRECAO else NOTE_LABELS.get(rec.note or "")
        entries.append(
            LogEntry(
                record=rec,
                text=describe(rec, names),
                kind=kind.label,
                note=detail,
                number=numbers.get(rec.id, ""),
                score=f"{rec.score_a} x {rec.score_b}",
                time=local_time(rec.created_at),
                active=rec.status == ACTIVE,
            )
        )
    return entries


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
