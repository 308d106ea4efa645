"""RuleSet: the house options that change how cards, rounds and calls are judged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from .errors import RulesError

Deck = Literal["sujo", "limpo"]
ManilhaMode = Literal["variavel", "fixa"]
TieOpener = Literal["mao", "primeira_empatada"]
Answerer = Literal["proximo", "qualquer"]

DECKS: tuple[Deck, ...] = get_args(Deck)
MANILHA_MODES: tuple[ManilhaMode, ...] = get_args(ManilhaMode)
TIE_OPENERS: tuple[TieOpener, ...] = get_args(TieOpener)
ANSWERERS: tuple[Answerer, ...] = get_args(Answerer)


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Deck, manilha mode, who opens after a tied round and who answers for a side.

    `answerer` matters in 2x2 only. "proximo" (the default, /regras#truco and
    /regras#mao-de-onze): a call is answered by the next opponent in play order, a raise by the
    player who asked, and the mão de onze is decided by the first player of the side at eleven
    in play order. "qualquer" (the variant, docs/rules-sources.md): any player of the side may
    answer a call or decide the mão de onze, and the first answer counts.
    """

    deck: Deck = "sujo"
    manilhas: ManilhaMode = "variavel"
    tie_opener: TieOpener = "mao"
    answerer: Answerer = "proximo"

    def __post_init__(self) -> None:
        """Refuse values outside the known options."""
        if self.deck not in DECKS:
            raise RulesError(f"Baralho desconhecido: {self.deck!r}. Use 'sujo' ou 'limpo'.")
        if self.manilhas not in MANILHA_MODES:
            raise RulesError(
                f"Tipo de manilha desconhecido: {self.manilhas!r}. Use 'variavel' ou 'fixa'."
            )
        if self.tie_opener not in TIE_OPENERS:
            raise RulesError(
                f"Regra de quem abre após empate desconhecida: {self.tie_opener!r}. "
                "Use 'mao' ou 'primeira_empatada'."
            )
        if self.answerer not in ANSWERERS:
            raise RulesError(
                f"Regra de quem responde ao truco desconhecida: {self.answerer!r}. "
                "Use 'proximo' ou 'qualquer'."
            )

    @property
    def fixed(self) -> bool:
        """True when the manilhas are fixed (no vira)."""
        return self.manilhas == "fixa"
