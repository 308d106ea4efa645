"""Thin typed models: tables (mesas), their hand records, and turmas (groups of tables)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db
from .rules import (
    BEST_OF,
    DECK,
    FERRO_MODE,
    MANILHAS,
    PLAYERS,
    SPECIAL_AT,
    TIE_OPENER,
    VARIANTE,
    Kind,
    MatchConfig,
    Outcome,
    RuleSet,
    Variant,
    variant,
)

ACTIVE = "active"
UNDONE = "undone"
DISCARDED = "discarded"


def utcnow() -> datetime:
    """The current time in UTC, naive, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)


class Mesa(db.Model):  # type: ignore[name-defined,misc]
    """A table: its settings, its two capability tokens and its revision counter."""

    __tablename__ = "mesa"
    __table_args__ = (
        Index("uq_mesa_previous_id", "previous_id", unique=True),
        Index("uq_mesa_turma_copied_from", "turma_id", "copied_from_id", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    revision: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    players: Mapped[int] = mapped_column(default=PLAYERS.default)
    best_of: Mapped[int] = mapped_column(default=BEST_OF.default)
    first_dealer: Mapped[int] = mapped_column(default=0)
    special_at: Mapped[int] = mapped_column(default=SPECIAL_AT.default)
    ferro_mode: Mapped[str] = mapped_column(String(16), default=FERRO_MODE.default)
    deck: Mapped[str] = mapped_column(String(16), default=DECK.default)
    manilhas: Mapped[str] = mapped_column(String(16), default=MANILHAS.default)
    tie_opener: Mapped[str] = mapped_column(String(24), default=TIE_OPENER.default)
    # The rule set's code (rules.RULE_SETS): every table made before it was kept has the default.
    variante: Mapped[str] = mapped_column(
        String(16), default=VARIANTE.default, server_default=VARIANTE.default
    )
    team_a: Mapped[str] = mapped_column(String(40), default="Nós")
    team_b: Mapped[str] = mapped_column(String(40), default="Eles")
    player_names: Mapped[list[str]] = mapped_column(JSON, default=list)
    # The turma the table was saved in, if any, and the table it was opened from by "jogar de
    # novo" (unique: a table has at most one rematch, so a double tap opens one table).
    turma_id: Mapped[int | None] = mapped_column(ForeignKey("turma.id"), index=True)
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("mesa.id"))
    # How many times "trocar links" gave it new tokens: a rematch whose links were changed is
    # no longer reached from the table it follows (see domain.turma.turmas.play_again).
    link_changes: Mapped[int] = mapped_column(default=0, server_default="0")
    # The torneio this table plays a match of, if any: its series is the match (no "nova
    # série", no "jogar de novo") and its end moves the torneio's bracket on.
    torneio_id: Mapped[int | None] = mapped_column(ForeignKey("torneio.id"), index=True)
    # The torneio match table this one is a copy of, saved in a pair's turma (once per turma).
    copied_from_id: Mapped[int | None] = mapped_column(ForeignKey("mesa.id"))
    # A torneio match table: the numbered mesa it was called to (kept after the match is called
    # off, so that its phones still find the mesa's link), and why it takes no more writes when
    # its match was decided off its board (CLOSED_HOW: a W.O., the organiser's result, the
    # clock, called off). Every write's compare-and-swap requires it to be None.
    torneio_mesa: Mapped[int | None]
    closed: Mapped[str | None] = mapped_column(String(16))

    records: Mapped[list[HandRecord]] = relationship(
        back_populates="mesa", order_by="HandRecord.seq", lazy="raise"
    )

    @property
    def rules(self) -> Variant:
        """The rule set this table plays (unsaved: the default)."""
        return variant(self.variante or VARIANTE.default)

    @property
    def match_config(self) -> MatchConfig:
        """The rules' view of this table's settings."""
        return MatchConfig(
            players=self.players,
            best_of=self.best_of,
            first_dealer=self.first_dealer,
            special_at=self.special_at,
            variant=self.rules,
        )

    @property
    def ruleset(self) -> RuleSet:
        """The card rules this table plays by (used by the juiz)."""
        return RuleSet(deck=self.deck, manilhas=self.manilhas, tie_opener=self.tie_opener)

    @property
    def team_names(self) -> tuple[str, str]:
        """Side 0 and side 1 names."""
        return (self.team_a, self.team_b)


class Turma(db.Model):  # type: ignore[name-defined,misc]
    """A group of friends: its tables, its two capability tokens, its revision and its name
    merges (one spelling of a name counted as another)."""

    __tablename__ = "turma"

    id: Mapped[int] = mapped_column(primary_key=True)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    revision: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    name: Mapped[str] = mapped_column(String(40), default="Turma")
    # normalised (folded) name -> the name it is counted as, as chosen: the player merged into
    # is shown so (a merge made before names were kept so holds that name folded)
    aliases: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    # How many times one of its tables moved to another turma. Tables otherwise only join and
    # their revisions only grow, so with this count the number of its tables and the sum of
    # their revisions prove a stored tally of its statistics current (see TurmaSummary).
    departures: Mapped[int] = mapped_column(default=0, server_default="0")


class Torneio(db.Model):  # type: ignore[name-defined,misc]
    """A bar's tournament: its settings, the organiser's and the TV's tokens, its revision (a
    compare-and-swap on every organiser's step and every call of a match to a mesa) and the draw
    (the first round's pair ids, 0 for a bye; None until drawn)."""

    __tablename__ = "torneio"

    id: Mapped[int] = mapped_column(primary_key=True)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    revision: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    name: Mapped[str] = mapped_column(String(60))
    variante: Mapped[str] = mapped_column(String(16), default=VARIANTE.default)
    players: Mapped[int] = mapped_column(default=PLAYERS.default)
    best_of: Mapped[int] = mapped_column(default=3)
    final_best_of: Mapped[int] = mapped_column(default=3)
    mesas: Mapped[int] = mapped_column(default=4)
    minutes: Mapped[int] = mapped_column(default=90)
    at_limit: Mapped[str] = mapped_column(String(16), default="lider")
    third_place: Mapped[bool] = mapped_column(default=True)
    slots: Mapped[list[int] | None] = mapped_column(JSON)
    # bracket round (as text) -> when the organiser started its clock (ISO, UTC)
    clock: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)


