"""The events of a hand as it is played, and their text form `seat:event`.

Seats are numbered 1..N around the table in play order; odd seats are side 0 ("nós"), even
seats side 1 ("eles"). An event is a card put down by a seat (`4p`, `X` covered, `X:4p` covered
with a known face) or a word said by a seat (`truco`, `seis`, `nove`, `doze`, `aceita`,
`corre`). A hand's events in a link read `1:truco,2:aceita,1:3p,2:2c,3:X,4:Ko`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .calls import Word
from .cards import Card
from .errors import RulesError
from .reasons import DEFAULT_NAMES, Code, Names, Reason, RuleBroken, word

COVERED = "X"
SEPARATOR = ","
MAX_SEAT_DIGITS = 2


@dataclass(frozen=True)
class CardEvent:
    """A seat puts a card down: open, or covered (its face known or not)."""

    seat: int
    card: Card | None
    covered: bool = False

    def __post_init__(self) -> None:
        """An open card has a face."""
        if not self.covered and self.card is None:
            raise RulesError("Carta aberta sem valor: informe a carta, ou X para coberta.")

    @property
    def text(self) -> str:
        """The card part: '4p', 'X' or 'X:4p'."""
        if not self.covered:
            return str(self.card)
        return COVERED if self.card is None else f"{COVERED}:{self.card}"

    def __str__(self) -> str:
        """The event in the link format, e.g. '3:X:4p'."""
        return f"{self.seat}:{self.text}"


@dataclass(frozen=True)
class WordEvent:
    """A seat says a word: a call (truco, seis, nove, doze) or an answer (aceita, corre)."""

    seat: int
    word: Word

    def __str__(self) -> str:
        """The event in the link format, e.g. '1:truco'."""
        return f"{self.seat}:{self.word.value}"


Event = CardEvent | WordEvent

_WORDS = {w.value: w for w in Word}


@dataclass(frozen=True)
class IllegalEvent:
    """The first event a hand refuses: its 1-based position, its text and the rule it breaks."""

    position: int
    text: str
    reason: Reason

    def message(self, names: Names = DEFAULT_NAMES) -> str:
        """The refusal in pt-BR, naming the event: 'Jogada 3 (2:aceita): ...'."""
        return f"Jogada {self.position} ({self.text}): {word(self.reason, names)}"

    def error(self, names: Names = DEFAULT_NAMES) -> EventRefused:
        """The refusal as an exception, for callers that raise."""
        return EventRefused(self, names)


class EventRefused(RuleBroken):
    """An event that is unreadable or breaks a rule; `illegal` says which one and why."""

    def __init__(self, illegal: IllegalEvent, names: Names = DEFAULT_NAMES) -> None:
        """Keep the illegal event; the message names its position."""
        super().__init__(illegal.reason, names)
        self.args = (illegal.message(names),)
        self.illegal = illegal


def parse_event(text: str) -> Event:
    """Read one event, e.g. '1:truco', '2:4p', '3:X', '4:X:Ko'; RuleBroken when unreadable."""
    if not isinstance(text, str):
        raise RuleBroken(Reason(Code.EVENT_FORMAT, text=repr(text)))
    seat_text, colon, rest = text.strip().partition(":")
    seat_text, rest = seat_text.strip(), rest.strip()
    if (
        not colon
        or not rest
        or not (seat_text.isascii() and seat_text.isdigit())
        or len(seat_text) > MAX_SEAT_DIGITS
    ):
        raise RuleBroken(Reason(Code.EVENT_FORMAT, text=text.strip()))
    seat = int(seat_text)
    said = _WORDS.get(rest.lower())
    if said is not None:
        return WordEvent(seat, said)
    if rest.upper() == COVERED:
        return CardEvent(seat, None, covered=True)
    covered = rest[:2].upper() == f"{COVERED}:"
    face = rest[2:].strip() if covered else rest
    if len(face) != 2:
        code = Code.BAD_CARD if covered or len(face) < 2 or face[0].isdigit() else Code.UNKNOWN_WORD
        raise RuleBroken(Reason(code, text=face))
    try:
        card = Card.parse(face)
    except RulesError:
        raise RuleBroken(Reason(Code.BAD_CARD, text=face)) from None
    return CardEvent(seat, card, covered=covered)


def split_events(text: str) -> tuple[str, ...]:
    """The events of a link's text, one string each (none for an empty text)."""
    if not text.strip():
        return ()
    return tuple(part.strip() for part in text.split(SEPARATOR))


def parse_events(text: str) -> tuple[Event, ...]:
    """Read a link's events; EventRefused (with the 1-based position) at the first unreadable."""
    events: list[Event] = []
    for position, part in enumerate(split_events(text), start=1):
        try:
            events.append(parse_event(part))
        except RuleBroken as error:
            raise IllegalEvent(position, part, error.reason).error() from None
    return tuple(events)


def format_events(events: Iterable[Event]) -> str:
    """The events in the link format, e.g. '1:truco,2:aceita,1:3p'."""
    return SEPARATOR.join(str(event) for event in events)
