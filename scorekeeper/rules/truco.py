"""What a hand is worth while it is played: truco, seis, nove, doze (seed 000, Truco and Correr)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError
from .scoring import HAND_VALUES, Kind, Outcome

CALLS = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}


def _check_side(side: int) -> None:
    """Refuse anything but side 0 or 1."""
    if isinstance(side, bool) or side not in (0, 1):
        raise RulesError("Lado inexistente: a mesa tem dois lados.")


@dataclass(frozen=True)
class Bet:
    """The hand's value, a request waiting for an answer, and who may not raise next.

    `locked` is the side whose request was accepted last: it may not ask again until the other
    side raises. `special` marks the mão de onze and the mão de ferro, where nobody asks.
    """

    worth: int = 1
    pending: int | None = None
    asker: int | None = None
    locked: int | None = None
    special: bool = False

    def ask(self, side: int) -> Bet:
        """`side` asks for the next step (truco, seis, nove, doze)."""
        _check_side(side)
        if self.special:
            raise RulesError("Na mão de onze e na mão de ferro ninguém pode pedir truco.")
        if self.pending is not None:
            raise RulesError(f"Já há um pedido de {CALLS[self.pending]} esperando resposta.")
        if self.worth == HAND_VALUES[-1]:
            raise RulesError("A mão já vale 12, o máximo: não há o que pedir.")
        if self.locked == side:
            raise RulesError(
                "Depois de um pedido aceito, só o lado que aceitou pode pedir o próximo."
            )
        step = HAND_VALUES[HAND_VALUES.index(self.worth) + 1]
        return Bet(self.worth, step, side, self.locked)

    def _answering(self, side: int) -> int:
        """The value asked, after checking that `side` is the one to answer."""
        _check_side(side)
        if self.pending is None:
            raise RulesError("Não há pedido esperando resposta.")
        if side == self.asker:
            raise RulesError("Quem responde ao pedido é o outro lado.")
        return self.pending

    def accept(self, side: int) -> Bet:
        """`side` accepts: the hand is worth what was asked."""
        asked = self._answering(side)
        return Bet(asked, None, None, self.asker)

    def raise_(self, side: int) -> Bet:
        """`side` answers with the next step: it accepts the request and asks for more."""
        return self.accept(side).ask(side)

    def run(self, side: int) -> Outcome:
        """`side` gives up: from a request the asker scores what the hand was worth before it;
        on its turn with nothing pending the other side scores what the hand is worth now."""
        _check_side(side)
        if self.pending is not None and side == self.asker:
            raise RulesError("Quem pediu não corre do próprio pedido: espere a resposta.")
        return Outcome(Kind.NORMAL, 1 - side, self.worth)
