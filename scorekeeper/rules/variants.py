"""Rule sets as data: Truco Paulista (/regras#pontos, #truco, #mao-de-onze, #mao-de-ferro) and
Truco Mineiro (its rule-book sections and docs/rules-sources.md).

A `Variant` holds what differs between them: the ladder of hand values and the words that call
each step, the special hand and what it is worth, the mão de ferro, the target, the seats and the
cards. Scoring (`MatchConfig.variant`), `Bet` and the whole-hand judge read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import gcd
from typing import Literal

from .calls import Word
from .errors import RulesError
from .options import Deck, ManilhaMode, either
from .ruleset import RuleSet
from .sections import MINEIRO_BOOK, PAULISTA_BOOK, Book

VariantCode = Literal["paulista", "mineiro"]

SIMPLE_HAND = "mão simples"  # a hand nobody called: the first value of every ladder


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A rule set: ladder and calls, special hand, ferro, target, seats, cards and series."""

    code: VariantCode
    name: str  # 'Truco Paulista'
    ladder: tuple[int, ...]  # what a hand is worth: before any call, then after each call
    calls: tuple[Word, ...]  # the call asking for each step of the ladder above the first
    special_at: tuple[int, ...]  # the points where the special hand may start, the default first
    special_name: str  # 'mão de onze'
    special_worth: int  # a played special hand
    special_run: int  # what the other side scores when the special side runs before playing
    ferro_worth: int  # the mão de ferro's value (its winner takes the game all the same)
    target: int = 12
    players: tuple[int, ...]  # the seat counts allowed
    manilhas: ManilhaMode | None  # the manilhas the rule set imposes; None: the table's choice
    deck: Deck | None  # the deck the rule set imposes; None: the table's choice
    best_of: int  # the series a table of this rule set plays unless it chooses another
    marks_specials: bool  # a special hand's outcome carries its points (Paulista's: the kind)
    ferro_modes: tuple[str, ...]  # how the mão de ferro may be played (/regras#mao-de-ferro)
    book: Book = field(compare=False)  # its page of the rule book

    def __post_init__(self) -> None:
        """Refuse a rule set whose ladder and calls do not fit."""
        if len(self.calls) != len(self.ladder) - 1 or self.ladder[-1] != self.target:
            raise RulesError("Escada de valores inválida.")
        if list(self.ladder) != sorted(set(self.ladder)):
            raise RulesError("Escada de valores inválida.")

    @property
    def unit(self) -> int:
        """The step every score moves by: 1 in Paulista, 2 in Mineiro (its scores are even)."""
        unit = 0
        for value in (*self.ladder, self.special_worth, self.special_run, self.ferro_worth):
            unit = gcd(unit, value)
        return unit

    @property
    def short_name(self) -> str:
        """The rule set's name without 'Truco': 'Paulista'."""
        return self.name.split()[-1]

    @property
    def special_word(self) -> str:
        """The special hand's last word, as links and short labels say it: 'onze', 'dez'."""
        return self.special_name.split()[-1]

    @property
    def values_said(self) -> str:
        """The ladder in pt-BR: '1, 3, 6, 9 ou 12'."""
        return either(str(value) for value in self.ladder)

    @property
    def points_known(self) -> frozenset[int]:
        """Every number of points one outcome of a hand may carry."""
        return frozenset(
            (*self.ladder, self.special_worth, self.special_run, self.ferro_worth)
        )

    def next_step(self, worth: int) -> int | None:
        """The value the next call asks for when the hand is worth `worth`, None at the top."""
        index = self.ladder.index(worth)
        return self.ladder[index + 1] if index + 1 < len(self.ladder) else None

    def word_for(self, value: int) -> Word:
        """The call that asks for `value` (Mineiro: 4 truco, 6 seis, 10 dez, 12 doze)."""
        return self.calls[self.ladder.index(value) - 1]

    def value_name(self, value: int) -> str:
        """What a normal hand worth `value` is called: 'mão simples' before any call, else the
        call that asked for it (Mineiro: 4 'truco', 6 'seis', 10 'dez', 12 'doze')."""
        return SIMPLE_HAND if value == self.ladder[0] else self.word_for(value).value

    def asks(self, word: Word) -> int | None:
        """The value `word` asks for; None for an answer or a call this rule set lacks."""
        if word not in self.calls:
            return None
        return self.ladder[self.calls.index(word) + 1]

    def run_gives(self, worth: int, pending: int | None) -> int:
        """What the other side scores when one runs: from a call, the value before it; with
        nothing pending, what the hand is worth now (both are the hand's value so far)."""
        if pending is not None and self.next_step(worth) != pending:
            raise RulesError("O pedido é sempre o degrau seguinte ao valor da mão.")
        return worth

    def fits(self, ruleset: RuleSet) -> bool:
        """True when `ruleset` plays the cards this rule set imposes."""
        return (self.manilhas is None or ruleset.manilhas == self.manilhas) and (
            self.deck is None or ruleset.deck == self.deck
        )

    def ruleset(self, base: RuleSet | None = None) -> RuleSet:
        """`base` (the default RuleSet when None) with the cards this rule set imposes."""
        base = base or RuleSet()
        return replace(base, manilhas=self.manilhas or base.manilhas, deck=self.deck or base.deck)

    def check_ferro(self, mode: str) -> str:
        """`mode` when this rule set plays the mão de ferro so, else RulesError in pt-BR."""
        if mode not in self.ferro_modes:
            raise RulesError(
                f"No {self.name} a mão de ferro é jogada às cegas ou às claras, não no escuro."
            )
        return mode

    def check_players(self, players: object) -> int:
        """`players` when this rule set seats so many, else RulesError in pt-BR."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(self.players_refusal)
        if players not in self.players:
            raise RulesError(self.players_refusal)
        return players

    @property
    def players_refusal(self) -> str:
        """Why a seat count is refused, in pt-BR."""
        if self.players == (2, 4):
            return "O truco se joga com 2 jogadores (1x1) ou 4 (2x2)."
        return f"O {self.name.lower()} se joga com 2 jogadores (1x1), 4 (2x2) ou 6 (3x3)."


PAULISTA = Variant(
    code="paulista",
    name="Truco Paulista",
    ladder=(1, 3, 6, 9, 12),
    calls=(Word.TRUCO, Word.SEIS, Word.NOVE, Word.DOZE),
    special_at=(11, 10),
    special_name="mão de onze",
    special_worth=3,
    special_run=1,
    ferro_worth=1,
    players=(2, 4),
    manilhas=None,
    deck=None,
    best_of=0,
    marks_specials=False,
    ferro_modes=("cegas", "claras", "escuro"),
    book=PAULISTA_BOOK,
)

MINEIRO = Variant(
    code="mineiro",
    name="Truco Mineiro",
    ladder=(2, 4, 6, 10, 12),
    calls=(Word.TRUCO, Word.SEIS, Word.DEZ, Word.DOZE),
    special_at=(10,),
    special_name="mão de dez",
    special_worth=4,
    special_run=2,
    ferro_worth=2,
    players=(2, 4, 6),
    manilhas="fixa",
    deck="sujo",
    best_of=3,
    marks_specials=True,
    ferro_modes=("cegas", "claras"),
    book=MINEIRO_BOOK,
)

# The registry: every rule set by its code, the default first. A table, a link or a record that
# names no rule set plays the default's.
RULE_SETS: dict[str, Variant] = {v.code: v for v in (PAULISTA, MINEIRO)}
VARIANTS = RULE_SETS
DEFAULT_RULE_SET = PAULISTA


def book_of(section: object) -> Variant:
    """The rule set whose page of the rule book holds `section`."""
    return next(v for v in RULE_SETS.values() if section in v.book.sections)


def rule_set(code: object) -> Variant:
    """The rule set of this code name ('paulista', 'mineiro'), else RulesError in pt-BR."""
    found = RULE_SETS.get(code) if isinstance(code, str) else None
    if found is None:
        codes = either(f"'{known}'" for known in RULE_SETS)
        raise RulesError(f"Variante desconhecida: {code!r}. Use {codes}.")
    return found


variant = rule_set
