"""A torneio's exports and its result image: every match of the bracket with its hands, as CSV
(one row per hand, then one result row per match) and as JSON (settings, pairs, bracket with
winners, each match's hands), and the podium as a PNG for the group chat."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from ...domain.mesa import words
from ...domain.torneio.hands import Hand, hands
from ...domain.torneio.reading import Snapshot
from ..common.image import podium_png
from .present import MatchView, match_view, podium, rules_text

HOW_WORDS = {"wo": "W.O.", "organizador": "decidido pelo organizador", "tempo": "decidido no tempo"}
KIND_WORDS = {"correcao": "correção"}  # every other exported record is a hand ("mão")
CSV_HEADER = (
    "rodada",
    "fase",
    "jogo",
    "mesa",
    "dupla_a",
    "dupla_b",
    "linha",
    "partida",
    "mao",
    "descricao",
    "lado",
    "pontos",
    "placar_a",
    "placar_b",
    "partidas_a",
    "partidas_b",
    "estado",
    "vencedor",
    "decisao",
)


def _decision(view: MatchView) -> str:
    """How a match was decided: 'folga', 'W.O.', 'decisão do organizador', 'mesa' (its table's
    series) or '' while undecided."""
    if view.bye:
        return "folga"
    if view.decided_how:
        return HOW_WORDS.get(view.decided_how, view.decided_how)
    return "mesa" if view.winner else ""


def _wins(view: MatchView) -> tuple[int | str, int | str]:
    """The partidas each pair won ('' before the match is called)."""
    if not view.wins:
        return "", ""
    a, b = view.wins.split("-")
    return int(a), int(b)


def _match_hands(snap: Snapshot, view: MatchView) -> list[Hand]:
    """The hands of a called match, read from its table."""
    called = snap.called.get(view.key)
    if called is None:
        return []
    return list(hands(called.mesa, (view.a, view.b)))


def _matches(snap: Snapshot) -> Iterator[tuple[MatchView, list[Hand]]]:
    """Every match of the bracket in its order, with its hands."""
    if snap.bracket is None:
        return
    for match in snap.bracket.matches:
        view = match_view(snap, match)
        yield view, _match_hands(snap, view)


def _side(view: MatchView, side: int | None) -> str:
    """The pair a record's side is ('' for a void hand)."""
    return (view.a, view.b)[side] if side in (0, 1) else ""


def _sumula(snap: Snapshot, view: MatchView) -> list[tuple[str, str]]:
    """A match's súmula: each line's time (local, ISO) and text."""
    return [
        (words.to_local(line.created_at).isoformat(timespec="seconds"), line.text)
        for line in snap.lines.get(view.key, ())
    ]


def csv_rows(snap: Snapshot) -> Iterator[list[Any]]:
    """CSV_HEADER's rows: for each match in bracket order, a 'mão' (or 'correção') row per hand
    with its points (what a correction set) and the partida's score (tentos) and the partidas
    won after it, a 'súmula' row per line of its súmula, then its 'resultado' row with the
    partidas won, its state, winner and how it was decided."""
    for view, played in _matches(snap):
        match = [view.round, view.title, view.key, view.mesa or "", view.a, view.b]
        for hand in played:
            yield [
                *match,
                KIND_WORDS.get(hand.kind, "mão"),
                hand.game,
                hand.number,
                hand.text,
                _side(view, hand.side),
                hand.points,
                *hand.score,
                *hand.wins,
                "",
                "",
                "",
            ]
        for _at, text in _sumula(snap, view):
            yield [*match, "súmula", "", "", text, *[""] * 9]
        yield [
            *match,
            "resultado",
            "",
            "",
            f"Vencedor: {view.winner}" if view.winner else "",
            "",
            "",
            "",
            "",
            *_wins(view),
            view.state,
            view.winner,
            _decision(view),
        ]


def _hand_json(view: MatchView, hand: Hand) -> dict[str, Any]:
    """A hand as the JSON export names it."""
    return {
        "partida": hand.game,
        "mao": hand.number,
        "tipo": hand.kind,
        "descricao": hand.text,
        "lado": _side(view, hand.side) or None,
        "pontos": hand.points,
        "placar": list(hand.score),
        "partidas": list(hand.wins),
        "em": words.to_local(hand.at).isoformat(timespec="seconds"),
    }


def _match_json(snap: Snapshot, view: MatchView, played: list[Hand]) -> dict[str, Any]:
    """A match of the bracket as the JSON export names it."""
    wins = _wins(view)
    return {
        "jogo": view.key,
        "rodada": view.round,
        "fase": view.title,
        "mesa": view.mesa,
        "duplas": [view.a, view.b],
        "estado": view.state,
        "vencedor": view.winner or None,
        "decisao": _decision(view) or None,
        "partidas_ganhas": list(wins) if wins != ("", "") else None,
        "maos": [_hand_json(view, hand) for hand in played],
        "sumula": [{"em": at, "texto": text} for at, text in _sumula(snap, view)],
    }


def torneio_json(snap: Snapshot) -> dict[str, Any]:
    """The whole torneio as a JSON document: settings, pairs, bracket with winners and hands,
    podium."""
    t = snap.torneio
    return {
        "torneio": {
            "nome": t.name,
            "regras": rules_text(snap),
            "variante": t.variante,
            "jogadores": t.players,
            "melhor_de": t.best_of,
            "final_melhor_de": t.final_best_of,
            "mesas": t.mesas,
            "minutos": t.minutes,
            "no_limite": t.at_limit,
            "disputa_do_terceiro": t.third_place,
            "criado_em": words.to_local(t.created_at).isoformat(timespec="seconds"),
        },
        "duplas": [
            {
                "id": pair.id,
                "nome": snap.pair_name(pair.id),
                "jogadores": list(pair.players),
                "reserva": pair.reserve or None,
                "pago": pair.paid,
                "presente": pair.checked_in,
            }
            for pair in snap.pairs.values()
        ],
        "chave": [_match_json(snap, view, played) for view, played in _matches(snap)],
        "podio": {testid: name for _label, testid, name in podium(snap)},
    }


def filename(snap: Snapshot, extension: str) -> str:
    """The name an export is saved as, e.g. 'torneio-copa-do-bar.csv'."""
    plain = unicodedata.normalize("NFKD", snap.torneio.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40] or "torneio"
    return f"torneio-{slug}.{extension}"


def result_png(snap: Snapshot) -> bytes:
    """The podium as a PNG for the group chat (empty places until the torneio is over)."""
    places = tuple((label, name) for label, _testid, name in podium(snap))
    date = words.to_local(snap.torneio.created_at).strftime("%d/%m/%Y")
    return podium_png(
        snap.torneio.name, places or (("Pódio", "a definir"),), f"{rules_text(snap)} · {date}"
    )
