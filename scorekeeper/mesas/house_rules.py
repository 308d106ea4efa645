"""'Regras desta mesa': a table's options in pt-BR, one line each, with the rule-book section
each one changes. Pure: it reads the settings it is given, nothing else (a Mesa will do)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..rules import RulesError, RuleSet, Section
from ..rules.decks import deck

TITLE = "Regras desta mesa"
LIMPO_FIXA = 27  # the limpo deck with manilha fixa keeps the four fixed manilhas

PLAYERS = {4: "2x2, em duplas (parceiros frente a frente)", 2: "1x1, um contra um"}
MANILHAS = {
    "variavel": "variáveis (o valor logo acima da vira)",
    "fixa": "fixas (4 de paus, 7 de copas, A de espadas e 7 de ouros; sem vira)",
}
TIE_OPENERS = {
    "mao": "o mão",
    "primeira_empatada": "quem jogou a primeira carta do empate",
}
FERRO = {
    "cegas": "às cegas (ninguém vê as próprias cartas)",
    "claras": "às claras (cada um vê só as próprias cartas)",
    "escuro": "no escuro (às cegas, e a vira só aparece com a 1ª rodada na mesa)",
}
SPECIAL = {
    11: "mão de onze (um lado com 11 joga valendo 3 ou corre e dá 1 ao outro)",
    10: "mão de dez (um lado com 10 joga valendo 3 ou corre e dá 1 ao outro)",
}
SERIES = {
    0: "partidas avulsas, cada uma até 12 pontos",
    1: "uma partida só, até 12 pontos",
    3: "melhor de 3 partidas, cada uma até 12 pontos",
    5: "melhor de 5 partidas, cada uma até 12 pontos",
}


class TableSettings(Protocol):
    """What a table's house rules are read from (a Mesa has all of it)."""

    players: int
    best_of: int
    special_at: int
    ferro_mode: str
    deck: str
    manilhas: str
    tie_opener: str


@dataclass(frozen=True)
class HouseRule:
    """One line of 'Regras desta mesa': the option, its value in words, the section it changes
    and the variant it picks (the `data-variante` the rule book marks)."""

    label: str
    value: str
    section: Section
    variant: str

    @property
    def text(self) -> str:
        """The line as shown: 'Baralho: sujo (40 cartas)'."""
        return f"{self.label}: {self.value}"


def _deck(settings: TableSettings) -> str:
    """The deck in words, with its number of cards (27 for limpo with manilha fixa)."""
    try:
        size = len(deck(RuleSet(deck=settings.deck, manilhas=settings.manilhas)))
    except RulesError:
        return settings.deck
    if settings.deck == "limpo" and size == LIMPO_FIXA:
        return f"limpo ({size} cartas: Q, J, K, A, 2 e 3, mais as manilhas fixas)"
    if settings.deck == "limpo":
        return f"limpo ({size} cartas, sem 4, 5, 6 e 7)"
    return f"sujo ({size} cartas)"


def house_rules(settings: TableSettings) -> tuple[HouseRule, ...]:
    """The table's options, one line each, in the rule book's order; a value outside the known
    options is said as it is stored rather than guessed."""
    ferro = settings.ferro_mode
    return (
        HouseRule(
            "Jogo",
            PLAYERS.get(settings.players, f"{settings.players} jogadores"),
            Section.RODADAS,
            f"jogadores-{settings.players}",
        ),
        HouseRule("Baralho", _deck(settings), Section.CARTAS, f"baralho-{settings.deck}"),
        HouseRule(
            "Manilhas",
            MANILHAS.get(settings.manilhas, settings.manilhas),
            Section.CARTAS,
            f"manilha-{settings.manilhas}",
        ),
        HouseRule(
            "Quem abre após empate",
            TIE_OPENERS.get(settings.tie_opener, settings.tie_opener),
            Section.RODADAS,
            f"empate-{settings.tie_opener}",
        ),
        HouseRule(
            "Mão especial",
            SPECIAL.get(settings.special_at, f"mão de {settings.special_at}"),
            Section.ONZE,
            "mao-de-dez" if settings.special_at == 10 else "mao-de-onze",
        ),
        HouseRule("Mão de ferro", FERRO.get(ferro, ferro), Section.FERRO, f"ferro-{ferro}"),
        HouseRule(
            "Série",
            SERIES.get(settings.best_of, f"melhor de {settings.best_of}"),
            Section.PONTOS,
            f"serie-{settings.best_of}",
        ),
    )
