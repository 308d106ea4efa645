"""The torneios' domain: creating one, registering pairs, the draw, calling matches to mesas as
Tento tables, the organiser's word on a match, and what every page reads (a Snapshot). Every
organiser's step and every call is a compare-and-swap on the torneio's revision. No Flask
request here.

The bracket is derived (see bracket.py): a match's winner is the organiser's word if any, else
its table's series winner. Reading a torneio `sync`s it: matches that became playable are
called to free mesas, and a called match whose pairs changed (a feeder reopened by an undo)
is called off while its table has no tap yet.
"""

from __future__ import annotations

import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from ..extensions import db
from ..mesas import load_board
from ..mesas.refusals import StaleRevision, UnknownTable, ViewOnly
from ..mesas.service import TOKEN_SHAPE, new_token
from ..models import Dupla, Jogo, Mesa, Torneio, TorneioMesa, utcnow
from ..rules import RulesError
from . import bracket as chave
from .bracket import Bracket

MAX_NAME = 60
MAX_PLAYER = 24
MAX_PAIR = 40
MAX_MESAS = 40
FORMATS = (1, 3, 5)
AT_LIMIT = {
    "lider": "quem está na frente vence",
    "onze": "as partidas que faltam começam em 11 x 11",
    "proxima": "a próxima mão decide",
}


class UnknownTorneio(UnknownTable):
    """No torneio (or mesa of one) has this token."""

    message = "Não achei esse torneio: confira o link."


class StaleTorneio(StaleRevision):
    """The organiser's page was drawn before another step: drawn again, nothing done."""

    message = "O torneio mudou enquanto você decidia: veja como está e faça de novo."


def _shaped(token: str) -> bool:
    """True when `token` could be a capability token."""
    return bool(TOKEN_SHAPE.fullmatch(token))


def _same(stored: str, token: str) -> bool:
    """Constant-time comparison of a stored token with a given one."""
    return hmac.compare_digest(stored.encode(), token.encode())


def find_torneio(token: str, *, edit: bool) -> Torneio | None:
    """The torneio whose organiser (or TV) token is `token`."""
    if not _shaped(token):
        return None
    column = Torneio.edit_token if edit else Torneio.view_token
    found = db.session.execute(select(Torneio).where(column == token)).scalar_one_or_none()
    if found is None:
        return None
    return found if _same(found.edit_token if edit else found.view_token, token) else None


def organiser_torneio(token: str) -> Torneio:
    """The torneio of an organiser token; ViewOnly for the TV's token, else UnknownTorneio."""
    found = find_torneio(token, edit=True)
    if found is None:
        raise ViewOnly() if find_torneio(token, edit=False) is not None else UnknownTorneio()
    return found


def viewer_torneio(token: str) -> Torneio:
    """The torneio of a TV token (the organiser's token reads it too)."""
    found = find_torneio(token, edit=False) or find_torneio(token, edit=True)
    if found is None:
        raise UnknownTorneio()
    return found


def mesa_by_token(token: str) -> TorneioMesa:
    """The numbered mesa whose scorer link carries `token`."""
    found = None
    if _shaped(token):
        query = select(TorneioMesa).where(TorneioMesa.token == token)
        found = db.session.execute(query).scalar_one_or_none()
    if found is None or not _same(found.token, token):
        raise UnknownTorneio()
    return found


def torneio_by_id(torneio_id: int) -> Torneio:
    """The torneio with this id (a mesa's link found it)."""
    found = db.session.get(Torneio, torneio_id)
    if found is None:
        raise UnknownTorneio()
    return found


def mesa_of_table(table: Mesa) -> TorneioMesa:
    """The numbered mesa a torneio match's table is played at."""
    row = db.session.execute(
        select(TorneioMesa)
        .join(
            Jogo,
            (Jogo.torneio_id == TorneioMesa.torneio_id) & (Jogo.mesa_number == TorneioMesa.number),
        )
        .where(Jogo.mesa_id == table.id)
    ).scalar_one_or_none()
    if row is None:
        raise UnknownTorneio()
    return row


# --- creating and registering ------------------------------------------------------------------


