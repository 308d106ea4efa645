"""The tables' words the domain writes itself, in pt-BR: a record in words (`record_text`: the
service keeps it in a replaced hand's reason, the exports write it, the pages show it), the notes
a normal hand may carry and their labels (checked on a write and on an import, written in the
exports) and Brasília time. No sentence makes a verb agree with a team's name ("Nós", "Ana",
"Os Zapeiros" alike). The sentences only a page shows (who deals, who won, a record's detail...)
are built in scorekeeper/web/common/board_words.py."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from ...models import Entry
from ...rules import (
    DEFAULT_RULE_SET,
    SIMPLE_HAND,
    TABLE_OPTIONS,
    VARIANTS,
    Kind,
    Outcome,
    Variant,
)
from ..common.refusals import ReusedClientId
from .settings import NAME_FIXED, NAME_SWAPPED, TableSettings, edit_names, edit_of

LOCAL_TZ = ZoneInfo("America/Sao_Paulo")  # tzdata (a dependency) provides it everywhere

Notes = dict[int, tuple[tuple[str, str], ...]]


def ladder_notes(rules: Variant) -> Notes:
    """The notes offered after a normal hand of each value of a rule set's ladder: how it was
    won ('mão simples', 'truco aceito') and, below the top, the call the others ran from
    ('correram do truco')."""
    notes: Notes = {}
    for step, value in enumerate(rules.ladder):
        said = rules.calls[step - 1].value if step else ""
        won = (f"{said}", f"{said} aceito") if step else ("simples", SIMPLE_HAND)
        ran = rules.calls[step].value if step < len(rules.calls) else None
        notes[value] = (won, (f"correram_{ran}", f"correram do {ran}")) if ran else (won,)
    return notes


NOTES_BY_RULES: dict[str, Notes] = {code: ladder_notes(rules) for code, rules in VARIANTS.items()}
NOTES = NOTES_BY_RULES[DEFAULT_RULE_SET.code]  # the default rule set's


def notes_of(rules: Variant, points: int | None) -> tuple[tuple[str, str], ...]:
    """The notes a normal hand of these points may carry under a rule set."""
    return NOTES_BY_RULES[rules.code].get(points or 0, ())


NOTE_LABELS = {
    code: label
    for table in NOTES_BY_RULES.values()
    for notes in table.values()
    for code, label in notes
}


# The refusal's own words (tests/web/test_isolation.py reads them by this name).
REUSED_MESSAGE = ReusedClientId.message


def describe(outcome: Outcome, names: tuple[str, str]) -> str:
    """A record in words for the log, the slot, undo/redo and the juiz, e.g. 'Nós +3'."""
    kind = outcome.kind
    name = names[outcome.side or 0]
    if kind is Kind.ANULADA:
        return "Mão anulada"
    if kind is Kind.CORRECAO:
        return f"{name}: placar corrigido para {outcome.points}"
    if kind is Kind.PROXIMA_PARTIDA:
        return "Próxima partida"
    if kind is Kind.NOVA_SERIE:
        return "Nova série"
    if kind is Kind.MESA_EDITADA:
        return "Mesa editada"  # what changed is the record's (see record_text)
    if kind is Kind.FERRO:
        return f"Mão de ferro para {name}"
    return f"{name} +{outcome.gain}"


def record_text(record: Entry, names: tuple[str, str]) -> str:
    """A record in words (see `describe`); an edit says what it changed."""
    if record.kind == Kind.MESA_EDITADA.value:
        return edit_text(*edit_of(record), names=edit_names(record))
    return describe(record.outcome, names)


def _changed(before: str, after: str) -> str:
    """'antes → depois'."""
    return f"{before} → {after}"


NAMES_SAID = {NAME_FIXED: " (erro de digitação)", NAME_SWAPPED: " (entrou outra pessoa)"}


def edit_text(before: TableSettings, after: TableSettings, names: str | None = None) -> str:
    """What an edit changed, e.g. 'Nomes mudados: Nós → Os Zapeiros, Ana → Bia · Série:
    partidas avulsas → melhor de 3', and how its changed names count when it was asked
    ('Nomes mudados (entrou outra pessoa): Ana → Bia')."""
    changed = [
        _changed(old, new) for old, new in zip(before.teams, after.teams, strict=True) if old != new
    ]
    seats = max(before.players, after.players)
    for seat in range(seats):
        old, new = _seat(before, seat), _seat(after, seat)
        if old != new:
            changed.append(_changed(old or f"jogador {seat + 1}", new or "sem nome"))
    said = NAMES_SAID.get(names or "", "")
    parts = [f"Nomes mudados{said}: {', '.join(changed)}"] if changed else []
    for option in TABLE_OPTIONS:
        old_value, new_value = getattr(before, option.name), getattr(after, option.name)
        if old_value != new_value:
            old_words = option.choice_or_default(old_value).short
            new_words = option.choice_or_default(new_value).short
            parts.append(f"{option.title}: {_changed(old_words, new_words)}")
    if before.first_dealer != after.first_dealer and before.players == after.players:
        parts.append("Quem dá as cartas mudou")
    return " · ".join(parts) or "Mesa editada"


def _seat(settings: TableSettings, seat: int) -> str:
    """The name a seat was given ('' when none, or past the table's seats)."""
    given = settings.player_names
    return given[seat] if seat < min(len(given), settings.players) else ""


def to_local(moment: datetime) -> datetime:
    """A stored (naive UTC) time in Brasília time."""
    return moment.replace(tzinfo=UTC).astimezone(LOCAL_TZ)


def local_time(moment: datetime) -> str:
    """HH:MM in Brasília time."""
    return to_local(moment).strftime("%H:%M")
