"""The tables' words in pt-BR: what a record, a deal, a special hand or a result is called, on
the board, the live view, the log and the juiz alike. No sentence makes a verb agree with a team's
name ("Nós", "Ana", "Os Zapeiros" alike)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from ...models import Entry, Mesa
from ...rules import (
    BEST_OF,
    PAULISTA,
    SIMPLE_HAND,
    SPECIAL_AT,
    TABLE_OPTIONS,
    VARIANTS,
    Kind,
    MatchState,
    Names,
    Outcome,
    Phase,
    Variant,
)
from ..common.refusals import ReusedClientId
from .board import Board
from .settings import NAME_FIXED, NAME_SWAPPED, TableSettings, edit_names, edit_of

LOCAL_TZ = ZoneInfo("America/Sao_Paulo")  # tzdata (a dependency) provides it everywhere

Notes = dict[int, tuple[tuple[str, str], ...]]


def ladder_notes(rules: Variant) -> Notes:
    """The notes offered after a normal hand of each value of a rule set's ladder: how it was
    won ('mão simples', 'truco aceito') and, below the top, the call the others ran from
    ('correram do truco')."""
    notes: Notes = {}
    for step, value in enumerate(rules.ladder):
        said = rules.calls[step - 1].value if step else ""
        won = (f"{said}", f"{said} aceito") if step else ("simples", SIMPLE_HAND)
        ran = rules.calls[step].value if step < len(rules.calls) else None
        notes[value] = (won, (f"correram_{ran}", f"correram do {ran}")) if ran else (won,)
    return notes


NOTES_BY_RULES: dict[str, Notes] = {code: ladder_notes(rules) for code, rules in VARIANTS.items()}
NOTES = NOTES_BY_RULES["paulista"]  # Truco Paulista's, the default rule set's


def running_hint(rules: Variant) -> str:
    """What running from each call gives, in the rule set's values: 'Correram do truco: +1
    para quem pediu; do seis: +3; do nove: +6; do doze: +9'."""
    said = [
        f"do {word.value}: +{rules.run_gives(value, rules.next_step(value))}"
        for word, value in zip(rules.calls, rules.ladder, strict=False)
    ]
    return f"Correram {said[0]} para quem pediu; {'; '.join(said[1:])}"


RUNNING_HINTS = {code: running_hint(rules) for code, rules in VARIANTS.items()}


def notes_of(rules: Variant, points: int | None) -> tuple[tuple[str, str], ...]:
    """The notes a normal hand of these points may carry under a rule set."""
    return NOTES_BY_RULES[rules.code].get(points or 0, ())


NOTE_LABELS = {
    code: label
    for table in NOTES_BY_RULES.values()
    for notes in table.values()
    for code, label in notes
}


# The refusal's own words (tests/web/test_isolation.py reads them by this name).
REUSED_MESSAGE = ReusedClientId.message


def seat_names(mesa: Mesa) -> list[str]:
    """Each seat's name: the player's name, else (none, or one another seat has too) 'Nós 1',
    'Eles 1', 'Nós 2', 'Eles 2', as the rules name seats."""
    names = Names(sides=mesa.team_names, seats=tuple(mesa.player_names or ()))
    return [names.seat(seat + 1) for seat in range(mesa.players)]


def special_name(special_at: int) -> str:
    """'mão de onze', or 'mão de dez' for tables that play it at 10."""
    return SPECIAL_AT.choice_or_default(special_at).short


def describe(outcome: Outcome, names: tuple[str, str]) -> str:
    """A record in words for the log, the slot, undo/redo and the juiz, e.g. 'Nós +3'."""
    kind = outcome.kind
    name = names[outcome.side or 0]
    if kind is Kind.ANULADA:
        return "Mão anulada"
    if kind is Kind.CORRECAO:
        return f"{name}: placar corrigido para {outcome.points}"
    if kind is Kind.PROXIMA_PARTIDA:
        return "Próxima partida"
    if kind is Kind.NOVA_SERIE:
        return "Nova série"
    if kind is Kind.MESA_EDITADA:
        return "Mesa editada"  # what changed is the record's (see record_text)
    if kind is Kind.FERRO:
        return f"Mão de ferro para {name}"
    return f"{name} +{outcome.gain}"


def record_text(record: Entry, names: tuple[str, str]) -> str:
    """A record in words (see `describe`); an edit says what it changed."""
    if record.kind == Kind.MESA_EDITADA.value:
        return edit_text(*edit_of(record), names=edit_names(record))
    return describe(record.outcome, names)


