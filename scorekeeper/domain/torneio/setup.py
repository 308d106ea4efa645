"""A torneio before its first game: created, its pairs registered (at the door or from their own
phones), marked, edited or removed, the bracket drawn, two pairs swapped, the draw taken back.
Each a step on the torneio's revision. No Flask request here."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from ...extensions import db
from ...models import Dupla, Jogo, Mesa, Sumula, Torneio, TorneioMesa
from ...rules import DEFAULT_RULE_SET, VARIANTS
from ..common.refusals import InputError
from ..common.writes import new_token
from ..mesa.inputs import INT_LIMIT
from . import bracket
from .access import (
    CLAIM_BY_ID,
    StaleTorneio,
    UnknownTorneio,
    claim,
    find_torneio,
    text_within,
    torneio_row,
)
from .calls import take_back
from .reading import CANCELED, label

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


def _choice(value: Any, allowed: tuple[Any, ...], refusal: str) -> Any:
    """`value` if it is one of `allowed`, else the pt-BR `refusal`."""
    if value not in allowed:
        raise InputError(refusal)
    return value


@dataclass(frozen=True)
class Settings:
    """What the new-torneio form chose."""

    name: str
    variante: str = DEFAULT_RULE_SET.code
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
            raise InputError("Dê um nome ao torneio.")
        text_within(self.name, MAX_NAME, "Nome do torneio")
        _choice(self.variante, tuple(VARIANTS), "Regras inválidas.")
        _choice(self.players, VARIANTS[self.variante].players, "Número de jogadores inválido.")
        _choice(self.best_of, FORMATS, "Formato inválido.")
        _choice(self.final_best_of, FORMATS, "Formato da final inválido.")
        _choice(self.at_limit, tuple(AT_LIMIT), "Regra do tempo inválida.")
        if not 1 <= self.mesas <= MAX_MESAS:
            raise InputError(f"O torneio usa de 1 a {MAX_MESAS} mesas.")
        if not 10 <= self.minutes <= 300:
            raise InputError("O tempo de cada rodada vai de 10 a 300 minutos.")
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


def pair_players(players: int, names: list[str]) -> list[str]:
    """The names of a pair as the form gave them (one per player on a side), or a refusal."""
    per_side = players // 2
    cleaned = [text_within(name, MAX_PLAYER, "Nome do jogador") for name in names[:per_side]]
    if len(cleaned) < per_side or not all(cleaned):
        raise InputError(
            "Escreva o nome do jogador." if per_side == 1 else "Escreva o nome dos jogadores."
        )
    return cleaned


def register(token: str, revision: int, names: list[str], name: str, reserve: str) -> None:
    """A pair registered at the door (until the draw), under a name no other pair has: pages
    and the bracket tell pairs apart by it."""
    with db.engine.begin() as connection:
        _register(connection, claim(connection, token, revision), names, name, reserve)


CLOSED_SIGNUP = "As inscrições fecharam: a chave já foi sorteada."


def sign_up(view_token: str, names: list[str], name: str, reserve: str) -> str:
    """A pair registering itself from the public sign-up link (the TV's token, no organiser's)
    until the draw, as the organiser's form would; its name as pages show it. A step on the
    torneio's revision as it is now (another sign-up at the same moment: read again)."""
    torneio = find_torneio(view_token, edit=False)
    if torneio is None:
        raise UnknownTorneio()
    for _attempt in range(5):
        try:
            with db.engine.begin() as connection:
                row = connection.execute(
                    CLAIM_BY_ID, {"torneio": torneio.id, "revision": torneio.revision}
                ).first()
                if row is None:
                    raise StaleTorneio()
                values = _register(connection, torneio.id, names, name, reserve)
            return label(values["name"], values["players"])
        except StaleTorneio:
            db.session.expire(torneio)
    raise StaleTorneio()


