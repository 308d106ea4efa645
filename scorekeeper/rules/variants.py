"""Rule sets as data, and the registry of them: Truco Paulista (/regras#pontos, #truco,
#mao-de-onze, #mao-de-ferro), the default, and Truco Mineiro (its rule-book page and
docs/rules-sources.md).

A `Variant` holds what differs between rule sets: its ladders of hand values and the words that
call each step (the truco's; room for the envido's and the flor's), its special hand and mão de
ferro (either may be absent), its target and the halves a game may have below it, the seats, the
cards, the series and its page of the rule book. Scoring (`MatchConfig.variant`), `Bet`, the
whole-hand judge and every page read it; nothing outside the rules names a rule set: a new one
is a `Variant` here, added to `RULE_SETS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from math import gcd

from .calls import Word
from .errors import RulesError
from .options import Choice, Deck, ManilhaMode, Option, either
from .ruleset import RuleSet
from .sections import MINEIRO_BOOK, PAULISTA_BOOK, Book, Section

# A rule set's code: any string the registry (RULE_SETS) holds, as stored and linked.
VariantCode = str

SIMPLE_HAND = "mão simples"  # a hand nobody called: the first value of every ladder
TRUCO = "truco"  # the ladder every rule set has: what a hand's cards are worth
NO_SPECIAL = "Este jogo não tem mão especial."
NO_FERRO = "Este jogo não tem mão de ferro."


@dataclass(frozen=True, kw_only=True)
class Ladder:
    """A bet's ladder: what it is worth before any call, then after each call, and the call
    asking for each step above the first (the truco's; the envido's and the flor's to come)."""

    values: tuple[int, ...]
    calls: tuple[Word, ...]

    def __post_init__(self) -> None:
        """Refuse a ladder whose values and calls do not fit."""
        if len(self.calls) != len(self.values) - 1:
            raise RulesError("Escada de valores inválida.")
        if list(self.values) != sorted(set(self.values)):
            raise RulesError("Escada de valores inválida.")


@dataclass(frozen=True, kw_only=True)
class SpecialHand:
    """The special hand near the end of a game (Paulista's mão de onze, Mineiro's mão de dez):
    its name, the points where it may start (the default first), what it is worth when played,
    and what the other side scores when the side at those points runs before playing."""

    name: str  # 'mão de onze'
    at: tuple[int, ...]
    worth: int
    run: int


@dataclass(frozen=True, kw_only=True)
class Ferro:
    """The mão de ferro, both sides at the special hand's points: its value (its winner takes
    the game all the same) and how it may be played (/regras#mao-de-ferro)."""

    worth: int
    modes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, eq=False)
