"""What the torneio's pages show, from a Snapshot: the bracket's rounds with each match's state,
the mesas with what they play, the next calls and the podium."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pages.links import share_root
from ..pages.qr import qr_svg
from ..rules import BEST_OF, VARIANTE
from ..torneios import bracket as chave
from ..torneios.service import AT_LIMIT, Snapshot
from ..urls import absolute_url


def shared_url(endpoint: str, **values: Any) -> str:
    """An absolute link to give away (QR codes): under PUBLIC_URL or the LAN address."""
    return absolute_url(endpoint, share_root().url, **values)


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


def round_title(round_: int, rounds: int, match_key: str) -> str:
    """'Final', 'Semifinal', 'Quartas de final', '3º lugar' or '1ª rodada'."""
    if match_key == chave.THIRD:
        return "Disputa do 3º lugar"
    left = rounds - round_
    return {0: "Final", 1: "Semifinal", 2: "Quartas de final", 3: "Oitavas de final"}.get(
        left, f"{round_}ª rodada"
    )


def match_view(snap: Snapshot, match: chave.Match) -> MatchView:
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
        title=round_title(match.round, snap.bracket.rounds, match.key),
        a=snap.pair_name(match.a),
        b=snap.pair_name(match.b),
        pair_a=match.a,
        pair_b=match.b,
        state=chave.state_of(match, called is not None),
        mesa=called.jogo.mesa_number if called is not None else None,
        winner=snap.pair_name(match.winner) if match.winner not in (None, chave.BYE) else "",
        score=score,
        wins=wins,
        decided_how=(called.jogo.decided_how or "") if called is not None else "",
        bye=match.bye,
        special=special,
    )


def rounds_of(snap: Snapshot) -> list[tuple[str, list[MatchView]]]:
    """The bracket's columns: each round's title and matches (the 3rd place under the final)."""
    if snap.bracket is None:
        return []
    columns: dict[int, list[MatchView]] = {}
    for match in snap.bracket.matches:
        columns.setdefault(match.round, []).append(match_view(snap, match))
    last = snap.bracket.rounds
    return [
        (round_title(r, last, ""), sorted(matches, key=lambda m: m.key == chave.THIRD))
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
        found.append(MesaView(mesa.number, url, mesa.paused, match))
    return found


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
    """Champion, runner-up and 3rd place once known: (place, testid, name)."""
    if snap.bracket is None or snap.bracket.champion is None:
        return []
    places = [
        ("Campeão", "campeao", snap.bracket.champion),
        ("Vice", "vice", snap.bracket.runner_up),
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


def context(snap: Snapshot) -> dict[str, Any]:
    """What the organiser's page and the TV share."""
    return {
        "snap": snap,
        "torneio": snap.torneio,
        "rounds": rounds_of(snap),
        "mesas": mesas_of(snap),
        "next_calls": next_calls(snap),
        "podium": podium(snap),
        "rules_text": rules_text(snap),
        "at_limit": AT_LIMIT[snap.torneio.at_limit],
    }


def tv_qr(url: str) -> Any:
    """The spectators' QR code on the TV."""
    return qr_svg(url, "tv", "QR code do placar do torneio")
