"""The names a juiz link carries: the two teams' and the players', so that a ruling sent to the
group reads with the table's names. Read from a link they are made visible and cut to the
lengths a table keeps; an absent name is the default one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...domain.mesa import Board
from ...domain.mesa.inputs import MAX_PLAYER, MAX_TEAM, visible
from ...rules import DEFAULT_SIDES, PLAYERS

TEAM_KEYS = ("nos", "eles")
PLAYER_KEYS = tuple(f"j{seat}" for seat in range(1, max(PLAYERS.values) + 1))
NAME_KEYS = (*TEAM_KEYS, *PLAYER_KEYS)


def _clean(text: str | None, limit: int) -> str:
    """A name from a link: visible characters only, at most `limit` of them."""
    return visible(text or "")[:limit].strip()


@dataclass(frozen=True)
class Naming:
    """The sides' names and the players' names by seat (1..N in play order, odd seats Nós)."""

    teams: tuple[str, str] = DEFAULT_SIDES
    players: tuple[str, ...] = ()

    def params(self) -> dict[str, str]:
        """The names that differ from the defaults, by their link parameters."""
        named = zip(TEAM_KEYS, self.teams, DEFAULT_SIDES, strict=True)
        params = {key: team for key, team, default in named if team != default}
        seats = zip(PLAYER_KEYS, self.players, strict=False)
        params.update({key: name for key, name in seats if name})
        return params


def read_naming(args: Mapping[str, str]) -> Naming | None:
    """The names a link gives (None when it gives none: the page then uses its table's)."""
    if not any(key in args for key in NAME_KEYS):
        return None
    teams = tuple(
        _clean(args.get(key), MAX_TEAM) or default
        for key, default in zip(TEAM_KEYS, DEFAULT_SIDES, strict=True)
    )
    players = tuple(_clean(args.get(key), MAX_PLAYER) for key in PLAYER_KEYS)
    while players and not players[-1]:
        players = players[:-1]
    return Naming((teams[0], teams[1]), players)


def table_naming(board: Board | None) -> Naming:
    """A table's names (in 1x1, team names other than the defaults name the two players too);
    the defaults without a table."""
    if board is None:
        return Naming()
    mesa = board.mesa
    players = tuple(str(name) for name in mesa.player_names or ())
    if not players and mesa.players == 2 and mesa.team_names != DEFAULT_SIDES:
        players = mesa.team_names
    return Naming(mesa.team_names, players)


def names_of(naming: Naming | None, board: Board | None) -> Naming:
    """The names a page uses: the link's when it gives some, else its table's."""
    return naming if naming is not None else table_naming(board)
