"""A turma carried to another Tento in one file, and back in.

The file is versioned JSON: the turma (its name, merged names, revision, when it was made), its
tables oldest first (every setting, the table each was a rematch of, how often its links were
changed) and every record of each (status, note, reason, scores and the stored state), with a
checksum of all of it. Ids and tokens are not in it: an import gives new ones.

An import checks the whole file before it writes anything: its format, version and checksum,
the shape of every value (by the columns it goes into), every option, and every record replayed
through the rules to the scores and states the file says. Then it writes the turma, its tables
and their records in one transaction.

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
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Integer, String, bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import ACTIVE, DISCARDED, UNDONE, HandRecord, Mesa, Turma
from ..rules import (
    HAND_KINDS,
    TABLE_OPTIONS,
    VARIANTE,
    Kind,
    MatchConfig,
    MatchState,
    Outcome,
    RulesError,
    RuleSet,
    Variant,
    variant,
)
from .board import replaced_seq
from .inputs import INT_LIMIT
from .service import MAX_RECORDS, new_token
from .settings import edit_read
from .turmas import find_turma, tables
from .words import notes_of

FORMAT = "tento-turma"
VERSION = 1
MAX_BYTES = 8 * 1024 * 1024  # an upload's limit: years of weekly evenings fit in far less
MAX_UPLOAD = MAX_BYTES + 64 * 1024  # an import's whole request: the file and the form around it
MAX_TABLES = 5_000  # tables a file may carry: a bound on abuse, far above any group's

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


RECORD_FIELDS = tuple(c.name for c in _carried(_RECORDS))


class BadFile(RulesError):
    """A file this Tento cannot import, with why in pt-BR: nothing was written."""


def _broken(detail: str) -> BadFile:
    """The refusal of a file whose content does not hold together."""
    return BadFile(BROKEN.format(detail=detail))


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


def read_document(data: bytes) -> tuple[dict[str, Any], str]:
    """A file's document and its checksum, once it is JSON of this format and version, whole."""
    if len(data) > MAX_BYTES:
        raise BadFile(TOO_BIG)
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadFile(NOT_JSON) from error
    if not isinstance(document, dict) or document.get("formato") != FORMAT:
        raise BadFile(FOREIGN)
    version = document.get("versao")
    if version != VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise BadFile(NEWER.format(version=version))
        raise BadFile(FOREIGN)
    found = checksum(document)
    if not hmac.compare_digest(str(document.get("conferencia", "")), found):
        raise BadFile(ALTERED)
    return document, found


def _value(column: Column[Any], value: Any, where: str) -> Any:
    """A file's value for `column`, checked against the column's type; a refusal otherwise."""
    wrong = _broken(f"{where}: um valor não é do tipo esperado")
    if value is None:
        if column.nullable:
            return None
        raise wrong
    kind = column.type
    if isinstance(kind, DateTime):
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None:
            raise wrong
        return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    if isinstance(kind, Boolean):
        if not isinstance(value, bool):
            raise wrong
        return value
    if isinstance(kind, Integer):
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= INT_LIMIT:
            raise wrong
        return value
    if isinstance(kind, String):
        if not isinstance(value, str) or (kind.length is not None and len(value) > kind.length):
            raise wrong
        return value
    if isinstance(kind, JSON):
        return value
    raise wrong


def _columns(table: Any, given: Any, where: str) -> dict[str, Any]:
    """A row's values from a file's object of them, each checked by its column; a column the
    file leaves out takes its default, one this Tento does not have refuses the file."""
    if not isinstance(given, dict):
        raise _broken(where)
    carried = {c.name: c for c in _carried(table)}
    unknown = set(given) - set(carried)
    if unknown:
        raise _broken(f"{where}: tem dados que este Tento não conhece; atualize-o")
    return {name: _value(carried[name], value, where) for name, value in given.items()}


def _text_list(value: Any, limit: int) -> bool:
    """True for a list of texts of at most `limit` characters."""
    return isinstance(value, list) and all(isinstance(v, str) and len(v) <= limit for v in value)