class Variant:
    """A rule set: its ladders (the truco's, and room for others), its special hand and mão de
    ferro (each None in a rule set without one), its target and halves, seats, cards, series
    and rule book page. One object per rule set (the registry's): compared by identity."""

    code: VariantCode
    name: str  # 'Truco Paulista'
    ladders: Mapping[str, Ladder]  # by bet: TRUCO always; 'envido', 'flor' where played
    special: SpecialHand | None
    ferro: Ferro | None
    target: int = 12
    halves: tuple[int, ...] = ()  # where a game's halves end below the target (malas: 15)
    players: tuple[int, ...]  # the seat counts allowed
    manilhas: ManilhaMode | None  # the manilhas the rule set imposes; None: the table's choice
    deck: Deck | None  # the deck the rule set imposes; None: the table's choice
    best_of: int  # the series a table of this rule set plays unless it chooses another
    marks_specials: bool  # a special hand's outcome carries its points (Paulista's: the kind)
    book: Book  # its page of the rule book

    def __post_init__(self) -> None:
        """Refuse a rule set without a truco ladder, or whose values pass its target."""
        if TRUCO not in self.ladders:
            raise RulesError("Escada de valores inválida.")
        if any(value > self.target for value in self.points_known):
            raise RulesError("Escada de valores inválida.")

    @property
    def ladder(self) -> tuple[int, ...]:
        """What a hand is worth: before any call, then after each truco call."""
        return self.ladders[TRUCO].values

    @property
    def calls(self) -> tuple[Word, ...]:
        """The call asking for each step of the truco ladder above the first."""
        return self.ladders[TRUCO].calls

    def _special_hand(self) -> SpecialHand:
        """The special hand, or RulesError in pt-BR for a rule set without one."""
        if self.special is None:
            raise RulesError(NO_SPECIAL)
        return self.special

    @property
    def special_at(self) -> tuple[int, ...]:
        """The points where the special hand may start, the default first (none without one)."""
        return self.special.at if self.special is not None else ()

    @property
    def special_name(self) -> str:
        """The special hand's name: 'mão de onze'."""
        return self._special_hand().name

    @property
    def special_worth(self) -> int:
        """What a played special hand is worth."""
        return self._special_hand().worth

    @property
    def special_run(self) -> int:
        """What the other side scores when the special side runs before playing."""
        return self._special_hand().run

    @property
    def ferro_worth(self) -> int:
        """The mão de ferro's value."""
        if self.ferro is None:
            raise RulesError(NO_FERRO)
        return self.ferro.worth

    @property
    def ferro_modes(self) -> tuple[str, ...]:
        """How the mão de ferro may be played (none without one)."""
        return self.ferro.modes if self.ferro is not None else ()

    @property
    def short_name(self) -> str:
        """The rule set's name without 'Truco': 'Paulista'."""
        return self.name.split()[-1]

    @property
    def special_word(self) -> str:
        """The special hand's last word, as links and short labels say it: 'onze', 'dez'."""
        return self.special_name.split()[-1]

    @property
    def unit(self) -> int:
        """The step every score moves by: 1 in Paulista, 2 in Mineiro (its scores are even)."""
        unit = 0
        for value in self.points_known:
            unit = gcd(unit, value)
        return unit

    @property
    def values_said(self) -> str:
        """The ladder in pt-BR: '1, 3, 6, 9 ou 12'."""
        return either(str(value) for value in self.ladder)

    @property
    def points_known(self) -> frozenset[int]:
        """Every number of points one outcome of a hand may carry."""
        values = [value for ladder in self.ladders.values() for value in ladder.values]
        if self.special is not None:
            values += [self.special.worth, self.special.run]
        if self.ferro is not None:
            values.append(self.ferro.worth)
        return frozenset(values)

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
    ladders={
        TRUCO: Ladder(values=(1, 3, 6, 9, 12), calls=(Word.TRUCO, Word.SEIS, Word.NOVE, Word.DOZE))
    },
    special=SpecialHand(name="mão de onze", at=(11, 10), worth=3, run=1),
    ferro=Ferro(worth=1, modes=("cegas", "claras", "escuro")),
    players=(2, 4),
    manilhas=None,
    deck=None,
    best_of=0,
    marks_specials=False,
    book=PAULISTA_BOOK,
)

MINEIRO = Variant(
    code="mineiro",
    name="Truco Mineiro",
    ladders={
        TRUCO: Ladder(values=(2, 4, 6, 10, 12), calls=(Word.TRUCO, Word.SEIS, Word.DEZ, Word.DOZE))
    },
    special=SpecialHand(name="mão de dez", at=(10,), worth=4, run=2),
    ferro=Ferro(worth=2, modes=("cegas", "claras")),
    players=(2, 4, 6),
    manilhas="fixa",
    deck="sujo",
    best_of=3,
    marks_specials=True,
    book=MINEIRO_BOOK,
)

# The registry: every rule set by its code, the default first. A table, a link or a record that
# names no rule set plays the default's.
RULE_SETS: dict[str, Variant] = {v.code: v for v in (PAULISTA, MINEIRO)}
VARIANTS = RULE_SETS
DEFAULT_RULE_SET = PAULISTA


# The rule set as a table's option (/regras#pontos): one choice per rule set, the default first.
VARIANTE: Option[VariantCode] = Option(
    name="variante",
    param="variante",
    title="Regras",
    section=Section.PONTOS,
    anchor="variante",
    unknown="Variante desconhecida",
    choices=tuple(
        Choice(rules.code, rules.name, rules.name.lower(), long=rules.name)
        for rules in RULE_SETS.values()
    ),
)


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
