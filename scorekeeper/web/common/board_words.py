"""The sentences a table's pages show in pt-BR (the board, the live view, the log, the juiz, a
turma's tables): who deals, who decides a mão de onze, who took the game or the series, the
series' label, what a record's headline leaves out, what running from each call gives. Built
here from the domain's facts (a Board, a record, the rule set), right for any team name.

The words the domain writes itself (a record in words, stored as a replaced hand's reason and
written in the exports; the notes a hand may carry; Brasília time) are
scorekeeper/domain/mesa/words.py."""

from __future__ import annotations

from ...domain.mesa import Board
from ...domain.mesa.words import NOTE_LABELS, notes_of
from ...models import Entry, Mesa
from ...rules import (
    BEST_OF,
    DEFAULT_RULE_SET,
    SPECIAL_AT,
    VARIANTS,
    Kind,
    MatchState,
    Names,
    Phase,
    Variant,
)


def running_hint(rules: Variant) -> str:
    """What running from each call gives, in the rule set's values: 'Correram do truco: +1
    para quem pediu; do seis: +3; do nove: +6; do doze: +9'."""
    said = [
        f"do {word.value}: +{rules.run_gives(value, rules.next_step(value))}"
        for word, value in zip(rules.calls, rules.ladder, strict=False)
    ]
    return f"Correram {said[0]} para quem pediu; {'; '.join(said[1:])}"


RUNNING_HINTS = {code: running_hint(rules) for code, rules in VARIANTS.items()}


def seat_names(mesa: Mesa) -> list[str]:
    """Each seat's name: the player's name, else (none, or one another seat has too) 'Nós 1',
    'Eles 1', 'Nós 2', 'Eles 2', as the rules name seats."""
    names = Names(sides=mesa.team_names, seats=tuple(mesa.player_names or ()))
    return [names.seat(seat + 1) for seat in range(mesa.players)]


def special_name(special_at: int) -> str:
    """'mão de onze', or 'mão de dez' for tables that play it at 10."""
    return SPECIAL_AT.choice_or_default(special_at).short


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


def notes_for(rec: Entry | None, rules: Variant = DEFAULT_RULE_SET) -> tuple[tuple[str, str], ...]:
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
