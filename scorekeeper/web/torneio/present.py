"""What the torneio's pages show, from a Snapshot: the bracket's rounds with each match's state,
the mesas with what they play, the next calls and the podium."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...domain.mesa.words import local_time
from ...domain.torneio import bracket, clock
from ...domain.torneio.reading import (
    CANCELED,
    OVERRIDE,
    TIME,
    WO,
    Called,
    Snapshot,
    champions_word,
    round_title,
)
from ...domain.torneio.setup import AT_LIMIT, drawn_pairs
from ...rules import BEST_OF, VARIANTE
from ..common.links import shared_url
from ..common.qr import qr_svg

# What a mesa's phone reads after the match it showed was decided off its board (the mesa's
# link ?encerrado=<why>): on the match called there now, or on the free mesa's page.
ENDED_BEFORE = {
    WO: "O jogo anterior desta mesa acabou por W.O.",
    OVERRIDE: "O organizador decidiu o jogo anterior desta mesa.",
    TIME: "O jogo anterior desta mesa acabou no tempo.",
    CANCELED: "O organizador cancelou o jogo anterior desta mesa.",
}


@dataclass(frozen=True)
class MatchView:
    """One match as the bracket shows it."""

    key: str
    round: int
    title: str
    a: str
    b: str
    pair_a: int | None
    pair_b: int | None
    state: str
    mesa: int | None
    winner: str
    score: str
    wins: str
    decided_how: str
    bye: bool
    special: str
    lines: tuple[str, ...]
    stale: str = ""  # the pairs its mesa still plays when the bracket no longer has them

    @property
    def sides(self) -> tuple[str, str]:
        """What shows beside each pair: the points while it is played; once over, the games
        won (melhor de 3 or 5) or the last game's points; nothing for a match the organiser
        decided (W.O. or override) or before a call."""
        if not self.score or self.decided_how:
            return ("", "")
        wins = self.wins.split("-")
        if self.state == "fim" and sum(int(w) for w in wins) > 1:
            return (wins[0], wins[1])
        points = self.score.split("-")
        return (points[0], points[1])


@dataclass(frozen=True)
class MesaView:
    """A numbered mesa: its link, whether paused, and the match it plays now."""

    number: int
    url: str
    paused: bool
    match: MatchView | None
    also: str = ""  # another open match on this mesa (a match reopened after its mesa moved on)
    qr: Any = None  # its link as a QR code (inline SVG), for the mesa's phone to scan


def match_view(snap: Snapshot, match: bracket.Match) -> MatchView:
    """A match with its pairs' names, state, mesa and score."""
    assert snap.bracket is not None
    called = snap.called.get(match.key)
    score = wins = ""
    special = ""
    if called is not None:
        score = f"{called.points[0]}-{called.points[1]}"
        wins = f"{called.wins[0]}-{called.wins[1]}"
        special = called.special
    return MatchView(
        key=match.key,
        round=match.round,
        title=round_title(match.key, snap.bracket.rounds),
        a=snap.pair_name(match.a),
        b=snap.pair_name(match.b),
        pair_a=match.a,
        pair_b=match.b,
        state=bracket.state_of(match, called is not None),
        mesa=called.jogo.mesa_number if called is not None else None,
        winner=snap.pair_name(match.winner) if match.winner not in (None, bracket.BYE) else "",
        score=score,
        wins=wins,
        decided_how=(called.jogo.decided_how or "") if called is not None else "",
        bye=match.bye,
        special=special,
        lines=tuple(line.text for line in snap.lines.get(match.key, ())),
        stale=_stale(snap, called, match),
    )


def _stale(snap: Snapshot, called: Called | None, match: bracket.Match) -> str:
    """'Ana e Beto x Caio e Duda' when the mesa plays pairs the bracket no longer has here."""
    if called is None or not called.stale(match):
        return ""
    return f"{snap.pair_name(called.jogo.pair_a)} x {snap.pair_name(called.jogo.pair_b)}"


def rounds_of(snap: Snapshot) -> list[tuple[str, list[MatchView]]]:
    """The bracket's columns: each round's title and matches (the 3rd place under the final)."""
    if snap.bracket is None:
        return []
    columns: dict[int, list[MatchView]] = {}
    for match in snap.bracket.matches:
        columns.setdefault(match.round, []).append(match_view(snap, match))
    last = snap.bracket.rounds
    return [
        (
            round_title(bracket.key(r, 0), last),
            sorted(matches, key=lambda m: m.key == bracket.THIRD),
        )
        for r, matches in sorted(columns.items())
    ]


def mesas_of(snap: Snapshot) -> list[MesaView]:
    """Every mesa with its scorer link and the match it plays now."""
    found = []
    for mesa in snap.mesas:
        called = snap.at_mesa(mesa.number)
        match = None
        if called is not None and snap.bracket is not None:
            match = match_view(snap, snap.bracket[called.jogo.key])
        url = shared_url("torneio.mesa", token=mesa.token)
        qr = qr_svg(url, f"mesa-{mesa.number}", f"QR code do link da mesa {mesa.number}")
        also = _also(snap, mesa.number)
        found.append(MesaView(mesa.number, url, mesa.paused, match, also, qr))
    return found


def _also(snap: Snapshot, number: int) -> str:
    """'Ana e Beto x Caio e Duda' when a second undecided match is open on this mesa (one
    reopened by an undo after its mesa had moved on to a match that was then scored)."""
    open_ = [c for c in snap.called.values() if c.jogo.mesa_number == number and c.winner is None]
    if len(open_) < 2:
        return ""
    later = open_[1].jogo
    return f"{snap.pair_name(later.pair_a)} x {snap.pair_name(later.pair_b)}"


