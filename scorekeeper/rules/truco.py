"""What a hand is worth while it is played: truco, seis, nove (Mineiro: dez), doze (/regras#truco
and /regras#correr), and what the board records when it ends, as a scoring `Outcome`.

`Bet` is the one place that turns the kind of hand (normal, mão de onze, mão de ferro) and its
value into the outcome the score keeps: a won hand, a void hand, a run, a declined mão de onze.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .calls import Word
from .errors import RulesError
from .reasons import Code, Reason, RuleBroken
from .scoring import Kind, Outcome, Special, special_outcome
from .variants import PAULISTA, Variant


def _check_side(side: int) -> None:
    """Refuse anything but side 0 or 1."""
    if isinstance(side, bool) or side not in (0, 1):
        raise RuleBroken(Reason(Code.NO_SUCH_SIDE))


@dataclass(frozen=True)
class Bet:
    """The hand's value, a call waiting for an answer, and who may not ask next.

    `asker` is the side whose call waits; `locked` the side whose call was accepted last: it
    may not ask again until the other side asks. `hand` is the kind of hand: build one with
    `Bet.start(special, variant)`, which makes a mão de onze worth 3 and a mão de ferro 1 (in
    Mineiro a mão de dez 4, a mão de ferro 2), without calls. `variant` is the rule set whose
    ladder and calls the bet climbs (Paulista 1, 3, 6, 9, 12; Mineiro 2, 4, 6, 10, 12).
    """

    worth: int = 1
    pending: int | None = None
    asker: int | None = None
    locked: int | None = None
    hand: Special = Special.NORMAL
    variant: Variant = PAULISTA

    def __post_init__(self) -> None:
        """Refuse states no hand can reach."""
        rules = self.variant
        if self.worth not in rules.ladder:
            raise RulesError(f"A mão vale {rules.values_said}, não {self.worth!r}.")
        if (self.pending is None) != (self.asker is None):
            raise RulesError("Um pedido esperando resposta tem quem pediu, e só ele.")
        if self.pending is not None and self.pending != rules.next_step(self.worth):
            raise RulesError("O pedido é sempre o degrau seguinte ao valor da mão.")
        moved = self.pending is not None or self.locked is not None
        if not self.hand.calls_allowed and (self.worth != self.hand.worth_in(rules) or moved):
            raise RulesError("Na mão de onze e na mão de ferro ninguém pede truco.")

    @classmethod
    def start(cls, hand: Special = Special.NORMAL, variant: Variant = PAULISTA) -> Bet:
        """The bet at the start of a hand of this kind under `variant` (Paulista: worth 1; 3 in
        a played mão de onze; Mineiro: 2; 4 in a played mão de dez)."""
        return cls(hand.worth_in(variant), hand=hand, variant=variant)

    @property
    def worded(self) -> Variant | None:
        """The rule set its reasons word a special hand by (None: Paulista, the default)."""
        return None if self.variant is PAULISTA else self.variant

    @property
    def waiting(self) -> Word | None:
        """The call waiting for an answer, or None."""
        return None if self.pending is None else self.variant.word_for(self.pending)

    @property
    def accepted(self) -> Word | None:
        """The last call accepted (the one the hand is worth), or None for a simple hand."""
        if not self.hand.calls_allowed or self.worth == self.variant.ladder[0]:
            return None
        return self.variant.word_for(self.worth)

    def ask(self, side: int, word: Word | None = None) -> Bet:
        """`side` asks for the next step (truco, seis, nove or dez, doze); `word`, if given,
        must be it."""
        _check_side(side)
        if not self.hand.calls_allowed:
            raise RuleBroken(
                Reason(Code.NO_CALL_IN_SPECIAL, special=self.hand, rules=self.worded)
            )
        if self.pending is not None:
            raise RuleBroken(Reason(Code.CALL_WAITS, word=self.waiting))
        step = self.variant.next_step(self.worth)
        if step is None:
            raise RuleBroken(Reason(Code.NOTHING_ABOVE_DOZE))
        if self.locked == side:
            raise RuleBroken(Reason(Code.ONLY_ACCEPTER_ASKS, side=1 - side))
        if word is not None and self.variant.asks(word) != step:
            expected = self.variant.word_for(step).value
            raise RuleBroken(Reason(Code.WRONG_STEP, word=word, points=step, text=expected))
        return replace(self, pending=step, asker=side)

    def _answering(self, side: int) -> int:
        """The value asked, after checking that `side` is the one to answer."""
        _check_side(side)
        if self.pending is None:
            raise RuleBroken(Reason(Code.NOTHING_TO_ANSWER))
        if side == self.asker:
            raise RuleBroken(Reason(Code.ASKER_DOES_NOT_ANSWER, word=self.waiting))
        return self.pending

    def accept(self, side: int) -> Bet:
        """`side` accepts: the hand is worth what was asked."""
        asked = self._answering(side)
        return replace(self, worth=asked, pending=None, asker=None, locked=self.asker)

    def raise_(self, side: int, word: Word | None = None) -> Bet:
        """`side` answers with the next step: it accepts the call and asks for more."""
        return self.accept(side).ask(side, word)

    def run(self, side: int) -> Outcome:
        """`side` gives up: from a call the asker scores what the hand was worth before it; on
        its turn with nothing pending the other side scores what the hand is worth now."""
        _check_side(side)
        if self.pending is not None and side == self.asker:
            raise RuleBroken(Reason(Code.ASKER_DOES_NOT_RUN, word=self.waiting))
        return self.won(1 - side)

    def won(self, side: int) -> Outcome:
        """`side` takes the hand (by its rounds, or because the other side ran)."""
        _check_side(side)
        onze = self.hand.onze_side
        if self.hand is Special.FERRO:
            return special_outcome(self.variant, Kind.FERRO, side)
        if onze is not None:
            kind = Kind.ONZE_GANHOU if side == onze else Kind.ONZE_PERDEU
            return special_outcome(self.variant, kind, side)
        return Outcome(Kind.NORMAL, side, self.worth)

    def void(self) -> Outcome:
        """Three tied rounds: nobody scores, in any kind of hand."""
        return Outcome(Kind.ANULADA)

    def decline(self) -> Outcome:
        """The side at eleven runs from its mão de onze before playing: the other side scores 1
        (Mineiro: the side at ten runs from its mão de dez, the other scores 2)."""
        onze = self.hand.onze_side
        if onze is None:
            raise RuleBroken(Reason(Code.NOT_ONZE, rules=self.worded))
        return special_outcome(self.variant, Kind.ONZE_CORREU, 1 - onze)