def _changed(before: str, after: str) -> str:
    """'antes → depois'."""
    return f"{before} → {after}"


NAMES_SAID = {NAME_FIXED: " (erro de digitação)", NAME_SWAPPED: " (entrou outra pessoa)"}


def edit_text(before: TableSettings, after: TableSettings, names: str | None = None) -> str:
    """What an edit changed, e.g. 'Nomes mudados: Nós → Os Zapeiros, Ana → Bia · Série:
    partidas avulsas → melhor de 3', and how its changed names count when it was asked
    ('Nomes mudados (entrou outra pessoa): Ana → Bia')."""
    changed = [
        _changed(old, new) for old, new in zip(before.teams, after.teams, strict=True) if old != new
    ]
    seats = max(before.players, after.players)
    for seat in range(seats):
        old, new = _seat(before, seat), _seat(after, seat)
        if old != new:
            changed.append(_changed(old or f"jogador {seat + 1}", new or "sem nome"))
    said = NAMES_SAID.get(names or "", "")
    parts = [f"Nomes mudados{said}: {', '.join(changed)}"] if changed else []
    for option in TABLE_OPTIONS:
        old_value, new_value = getattr(before, option.name), getattr(after, option.name)
        if old_value != new_value:
            old_words = option.choice_or_default(old_value).short
            new_words = option.choice_or_default(new_value).short
            parts.append(f"{option.title}: {_changed(old_words, new_words)}")
    if before.first_dealer != after.first_dealer and before.players == after.players:
        parts.append("Quem dá as cartas mudou")
    return " · ".join(parts) or "Mesa editada"


def _seat(settings: TableSettings, seat: int) -> str:
    """The name a seat was given ('' when none, or past the table's seats)."""
    given = settings.player_names
    return given[seat] if seat < min(len(given), settings.players) else ""


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
    return moment.replace(tzinfo=UTC).astimezone(LOCAL_TZ)


def local_time(moment: datetime) -> str:
    """HH:MM in Brasília time."""
    return to_local(moment).strftime("%H:%M")


def deal_text(board: Board) -> str:
    """Who deals (pé) and who plays first (mão) this hand."""
    mesa, state = board.mesa, board.state
    if mesa.player_names:
        seats = seat_names(mesa)
        return f"Dá as cartas (pé): {seats[state.pe]} · Começa (mão): {seats[state.mao]}"
    return f"Dá as cartas: {mesa.team_names[state.dealing_side]}"


def onze_pair(board: Board) -> tuple[str, ...]:
    """In 2x2 with names: the players of the side at eleven, who look at each other's cards
    and decide together, in this hand's play order (the first says the decision); else ()."""
    mesa, state = board.mesa, board.state
    side = state.onze_side
    if side is None or mesa.players != 4 or not mesa.player_names:
        return ()
    seats = seat_names(mesa)
    order = [(state.mao + i) % mesa.players for i in range(mesa.players)]
    return tuple(seats[seat] for seat in order if seat % 2 == side)


def onze_decider(board: Board) -> str | None:
    """In 2x2 with names: the first player of the side at eleven in this hand's play order,
    who says the pair's decision."""
    pair = onze_pair(board)
    return pair[0] if pair else None


def notes_for(rec: Entry | None, rules: Variant = PAULISTA) -> tuple[tuple[str, str], ...]:
    """The optional notes offered after a normal hand, in the table's rule set's values."""
    if rec is None or rec.kind != Kind.NORMAL.value:
        return ()
    return notes_of(rules, rec.points)


def series_label(mesa: Mesa, state: MatchState) -> str:
    """'Melhor de 3 · partida 2' or 'Partida 4'."""
    game = f"Partida {state.game_number}"
    series = BEST_OF.choice(mesa.best_of)
    if series is not None and series.offered and mesa.best_of > 0:
        return f"{series.label} · {game.lower()}"
    return game


def deal_short(board: Board) -> str:
    """The deal in a few words for a short screen: 'pé: Ana · mão: Beto' or 'dá: Nós'."""
    mesa, state = board.mesa, board.state
    if mesa.player_names:
        seats = seat_names(mesa)
        return f"pé: {seats[state.pe]} · mão: {seats[state.mao]}"
    return f"dá: {mesa.team_names[state.dealing_side]}"

