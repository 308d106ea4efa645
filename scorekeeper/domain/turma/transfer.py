"""A turma carried to another Tento in one file, and back in.

The file is versioned JSON: the turma (its name, merged names, revision, when it was made), its
tables oldest first (every setting, the table each was a rematch of, how often its links were
changed) and every record of each (status, note, reason, scores and the stored state), with a
checksum of all of it. Ids and tokens are not in it: an import gives new ones. Only the turma's
scorer link downloads it (it carries everything the turma holds).

The checksum (`conferencia`, a SHA-256 with no key) is an integrity check only: it tells a file
cut short or changed by accident, and proves nothing of where a file came from (anyone can make
a file with a right checksum, and a file from another Tento server must import here). So an
import trusts nothing in the file: it checks the whole of it before it writes anything, every
value as the app itself would have written it: its format and version; every value's type,
length and range by the column it goes into; dates from 1970 to a day past now; revisions that
leave room for the writes to come and count at least the writes the records prove; names and
reasons by the forms' own rules (`inputs.checked_text`), settings by `TableSettings.check`;
every active and undone record replayed through the rules to the scores and states the file
says, each edit's settings chained to the table's; a discarded record (of a branch undone and
abandoned) one the rules could have taken, its edit's settings checked as any. Then it writes
the turma, its tables and their records in one transaction: a refusal writes nothing.

The same file imported twice is recognised: the new turma's viewer token is made from the file's
checksum and this server's secret (unguessable without the secret, the same for the same file),
so a second import finds the first by a unique column, also when two arrive at once, and writes
nothing. ("Trocar links" on the imported turma forgets it: the same file then imports anew.)
No Flask request here."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Integer, String, bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import ACTIVE, DISCARDED, UNDONE, HandRecord, Mesa, Turma, utcnow
from ...rules import (
    HAND_KINDS,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    RulesError,
    Variant,
    recordable,
)
from ..common.refusals import InputError
from ..common.writes import new_token
from ..mesa.board import replaced_seq, replacing_json
from ..mesa.inputs import INT_LIMIT, MAX_REASON, MAX_TEAM, checked_text, kept_visible
from ..mesa.service import MAX_RECORDS
from ..mesa.settings import NAME_CHANGES, NAME_SWAPPED, SETTING_NAMES, TableSettings, folded
from ..mesa.words import notes_of
from .turmas import MAX_NAME, find_turma, tables

FORMAT = "tento-turma"
VERSION = 1
MAX_BYTES = 8 * 1024 * 1024  # an upload's limit: years of weekly evenings fit in far less
MAX_UPLOAD = MAX_BYTES + 64 * 1024  # an import's whole request: the file and the form around it
# Tables a file may carry: a bound on abuse, far above any group's. A table takes some 700
# bytes of the file and each record some 100 more: 8 MB of tables of 10 records or more (an
# evening's has dozens) is fewer.
MAX_TABLES = 5_000
# The earliest time a file may carry: the Unix epoch, what a computer with no clock battery
# and no network reads on starting (a turma played on one still moves); far from the ends of
# what a datetime holds, so no page's arithmetic on it overflows.
EARLIEST = datetime(1970, 1, 1)
# How far past this server's now a file's time may be: the app writes no future time, and a
# day takes in a clock set to local time instead of UTC, and two servers' clocks apart.
AHEAD = timedelta(days=1)
# The highest revision a file may carry: a billion writes below the 32-bit columns' limit, so
# no write to come on the imported table or turma overflows.
MAX_REVISION = INT_LIMIT // 2
# A merged name is a folded player's (or 1x1 team's) name: case folding makes a character at
# most three, so a name the forms take folds to at most this long.
MAX_FOLDED = 3 * MAX_TEAM
MAX_EDIT_TEXT = 4096  # an edit's record keeps its settings before and after: well under 1 KB
TOP_KEYS = frozenset({"formato", "versao", "turma", "campos_dos_registros", "mesas", "conferencia"})

NOT_JSON = "Esse arquivo não é uma turma do Tento: não é um arquivo JSON."
FOREIGN = (
    "Esse arquivo não é o arquivo de uma turma do Tento. Baixe-o na página da turma, em"
    " “Levar a turma para outro Tento”."
)
NEWER = "Esse arquivo é de uma versão mais nova do Tento (versão {version}): atualize este Tento."
ALTERED = (
    "O arquivo foi alterado ou está incompleto (a conferência não bate): nada foi importado."
    " Baixe-o de novo na página da turma."
)
BROKEN = "O arquivo da turma tem um problema ({detail}): nada foi importado."
TOO_BIG = f"O arquivo passou do limite de {MAX_BYTES // (1024 * 1024)} MB: nada foi importado."
WRONG_TYPE = "um valor não é do tipo esperado"

_TURMAS, _MESAS, _RECORDS = Turma.__table__, Mesa.__table__, HandRecord.__table__
# What a file never carries: ids, tokens, and what only the server's own caches need.
_LEFT_OUT = {
    _TURMAS: ("id", "edit_token", "view_token", "departures"),
    _MESAS: (
        "id", "edit_token", "view_token", "turma_id", "previous_id", "torneio_id", "copied_from_id",
        "torneio_mesa", "closed",
    ),
    _RECORDS: ("id", "mesa_id"),
}


def _carried(table: Any) -> list[Column[Any]]:
    """The columns of `table` a file carries, in the table's order."""
    return [c for c in table.columns if c.name not in _LEFT_OUT[table]]