class Dupla(db.Model):  # type: ignore[name-defined,misc]
    """A pair (or, in 1x1 torneios, a player) registered at the door."""

    __tablename__ = "dupla"

    id: Mapped[int] = mapped_column(primary_key=True)
    torneio_id: Mapped[int] = mapped_column(
        ForeignKey("torneio.id", ondelete="CASCADE"), index=True
    )
    players: Mapped[list[str]] = mapped_column(JSON, default=list)
    name: Mapped[str] = mapped_column(String(40), default="")
    reserve: Mapped[str] = mapped_column(String(24), default="")
    paid: Mapped[bool] = mapped_column(default=False)
    checked_in: Mapped[bool] = mapped_column(default=False)


class TorneioMesa(db.Model):  # type: ignore[name-defined,misc]
    """A numbered mesa of a torneio: its scorer link for the whole evening, and whether the
    organiser paused it (no match is called to a paused mesa)."""

    __tablename__ = "torneio_mesa"

    torneio_id: Mapped[int] = mapped_column(
        ForeignKey("torneio.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    paused: Mapped[bool] = mapped_column(default=False)


class Jogo(db.Model):  # type: ignore[name-defined,misc]
    """A match called to a mesa: the pairs called, the Tento table it is scored on, and the
    organiser's word on it (a W.O. or an override), which is final."""

    __tablename__ = "jogo"
    __table_args__ = (UniqueConstraint("torneio_id", "key", name="uq_jogo_torneio_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    torneio_id: Mapped[int] = mapped_column(
        ForeignKey("torneio.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(String(8))
    mesa_number: Mapped[int]
    mesa_id: Mapped[int] = mapped_column(ForeignKey("mesa.id"), unique=True)
    pair_a: Mapped[int]
    pair_b: Mapped[int]
    called_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided: Mapped[int | None]  # the pair the organiser (or the clock) gave it to
    decided_how: Mapped[str | None] = mapped_column(String(16))  # "wo" | "organizador" | "tempo"
    # The pairs the match had in the bracket when it was decided: the word counts only while
    # the bracket still has them there (a feeder reopened since makes it count for nothing).
    decided_a: Mapped[int | None]
    decided_b: Mapped[int | None]


class Sumula(db.Model):  # type: ignore[name-defined,misc]
    """A line of a match's súmula: what the organiser (or the clock) said of it, and when."""

    __tablename__ = "sumula"

    id: Mapped[int] = mapped_column(primary_key=True)
    torneio_id: Mapped[int] = mapped_column(
        ForeignKey("torneio.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    text: Mapped[str] = mapped_column(String(200))


class MesaSummary(db.Model):  # type: ignore[name-defined,misc]
    """What a turma's statistics need from one table, read from its records at `revision`:
    a cache, rebuilt from the log whenever the table's revision moved on."""

    __tablename__ = "mesa_summary"

    mesa_id: Mapped[int] = mapped_column(
        ForeignKey("mesa.id", ondelete="CASCADE"), primary_key=True
    )
    revision: Mapped[int]
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class TurmaSummary(db.Model):  # type: ignore[name-defined,misc]
    """A turma's statistics folded over its older tables (all but the newest few), stored with
    the key that proves them current: the departures, the count and the revisions' sum of the
    tables up to `key['bound']`, the aliases and the shapes' versions. `data` keeps each rule
    set's chart and how many records each of its lists holds; the records are its rows in
    TurmaRecord. A cache, written only by a compare-and-swap on `revision` (with its rows, in
    the same transaction)."""

    __tablename__ = "turma_summary"

    turma_id: Mapped[int] = mapped_column(
        ForeignKey("turma.id", ondelete="CASCADE"), primary_key=True
    )
    revision: Mapped[int]
    key: Mapped[dict[str, Any]] = mapped_column(JSON)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class TurmaRecord(db.Model):  # type: ignore[name-defined,misc]
    """One row of a turma's stored tally: a player's, pair's, trio's or head-to-head's
    statistics under one rule set, over the tables up to the tally's bound (TurmaSummary). The
    ordering columns hold its place in its list (`-wins`, `-rate`, the shown name, the order it
    was first counted): ascending is the ranking, so a page is read with an index, never the
    whole list. A cache, written only under the compare-and-swap of its TurmaSummary."""

    __tablename__ = "turma_record"
    __table_args__ = (
        UniqueConstraint("turma_id", "rules", "kind", "key", name="uq_turma_record_key"),
        Index(
            "ix_turma_record_place",
            "turma_id",
            "rules",
            "kind",
            "order_wins",
            "order_rate",
            "order_name",
            "seq",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    turma_id: Mapped[int] = mapped_column(ForeignKey("turma.id", ondelete="CASCADE"))
    rules: Mapped[str] = mapped_column(String(16))  # the rule set's code
    kind: Mapped[str] = mapped_column(String(16))  # players, pairs, trios, rivals
    key: Mapped[str] = mapped_column(String(64))  # the SHA-256 of the record's key
    seq: Mapped[int]  # the order it was first counted in (ties keep it)
    order_wins: Mapped[int]  # -wins (a head-to-head: -its games)
    order_rate: Mapped[int]  # -rate (a head-to-head: 0)
    order_name: Mapped[str] = mapped_column(String)  # the name casefolded, as UTF-8 in hex
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    shown: Mapped[str] = mapped_column(Text)  # as the JSON export writes it (tally.exported)


class HandRecord(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a table's log: a hand, a correction or a next-game marker."""

    __tablename__ = "hand_record"
    __table_args__ = (
        UniqueConstraint("mesa_id", "seq", name="uq_hand_record_mesa_seq"),
        # the newest active record, the oldest undone one: found without reading the rest
        Index("ix_hand_record_mesa_status_seq", "mesa_id", "status", "seq"),
        # ids are never reused, not even those of rows a rolled-back transaction inserted or of
        # a deleted table's records: caches key records by id (PostgreSQL's sequences never
        # reuse one either)
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    mesa_id: Mapped[int] = mapped_column(ForeignKey("mesa.id", ondelete="CASCADE"))
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(24))
    side: Mapped[int | None]
    points: Mapped[int | None]
    note: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(12), default=ACTIVE)
    score_a: Mapped[int] = mapped_column(default=0)
    score_b: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The match state after this record (MatchState.snapshot), a checkpoint: the board starts
    # from the newest active record's instead of folding the whole log. None on a discarded
    # record of an abandoned branch, which never comes back.
    state: Mapped[list[int | None] | None] = mapped_column(JSON)
    # On a "mesa_editada" record, the table's settings before and after the edit, as JSON text
    # (see domain.mesa.settings): undo puts the first back, redo the second. On a hand recorded
    # in the place of another (the juiz's "trocar"), that hand's seq
    # (domain.mesa.board.replacing_json): undo brings it back, redo takes it out again. None on
    # any other.
    settings: Mapped[str | None] = mapped_column(Text)

    mesa: Mapped[Mesa] = relationship(back_populates="records")


class MesaWrite(db.Model):  # type: ignore[name-defined,misc]
    """An applied write's client-made id (one per tap, undo, redo, note or correction), the
    revision it made, the record it touched and what the write was (`fingerprint`, see
    domain.common.writes.fingerprint; None for writes journaled before it was kept): a retried
    write is recognised, never repeated, and an id reused for another write is refused."""

    __tablename__ = "mesa_write"

    mesa_id: Mapped[int] = mapped_column(
        ForeignKey("mesa.id", ondelete="CASCADE"), primary_key=True
    )
    client_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    revision: Mapped[int]
    record_id: Mapped[int]
    fingerprint: Mapped[str | None] = mapped_column(String(64))


@dataclass(frozen=True, slots=True)
class Entry:
    """A hand_record row as a board reads it: a plain value, with no ORM state to track."""

    id: int
    seq: int
    kind: str
    side: int | None
    points: int | None
    note: str | None
    reason: str | None
    status: str
    score_a: int
    score_b: int
    created_at: datetime
    state: tuple[int | None, ...] | None
    settings: str | None = None

    @property
    def outcome(self) -> Outcome:
        """The rules' view of this record."""
        return Outcome(Kind(self.kind), self.side, self.points)

    @property
    def active(self) -> bool:
        """True unless undone or discarded."""
        return self.status == ACTIVE


ENTRY_FIELDS = tuple(field.name for field in fields(Entry))


def entry(row: Sequence[Any]) -> Entry:
    """An Entry from a row of ENTRY_COLUMNS (the stored state as a tuple)."""
    *rest, state, settings = row
    return Entry(*rest, tuple(state) if state is not None else None, settings)
# hand_record's columns in Entry's field order (a field that is not a column fails on import).
ENTRY_COLUMNS = tuple(HandRecord.__table__.c[name] for name in ENTRY_FIELDS)
