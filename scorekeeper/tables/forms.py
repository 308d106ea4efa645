"""Parsing the new-table form and the tap values into rules values, with pt-BR refusals."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from ..rules import HAND_VALUES, Kind, MatchConfig, Outcome, RulesError, RuleSet

MAX_TEAM = 24
MAX_PLAYER = 24
FERRO_MODES = {
    "cegas": "às cegas: ninguém vê as próprias cartas",
    "claras": "às claras: cada um vê só as próprias cartas",
    "escuro": (
        "no escuro: cartas e vira viradas; a vira só aparece com as cartas da 1ª rodada na mesa"
    ),
}
SERIES = {"avulsas": 0, "melhor_de_3": 3, "melhor_de_5": 5}


def clean_name(value: str | None, default: str, limit: int, what: str) -> str:
    """Strip a name, fall back to the default, refuse one longer than the limit."""
    text = " ".join((value or "").split())
    if len(text) > limit:
        raise RulesError(f"{what} muito longo: no máximo {limit} caracteres.")
    return text or default


INT_LIMIT = 2**31  # every integer column is 32-bit; larger values would crash the database driver


def parse_int(value: str | None, what: str) -> int:
    """An integer from a form field (within 32 bits), or a pt-BR refusal."""
    try:
        number = int((value or "").strip())
    except ValueError:
        raise RulesError(f"Valor inválido para {what}.") from None
    if not -INT_LIMIT <= number < INT_LIMIT:
        raise RulesError(f"Valor inválido para {what}.")
    return number


def parse_revision(form: Mapping[str, str]) -> int:
    """The revision the client drew its board from."""
    return parse_int(form.get("rev"), "a revisão do placar")


def parse_client_id(form: Mapping[str, str]) -> str | None:
    """The write's client-made id (a UUID, sent by the page's script), or None without one."""
    raw = (form.get("cid") or "").strip()
    if not raw:
        return None
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise RulesError("Toque com identificação inválida: recarregue a página.") from None


def parse_new_table(form: Mapping[str, str]) -> dict[str, object]:
    """The settings of a new table from the home form (all optional)."""
    players = 2 if form.get("jogadores") == "2" else 4
    series = form.get("serie", "avulsas")
    if series not in SERIES:
        raise RulesError("Série inválida: escolha partidas avulsas, melhor de 3 ou melhor de 5.")
    ferro = form.get("ferro", "cegas")
    if ferro not in FERRO_MODES:
        raise RulesError("Mão de ferro inválida: escolha às cegas, às claras ou no escuro.")
    special_at = 10 if form.get("mao_especial") == "10" else 11
    ruleset = RuleSet(
        deck=form.get("baralho", "sujo") or "sujo",
        manilhas=form.get("manilhas", "variavel") or "variavel",
        tie_opener=form.get("empate", "mao") or "mao",
    )
    team_a = clean_name(form.get("time_a"), "Nós", MAX_TEAM, "Nome do time")
    team_b = clean_name(form.get("time_b"), "Eles", MAX_TEAM, "Nome do time")
    if team_a.casefold() == team_b.casefold():
        raise RulesError("Os dois times precisam de nomes diferentes.")
    names = [
        clean_name(form.get(f"jogador_{i}"), "", MAX_PLAYER, "Nome de jogador")
        for i in range(players)
    ]
    first_dealer = parse_int(form.get("pe", "0") or "0", "quem dá as cartas")
    if players == 2 and first_dealer in (2, 3):
        raise RulesError("No 1x1 quem dá as cartas primeiro é o jogador 1 ou o jogador 2.")
    config = MatchConfig(
        players=players, best_of=SERIES[series], first_dealer=first_dealer, special_at=special_at
    )
    return {
        "players": config.players,
        "best_of": config.best_of,
        "first_dealer": config.first_dealer,
        "special_at": config.special_at,
        "ferro_mode": ferro,
        "deck": ruleset.deck,
        "manilhas": ruleset.manilhas,
        "tie_opener": ruleset.tie_opener,
        "team_a": team_a,
        "team_b": team_b,
        "player_names": names if any(names) else [],
    }


def parse_outcome(code: str | None) -> Outcome:
    """A tap's value 'kind[:side[:points]]', e.g. 'normal:0:3', 'ferro:1', 'anulada'."""
    parts = (code or "").split(":")
    try:
        kind = Kind(parts[0])
    except ValueError:
        raise RulesError("Toque desconhecido: essa saída não existe.") from None
    if kind is Kind.CORRECAO or len(parts) > 3:
        raise RulesError("Toque desconhecido: essa saída não existe.")
    side = parse_int(parts[1], "o lado") if len(parts) > 1 else None
    points = parse_int(parts[2], "os pontos") if len(parts) > 2 else None
    if side is not None and side not in (0, 1):
        raise RulesError("Lado inexistente: a mesa tem dois lados.")
    if points is not None and points not in HAND_VALUES:
        raise RulesError("Uma mão vale 1, 3, 6, 9 ou 12 pontos.")
    return Outcome(kind, side, points)


def outcome_code(outcome: Outcome) -> str:
    """The tap value for an outcome (inverse of parse_outcome)."""
    parts = [outcome.kind.value]
    if outcome.side is not None:
        parts.append(str(outcome.side))
    if outcome.points is not None:
        parts.append(str(outcome.points))
    return ":".join(parts)
