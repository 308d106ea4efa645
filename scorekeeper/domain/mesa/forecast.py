"""The score a tap leads to, worked out by the rules engine ahead of the tap, so that the board
can show it at once (online or not) while the write travels.

Within a game, what a tap does to the score depends on the two sides' points alone (the phase
follows from them), whatever the table's names, deal or series: so one table per rule set and
special-hand threshold, a game's every score and every tap of it, serves every board. Its size
is the rule set's: a side's points go from 0 to its target (`size`), and the board says so. What
changes at a game's end (the tally, the series) depends on the table: each board carries its
own (`ends`).
"""

from __future__ import annotations

from typing import Any

from ...rules import DEFAULT_RULE_SET, MatchConfig, MatchState, Phase, Variant


def size(rules: Variant) -> int:
    """How many scores a side may stand at under `rules`: 0 to the target (13 for 12)."""
    return rules.target + 1


def phase_key(state: MatchState) -> str:
    """The board's layout for a state: 'normal', 'onze-0', 'mao_de_ferro', 'fim-1', 'serie-0'."""
    phase = state.phase
    if phase is Phase.MAO_DE_ONZE:
        return f"onze-{state.onze_side}"
    if phase is Phase.GAME_OVER:
        return f"fim-{state.game_winner}"
    if phase is Phase.SERIES_OVER:
        return f"serie-{state.series_winner}"
    return phase.value


def score_index(points: tuple[int, int], rules: Variant = DEFAULT_RULE_SET) -> int:
    """A score as one number: points A * size + points B (A * 13 + B for a target of 12)."""
    return points[0] * size(rules) + points[1]


def game_table(special_at: int, rules: str = DEFAULT_RULE_SET.code) -> dict[str, Any]:
    """Every score of a game under this threshold and rule set and where each legal tap takes
    it (scores off the rule set's unit, odd ones when it scores by 2, are never reached: their
    rows go unread).

    `codes` lists each layout's taps (the buttons' values) in order; `keys` the layouts;
    `scores[a * size + b]` is [layout index, then one target per tap of that layout], where a
    target is the next score's index, or -1 - (2 * index + side) when the tap ends the game
    for `side` (what the tally and the series become then is the board's: see `ends`).
    """
    config = MatchConfig.of(rules, special_at=special_at)
    variant, sides = config.variant, size(config.variant)
    codes: dict[str, list[str]] = {}
    scores: list[list[int]] = []
    for index in range(sides * sides):
        points = divmod(index, sides)
        if variant.target in points:
            scores.append([])  # a finished game: its taps are the board's (`ends`)
            continue
        state = MatchState(config, points)
        key = phase_key(state)
        outcomes = state.legal_outcomes()
        codes.setdefault(key, [outcome.code for outcome in outcomes])
        row = [list(codes).index(key)]
        for outcome in outcomes:
            after = state.apply(outcome)
            target = score_index(after.points, variant)
            won = after.game_winner
            row.append(target if won is None else -1 - (2 * target + won))
        scores.append(row)
    return {"keys": list(codes), "codes": codes, "scores": scores}


def ending(state: MatchState) -> list[Any]:
    """A finished game as a board shows it, and what its one tap (the next game's or series'
    marker) leads to: [tally, layout, marker, next score, next tally]."""
    (marker,) = state.legal_outcomes()
    after = state.apply(marker)
    return [
        list(state.wins),
        phase_key(state),
        marker.code,
        score_index(after.points, state.config.variant),
        list(after.wins),
    ]


def board_forecast(state: MatchState) -> dict[str, Any]:
    """What a board carries for the forecast: its score, tally and layout, its game's end
    (`ends`: its own when the game is over, else one for each side winning it) and the size
    of a score's index (`size`: a score is A * size + B)."""
    over = state.phase in (Phase.GAME_OVER, Phase.SERIES_OVER)
    finished = [state] if over else [state.won_by(side) for side in (0, 1)]
    return {
        "size": size(state.config.variant),
        "score": score_index(state.points, state.config.variant),
        "wins": list(state.wins),
        "key": phase_key(state),
        "over": over,
        "ends": [ending(end) for end in finished],
    }


def layout_states(config: MatchConfig) -> list[MatchState]:
    """A state of each layout a table's board may show: normal, each side's mão de onze, the
    mão de ferro, each side's won game and, in a series, each side's won series."""
    start = MatchState(config)
    at = config.special_at
    states = [start, *(MatchState(config, points) for points in ((at, 0), (0, at), (at, at)))]
    states += [start.won_by(side) for side in (0, 1)]
    needed = config.wins_needed
    if needed is not None:
        for side in (0, 1):
            wins = (needed - 1, 0) if side == 0 else (0, needed - 1)
            states.append(MatchState(config, wins=wins).won_by(side))
    return states