def _text(value: Any, limit: int, what: str) -> str:
    """A trimmed name of at most `limit` characters, or a pt-BR refusal."""
    text = " ".join(str(value or "").split())
    if len(text) > limit:
        raise RulesError(f"{what} muito longo: no máximo {limit} caracteres.")
    return text


def _choice(value: Any, allowed: tuple[Any, ...], what: str) -> Any:
    """`value` if it is one of `allowed`, else a pt-BR refusal."""
    if value not in allowed:
        raise RulesError(f"{what} inválido.")
    return value


@dataclass(frozen=True)
class Settings:
    """What the new-torneio form chose."""

    name: str
    variante: str = "paulista"
    players: int = 4
    best_of: int = 3
    final_best_of: int = 3
    mesas: int = 4
    minutes: int = 90
    at_limit: str = "lider"
    third_place: bool = True

    def checked(self) -> Settings:
        """These settings, or a pt-BR refusal of the first one out of bounds."""
        if not self.name:
            raise RulesError("Dê um nome ao torneio.")
        _text(self.name, MAX_NAME, "Nome do torneio")
        _choice(self.variante, ("paulista", "mineiro"), "Regras")
        allowed = (2, 4, 6) if self.variante == "mineiro" else (2, 4)
        _choice(self.players, allowed, "Número de jogadores")
        _choice(self.best_of, FORMATS, "Formato")
        _choice(self.final_best_of, FORMATS, "Formato da final")
        _choice(self.at_limit, tuple(AT_LIMIT), "Regra do tempo")
        if not 1 <= self.mesas <= MAX_MESAS:
            raise RulesError(f"O torneio usa de 1 a {MAX_MESAS} mesas.")
        if not 10 <= self.minutes <= 300:
            raise RulesError("O tempo de cada rodada vai de 10 a 300 minutos.")
        return self


def create_torneio(settings: Settings) -> Torneio:
    """A new torneio with its organiser's, TV's and mesas' links."""
    checked = settings.checked()
    torneio = Torneio(edit_token=new_token(), view_token=new_token(), clock={}, **vars(checked))
    db.session.add(torneio)
    db.session.flush()
    for number in range(1, checked.mesas + 1):
        db.session.add(TorneioMesa(torneio_id=torneio.id, number=number, token=new_token()))
    db.session.commit()
    return torneio


_CLAIM = (
    update(Torneio.__table__)
    .where(
        Torneio.__table__.c.edit_token == bindparam("token"),
        Torneio.__table__.c.revision == bindparam("revision"),
    )
    .values(revision=Torneio.__table__.c.revision + 1)
    .returning(Torneio.__table__.c.id)
)
_CLAIM_BY_ID = (
    update(Torneio.__table__)
    .where(
        Torneio.__table__.c.id == bindparam("torneio"),
        Torneio.__table__.c.revision == bindparam("revision"),
    )
    .values(revision=Torneio.__table__.c.revision + 1)
    .returning(Torneio.__table__.c.id)
)


def _claim(connection: Connection, token: str, revision: int) -> int:
    """Take the torneio's next revision for an organiser's step, or StaleTorneio."""
    row = connection.execute(_CLAIM, {"token": token, "revision": revision}).first()
    if row is None:
        organiser_torneio(token)  # the link itself is wrong: 404
        raise StaleTorneio()
    return int(row.id)


def _torneio_row(connection: Connection, torneio_id: int) -> Any:
    """The torneio's row as it is inside this transaction."""
    return connection.execute(select(Torneio.__table__).where(Torneio.id == torneio_id)).one()


def pair_players(players: int, names: list[str]) -> list[str]:
    """The names of a pair as the form gave them (one per player on a side), or a refusal."""
    per_side = players // 2
    cleaned = [_text(name, MAX_PLAYER, "Nome do jogador") for name in names[:per_side]]
    if len(cleaned) < per_side or not all(cleaned):
        raise RulesError(
            "Escreva o nome do jogador." if per_side == 1 else "Escreva o nome dos jogadores."
        )
    return cleaned