def _register(
    connection: Connection, torneio_id: int, names: list[str], name: str, reserve: str
) -> dict[str, Any]:
    """Insert a pair on a claimed revision, or a pt-BR refusal (after the draw, a pair already
    in, a name taken, a full bracket); the pair's values."""
    row = torneio_row(connection, torneio_id)
    if row.slots is not None:
        raise InputError("A chave já foi sorteada: não entram mais duplas.")
    values = {
        "torneio_id": torneio_id,
        "players": pair_players(row.players, names),
        "name": text_within(name, MAX_PAIR, "Nome da dupla"),
        "reserve": text_within(reserve, MAX_PLAYER, "Nome do reserva"),
        "paid": False,
        "checked_in": False,
    }
    registered = _unique(connection, torneio_id, values)
    if registered >= bracket.MAX_PAIRS:
        raise InputError(f"A chave tem no máximo {bracket.MAX_PAIRS} duplas.")
    connection.execute(insert(Dupla.__table__), values)
    return values


def plain(name: str) -> str:
    """A name as pairs are told apart: no accents, case folded, its runs of spaces made one."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _unique(
    connection: Connection, torneio_id: int, values: Mapping[str, Any], pair_id: int = 0
) -> int:
    """How many other pairs the torneio has, or a pt-BR refusal when one of them goes by the
    same name or is the same players (in any order, accents and case aside)."""
    others = connection.execute(
        select(Dupla.name, Dupla.players).where(Dupla.torneio_id == torneio_id, Dupla.id != pair_id)
    ).all()
    players = sorted(plain(str(p)) for p in values["players"])
    for other in others:
        if sorted(plain(str(p)) for p in other.players) == players:
            raise InputError(
                f"{label('', values['players'])} já estão inscritos"
                f" ({label(other.name, other.players)}): a mesma dupla não entra duas vezes."
            )
        if plain(label(other.name, other.players)) == plain(
            label(values["name"], values["players"])
        ):
            raise InputError("Já tem uma dupla com esse nome no torneio: dê outro nome a ela.")
    return len(others)


def _pair_of(connection: Connection, torneio_id: int, pair_id: int) -> Any:
    """A pair of this torneio, or a pt-BR refusal (an id past 32 bits is none)."""
    if not 0 < pair_id < INT_LIMIT:
        raise InputError("Essa dupla não está no torneio.")
    row = connection.execute(
        select(Dupla.__table__).where(Dupla.id == pair_id, Dupla.torneio_id == torneio_id)
    ).first()
    if row is None:
        raise InputError("Essa dupla não está no torneio.")
    return row


def remove_pair(token: str, revision: int, pair_id: int) -> None:
    """A pair taken out before the draw."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        if torneio_row(connection, torneio_id).slots is not None:
            raise InputError("A chave já foi sorteada: dê W.O. em vez de tirar a dupla.")
        _pair_of(connection, torneio_id, pair_id)
        connection.execute(delete(Dupla.__table__).where(Dupla.id == pair_id))


def edit_pair(
    token: str, revision: int, pair_id: int, names: list[str], name: str, reserve: str
) -> None:
    """A pair's players, name or reserve corrected (also after the draw: the matches called
    from then on carry the new names)."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        row = torneio_row(connection, torneio_id)
        _pair_of(connection, torneio_id, pair_id)
        values = {
            "players": pair_players(row.players, names),
            "name": text_within(name, MAX_PAIR, "Nome da dupla"),
            "reserve": text_within(reserve, MAX_PLAYER, "Nome do reserva"),
        }
        _unique(connection, torneio_id, values, pair_id)
        connection.execute(update(Dupla.__table__).where(Dupla.id == pair_id).values(values))


MARKS = {"pago": "paid", "presente": "checked_in"}


def toggle_mark(token: str, revision: int, pair_id: int, mark: str) -> None:
    """A pair's 'pago' or 'presente' mark switched."""
    column = MARKS.get(mark)
    if column is None:
        raise InputError("Essa marcação não existe.")
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        row = _pair_of(connection, torneio_id, pair_id)
        connection.execute(
            update(Dupla.__table__)
            .where(Dupla.id == pair_id)
            .values({column: not getattr(row, column)})
        )