def next_calls(snap: Snapshot) -> list[MatchView]:
    """The playable matches waiting for a free mesa, in the order they will be called."""
    if snap.bracket is None:
        return []
    return [
        match_view(snap, m)
        for m in snap.bracket.matches
        if m.playable and m.winner is None and m.key not in snap.called
    ]


def podium(snap: Snapshot) -> list[tuple[str, str, str]]:
    """Champion, runner-up and 3rd place once known: (place, testid, name); a pair's places
    in the plural."""
    if snap.bracket is None or snap.bracket.champion is None:
        return []
    alone = snap.torneio.players == 2
    places = [
        (champions_word(snap.torneio.players), "campeao", snap.bracket.champion),
        ("Vice-campeão" if alone else "Vice-campeões", "vice", snap.bracket.runner_up),
    ]
    if snap.torneio.third_place:
        places.append(("3º lugar", "terceiro", snap.bracket.third))
    return [(label, testid, snap.pair_name(p)) for label, testid, p in places if p]


def rules_text(snap: Snapshot) -> str:
    """'Truco Paulista · duplas · melhor de 3 (final: melhor de 3) · 4 mesas · 90 min'."""
    t = snap.torneio
    variant = VARIANTE.choice(t.variante)
    seats = {2: "1x1", 4: "duplas", 6: "trios"}[t.players]

    def fmt(best_of: int) -> str:
        choice = BEST_OF.choice(best_of)
        return "uma partida" if best_of == 1 or choice is None else choice.short

    final = f" (final: {fmt(t.final_best_of)})" if t.final_best_of != t.best_of else ""
    label = variant.label if variant is not None else t.variante
    return f"{label} · {seats} · {fmt(t.best_of)}{final} · {t.mesas} mesas · {t.minutes} min"


def hhmm(moment: datetime) -> str:
    """An aware time as the organiser reads it: 'HH:MM' in Brasília time (America/Sao_Paulo:
    the bars this is for are there; no per-torneio zone)."""
    return local_time(moment.astimezone(UTC).replace(tzinfo=None))


@dataclass(frozen=True)
class RoundClock:
    """A bracket round's clock as pages show it: whether the organiser may start it, and once
    started its words ('termina às 21:30 · faltam 12 min', 'tempo esgotado às 21:30')."""

    round: int
    title: str
    can_start: bool
    text: str
    running: bool
    playing: bool  # a match of it is still to be decided


def round_clocks(snap: Snapshot, now: datetime | None = None) -> dict[int, RoundClock]:
    """Every bracket round's clock (by round)."""
    if snap.bracket is None:
        return {}
    now = now or datetime.now(UTC)
    torneio, found = snap.torneio, {}
    started = torneio.clock or {}
    for round_ in range(1, snap.bracket.rounds + 1):
        matches = [m for m in snap.bracket.matches if m.round == round_]
        open_ = any(m.playable and m.winner is None for m in matches)
        ends = clock.deadline(started, round_, torneio.minutes)
        text, running = "", False
        if ends is not None and now < ends:
            left = clock.minutes_left(ends, now)
            text, running = f"termina às {hhmm(ends)} · faltam {left} min", True
        elif ends is not None:
            text = f"tempo esgotado às {hhmm(ends)}"
        title = round_title(bracket.key(round_, 0), snap.bracket.rounds)
        found[round_] = RoundClock(round_, title, ends is None and open_, text, running, open_)
    return found


@dataclass(frozen=True)
class DrawPreview:
    """What the draw's confirmation says: the pairs it takes, whether those are the ones
    marked present, and the pairs left out."""

    taken: tuple[str, ...]
    present: bool
    left: tuple[str, ...]


def draw_preview(snap: Snapshot) -> DrawPreview:
    """The draw as it would be made now."""
    every = list(snap.pairs.values())
    taken = drawn_pairs(every)
    left = tuple(snap.pair_name(p.id) for p in every if p not in taken)
    names = tuple(snap.pair_name(p.id) for p in taken)
    return DrawPreview(names, any(p.checked_in for p in every), left)


@dataclass(frozen=True)
class Call:
    """The latest match called to a mesa, as the TV announces it: its id (the TV's sound
    plays when it changes), the mesa, the pairs, the round and when."""

    id: int
    mesa: int
    a: str
    b: str
    title: str
    at: str


def latest_call(snap: Snapshot) -> Call | None:
    """The match called last among those still played at their mesa, None when none is."""
    if snap.bracket is None:
        return None
    open_ = [c for c in snap.called.values() if snap.at_mesa(c.jogo.mesa_number) is c]
    if not open_:
        return None
    last = max(open_, key=lambda c: c.jogo.id)
    match = snap.bracket[last.jogo.key]
    return Call(
        last.jogo.id,
        last.jogo.mesa_number,
        snap.pair_name(match.a),
        snap.pair_name(match.b),
        round_title(match.key, snap.bracket.rounds),
        local_time(last.jogo.called_at),
    )


def context(snap: Snapshot) -> dict[str, Any]:
    """What the organiser's page and the TV share."""
    return {
        "call": latest_call(snap),
        "draw": draw_preview(snap),
        "clocks": round_clocks(snap),
        "snap": snap,
        "torneio": snap.torneio,
        "rounds": rounds_of(snap),
        "mesas": mesas_of(snap),
        "next_calls": next_calls(snap),
        "podium": podium(snap),
        "rules_text": rules_text(snap),
        "at_limit": AT_LIMIT[snap.torneio.at_limit],
    }


def signup_qr(url: str) -> Any:
    """The public sign-up link's QR code on the organiser's page."""
    return qr_svg(url, "inscricao", "QR code das inscrições do torneio")


def tv_qr(url: str) -> Any:
    """The spectators' QR code on the TV."""
    return qr_svg(url, "tv", "QR code do placar do torneio")