def register(token: str, revision: int, names: list[str], name: str, reserve: str) -> None:
    """A pair registered at the door (until the draw)."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = _torneio_row(connection, torneio_id)
        if row.slots is not None:
            raise RulesError("A chave já foi sorteada: não entram mais duplas.")
        values = {
            "torneio_id": torneio_id,
            "players": pair_players(row.players, names),
            "name": _text(name, MAX_PAIR, "Nome da dupla"),
            "reserve": _text(reserve, MAX_PLAYER, "Nome do reserva"),
            "paid": False,
            "checked_in": False,
        }
        connection.execute(insert(Dupla.__table__), values)


def _pair_of(connection: Connection, torneio_id: int, pair_id: int) -> Any:
    """A pair of this torneio, or a pt-BR refusal."""
    row = connection.execute(
        select(Dupla.__table__).where(Dupla.id == pair_id, Dupla.torneio_id == torneio_id)
    ).first()
    if row is None:
        raise RulesError("Essa dupla não está no torneio.")
    return row


def remove_pair(token: str, revision: int, pair_id: int) -> None:
    """A pair taken out before the draw."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        if _torneio_row(connection, torneio_id).slots is not None:
            raise RulesError("A chave já foi sorteada: dê W.O. em vez de tirar a dupla.")
        _pair_of(connection, torneio_id, pair_id)
        connection.execute(delete(Dupla.__table__).where(Dupla.id == pair_id))


MARKS = {"pago": "paid", "presente": "checked_in"}


def toggle_mark(token: str, revision: int, pair_id: int, mark: str) -> None:
    """A pair's 'pago' or 'presente' mark switched."""
    column = MARKS.get(mark)
    if column is None:
        raise RulesError("Essa marcação não existe.")
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = _pair_of(connection, torneio_id, pair_id)
        connection.execute(
            update(Dupla.__table__)
            .where(Dupla.id == pair_id)
            .values({column: not getattr(row, column)})
        )


def draw_bracket(token: str, revision: int, rng: random.Random | None = None) -> None:
    """The bracket drawn from the pairs registered (random byes when their count is not a power
    of two); then the first matches are called."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        if _torneio_row(connection, torneio_id).slots is not None:
            raise RulesError("A chave já foi sorteada.")
        pairs = connection.execute(
            select(Dupla.id).where(Dupla.torneio_id == torneio_id).order_by(Dupla.id)
        ).scalars()
        try:
            slots = chave.draw(list(pairs), rng or random.SystemRandom())
        except chave.BracketError as refused:
            raise RulesError(str(refused)) from None
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=list(slots))
        )


def swap_pairs(token: str, revision: int, first: int, second: int) -> None:
    """Two pairs exchange places in the bracket before the first game starts (no called
    match's table has a tap, none was decided); the next sync calls off the calls it changed."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = _torneio_row(connection, torneio_id)
        if row.slots is None:
            raise RulesError("Sorteie a chave antes de trocar duplas de lugar.")
        started = connection.execute(
            select(func.count())
            .select_from(Jogo)
            .join(Mesa, Mesa.id == Jogo.mesa_id)
            .where(
                Jogo.torneio_id == torneio_id,
                (Mesa.revision > 0) | Jogo.decided.is_not(None),
            )
        ).scalar_one()
        if started:
            raise RulesError("Os jogos já começaram: a chave não muda mais.")
        try:
            slots = chave.swapped(row.slots, first, second)
        except chave.BracketError as refused:
            raise RulesError(str(refused)) from None
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=list(slots))
        )


# --- what pages read -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Called:
    """A match called to a mesa: its row, its table and the table's score."""

    jogo: Jogo
    mesa: Mesa
    points: tuple[int, int]
    wins: tuple[int, int]
    winner: int | None  # the pair that won it, by the organiser's word or its table's series
    special: str  # the table's phase when it is a special hand ('mao_de_onze', ...), else ''


