"""RuleSet: the house options that change how cards, rounds and calls are judged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .options import (
    ANSWERER,
    DECK,
    MANILHAS,
    TIE_OPENER,
    Answerer,
    Deck,
    ManilhaMode,
    Option,
    TieOpener,
)

# The options a RuleSet holds, each in the field its code name names.
RULESET_OPTIONS: tuple[Option[Any], ...] = (DECK, MANILHAS, TIE_OPENER, ANSWERER)


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Deck, manilha mode, who opens after a tied round and who answers for a side.

    `answerer` matters in 2x2 only. "proximo" (the default, /regras#truco and
    /regras#mao-de-onze): a call is answered by the next opponent in play order, a raise by the
    player who asked, and the mão de onze is decided by the first player of the side at eleven
    in play order. "qualquer" (the variant, docs/rules-sources.md): any player of the side may
    answer a call or decide the mão de onze, and the first answer counts.
    """

    deck: Deck = DECK.default
    manilhas: ManilhaMode = MANILHAS.default
    tie_opener: TieOpener = TIE_OPENER.default
    answerer: Answerer = ANSWERER.default

    def __post_init__(self) -> None:
        """Refuse values outside the known options."""
        for option in RULESET_OPTIONS:
            option.checked(getattr(self, option.name))

    @property
    def fixed(self) -> bool:
        """True when the manilhas are fixed (no vira)."""
        return self.manilhas == "fixa"

    @property
    def first_tie_opens(self) -> bool:
        """True when a tied round's first tying card's player opens the next (else the mão)."""
        return self.tie_opener == "primeira_empatada"

    @property
    def anyone_answers(self) -> bool:
        """True when any player of a side may answer for it (in 2x2), the first answer counting."""
        return self.answerer == "qualquer"
