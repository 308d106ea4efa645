"""RuleSet: the house options that change how cards and rounds are judged."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

DECKS = ("sujo", "limpo")
MANILHA_MODES = ("variavel", "fixa")
TIE_OPENERS = ("mao", "primeira_empatada")


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Deck, manilha mode and who opens after a tied round (seeds 000, 002, 003)."""

    deck: str = "sujo"
    manilhas: str = "variavel"
    tie_opener: str = "mao"

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

    @property
    def fixed(self) -> bool:
        """True when the manilhas are fixed (no vira)."""
        return self.manilhas == "fixa"