@dataclass(frozen=True)
class Snapshot:
    """A torneio as its pages show it: settings, pairs, mesas, the derived bracket and the
    matches called (by key)."""

    torneio: Torneio
    pairs: Mapping[int, Dupla]
    mesas: tuple[TorneioMesa, ...]
    bracket: Bracket | None
    called: Mapping[str, Called]

    def pair_name(self, pair: int | None) -> str:
        """A pair's name as pages show it: its own name, else its players' 'Ana e Beto'."""
        if pair is None:
            return "a definir"
        if pair == chave.BYE:
            return "folga"
        found = self.pairs.get(pair)
        return pair_label(found) if found is not None else "?"

    def at_mesa(self, number: int) -> Called | None:
        """The undecided match now called to mesa `number`, if any."""
        for called in self.called.values():
            if called.jogo.mesa_number == number and called.winner is None:
                return called
        return None

    @property
    def started(self) -> bool:
        """True once a game started: a called match's table has a tap, or one was decided."""
        return any(c.mesa.revision > 0 or c.jogo.decided is not None for c in self.called.values())


def pair_label(pair: Dupla) -> str:
    """'Os Zapeiros', or its players 'Ana e Beto'."""
    if pair.name:
        return str(pair.name)
    players = [str(p) for p in pair.players]
    return (
        " e ".join(players) if len(players) <= 2 else f"{', '.join(players[:-1])} e {players[-1]}"
    )


def _called(jogo: Jogo, mesa: Mesa) -> Called:
    """A called match with its table's score and winner."""
    state = load_board(mesa).state
    winner = jogo.decided
    if winner is None and state.series_winner is not None:
        winner = (jogo.pair_a, jogo.pair_b)[state.series_winner]
    phase = state.phase.value if state.phase.name in ("MAO_DE_ONZE", "MAO_DE_FERRO") else ""
    return Called(jogo, mesa, state.points, state.wins, winner, phase)


def snapshot(torneio: Torneio) -> Snapshot:
    """Everything a torneio's pages show, read now."""
    pairs = db.session.execute(
        select(Dupla).where(Dupla.torneio_id == torneio.id).order_by(Dupla.id)
    ).scalars()
    mesas = db.session.execute(
        select(TorneioMesa).where(TorneioMesa.torneio_id == torneio.id).order_by(TorneioMesa.number)
    ).scalars()
    rows = db.session.execute(
        select(Jogo, Mesa).join(Mesa, Mesa.id == Jogo.mesa_id).where(Jogo.torneio_id == torneio.id)
    ).all()
    called = {jogo.key: _called(jogo, mesa) for jogo, mesa in rows}
    built = None
    if torneio.slots is not None:
        said = {k: c.winner for k, c in called.items() if c.winner is not None}
        built = chave.build(torneio.slots, said, torneio.third_place)
    return Snapshot(torneio, {p.id: p for p in pairs}, tuple(mesas), built, called)


def version(token: str) -> str | None:
    """What changes whenever anything a torneio's TV shows changes: its revision and its
    tables' revisions (one read); None when no torneio has this TV token."""
    found = find_torneio(token, edit=False)
    if found is None:
        return None
    tables = db.session.execute(
        select(func.count(Mesa.id), func.coalesce(func.sum(Mesa.revision), 0)).where(
            Mesa.torneio_id == found.id
        )
    ).one()
    return f"{found.revision}.{tables[0]}.{tables[1]}"


# --- calling matches to mesas --------------------------------------------------------------------


def _table_settings(torneio: Torneio, snap: Snapshot, match: chave.Match) -> dict[str, Any]:
    """The settings of the Tento table a match is scored on: the torneio's rules and format,
    the pairs' names, seats alternating between the sides."""
    a, b = snap.pairs[match.a or 0], snap.pairs[match.b or 0]
    final = match.key == chave.key(snap.bracket.rounds, 0) if snap.bracket else False
    seats: list[str] = []
    if torneio.players > 2:
        for first, second in zip(a.players, b.players, strict=False):
            seats += [str(first), str(second)]
    return {
        "variante": torneio.variante,
        "players": torneio.players,
        "best_of": torneio.final_best_of if final else torneio.best_of,
        "special_at": 10 if torneio.variante == "mineiro" else 11,
        "ferro_mode": "cegas",
        "team_a": pair_label(a)[:24],
        "team_b": pair_label(b)[:24],
        "player_names": seats if len(seats) == torneio.players else [],
        "torneio_id": torneio.id,
    }


