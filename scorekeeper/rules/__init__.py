"""The rules of Truco Paulista as pure values and functions (no Flask, no SQLAlchemy)."""

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
from .hands import HandVerdict, judge_hand
from .rounds import Play, RoundVerdict, judge_round
from .ruleset import RuleSet
from .scoring import HAND_VALUES, Kind, MatchConfig, MatchState, Outcome, Phase, fold, replay
from .truco import Bet

__all__ = [
    "Bet",
    "FIXED_MANILHAS",
    "HAND_VALUES",
    "Card",
    "HandVerdict",
    "Kind",
    "MatchConfig",
    "MatchState",
    "Outcome",
    "Phase",
    "Play",
    "Rank",
    "RoundVerdict",
    "RuleSet",
    "RulesError",
    "Suit",
    "deck",
    "fold",
    "judge_hand",
    "judge_round",
    "manilha_rank",
    "manilha_table",
    "manilhas",
    "replay",
    "strength_order",
]
