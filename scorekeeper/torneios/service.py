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
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from ..extensions import db
from ..mesas import load_board
from ..mesas.inputs import INT_LIMIT, MAX_TEAM
from ..mesas.refusals import StaleRevision, UnknownTable, ViewOnly
from ..mesas.service import TOKEN_SHAPE, append_on, find_holder, new_token
from ..models import ACTIVE, Dupla, HandRecord, Jogo, Mesa, Sumula, Torneio, TorneioMesa, utcnow
from ..rules import VARIANTS, Kind, MatchState, Outcome, Phase, RulesError, variant
from . import bracket as chave
from . import clock as relogio
from .bracket import Bracket

MAX_NAME = 60
MAX_PLAYER = 24
MAX_PAIR = 40
MAX_MESAS = 40
MAX_NOTE = 200
FORMATS = (1, 3, 5)
AT_LIMIT = {
    "lider": "quem está na frente vence",
    "onze": "as partidas que faltam começam em 11 x 11",
    "proxima": "a próxima mão decide",
}


# Why a match's table takes no more writes (mesa.closed): the organiser's word on the match
# (a W.O. or a result, also its decided_how), the clock's limit, or the match called off.
WO, OVERRIDE, TIME, CANCELED = "wo", "organizador", "tempo", "cancelado"


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
    """The torneio whose organiser (or TV) token is `token`, compared in constant time."""
    return find_holder(Torneio, token, edit=edit)


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
    """The numbered mesa a torneio match's table was called to (also once it was called
    off)."""
    row = None
    if table.torneio_id is not None and table.torneio_mesa is not None:
        row = db.session.get(TorneioMesa, (table.torneio_id, table.torneio_mesa))
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


def _choice(value: Any, allowed: tuple[Any, ...], refusal: str) -> Any:
    """`value` if it is one of `allowed`, else the pt-BR `refusal`."""
    if value not in allowed:
        raise RulesError(refusal)
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
        _choice(self.variante, tuple(VARIANTS), "Regras inválidas.")
        _choice(self.players, VARIANTS[self.variante].players, "Número de jogadores inválido.")
        _choice(self.best_of, FORMATS, "Formato inválido.")
        _choice(self.final_best_of, FORMATS, "Formato da final inválido.")
        _choice(self.at_limit, tuple(AT_LIMIT), "Regra do tempo inválida.")
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


_TORNEIOS = Torneio.__table__


def _claiming(which: Any) -> Any:
    """The statement that takes the next revision of the torneio `which` names, only from the
    revision given, returning its id (no row: a stale revision or no such torneio)."""
    return (
        update(_TORNEIOS)
        .where(which, _TORNEIOS.c.revision == bindparam("revision"))
        .values(revision=_TORNEIOS.c.revision + 1)
        .returning(_TORNEIOS.c.id)
    )


_CLAIM = _claiming(_TORNEIOS.c.edit_token == bindparam("token"))
_CLAIM_BY_ID = _claiming(_TORNEIOS.c.id == bindparam("torneio"))


def _claim(connection: Connection, token: str, revision: int) -> int:
    """Take the torneio's next revision for an organiser's step, or StaleTorneio (a token that
    could be none is refused before any statement)."""
    if not _shaped(token):
        raise UnknownTorneio()
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
    """A pair registered at the door (until the draw), under a name no other pair has: pages
    and the bracket tell pairs apart by it."""
    with db.engine.begin() as connection:
        _register(connection, _claim(connection, token, revision), names, name, reserve)


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
                    _CLAIM_BY_ID, {"torneio": torneio.id, "revision": torneio.revision}
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
    registered = _unique(connection, torneio_id, values)
    if registered >= chave.MAX_PAIRS:
        raise RulesError(f"A chave tem no máximo {chave.MAX_PAIRS} duplas.")
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
            raise RulesError(
                f"{label('', values['players'])} já estão inscritos"
                f" ({label(other.name, other.players)}): a mesma dupla não entra duas vezes."
            )
        if plain(label(other.name, other.players)) == plain(
            label(values["name"], values["players"])
        ):
            raise RulesError("Já tem uma dupla com esse nome no torneio: dê outro nome a ela.")
    return len(others)


def _pair_of(connection: Connection, torneio_id: int, pair_id: int) -> Any:
    """A pair of this torneio, or a pt-BR refusal (an id past 32 bits is none)."""
    if not 0 < pair_id < INT_LIMIT:
        raise RulesError("Essa dupla não está no torneio.")
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