_RECORD_COLUMNS = _carried(_RECORDS)
RECORD_FIELDS = tuple(c.name for c in _RECORD_COLUMNS)


class BadFile(InputError):
    """A file this Tento cannot import, with why in pt-BR: nothing was written."""


def _broken(detail: str) -> BadFile:
    """The refusal of a file whose content does not hold together."""
    return BadFile(BROKEN.format(detail=detail))


class _At:
    """A place in the file (`where`, and the record's number if any) whose refusals of the
    rules (or the forms' rules) it names; a value of a type nothing expects there (a list for
    a name, say) refused as such."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.record: int | None = None

    def __enter__(self) -> _At:
        return self

    def __exit__(self, kind: Any, error: BaseException | None, trace: Any) -> None:
        if error is None or isinstance(error, BadFile):
            return
        place = self.where if self.record is None else f"{self.where}, registro {self.record}"
        if isinstance(error, (RulesError, InputError)):
            raise _broken(f"{place}: {str(error).rstrip('.')}") from error
        if isinstance(error, (TypeError, ValueError, KeyError, RecursionError)):
            raise _broken(f"{place}: {WRONG_TYPE}") from error


# --- export --------------------------------------------------------------------------------


def _dumped(value: Any) -> Any:
    """A column's value as JSON holds it (a time as ISO text)."""
    return value.isoformat() if isinstance(value, datetime) else value


def _row(source: Any, columns: Sequence[Column[Any]]) -> dict[str, Any]:
    """An object's or a row's carried columns by name."""
    return {c.name: _dumped(getattr(source, c.name)) for c in columns}