def _turma_values(given: Any) -> dict[str, Any]:
    """The turma's own values, checked."""
    values = _columns(_TURMAS, given, "turma")
    aliases = values.get("aliases", {})
    if not isinstance(aliases, dict) or not _text_list(list(aliases.values()), 200):
        raise _broken("turma: nomes juntados inválidos")
    return values


def _mesa_values(given: Any, where: str) -> tuple[dict[str, Any], MatchConfig]:
    """A table's settings, checked as the rules check a new table's; and its MatchConfig."""
    values = _columns(_MESAS, given, where)
    settings = {option.name: values.get(option.name, option.default) for option in TABLE_OPTIONS}
    settings["first_dealer"] = values.get("first_dealer", 0)
    settings[VARIANTE.name] = values.get(VARIANTE.name, VARIANTE.default)
    for option in (*TABLE_OPTIONS, VARIANTE):
        if settings.get(option.name) not in option.values:
            raise _broken(f"{where}: {option.unknown.lower()}")
    try:
        config = MatchConfig(
            players=settings["players"],
            best_of=settings["best_of"],
            first_dealer=settings["first_dealer"],
            special_at=settings["special_at"],
            variant=variant(settings[VARIANTE.name]),
        )
        RuleSet(
            deck=settings["deck"], manilhas=settings["manilhas"], tie_opener=settings["tie_opener"]
        )
    except (RulesError, TypeError) as error:
        raise _broken(f"{where}: {error}") from error
    names = values.get("player_names") or []
    if not _text_list(names, 40) or len(names) not in (0, config.players):
        raise _broken(f"{where}: nomes dos jogadores inválidos")
    return values, config


def _note_fits(record: Mapping[str, Any], rules: Variant) -> bool:
    """True when a record's note is none, or one the board offers for a hand like it."""
    note = record.get("note")
    if note is None:
        return True
    allowed = dict(notes_of(rules, record.get("points")))
    return record.get("kind") == Kind.NORMAL.value and note in allowed


def _records(given: Any, config: MatchConfig, where: str) -> list[dict[str, Any]]:
    """A table's records, checked: in order (seq 1, 2, …), each of a known kind, status and
    note, the undone ones after every active one, and the active then undone ones replayed
    through the rules to exactly the scores and states the file says (a discarded one, of a
    branch abandoned, only in its shape)."""
    if not isinstance(given, list) or len(given) > MAX_RECORDS:
        raise _broken(f"{where}: registros inválidos")
    columns = {c.name: c for c in _carried(_RECORDS)}
    state = MatchState(_first_config(given, config, where))
    size = len(state.snapshot())
    undone_seen = False
    records: list[dict[str, Any]] = []
    played_on: dict[int, MatchState] = {}  # the state each record not discarded was played on
    for number, row in enumerate(given, start=1):
        here = f"{where}, registro {number}"
        if not isinstance(row, list) or len(row) != len(RECORD_FIELDS):
            raise _broken(here)
        record = {
            name: _value(columns[name], value, here)
            for name, value in zip(RECORD_FIELDS, row, strict=True)
        }
        stored = record.get("state")
        if (
            record["seq"] != number
            or record["kind"] not in {kind.value for kind in Kind}
            or record["status"] not in (ACTIVE, UNDONE, DISCARDED)
            or record.get("side") not in (None, 0, 1)
            or not _note_fits(record, config.variant)
            or not (stored is None or (isinstance(stored, list) and len(stored) == size))
            or not all(v is None or type(v) is int for v in stored or ())
        ):
            raise _broken(here)
        if record["status"] != DISCARDED:
            undone_seen = undone_seen or record["status"] == UNDONE
            if undone_seen and record["status"] == ACTIVE:
                raise _broken(f"{here}: desfeito antes de um valendo")
            try:
                base = _played_on(records, record, state, played_on)
                played_on[number] = base
                state = _replayed(base, record)
            except (RulesError, TypeError, ValueError, KeyError) as error:
                raise _broken(f"{here}: {error}") from error
            if (record["score_a"], record["score_b"]) != state.points or stored != list(
                state.snapshot()
            ):
                raise _broken(f"{here}: o placar não bate com as regras")
        records.append(record)
    return records


