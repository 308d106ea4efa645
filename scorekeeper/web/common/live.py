"""What the live view and TV mode show: the phase, the winner and the latest record, in words
that fit any team name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import url_for

from ...domain.mesa import Board, words
from ...rules import Kind, Phase
from . import board_words


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
    text = _MARKER_TEXTS.get(kind) or words.record_text(rec, board.mesa.team_names)
    lead = "Última mão" if kind.is_hand else None
    said = board_words.detail(rec, board.mesa.special_at)
    return LastLine(lead, text, said, words.local_time(rec.created_at))



def phase_text(board: Board) -> str:
    """The kind of hand being played, or who won, in words that fit any team name."""
    state, names = board.state, board.mesa.team_names
    over = board_words.over_text(board)
    if over:
        return over
    if state.phase is Phase.MAO_DE_ONZE:
        side = names[state.onze_side or 0]
        pair = board_words.onze_pair(board)
        if pair:
            who = f"decidem: {' e '.join(pair)} ({side})"
        else:
            who = f"quem decide: {side}"
        return f"{board_words.special_name(board.mesa.special_at).capitalize()} · {who}"
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
        "deal": board_words.deal_text(board),
        "series_label": board_words.series_label(mesa, state),
        "last": last_line(board),
        "tv": tv,
        "poll_url": url_for("share.live_fragment", **poll_values),
        "standalone": standalone,
    }