def checksum(document: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a document without its own checksum, as canonical JSON: the same
    content gives the same checksum whoever wrote it and however it was spaced."""
    content = {k: v for k, v in document.items() if k != "conferencia"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_RECORDS_OF = (
    select(*(c for c in _carried(_RECORDS)))
    .where(_RECORDS.c.mesa_id == bindparam("mesa"))
    .order_by(_RECORDS.c.seq)
)


def export_turma(turma: Turma) -> dict[str, Any]:
    """A turma as one versioned JSON document: everything an import needs, no id, no token."""
    ordered = list(reversed(tables(turma, None)))
    place = {mesa.id: index for index, mesa in enumerate(ordered)}
    document: dict[str, Any] = {
        "formato": FORMAT,
        "versao": VERSION,
        "turma": _row(turma, _carried(_TURMAS)),
        "campos_dos_registros": list(RECORD_FIELDS),
        "mesas": [
            {
                "mesa": _row(mesa, _carried(_MESAS)),
                "anterior": place.get(mesa.previous_id) if mesa.previous_id else None,
                "registros": [
                    [_dumped(value) for value in row]
                    for row in db.session.execute(_RECORDS_OF, {"mesa": mesa.id})
                ],
            }
            for mesa in ordered
        ],
    }
    document["conferencia"] = checksum(document)
    return document


# --- reading a file ------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    """Refuse NaN and Infinity: JSON has no such numbers, and no Tento writes them."""
    raise ValueError(name)


def read_document(data: bytes) -> tuple[dict[str, Any], str]:
    """A file's document and its checksum, once it is JSON of this format and version, whole."""
    if len(data) > MAX_BYTES:
        raise BadFile(TOO_BIG)
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadFile(NOT_JSON) from error
    if not isinstance(document, dict) or document.get("formato") != FORMAT:
        raise BadFile(FOREIGN)
    version = document.get("versao")
    if version != VERSION or type(version) is not int:
        if type(version) is int and version > VERSION:
            raise BadFile(NEWER.format(version=version))
        raise BadFile(FOREIGN)
    try:  # a text JSON takes but no UTF-8 holds (a lone surrogate), or nesting too deep
        found = checksum(document)
    except (ValueError, RecursionError) as error:
        raise BadFile(NOT_JSON) from error
    given = document.get("conferencia")
    if not isinstance(given, str) or not hmac.compare_digest(given.encode(), found.encode()):
        raise BadFile(ALTERED)
    return document, found


def _moment(value: Any, latest: datetime) -> datetime:
    """A time from its ISO text, as stored (naive UTC), from EARLIEST to `latest`."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    if moment is None:
        raise TypeError(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    if not EARLIEST <= moment <= latest:
        raise InputError(
            f"a data {moment.day:02}/{moment.month:02}/{moment.year:04} está fora do que um"
            " Tento grava; confira o relógio do aparelho de onde a turma veio"
        )
    return moment


@dataclass(frozen=True)
class _Shape:
    """What a column takes, as `_value` checks it: its name, its kind (time, yes/no, whole
    number, text, JSON), whether it may be empty, its length."""

    name: str
    kind: str
    nullable: bool
    length: int | None = None


def _shape(column: Column[Any]) -> _Shape:
    """The shape of a column's values."""
    kind, nullable = column.type, bool(column.nullable)
    if isinstance(kind, DateTime):
        return _Shape(column.name, "time", nullable)
    if isinstance(kind, Boolean):
        return _Shape(column.name, "bool", nullable)
    if isinstance(kind, Integer):
        return _Shape(column.name, "int", nullable)
    if isinstance(kind, String):  # Text too, with no length
        return _Shape(column.name, "text", nullable, kind.length)
    if isinstance(kind, JSON):
        return _Shape(column.name, "json", nullable)
    raise TypeError(column.name)  # a column of a type the file cannot carry


def _value(shape: _Shape, value: Any, latest: datetime) -> Any:
    """A file's value for a column of this shape, checked against its type, length and range
    (a time no later than `latest`)."""
    if value is None:
        if shape.nullable:
            return None
    elif shape.kind == "int":
        if type(value) is int and -INT_LIMIT < value < INT_LIMIT:
            return value
    elif shape.kind == "text":
        if type(value) is str and (shape.length is None or len(value) <= shape.length):
            return value
    elif shape.kind == "time":
        return _moment(value, latest)
    elif shape.kind == "json" or (shape.kind == "bool" and type(value) is bool):
        return value
    raise TypeError(shape.name)


def _default(column: Column[Any]) -> Any:
    """The value a row takes for a column it was not given."""
    default = column.default
    if default is None:
        return None
    arg = default.arg  # type: ignore[attr-defined]
    return arg(None) if callable(arg) else arg


def _columns(table: Any, given: Any, where: str, latest: datetime) -> dict[str, Any]:
    """A row's values from a file's object of them, each checked by its column; a column the
    file leaves out takes its default, one this Tento does not have refuses the file."""
    if not isinstance(given, dict):
        raise _broken(f"{where}: {WRONG_TYPE}")
    carried = {c.name: c for c in _carried(table)}
    unknown = set(given) - set(carried)
    if unknown:
        raise _broken(f"{where}: tem dados que este Tento não conhece; atualize-o")
    with _At(where):
        return {
            name: _value(_shape(column), given[name], latest)
            if name in given
            else _default(column)
            for name, column in carried.items()
        }


def _revision(value: int, proven: int = 0) -> None:
    """Refuse a revision past MAX_REVISION or below the writes the file proves were made."""
    if not proven <= value <= MAX_REVISION:
        raise InputError(f"revisão {value} impossível: vai de {proven} a {MAX_REVISION}")


def _name(text: Any, what: str, limit: int) -> str:
    """A name the forms would keep, not empty."""
    name = checked_text(text, what, limit)
    if not name:
        raise InputError(f"{what} vazio")
    return name


def _turma_values(given: Any, latest: datetime) -> dict[str, Any]:
    """The turma's own values, checked: its name as the form keeps it, its revision, and its
    merged names (each merge a write of its own: no more of them than its revision)."""
    values = _columns(_TURMAS, given, "turma", latest)
    with _At("turma"):
        _name(values["name"], "Nome da turma", MAX_NAME)
        _revision(values["revision"])
        aliases = values["aliases"]
        if not isinstance(aliases, dict) or len(aliases) > values["revision"]:
            raise InputError("nomes juntados inválidos")
        for source, target in aliases.items():
            _name(source, "Nome juntado", MAX_FOLDED)
            _name(target, "Nome juntado", MAX_FOLDED)
            if source == folded(target):
                raise InputError("um nome juntado a ele mesmo")
    return values


def _settings(given: Any) -> TableSettings:
    """A table's settings from their columns' values, checked as a page keeps them."""
    if not isinstance(given, dict):
        raise TypeError(given)
    names = given.get("player_names")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InputError("nomes dos jogadores inválidos")
    settings = TableSettings.read(given)
    settings.check()
    return settings


def _mesa_values(
    given: Any, where: str, latest: datetime
) -> tuple[dict[str, Any], TableSettings]:
    """A table's values, checked: its settings as the rules and the forms check a new table's,
    its times, its revision and its link changes (each a write: no more than the revision)."""
    values = _columns(_MESAS, given, where, latest)
    with _At(where):
        settings = _settings({name: values[name] for name in SETTING_NAMES})
        _revision(values["revision"], values["link_changes"])
        if values["link_changes"] < 0:
            raise InputError("trocas de link impossíveis")
    return values, settings


_EDIT_SIDES = ("antes", "depois")
_EDIT_KEYS = frozenset(SETTING_NAMES) - {"variante"}  # an edit kept before the rule set was


def _edit(text: Any) -> tuple[TableSettings, TableSettings]:
    """The settings before and after an edit, from its record's text: JSON of two settings
    each checked as a table's (and how its changed names count, if said: one of NAME_CHANGES)."""
    if not isinstance(text, str) or len(text) > MAX_EDIT_TEXT or not kept_visible(text):
        raise InputError("alteração da mesa ilegível")
    try:
        kept = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise InputError("alteração da mesa ilegível") from error
    if not isinstance(kept, dict) or set(kept) - {"nomes"} != set(_EDIT_SIDES):
        raise InputError("alteração da mesa ilegível")
    if kept.get("nomes", NAME_SWAPPED) not in NAME_CHANGES:
        raise InputError("alteração de nomes ilegível")
    for side in _EDIT_SIDES:
        if not isinstance(kept[side], dict) or not _EDIT_KEYS <= set(kept[side]) <= set(
            SETTING_NAMES
        ):
            raise InputError("alteração da mesa ilegível")
    before, after = (_settings(kept[side]) for side in _EDIT_SIDES)
    if before.variante != after.variante:
        raise InputError("uma mesa não muda de regras")
    return before, after


def _note_fits(record: Mapping[str, Any], rules: Variant) -> bool:
    """True when a record's note is none, or one the board offers for a hand like it."""
    note = record["note"]
    if note is None:
        return True
    allowed = dict(notes_of(rules, record["points"]))
    return record["kind"] == Kind.NORMAL.value and note in allowed


def _snapshot_fits(stored: Any) -> bool:
    """True when a record's stored state is none, or a snapshot's numbers (whole ones: 3.0 or
    True is no 3 or 1 to a page), as many as a snapshot has."""
    return stored is None or (
        isinstance(stored, list)
        and len(stored) == SNAPSHOT_SIZE
        and all(v is None or (type(v) is int and 0 <= v < INT_LIMIT) for v in stored)
    )


_KINDS = frozenset(kind.value for kind in Kind)
_RECORD_SHAPES = tuple(_shape(column) for column in _RECORD_COLUMNS)
SNAPSHOT_SIZE = len(MatchState(MatchConfig()).snapshot())


def _record(row: Any, number: int, rules: Variant, latest: datetime) -> dict[str, Any]:
    """A record's values, checked in themselves: its place, kind and status, its note, its
    reason as the correction form keeps one, and an edit's settings (an edit no hand: no side,
    points, note or reason; anything else no settings)."""
    if not isinstance(row, list) or len(row) != len(RECORD_FIELDS):
        raise TypeError(row)
    record = {
        shape.name: _value(shape, value, latest)
        for shape, value in zip(_RECORD_SHAPES, row, strict=True)
    }
    if (
        record["seq"] != number
        or record["kind"] not in _KINDS
        or record["status"] not in (ACTIVE, UNDONE, DISCARDED)
        or not _note_fits(record, rules)
    ):
        raise InputError("registro fora de ordem ou de um tipo que não existe")
    if record["reason"] is not None:
        checked_text(record["reason"], "Motivo", MAX_REASON)
    edit = (record["side"], record["points"], record["note"], record["reason"])
    if not _snapshot_fits(record["state"]):
        raise InputError("estado ilegível")
    if record["kind"] == Kind.MESA_EDITADA.value:
        if edit != (None, None, None, None):
            raise InputError("alteração da mesa com dados de uma mão")
    elif record["settings"] is not None:
        seq = replaced_seq(record["kind"], record["settings"])
        if seq is None or record["settings"] != replacing_json(seq):
            raise InputError("uma mão com alteração da mesa")
    return record


def _played_on(
    earlier: Sequence[Mapping[str, Any]],
    record: Mapping[str, Any],
    state: MatchState,
    played_on: Mapping[int, MatchState],
) -> MatchState:
    """The state a record not discarded was played on: `state`, the one after the records
    before it; for a hand recorded in the place of another (see domain.mesa.board.replacing_json),
    the one that other was played on. Such a record must name an older hand with only
    discarded records after it: discarded, with the state it had, while the record is active
    (undo brings it back), or not discarded while it is undone (redo takes it out again)."""
    seq = replaced_seq(record["kind"], record["settings"])
    if seq is None:
        return state
    if not 0 < seq < record["seq"]:
        raise InputError("troca de mão fora de ordem")
    replaced = earlier[seq - 1]
    if replaced["kind"] not in HAND_KINDS or any(
        r["status"] != DISCARDED for r in earlier[seq : record["seq"] - 1]
    ):
        raise InputError("troca de mão fora de ordem")
    if record["status"] == UNDONE:
        if replaced["status"] == DISCARDED:
            raise InputError("troca de mão fora de ordem")
        return played_on[seq]
    outcome = Outcome(Kind(replaced["kind"]), replaced["side"], replaced["points"])
    after = list(state.apply(outcome).snapshot())
    if replaced["status"] != DISCARDED or replaced["state"] != after:
        raise InputError("troca de mão fora de ordem")
    return state


def _discarded(record: Mapping[str, Any], rules: Variant) -> None:
    """Refuse a discarded record (of a branch undone, then abandoned: never replayed, since
    where it branched is not kept) the rules could not have taken in any state."""
    target = rules.target
    if record["kind"] != Kind.MESA_EDITADA.value:
        outcome = Outcome(Kind(record["kind"]), record["side"], record["points"])
        if not recordable(outcome, rules):
            raise InputError("mão descartada que as regras não aceitam")
    if not (0 <= record["score_a"] <= target and 0 <= record["score_b"] <= target):
        raise InputError("placar de mão descartada impossível")


@dataclass(frozen=True)
class _Log:
    """A table's records, checked, and how many writes they prove were made."""

    records: list[dict[str, Any]]
    writes: int


def _records(given: Any, settings: TableSettings, where: str, latest: datetime) -> _Log:
    """A table's records, checked: each in itself (`_record`); the undone ones after every
    active one and the last not discarded; the active then undone ones replayed through the
    rules to exactly the scores and states the file says, each edit's settings before it the
    ones in force and the table's own settings those its active records leave; a discarded
    one only as one the rules could take (`_discarded`)."""
    if not isinstance(given, list) or len(given) > MAX_RECORDS:
        raise _broken(f"{where}: registros inválidos")
    rules = settings.config.variant
    records, edits = [], []
    with _At(where) as at:
        for number, row in enumerate(given, start=1):
            at.record = number
            record = _record(row, number, rules, latest)
            is_edit = record["kind"] == Kind.MESA_EDITADA.value
            records.append(record)
            edits.append(_edit(record["settings"]) if is_edit else None)
    kept = [e for e, r in zip(edits, records, strict=True) if e and r["status"] != DISCARDED]
    current = kept[0][0] if kept else settings
    in_force = current
    state = MatchState(current.config)
    undone_seen = False
    played_on: dict[int, MatchState] = {}  # the state each record not discarded was played on
    with _At(where) as at:
        for record, edit in zip(records, edits, strict=True):
            at.record = record["seq"]
            if record["status"] == DISCARDED:
                _discarded(record, rules)
                continue
            undone_seen = undone_seen or record["status"] == UNDONE
            if undone_seen and record["status"] == ACTIVE:
                raise InputError("desfeito antes de um valendo")
            if edit is None:
                base = _played_on(records, record, state, played_on)
                played_on[record["seq"]] = base
                state = base.apply(Outcome(Kind(record["kind"]), record["side"], record["points"]))
            else:
                if edit[0] != current:
                    raise InputError("alteração da mesa fora de ordem")
                state = state.reconfigured(edit[1].config, edit[0].teams)
                current = edit[1]
            if record["status"] == ACTIVE:
                in_force = current
            if (record["score_a"], record["score_b"]) != state.points or record["state"] != list(
                state.snapshot()
            ):
                raise InputError("o placar não bate com as regras")
    if records and records[-1]["status"] == DISCARDED:
        raise _broken(f"{where}: o último registro não pode estar descartado")
    if in_force != settings:
        raise _broken(f"{where}: as configurações não batem com as alterações da mesa")
    # Each record not active was undone by a write of its own, each note set by one; the
    # records themselves by one write at least (a torneio's clock writes several at once).
    writes = (
        bool(records)
        + sum(r["status"] != ACTIVE for r in records)
        + sum(r["note"] is not None for r in records)
    )
    return _Log(records, writes)


@dataclass(frozen=True)
class Planned:
    """A table to write: its settings, the index of the table it is a rematch of, its records."""

    values: dict[str, Any]
    previous: int | None
    records: list[dict[str, Any]]


def plan(document: Mapping[str, Any]) -> tuple[dict[str, Any], list[Planned]]:
    """The turma's values and its tables to write, every value checked; a refusal otherwise."""
    if set(document) - TOP_KEYS:
        raise _broken("tem dados que este Tento não conhece; atualize-o")
    if TOP_KEYS - set(document):
        raise _broken("faltam partes do arquivo")
    latest = utcnow() + AHEAD
    turma = _turma_values(document["turma"], latest)
    if document["campos_dos_registros"] != list(RECORD_FIELDS):
        raise _broken("campos dos registros diferentes dos deste Tento")
    given = document["mesas"]
    if not isinstance(given, list) or len(given) > MAX_TABLES:
        raise _broken("mesas inválidas")
    planned: list[Planned] = []
    rematched: set[int] = set()
    for index, item in enumerate(given):
        where = f"mesa {index + 1}"
        if not isinstance(item, dict) or set(item) != {"mesa", "anterior", "registros"}:
            raise _broken(f"{where}: {WRONG_TYPE}")
        values, settings = _mesa_values(item["mesa"], where, latest)
        previous = item["anterior"]
        if previous is not None and (
            type(previous) is not int or not 0 <= previous < index or previous in rematched
        ):
            raise _broken(f"{where}: mesa anterior inválida")
        if previous is not None:
            rematched.add(previous)
        log = _records(item["registros"], settings, where, latest)
        with _At(where):
            _revision(values["revision"], values["link_changes"] + log.writes)
        planned.append(Planned(values, previous, log.records))
    return turma, planned


# --- import --------------------------------------------------------------------------------


def import_token(secret: str, key: str) -> str:
    """The viewer token of the turma imported from the file whose checksum is `key`: made with
    this server's secret, unguessable without it, the same for the same file."""
    digest = hmac.new(secret.encode(), f"{FORMAT}:{key}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(frozen=True)
class Imported:
    """The turma a file was imported into, and whether it was there already (nothing written)."""

    turma: Turma
    again: bool


def _write(turma: dict[str, Any], planned: list[Planned], view_token: str) -> int:
    """Write the turma, its tables and their records in one transaction; the turma's id."""
    with db.engine.begin() as connection:
        values = {**turma, "edit_token": new_token(), "view_token": view_token}
        turma_id = connection.execute(insert(_TURMAS).returning(_TURMAS.c.id), values).scalar_one()
        ids: list[int] = []
        for table in planned:
            previous = ids[table.previous] if table.previous is not None else None
            row = {
                **table.values,
                "edit_token": new_token(),
                "view_token": new_token(),
                "turma_id": turma_id,
                "previous_id": previous,
            }
            ids.append(connection.execute(insert(_MESAS).returning(_MESAS.c.id), row).scalar_one())
            if table.records:
                connection.execute(
                    insert(_RECORDS), [{**r, "mesa_id": ids[-1]} for r in table.records]
                )
    return turma_id


def import_turma(data: bytes, secret: str) -> Imported:
    """A turma from its file, with new ids and tokens; the one imported before from the same
    file (`again`) when there is one. A BadFile refusal, nothing written, for any other file."""
    document, key = read_document(data)
    view_token = import_token(secret, key)
    found = find_turma(view_token, edit=False)
    if found is not None:
        return Imported(found, True)
    turma, planned = plan(document)
    try:
        turma_id = _write(turma, planned, view_token)
    except IntegrityError:  # the same file imported at the same time: that one stands
        found = find_turma(view_token, edit=False)
        if found is None:
            raise
        return Imported(found, True)
    return Imported(db.session.get_one(Turma, turma_id), False)