def _first_config(given: list[Any], config: MatchConfig, where: str) -> MatchConfig:
    """The settings a table's log starts from: those before its first edit kept (active or
    undone), else the table's own."""
    kind, status, text = (RECORD_FIELDS.index(name) for name in ("kind", "status", "settings"))
    for row in given:
        if isinstance(row, list) and len(row) == len(RECORD_FIELDS):
            if row[kind] == Kind.MESA_EDITADA.value and row[status] != DISCARDED:
                try:
                    return edit_read(row[text])[0].config
                except (TypeError, ValueError, KeyError) as error:
                    raise _broken(f"{where}: alteração da mesa ilegível") from error
    return config


def _played_on(
    earlier: Sequence[Mapping[str, Any]],
    record: Mapping[str, Any],
    state: MatchState,
    played_on: Mapping[int, MatchState],
) -> MatchState:
    """The state a record not discarded was played on: `state`, the one after the records
    before it; for a hand recorded in the place of another (see mesas.board.replacing_json),
    the one that other was played on. Such a record must name an older hand with only
    discarded records after it: discarded, with the state it had, while the record is active
    (undo brings it back), or not discarded while it is undone (redo takes it out again)."""
    seq = replaced_seq(record["kind"], record.get("settings"))
    if seq is None:
        return state
    if not 0 < seq < record["seq"]:
        raise ValueError("troca de mão fora de ordem")
    replaced = earlier[seq - 1]
    if replaced["kind"] not in HAND_KINDS or any(
        r["status"] != DISCARDED for r in earlier[seq:]
    ):
        raise ValueError("troca de mão fora de ordem")
    if record["status"] == UNDONE:
        if replaced["status"] == DISCARDED:
            raise ValueError("troca de mão fora de ordem")
        return played_on[seq]
    stored = replaced.get("state")
    if replaced["status"] != DISCARDED or stored != list(_replayed(state, replaced).snapshot()):
        raise ValueError("troca de mão fora de ordem")
    return state


def _replayed(state: MatchState, record: Mapping[str, Any]) -> MatchState:
    """The state after a record: a hand applied, or an edit's settings put in place (its
    settings before it must be the ones in force)."""
    if record["kind"] != Kind.MESA_EDITADA.value:
        return state.apply(Outcome(Kind(record["kind"]), record["side"], record["points"]))
    before, after = edit_read(record["settings"])
    if before.config != state.config:
        raise ValueError("alteração da mesa fora de ordem")
    return state.reconfigured(after.config, before.teams)


@dataclass(frozen=True)
class Planned:
    """A table to write: its settings, the index of the table it is a rematch of, its records."""

    values: dict[str, Any]
    previous: int | None
    records: list[dict[str, Any]]


def plan(document: Mapping[str, Any]) -> tuple[dict[str, Any], list[Planned]]:
    """The turma's values and its tables to write, every value checked; a refusal otherwise."""
    turma = _turma_values(document.get("turma"))
    if document.get("campos_dos_registros") != list(RECORD_FIELDS):
        raise _broken("campos dos registros diferentes dos deste Tento")
    given = document.get("mesas")
    if not isinstance(given, list) or len(given) > MAX_TABLES:
        raise _broken("mesas inválidas")
    planned: list[Planned] = []
    rematched: set[int] = set()
    for index, item in enumerate(given):
        where = f"mesa {index + 1}"
        if not isinstance(item, dict) or set(item) != {"mesa", "anterior", "registros"}:
            raise _broken(where)
        values, config = _mesa_values(item["mesa"], where)
        previous = item["anterior"]
        if previous is not None and (
            type(previous) is not int or not 0 <= previous < index or previous in rematched
        ):
            raise _broken(f"{where}: mesa anterior inválida")
        if previous is not None:
            rematched.add(previous)
        planned.append(Planned(values, previous, _records(item["registros"], config, where)))
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