def edit_pair(
    token: str, revision: int, pair_id: int, names: list[str], name: str, reserve: str
) -> None:
    """A pair's players, name or reserve corrected (also after the draw: the matches called
    from then on carry the new names)."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = _torneio_row(connection, torneio_id)
        _pair_of(connection, torneio_id, pair_id)
        values = {
            "players": pair_players(row.players, names),
            "name": _text(name, MAX_PAIR, "Nome da dupla"),
            "reserve": _text(reserve, MAX_PLAYER, "Nome do reserva"),
        }
        _unique(connection, torneio_id, values, pair_id)
        connection.execute(update(Dupla.__table__).where(Dupla.id == pair_id).values(values))


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


def drawn_pairs(pairs: Iterable[Any]) -> list[Any]:
    """The pairs a draw takes: those marked present when any is, else every pair registered."""
    every = list(pairs)
    present = [pair for pair in every if pair.checked_in]
    return present or every


def draw_bracket(token: str, revision: int, rng: random.Random | None = None) -> None:
    """The bracket drawn from the pairs registered (those marked present, when any is), the
    byes placed as standard seeding places them; then the first matches are called."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        if _torneio_row(connection, torneio_id).slots is not None:
            raise RulesError("A chave já foi sorteada.")
        registered = connection.execute(
            select(Dupla.id, Dupla.checked_in)
            .where(Dupla.torneio_id == torneio_id)
            .order_by(Dupla.id)
        ).all()
        pairs = [pair.id for pair in drawn_pairs(registered)]
        try:
            slots = chave.draw(pairs, rng or random.SystemRandom())
        except chave.BracketError as refused:
            raise RulesError(str(refused)) from None
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
        torneio_id = _claim(connection, token, revision)
        row = _torneio_row(connection, torneio_id)
        if row.slots is None:
            raise RulesError("Sorteie a chave antes de trocar duplas de lugar.")
        if _started(connection, torneio_id):
            raise RulesError(STARTED_SWAP)
        try:
            slots = chave.swapped(row.slots, first, second)
        except chave.BracketError as refused:
            raise RulesError(str(refused)) from None
        bracket = chave.build(slots, {}, row.third_place)
        calls = connection.execute(
            select(Jogo.id, Jogo.key, Jogo.mesa_id, Jogo.pair_a, Jogo.pair_b).where(
                Jogo.torneio_id == torneio_id
            )
        ).all()
        for call in calls:
            match = bracket[call.key]
            if (match.a, match.b) != (call.pair_a, call.pair_b):
                if not _take_back(connection, call.id, call.mesa_id, 0, CANCELED):
                    raise RulesError(STARTED_SWAP)
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=list(slots))
        )