def drawn_pairs(pairs: Iterable[Any]) -> list[Any]:
    """The pairs a draw takes: those marked present when any is, else every pair registered."""
    every = list(pairs)
    present = [pair for pair in every if pair.checked_in]
    return present or every


def draw_bracket(token: str, revision: int, rng: random.Random | None = None) -> None:
    """The bracket drawn from the pairs registered (those marked present, when any is), the
    byes placed as standard seeding places them; then the first matches are called."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        if torneio_row(connection, torneio_id).slots is not None:
            raise InputError("A chave já foi sorteada.")
        registered = connection.execute(
            select(Dupla.id, Dupla.checked_in)
            .where(Dupla.torneio_id == torneio_id)
            .order_by(Dupla.id)
        ).all()
        pairs = [pair.id for pair in drawn_pairs(registered)]
        try:
            slots = bracket.draw(pairs, rng or random.SystemRandom())
        except bracket.BracketError as refused:
            raise InputError(str(refused)) from None
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=list(slots))
        )


def _started(connection: Connection, torneio_id: int) -> bool:
    """True once a game started: a called match's table has a tap, or one was decided (as
    Snapshot.started says, read inside a step's transaction)."""
    found = connection.execute(
        select(Jogo.id)
        .join(Mesa, Mesa.id == Jogo.mesa_id)
        .where(Jogo.torneio_id == torneio_id, (Mesa.revision > 0) | Jogo.decided.is_not(None))
        .limit(1)
    ).first()
    return found is not None


def swap_pairs(token: str, revision: int, first: int, second: int) -> None:
    """Two pairs exchange places in the bracket until the first game starts (a tap or the
    organiser's word on a match): the calls whose pairs change are taken back in the same
    transaction, each table only at the revision it had untouched (a tap that lands meanwhile
    refuses the swap), and the next sync calls the matches as they are now."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        row = torneio_row(connection, torneio_id)
        if row.slots is None:
            raise InputError("Sorteie a chave antes de trocar duplas de lugar.")
        if _started(connection, torneio_id):
            raise InputError(STARTED_SWAP)
        try:
            slots = bracket.swapped(row.slots, first, second)
        except bracket.BracketError as refused:
            raise InputError(str(refused)) from None
        drawn = bracket.build(slots, {}, row.third_place)
        calls = connection.execute(
            select(Jogo.id, Jogo.key, Jogo.mesa_id, Jogo.pair_a, Jogo.pair_b).where(
                Jogo.torneio_id == torneio_id
            )
        ).all()
        for call in calls:
            match = drawn[call.key]
            if (match.a, match.b) != (call.pair_a, call.pair_b):
                if not take_back(connection, call.id, call.mesa_id, 0, CANCELED):
                    raise InputError(STARTED_SWAP)
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=list(slots))
        )


def undo_draw(token: str, revision: int) -> None:
    """The draw taken back until the first game starts (as a swap): the calls and their
    untouched tables go (a table another row refers to is kept, closed), and registration
    opens again. Each table goes only at the revision it had untouched, in the statement that
    takes it: a tap that lands meanwhile refuses the whole undo, never the tap."""
    with db.engine.begin() as connection:
        torneio_id = claim(connection, token, revision)
        if torneio_row(connection, torneio_id).slots is None:
            raise InputError("A chave ainda não foi sorteada.")
        if _started(connection, torneio_id):
            raise InputError(STARTED_UNDO)
        calls = connection.execute(
            select(Jogo.id, Jogo.mesa_id).where(Jogo.torneio_id == torneio_id)
        ).all()
        for call in calls:
            if not take_back(connection, call.id, call.mesa_id, 0, CANCELED):
                raise InputError(STARTED_UNDO)
        connection.execute(delete(Sumula.__table__).where(Sumula.torneio_id == torneio_id))
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=None, clock={})
        )


STARTED_UNDO = "Os jogos já começaram: o sorteio não pode mais ser desfeito."


STARTED_SWAP = "Os jogos já começaram: a chave não muda mais."