def _changes(snap: Snapshot) -> tuple[list[Called], dict[str, int]]:
    """What a sync does: the called matches to call off (their pairs changed and their table
    has no tap yet) and the new calls."""
    assert snap.bracket is not None
    off = []
    for k, called in snap.called.items():
        match = snap.bracket[k]
        if (match.a, match.b) != (called.jogo.pair_a, called.jogo.pair_b):
            if called.mesa.revision == 0 and called.jogo.decided is None:
                off.append(called)
    kept = {k: c.jogo.mesa_number for k, c in snap.called.items() if c not in off}
    paused = [m.number for m in snap.mesas if m.paused]
    return off, chave.calls(snap.bracket, kept, snap.torneio.mesas, paused)


def sync(torneio: Torneio) -> Snapshot:
    """The torneio's snapshot once every playable match has been called to a free mesa (a new
    Tento table each) and every call made stale by a reopened feeder has been called off."""
    for _attempt in range(3):
        snap = snapshot(torneio)
        if snap.bracket is None:
            return snap
        off, new = _changes(snap)
        if not off and not new:
            return snap
        with db.engine.begin() as connection:
            claimed = connection.execute(
                _CLAIM_BY_ID, {"torneio": torneio.id, "revision": torneio.revision}
            ).first()
            if claimed is not None:
                _apply_changes(connection, torneio, snap, off, new)
        db.session.expire_all()
        torneio = db.session.get(Torneio, torneio.id) or torneio
    return snapshot(torneio)


def _apply_changes(
    connection: Connection,
    torneio: Torneio,
    snap: Snapshot,
    off: list[Called],
    new: dict[str, int],
) -> None:
    """Call off the stale matches (their untouched tables go too) and call the new ones."""
    for called in off:
        connection.execute(delete(Jogo.__table__).where(Jogo.id == called.jogo.id))
        connection.execute(delete(Mesa.__table__).where(Mesa.id == called.mesa.id))
    assert snap.bracket is not None
    for match_key, number in new.items():
        match = snap.bracket[match_key]
        settings = _table_settings(torneio, snap, match)
        table = {
            "edit_token": new_token(),
            "view_token": new_token(),
            "revision": 0,
            "created_at": utcnow(),
            "first_dealer": 0,
            "deck": "sujo",
            "manilhas": "fixa" if torneio.variante == "mineiro" else "variavel",
            "tie_opener": "mao",
            "link_changes": 0,
            **settings,
        }
        mesa_id = connection.execute(
            insert(Mesa.__table__).returning(Mesa.__table__.c.id), table
        ).scalar_one()
        connection.execute(
            insert(Jogo.__table__),
            {
                "torneio_id": torneio.id,
                "key": match_key,
                "mesa_number": number,
                "mesa_id": mesa_id,
                "pair_a": match.a,
                "pair_b": match.b,
                "called_at": utcnow(),
            },
        )


# --- the organiser's word ------------------------------------------------------------------------


def decide(token: str, revision: int, match_key: str, pair: int | None, how: str) -> None:
    """The organiser gives a called match to `pair` (a W.O. of the other, or an override of its
    table's result), or takes its word back (pair None). Its word is final."""
    if how not in ("wo", "organizador", "desfeito"):
        raise RulesError("Essa decisão não existe.")
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = connection.execute(
            select(Jogo.__table__).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if row is None:
            raise RulesError("Esse jogo ainda não foi chamado para uma mesa.")
        if pair is not None and pair not in (row.pair_a, row.pair_b):
            raise RulesError("Essa dupla não joga esse jogo.")
        connection.execute(
            update(Jogo.__table__)
            .where(Jogo.id == row.id)
            .values(decided=pair, decided_how=None if pair is None else how)
        )


def set_paused(token: str, revision: int, number: int, paused: bool) -> None:
    """A mesa paused (no match is called to it) or back in play."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        done = connection.execute(
            update(TorneioMesa.__table__)
            .where(TorneioMesa.torneio_id == torneio_id, TorneioMesa.number == number)
            .values(paused=paused)
        )
        if done.rowcount != 1:
            raise RulesError("Essa mesa não existe no torneio.")