def undo_draw(token: str, revision: int) -> None:
    """The draw taken back until the first game starts (as a swap): the calls and their
    untouched tables go (a table another row refers to is kept, closed), and registration
    opens again. Each table goes only at the revision it had untouched, in the statement that
    takes it: a tap that lands meanwhile refuses the whole undo, never the tap."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        if _torneio_row(connection, torneio_id).slots is None:
            raise RulesError("A chave ainda não foi sorteada.")
        if _started(connection, torneio_id):
            raise RulesError(STARTED_UNDO)
        calls = connection.execute(
            select(Jogo.id, Jogo.mesa_id).where(Jogo.torneio_id == torneio_id)
        ).all()
        for call in calls:
            if not _take_back(connection, call.id, call.mesa_id, 0, CANCELED):
                raise RulesError(STARTED_UNDO)
        connection.execute(delete(Sumula.__table__).where(Sumula.torneio_id == torneio_id))
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(slots=None, clock={})
        )


STARTED_UNDO = "Os jogos já começaram: o sorteio não pode mais ser desfeito."
STARTED_SWAP = "Os jogos já começaram: a chave não muda mais."
# A table that another refers to: its rematch, or its copy in a turma.
_REFERRED = select(Mesa.id).where(
    (Mesa.previous_id == bindparam("mesa")) | (Mesa.copied_from_id == bindparam("mesa"))
)


def _take_back(
    connection: Connection, jogo_id: int, mesa_id: int, revision: int, closed: str
) -> bool:
    """A call taken back with its table, only while the match is undecided and the table still
    at `revision` (checked in the statements that write): the table is deleted, or, when
    another row refers to it (a rematch, a copy in a turma), kept closed as `closed` and its
    revision moved on so that its phones learn it. False, with nothing written, when the match
    or its table moved on meanwhile (the caller's transaction is then rolled back)."""
    jogo = connection.execute(
        delete(Jogo.__table__).where(Jogo.id == jogo_id, Jogo.decided.is_(None))
    )
    if jogo.rowcount != 1:
        return False
    at = (Mesa.id == mesa_id, Mesa.revision == revision)
    if connection.execute(_REFERRED, {"mesa": mesa_id}).first() is None:
        return connection.execute(delete(Mesa.__table__).where(*at)).rowcount == 1
    kept = connection.execute(
        update(Mesa.__table__).where(*at).values(closed=closed, revision=Mesa.revision + 1)
    )
    return kept.rowcount == 1


# --- what pages read -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Called:
    """A match called to a mesa: its row, its table and the table's score."""

    jogo: Jogo
    mesa: Mesa
    points: tuple[int, int]
    wins: tuple[int, int]
    # the pair that won it, by the organiser's word or its table's series, as the bracket takes
    # it: None while its pairs are no longer the bracket's (a stale table decides nothing)
    winner: int | None
    special: str  # the table's phase when it is a special hand ('mao_de_onze', ...), else ''
    state: MatchState | None = field(default=None, compare=False)  # its table's, as read

    @property
    def untouched(self) -> bool:
        """True while its table scored nothing (taps all undone count as none)."""
        s = self.state
        return (
            s is not None
            and (s.hands_dealt, s.points, s.wins, s.game_number) == (0, (0, 0), (0, 0), 1)
            and self.jogo.decided is None
        )

    def stale(self, match: chave.Match) -> bool:
        """True when the bracket no longer has these pairs in this match (a feeder reopened)."""
        return (match.a, match.b) != (self.jogo.pair_a, self.jogo.pair_b)


@dataclass(frozen=True)
class Snapshot:
    """A torneio as its pages show it: settings, pairs, mesas, the derived bracket and the
    matches called (by key)."""

    torneio: Torneio
    pairs: Mapping[int, Dupla]
    mesas: tuple[TorneioMesa, ...]
    bracket: Bracket | None
    called: Mapping[str, Called]
    lines: Mapping[str, tuple[Sumula, ...]]

    def pair_name(self, pair: int | None) -> str:
        """A pair's name as pages show it: its own name, else its players' 'Ana e Beto'."""
        if pair is None:
            return "a definir"
        if pair == chave.BYE:
            return "folga"
        found = self.pairs.get(pair)
        return pair_label(found) if found is not None else "?"

    def at_mesa(self, number: int) -> Called | None:
        """The undecided match now called to mesa `number` whose table still takes taps, if
        any."""
        for called in self.called.values():
            open_ = called.winner is None and called.mesa.closed is None
            if called.jogo.mesa_number == number and open_:
                return called
        return None

    @property
    def started(self) -> bool:
        """True once a called match has a tap or the organiser's word: the draw is final."""
        return any(c.mesa.revision > 0 or c.jogo.decided is not None for c in self.called.values())


def champions_word(players: int) -> str:
    """'Campeões' for a pair or a trio, 'Campeão' for a player alone (1x1)."""
    return "Campeão" if players == 2 else "Campeões"


def pair_label(pair: Dupla) -> str:
    """'Os Zapeiros', or its players 'Ana e Beto'."""
    return label(pair.name, pair.players)


def label(name: str, players: list[str]) -> str:
    """A pair's name as pages show it: its own name, else its players' 'Ana e Beto'."""
    if name:
        return str(name)
    names = [str(p) for p in players]
    return " e ".join(names) if len(names) <= 2 else f"{', '.join(names[:-1])} e {names[-1]}"


def _word(jogo: Jogo, state: MatchState) -> chave.Word | None:
    """What was said of a called match: the organiser's (or the clock's) word, between the
    pairs the match had then; else its table's series winner, between the pairs it was called
    with; None while neither."""
    if jogo.decided is not None:
        a = jogo.pair_a if jogo.decided_a is None else jogo.decided_a
        b = jogo.pair_b if jogo.decided_b is None else jogo.decided_b
        return chave.Word(jogo.decided, a, b)
    if state.series_winner is not None:
        pair = (jogo.pair_a, jogo.pair_b)[state.series_winner]
        return chave.Word(pair, jogo.pair_a, jogo.pair_b)
    return None


def _called(jogo: Jogo, mesa: Mesa, state: MatchState, winner: int | None) -> Called:
    """A called match with its table's score and the winner the bracket takes from it."""
    phase = state.phase.value if state.phase in (Phase.MAO_DE_ONZE, Phase.MAO_DE_FERRO) else ""
    return Called(jogo, mesa, state.points, state.wins, winner, phase, state)


def snapshot(torneio: Torneio) -> Snapshot:
    """Everything a torneio's pages show, read now."""
    pairs = db.session.execute(
        select(Dupla).where(Dupla.torneio_id == torneio.id).order_by(Dupla.id)
    ).scalars()
    mesas = db.session.execute(
        select(TorneioMesa).where(TorneioMesa.torneio_id == torneio.id).order_by(TorneioMesa.number)
    ).scalars()
    rows = db.session.execute(
        select(Jogo, Mesa)
        .join(Mesa, Mesa.id == Jogo.mesa_id)
        .where(Jogo.torneio_id == torneio.id)
        .order_by(Jogo.id)  # in call order
    ).all()
    read = {jogo.key: (jogo, mesa, load_board(mesa).state) for jogo, mesa in rows}
    lines: dict[str, list[Sumula]] = {}
    for line in db.session.execute(
        select(Sumula).where(Sumula.torneio_id == torneio.id).order_by(Sumula.id)
    ).scalars():
        lines.setdefault(line.key, []).append(line)
    built = None
    if torneio.slots is not None:
        words = {k: w for k, (j, _m, s) in read.items() if (w := _word(j, s)) is not None}
        built = chave.build(torneio.slots, words, torneio.third_place)
    called = {
        k: _called(jogo, mesa, state, _winner(built, k)) for k, (jogo, mesa, state) in read.items()
    }
    kept = {k: tuple(v) for k, v in lines.items()}
    return Snapshot(torneio, {p.id: p for p in pairs}, tuple(mesas), built, called, kept)


def _winner(built: Bracket | None, match_key: str) -> int | None:
    """The winner the bracket has for a called match (None before a draw or for a key it
    does not have)."""
    if built is None:
        return None
    try:
        return built[match_key].winner
    except KeyError:
        return None


_TABLES = Mesa.__table__
_VERSION = select(
    Torneio.view_token,
    Torneio.revision,
    Torneio.clock,
    Torneio.minutes,
    select(func.count(_TABLES.c.id)).where(_TABLES.c.torneio_id == Torneio.id).scalar_subquery(),
    select(func.coalesce(func.sum(_TABLES.c.revision), 0))
    .where(_TABLES.c.torneio_id == Torneio.id)
    .scalar_subquery(),
).where(Torneio.view_token == bindparam("token"))


def version(token: str, now: datetime | None = None) -> str | None:
    """What changes whenever anything a torneio's TV shows changes: its revision, its
    tables' count and revisions' sum and, while a round's clock runs, the minutes it has left
    (so the countdown is redrawn each minute and the limit applied when it comes); None when
    no torneio has this TV token. One indexed read: the TV's unchanged poll is nothing more."""
    if not _shaped(token):
        return None
    row = db.session.execute(_VERSION, {"token": token}).first()
    if row is None or not _same(row.view_token, token):
        return None
    key = f"{row.revision}.{row[4]}.{row[5]}"
    clock = row.clock or {}
    if relogio.running(clock):
        key += f".{_minutes_key(clock, row.minutes, now or datetime.now(UTC))}"
    return key


def _minutes_key(clock: dict[str, Any], minutes: int, now: datetime) -> str:
    """The minutes left of each running round, as the TV's poll compares them."""
    left = []
    for name in sorted(n for n in clock if n.isdigit() and not relogio.applied(clock, int(n))):
        ends = relogio.deadline(clock, int(name), minutes)
        left.append(str(relogio.minutes_left(ends, now) if ends else 0))
    return "-".join(left)


# --- calling matches to mesas --------------------------------------------------------------------


def _table_settings(torneio: Torneio, snap: Snapshot, match: chave.Match) -> dict[str, Any]:
    """The row of the Tento table a match is scored on: fresh tokens, the torneio's rule set
    (its cards, special hand and ferro as the rule set has them) and format, the pairs' names,
    seats alternating between the sides."""
    a, b = snap.pairs[match.a or 0], snap.pairs[match.b or 0]
    final = match.key == chave.key(snap.bracket.rounds, 0) if snap.bracket else False
    seats: list[str] = []
    if torneio.players > 2:
        for first, second in zip(a.players, b.players, strict=False):
            seats += [str(first), str(second)]
    rules = variant(torneio.variante)
    cards = rules.ruleset()
    return {
        "edit_token": new_token(),
        "view_token": new_token(),
        "revision": 0,
        "created_at": utcnow(),
        "first_dealer": 0,
        "link_changes": 0,
        "variante": rules.code,
        "players": torneio.players,
        "best_of": torneio.final_best_of if final else torneio.best_of,
        "special_at": rules.special_at[0],
        "ferro_mode": rules.ferro_modes[0],
        "deck": cards.deck,
        "manilhas": cards.manilhas,
        "tie_opener": cards.tie_opener,
        "team_a": pair_label(a)[:MAX_TEAM],
        "team_b": pair_label(b)[:MAX_TEAM],
        "player_names": seats if len(seats) == torneio.players else [],
        "torneio_id": torneio.id,
        "torneio_mesa": None,  # set by the call
    }


def _changes(snap: Snapshot) -> tuple[list[Called], dict[str, int]]:
    """What a sync does: the calls to take back (see bracket.called_off; a table is touched
    once it has a tap or the organiser's word) and the new calls."""
    assert snap.bracket is not None
    made = {
        k: chave.Call(
            c.jogo.mesa_number,
            c.jogo.pair_a,
            c.jogo.pair_b,
            not c.untouched,
        )
        for k, c in snap.called.items()
    }
    off = chave.called_off(snap.bracket, made)
    kept = {k: call.mesa for k, call in made.items() if k not in off}
    paused = [m.number for m in snap.mesas if m.paused]
    return [snap.called[k] for k in off], chave.calls(
        snap.bracket, kept, snap.torneio.mesas, paused
    )


class _TouchedMeanwhile(Exception):
    """A table a sync was taking back got a tap (or its match a word) since the sync read it."""


def sync(torneio: Torneio, now: datetime | None = None) -> Snapshot:
    """The torneio's snapshot once the clock's limits that came (by `now`) were applied, every
    playable match has been called to a free mesa (a new Tento table each) and every call made
    stale by a reopened feeder has been called off."""
    now = now or datetime.now(UTC)
    for _attempt in range(4):
        snap = snapshot(torneio)
        if snap.bracket is None:
            return snap
        timed = _timed(snap, now)
        off, new = ([], {}) if timed else _changes(snap)
        if not timed and not off and not new:
            return snap
        try:
            with db.engine.begin() as connection:
                claimed = connection.execute(
                    _CLAIM_BY_ID, {"torneio": torneio.id, "revision": torneio.revision}
                ).first()
                if claimed is not None and timed:
                    _apply_clock(connection, snap, timed, now)
                elif claimed is not None:
                    _apply_changes(connection, torneio, snap, off, new)
        except (StaleRevision, _TouchedMeanwhile):
            pass  # a table moved on under the limit, or under a call taken back: read again
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
    """Call off the stale matches (their untouched tables go too, or stay closed when another
    row refers to them: a write or a word that came since the sync read them drops the whole
    sync, never the write) and call the new ones."""
    for called in off:
        jogo, mesa = called.jogo, called.mesa
        if not _take_back(connection, jogo.id, mesa.id, mesa.revision, CANCELED):
            raise _TouchedMeanwhile()
    assert snap.bracket is not None
    for match_key, number in new.items():
        match = snap.bracket[match_key]
        table = _table_settings(torneio, snap, match) | {"torneio_mesa": number}
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
    table's result), or takes its word back (pair None). Its word is final. The pair is one of
    the match's pairs as the bracket has them now: after a feeder changed, no longer
    necessarily those its table was called with; the word counts while the bracket has those
    pairs there. The match is then over on its table at once (its writes refused, its revision
    moved on so that its phones learn it), and open again when the word is taken back."""
    if how not in (WO, OVERRIDE, "desfeito"):
        raise RulesError("Essa decisão não existe.")
    snap = snapshot(organiser_torneio(token))
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = connection.execute(
            select(Jogo.__table__).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if row is None or snap.bracket is None:
            raise RulesError("Esse jogo ainda não foi chamado para uma mesa.")
        match = snap.bracket[match_key]
        if pair is not None and (not match.playable or pair not in match.pairs):
            raise RulesError("Essa dupla não joga esse jogo.")
        given = pair is not None
        connection.execute(
            update(Jogo.__table__)
            .where(Jogo.id == row.id)
            .values(
                decided=pair,
                decided_how=how if given else None,
                decided_a=match.a if given else None,
                decided_b=match.b if given else None,
            )
        )
        _close(connection, row.mesa_id, how if given else None)
        _write_line(connection, torneio_id, match_key, _decision_line(connection, pair, how))


def _close(connection: Connection, mesa_id: int, closed: str | None) -> None:
    """A match's table closed (`closed`: why) or open again (None), its revision moved on so
    that its phones' next poll draws it."""
    connection.execute(
        update(Mesa.__table__)
        .where(Mesa.id == mesa_id)
        .values(closed=closed, revision=Mesa.revision + 1)
    )


DECISIONS = {
    WO: "W.O.: {win} {name} ({absent} não se apresentou)",
    OVERRIDE: "O organizador deu a vitória para {name}",
}


def _decision_line(connection: Connection, pair: int | None, how: str) -> str:
    """The súmula's line of an organiser's decision."""
    if pair is None:
        return "O organizador desfez a decisão: vale o placar da mesa"
    row = connection.execute(select(Dupla.name, Dupla.players).where(Dupla.id == pair)).one()
    alone = len(row.players) == 1
    return DECISIONS[how].format(
        name=label(row.name, row.players),
        win="vence" if alone else "vencem",
        absent="o outro jogador" if alone else "a outra dupla",
    )


def _write_line(connection: Connection, torneio_id: int, match_key: str, text: str) -> None:
    """A line in a match's súmula."""
    values = {"torneio_id": torneio_id, "key": match_key, "created_at": utcnow(), "text": text}
    connection.execute(insert(Sumula.__table__), values)


def note(token: str, revision: int, match_key: str, text: str) -> None:
    """The organiser's line in a called match's súmula."""
    line = _text(text, MAX_NOTE, "A anotação")
    if not line:
        raise RulesError("Escreva a anotação da súmula.")
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        called = connection.execute(
            select(Jogo.id).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if called is None:
            raise RulesError("Esse jogo ainda não foi chamado para uma mesa.")
        _write_line(connection, torneio_id, match_key, f"Súmula: {line}")


def call_off(token: str, revision: int, match_key: str) -> None:
    """The organiser calls a match off its mesa (one the bracket no longer has, after a result
    before it was undone): its table is kept closed, its score saved but counting for nothing
    (its phones are sent to the mesa's match now), and the mesa is free for the match the
    bracket has now."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        row = connection.execute(
            select(Jogo.__table__).where(Jogo.torneio_id == torneio_id, Jogo.key == match_key)
        ).first()
        if row is None:
            raise RulesError("Esse jogo não está em nenhuma mesa.")
        connection.execute(delete(Jogo.__table__).where(Jogo.id == row.id))
        _close(connection, row.mesa_id, CANCELED)
        line = (
            f"Jogo cancelado pelo organizador na mesa {row.mesa_number}:"
            " o placar fica guardado, mas não conta para a chave"
        )
        _write_line(connection, torneio_id, match_key, line)


def set_paused(token: str, revision: int, number: int, paused: bool) -> None:
    """A mesa paused (no match is called to it) or back in play."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        if not 0 < number <= MAX_MESAS:
            raise RulesError("Essa mesa não existe no torneio.")
        done = connection.execute(
            update(TorneioMesa.__table__)
            .where(TorneioMesa.torneio_id == torneio_id, TorneioMesa.number == number)
            .values(paused=paused)
        )
        if done.rowcount != 1:
            raise RulesError("Essa mesa não existe no torneio.")
        # the match playing there goes on; its phone's next poll says the mesa is paused
        connection.execute(
            update(Mesa.__table__)
            .where(
                Mesa.torneio_id == torneio_id,
                Mesa.torneio_mesa == number,
                Mesa.closed.is_(None),
            )
            .values(revision=Mesa.revision + 1)
        )


@dataclass(frozen=True)
class TableMatch:
    """What a torneio match's own board says of its torneio: the torneio's name, the mesa, the
    match's round, its súmula, when its round ends (aware, UTC; None before it started) and,
    once the match was decided off the board or called off, why it is over ('' while open)."""

    name: str
    mesa: int
    mesa_token: str
    title: str
    lines: tuple[str, ...]
    ends: datetime | None
    closed: str = ""


CLOSED_WORDS = {
    WO: "W.O.: o organizador deu este jogo para {name}.",
    OVERRIDE: "O organizador deu este jogo para {name}.",
    TIME: "O tempo da rodada acabou e deu este jogo para {name}.",
    CANCELED: (
        "O organizador cancelou este jogo: o placar fica guardado, mas não conta para a chave."
    ),
}
CLOSED_SHORT = "Jogo encerrado: os toques nesta mesa não contam mais."


def closed_text(table: Mesa, jogo: Jogo | None) -> str:
    """Why a closed match's table takes no more writes, in words ('' while it is open)."""
    if table.closed is None:
        return ""
    name = "?"
    if jogo is not None and jogo.decided is not None:
        pair = db.session.get(Dupla, jogo.decided)
        name = pair_label(pair) if pair is not None else name
    return CLOSED_WORDS.get(table.closed, CLOSED_SHORT).format(name=name)


def match_of_table(table: Mesa) -> TableMatch | None:
    """The torneio match a table is scored for (or was, once called off), None for an
    ordinary table."""
    if table.torneio_id is None:
        return None
    torneio = db.session.get(Torneio, table.torneio_id)
    try:
        mesa = mesa_of_table(table)
    except UnknownTorneio:
        return None
    if torneio is None:
        return None
    jogo = db.session.execute(select(Jogo).where(Jogo.mesa_id == table.id)).scalar_one_or_none()
    closed = closed_text(table, jogo)
    if jogo is None:  # called off: the mesa plays another match now
        return TableMatch(torneio.name, mesa.number, mesa.token, "Jogo cancelado", (), None, closed)
    lines = db.session.execute(
        select(Sumula.text)
        .where(Sumula.torneio_id == torneio.id, Sumula.key == jogo.key)
        .order_by(Sumula.id)
    ).scalars()
    rounds = chave.rounds_for(len(torneio.slots or ()))
    title = round_title(jogo.key, rounds)
    ends = None
    if table.closed is None:
        ends = relogio.deadline(torneio.clock or {}, round_of(torneio, jogo.key), torneio.minutes)
    return TableMatch(torneio.name, mesa.number, mesa.token, title, tuple(lines), ends, closed)


@dataclass(frozen=True)
class TableNews:
    """What a torneio match's board says of its mesa and torneio as it is scored: whether the
    organiser paused the mesa (no match is called to it after this one), and, on the final's
    board once the torneio has its champions, their name."""

    paused: bool
    champions: str | None


def table_news(table: Mesa, series_over: bool) -> TableNews | None:
    """The news of a torneio match's board; None for an ordinary table. The champions are read
    only on a finished final's board."""
    if table.torneio_id is None or table.torneio_mesa is None:
        return None
    mesa = db.session.get(TorneioMesa, (table.torneio_id, table.torneio_mesa))
    paused = bool(mesa and mesa.paused)
    champions = None
    torneio = db.session.get(Torneio, table.torneio_id)
    if series_over and torneio is not None and torneio.slots:
        final = chave.key(chave.rounds_for(len(torneio.slots)), 0)
        jogo = db.session.execute(select(Jogo).where(Jogo.mesa_id == table.id)).scalar_one_or_none()
        if jogo is not None and jogo.key == final:
            snap = snapshot(torneio)
            if snap.bracket is not None and snap.bracket.champion is not None:
                champions = snap.pair_name(snap.bracket.champion)
    return TableNews(paused, champions)


def round_title(match_key: str, rounds: int) -> str:
    """'Final', 'Semifinal', 'Quartas de final', 'Oitavas de final', 'Disputa do 3º lugar' or
    '1ª rodada' for a match key."""
    if match_key == chave.THIRD:
        return "Disputa do 3º lugar"
    round_ = int(match_key.split("-")[0])
    left = rounds - round_
    names = {0: "Final", 1: "Semifinal", 2: "Quartas de final", 3: "Oitavas de final"}
    return names.get(left, f"{round_}ª rodada")


# --- the clock -----------------------------------------------------------------------------------


def start_round(token: str, revision: int, round_: int, now: datetime | None = None) -> None:
    """The organiser starts a bracket round's clock: its matches have the torneio's minutes
    from now. Refused when it already started or no match of it is ready to play."""
    snap = snapshot(organiser_torneio(token))
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        clock = dict(_torneio_row(connection, torneio_id).clock or {})
        if snap.bracket is None:
            raise RulesError("Sorteie a chave antes de começar uma rodada.")
        if not 1 <= round_ <= snap.bracket.rounds:
            raise RulesError("Essa rodada não existe na chave.")
        if relogio.started(clock, round_) is not None:
            raise RulesError("O tempo dessa rodada já começou.")
        ready = [
            m for m in snap.bracket.matches if m.round == round_ and m.playable and m.winner is None
        ]
        if not ready:
            raise RulesError(
                "Nenhum jogo dessa rodada está pronto: espere as duplas da rodada anterior."
            )
        clock[str(round_)] = relogio.stamp(now or datetime.now(UTC))
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(clock=clock)
        )


def undo_start(token: str, revision: int, round_: int) -> None:
    """A round's clock taken back while its limit has not come (started by mistake)."""
    with db.engine.begin() as connection:
        torneio_id = _claim(connection, token, revision)
        clock = dict(_torneio_row(connection, torneio_id).clock or {})
        if relogio.started(clock, round_) is None:
            raise RulesError("O tempo dessa rodada não começou.")
        if relogio.applied(clock, round_):
            raise RulesError("O tempo dessa rodada já acabou e foi aplicado: não dá para desfazer.")
        del clock[str(round_)]
        connection.execute(
            update(Torneio.__table__).where(Torneio.id == torneio_id).values(clock=clock)
        )


def round_of(torneio: Torneio, match_key: str) -> int:
    """The bracket round of a match (the 3rd place is played with the final)."""
    if match_key == chave.THIRD:
        return chave.rounds_for(len(torneio.slots or ()))
    return int(match_key.split("-")[0])


@dataclass(frozen=True)
class Timed:
    """What the clock does on a read: the rounds whose limit comes now (each with its matches
    still playing), the matches whose next game is put at 11 x 11, and the matches the next
    hand after the limit decided (match key -> pair)."""

    due: Mapping[int, tuple[Called, ...]]
    fresh: tuple[Called, ...]
    decided: Mapping[str, int]

    def __bool__(self) -> bool:
        """True when there is something to write."""
        return bool(self.due or self.fresh or self.decided)


def _timed(snap: Snapshot, now: datetime) -> Timed:
    """What the clock has to write now on this torneio (nothing, mostly: no read then)."""
    torneio = snap.torneio
    clock = torneio.clock or {}
    if not clock:
        return Timed({}, (), {})
    assert snap.bracket is not None
    # the matches still played on their tables between the bracket's pairs: a closed table
    # takes no more writes, a stale one decides nothing (the organiser calls it off)
    playing = {
        k: c
        for k, c in snap.called.items()
        if c.winner is None and c.mesa.closed is None and not c.stale(snap.bracket[k])
    }
    due = {
        r: tuple(c for k, c in playing.items() if round_of(torneio, k) == r)
        for r in relogio.due(clock, torneio.minutes, now)
    }
    limited = [
        playing[k]
        for name, keys in clock.items()
        if name.endswith(relogio.APPLIED)
        for k in keys.split()
        if k in playing
    ]
    fresh: list[Called] = []
    decided: dict[str, int] = {}
    for called in limited:
        state = called.state
        if torneio.at_limit == relogio.ONZE and state is not None:
            if state.phase is Phase.NORMAL and state.points == (0, 0):
                fresh.append(called)
        elif torneio.at_limit != relogio.ONZE:
            side = _next_hand_side(called.mesa)
            if side is not None:
                decided[called.jogo.key] = (called.jogo.pair_a, called.jogo.pair_b)[side]
    return Timed(due, tuple(fresh), decided)


_RECORDS = HandRecord.__table__


def _next_hand_side(table: Mesa) -> int | None:
    """The side that won the first hand after the table's 'next hand decides' line, if any."""
    where = (_RECORDS.c.mesa_id == table.id, _RECORDS.c.status == ACTIVE)
    note = (
        select(func.min(_RECORDS.c.seq))
        .where(*where, _RECORDS.c.reason.in_(relogio.NEXT_HAND_NOTES))
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(_RECORDS.c.kind, _RECORDS.c.side, _RECORDS.c.points)
        .where(*where, _RECORDS.c.seq > note)
        .order_by(_RECORDS.c.seq)
        .limit(50)
    )
    return relogio.next_hand_winner(Outcome(Kind(r.kind), r.side, r.points) for r in rows)


def _apply_clock(connection: Connection, snap: Snapshot, timed: Timed, now: datetime) -> None:
    """Write what the clock does, on the torneio's claimed revision: each due round marked
    applied with the matches it met, each of them its rule and a line in its table's log;
    the next games of 'onze' matches at 11 x 11; the matches the next hand decided."""
    torneio = snap.torneio
    clock = dict(torneio.clock or {})
    for round_, matches in timed.due.items():
        clock[f"{round_}{relogio.APPLIED}"] = " ".join(c.jogo.key for c in matches)
        for called in matches:
            _limit(connection, torneio, called)
    for name in [n for n in clock if n.endswith(relogio.APPLIED)]:
        # a match the next hand decided leaves the mark: the organiser may take it back
        kept = [k for k in clock[name].split() if k not in timed.decided]
        clock[name] = " ".join(kept)
    connection.execute(
        update(Torneio.__table__).where(Torneio.id == torneio.id).values(clock=clock)
    )
    for called in timed.fresh:
        special_at = called.mesa.special_at
        score = relogio.onze_score((0, 0), special_at)
        corrections = [Outcome(Kind.CORRECAO, side, score[side]) for side in (0, 1)]
        append_on(
            connection,
            called.mesa.edit_token,
            called.mesa.revision,
            corrections,
            relogio.onze_reason(special_at),
        )
    for match_key, pair in timed.decided.items():
        _give(connection, snap.called[match_key].jogo, pair)


def _limit(connection: Connection, torneio: Torneio, called: Called) -> None:
    """The rule at the limit applied to one match still playing, written in its table's log
    (a game over first moves on to the next, where the rule applies)."""
    state = called.state
    assert state is not None
    outcomes: list[Outcome] = []
    points = state.points
    if state.phase is Phase.GAME_OVER:
        outcomes.append(Outcome(Kind.PROXIMA_PARTIDA))
        points = (0, 0)
    table = called.mesa
    action = relogio.at_limit(
        torneio.at_limit, state.wins, points, table.special_at, table.team_names
    )
    target = action.score or points
    corrections = [
        Outcome(Kind.CORRECAO, side, target[side])
        for side in (0, 1)
        if target[side] != points[side]
    ]
    outcomes += corrections or [Outcome(Kind.CORRECAO, 0, points[0])]  # the line alone
    append_on(connection, table.edit_token, table.revision, outcomes, action.reason)
    if action.winner is not None:
        _give(connection, called.jogo, (called.jogo.pair_a, called.jogo.pair_b)[action.winner])


def _give(connection: Connection, jogo: Jogo, pair: int) -> None:
    """A match given to a pair by the clock (between the pairs its table was called with), and
    over on its table."""
    connection.execute(
        update(Jogo.__table__)
        .where(Jogo.id == jogo.id)
        .values(decided=pair, decided_how=TIME, decided_a=jogo.pair_a, decided_b=jogo.pair_b)
    )
    _close(connection, jogo.mesa_id, TIME)
