"""The rules of Truco Paulista as pure values and functions (no Flask, no SQLAlchemy)."""

from .calls import Word
from .cards import (
    FIXED_MANILHAS,
    Card,
    Rank,
    Suit,
    deck,
    manilha_rank,
    manilha_table,
    manilhas,
    strength_order,
)
from .errors import RulesError
from .events import (
    CardEvent,
    Event,
    EventRefused,
    IllegalEvent,
    WordEvent,
    format_events,
    parse_event,
    parse_events,
)
from .hands import Decision, HandVerdict, decide, judge_hand
from .reasons import Code, Names, Reason, RuleBroken, Section, word
from .rounds import Play, RoundVerdict, judge_round
from .ruleset import RuleSet
from .scoring import (
    HAND_VALUES,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    Phase,
    Special,
    fold,
    replay,
)
from .truco import Bet
from .whole_hand import (
    Ending,
    HandSetup,
    HandState,
    Result,
    RoundResult,
    WholeHandVerdict,
    judge_whole_hand,
)

__all__ = [
    "Bet",
    "FIXED_MANILHAS",
    "HAND_VALUES",
    "Card",
    "CardEvent",
    "Code",
    "Decision",
    "Ending",
    "Event",
    "EventRefused",
    "HandSetup",
    "HandState",
    "HandVerdict",
    "IllegalEvent",
    "Kind",
    "MatchConfig",
    "MatchState",
    "Names",
    "Outcome",
    "Phase",
    "Play",
    "Rank",
    "Reason",
    "Result",
    "RoundResult",
    "RoundVerdict",
    "RuleBroken",
    "RuleSet",
    "RulesError",
    "Section",
    "Special",
    "Suit",
    "WholeHandVerdict",
    "Word",
    "WordEvent",
    "decide",
    "deck",
    "fold",
    "format_events",
    "judge_hand",
    "judge_round",
    "judge_whole_hand",
    "manilha_rank",
    "manilha_table",
    "manilhas",
    "parse_event",
    "parse_events",
    "replay",
    "strength_order",
    "word",
]
