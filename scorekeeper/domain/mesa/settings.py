"""A table's settings as one value: what a table is opened with and what an edit changes (its
names, seating, series and house options). An edit's record keeps the settings before and after
it, so undo and redo put them back and the log stays the truth; and, when it changed a name the
statistics count, whether that name was a typo fixed or another person sitting down."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from ...models import Entry, Mesa
from ...rules import TABLE_OPTIONS, VARIANTE, Kind, MatchConfig, Option, RulesError, variant
from .inputs import MAX_PLAYER, MAX_TEAM, checked_text


@dataclass(frozen=True)
class TableSettings:
    """Every setting a table keeps in its columns (the column names), the names included."""

    players: int
    best_of: int
    first_dealer: int
    special_at: int
    ferro_mode: str
    deck: str
    manilhas: str
    tie_opener: str
    team_a: str
    team_b: str
    player_names: tuple[str, ...]
    variante: str = VARIANTE.default  # an edit kept before the rule set was: Paulista

    @classmethod
    def of(cls, mesa: Mesa) -> TableSettings:
        """A table's settings as its columns hold them now."""
        values = {name: getattr(mesa, name) for name in SETTING_NAMES}
        return cls.read(values)

    @classmethod
    def read(cls, values: dict[str, Any]) -> TableSettings:
        """Settings from their columns' values (the player names as any sequence)."""
        names = tuple(str(name) for name in values.get("player_names") or ())
        return cls(**{**values, "player_names": names})

    def columns(self) -> dict[str, Any]:
        """The table's column values (the player names as a list, as the column keeps them)."""
        return {**asdict(self), "player_names": list(self.player_names)}

    @property
    def config(self) -> MatchConfig:
        """The rules' view of these settings."""
        return MatchConfig(
            players=self.players,
            best_of=self.best_of,
            first_dealer=self.first_dealer,
            special_at=self.special_at,
            variant=variant(self.variante),
        )

    @property
    def teams(self) -> tuple[str, str]:
        """Side 0 and side 1 names."""
        return (self.team_a, self.team_b)

    def check(self) -> None:
        """Refuse, in pt-BR, settings no page keeps: a value an option does not have (of
        another type included), seats, series, special hand, mão de ferro or cards the rule
        set does not take, a team without a name, a name too long or with a character the
        forms take out (`checked_text`), or names for another number of seats."""
        for option in (VARIANTE, *TABLE_OPTIONS):
            _check_option(option, getattr(self, option.name))
        if type(self.first_dealer) is not int:
            raise RulesError("Quem dá as cartas primeiro deve ser um dos jogadores da mesa.")
        rules = self.config.variant
        rules.check_ferro(self.ferro_mode)
        if rules.deck not in (None, self.deck) or rules.manilhas not in (None, self.manilhas):
            raise RulesError(f"Baralho ou manilhas que o {rules.name} não usa.")
        for team in self.teams:
            if not checked_text(team, "Nome do time", MAX_TEAM):
                raise RulesError("Nome do time vazio.")
        if len(self.player_names) not in (0, self.players):
            raise RulesError("Os nomes dos jogadores não batem com os lugares da mesa.")
        for name in self.player_names:
            checked_text(name, "Nome de jogador", MAX_PLAYER)


def _check_option(option: Option[Any], value: object) -> None:
    """Refuse, in pt-BR, a value an option does not have (True is not 1, nor 1 "1")."""
    if not any(type(value) is type(known) and value == known for known in option.values):
        raise RulesError(f"{option.unknown}.")


SETTING_NAMES = tuple(field.name for field in fields(TableSettings))
DEFAULT_TEAMS = ("nós", "eles")  # folded: a 1x1 team so named names no player

# How an edit's changed names count (its record's "nomes"): a typo fixed, the table's every game
# credited to the new name; or another person seated, who is credited from the edit on (an edit
# kept before the question was asked counts so).
NAME_FIXED, NAME_SWAPPED = "corrigir", "substituir"
NAME_CHANGES = (NAME_FIXED, NAME_SWAPPED)


def folded(name: str) -> str:
    """A name as names are matched: NFC, case folded, its runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def seat_names(names: Sequence[str], teams: Sequence[str], players: int) -> list[str]:
    """The name each seat is counted by in the statistics, in seat order ('' for none): its
    player's; in 1x1 without both players named, its team's, unless 'Nós' or 'Eles'."""
    given = [str(name) for name in names][:players]
    if len(given) == players and all(given):
        return given
    if players == 2 and len(teams) == 2:
        return ["" if folded(str(t)) in DEFAULT_TEAMS else str(t) for t in teams]
    return given + [""] * (players - len(given))


def counted_names(settings: TableSettings) -> list[str]:
    """The names the statistics count a table's seats by (see `seat_names`)."""
    return seat_names(settings.player_names, settings.teams, settings.players)


def names_changed(before: TableSettings, after: TableSettings) -> bool:
    """True when an edit changes who the statistics count at the table: a counted name gone,
    come or spelled otherwise (not only the seats swapped, nor the case or spaces changed)."""
    return sorted(map(folded, counted_names(before))) != sorted(map(folded, counted_names(after)))


def name_fixes(before: TableSettings, after: TableSettings) -> dict[str, str]:
    """What a typo fix renames, seat by seat: the name a seat was counted by (folded; for a
    seat with none, `#<seat>`) to the one it has now ('' for none), where the old name left the
    table and the new one was not at it (a player who only moved to another seat is no fix)."""
    old_names, new_names = counted_names(before), counted_names(after)
    now = {folded(name) for name in new_names} - {""}
    then = {folded(name) for name in old_names} - {""}
    fixes = {}
    for seat, (old, new) in enumerate(zip(old_names, new_names, strict=False)):
        if folded(old) != folded(new) and folded(old) not in now and folded(new) not in then:
            fixes[folded(old) or f"#{seat}"] = new
    return fixes


def edit_json(
    before: TableSettings, after: TableSettings, names: str | None = None
) -> str:
    """What an edit's record keeps: the settings before and after it and, when it changed a
    counted name, how the change counts (NAME_FIXED or NAME_SWAPPED), as JSON text."""
    kept: dict[str, Any] = {"antes": before.columns(), "depois": after.columns()}
    if names is not None:
        kept["nomes"] = names
    return json.dumps(kept, ensure_ascii=False, sort_keys=True)


def edit_of(record: Entry) -> tuple[TableSettings, TableSettings]:
    """The settings before and after the edit a record keeps."""
    if record.kind != Kind.MESA_EDITADA.value or record.settings is None:
        raise ValueError(f"record {record.id} is not an edit")
    return edit_read(record.settings)


def edit_read(text: str) -> tuple[TableSettings, TableSettings]:
    """The settings before and after an edit, from the JSON text its record keeps."""
    kept = json.loads(text)
    return TableSettings.read(kept["antes"]), TableSettings.read(kept["depois"])


def edit_names(record: Entry) -> str | None:
    """How the names an edit changed count, as its record says: NAME_FIXED, NAME_SWAPPED, or
    None when it was not asked (no counted name changed on a table that had played, or an edit
    recorded before the question was: the names count as another person's)."""
    if record.settings is None:
        raise ValueError(f"record {record.id} is not an edit")
    found = json.loads(record.settings).get("nomes")
    return found if found in NAME_CHANGES else None
