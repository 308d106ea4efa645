"""The turmas: a group of friends' tables under two capability links of their own. Saving a
table in a turma, "jogar de novo" (the same table again, the deal rotated) and merging two
spellings of a name. Every write is a compare-and-swap on a revision, as the tables' own. No
Flask request here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import Mesa, Turma, utcnow
from ...rules import TABLE_OPTIONS, VARIANTE
from ..common.refusals import InputError, StaleRevision, StaleTurma, UnknownTable
from ..common.writes import (
    claim,
    claiming,
    find_holder,
    new_token,
    scorer_holder,
    shaped,
    viewer_holder,
)
from ..mesa.inputs import checked_text
from ..mesa.reading import scorer_table
from ..mesa.settings import folded

MAX_NAME = 40
DEFAULT_NAME = "Turma"
TABLES_ON_PAGE = 30  # the tables a turma's page lists, then "mais antigas"; the exports: all
TURMA_PATH = re.compile(r"/turma/([A-Za-z0-9_-]{1,64})/?(?:[?#].*)?$")
VIEW_PATH = re.compile(r"/vt/([A-Za-z0-9_-]{1,64})/?(?:[?#].*)?$")
NOT_FOUND = "Não achei essa turma: confira o link de marcar da turma."
VIEW_LINK = "Esse é o link de assistir: cole o link de marcar da turma."
NO_TABLE = "A turma ainda não tem mesa para jogar de novo."
TORNEIO_TABLE = (
    "Este jogo é do torneio: ele não entra em turma por aqui. Na TV do torneio, “Salve os jogos"
    " da sua dupla na turma” guarda uma cópia dos jogos terminados."
)
TORNEIO_REMATCH = (
    "Este jogo é do torneio: o próximo jogo desta mesa é o que a chave chamar para ela."
)
REMATCH_ELSEWHERE = (
    "A revanche desta mesa já foi aberta, e os links dela foram trocados ou ela foi para outra"
    " turma: peça o link novo a quem está marcando."
)

# The settings a rematch copies from the table it follows: every option, and the names.
SAME_SETTINGS = (
    *(option.name for option in (*TABLE_OPTIONS, VARIANTE)),
    "team_a",
    "team_b",
    "player_names",
)


class UnknownTurma(UnknownTable):
    """No turma has this token: a 404, like a table's."""



def find_turma(token: str, *, edit: bool) -> Turma | None:
    """The turma whose edit (or view) token is `token`, compared in constant time."""
    return find_holder(Turma, token, edit=edit)


def scorer_turma(token: str) -> Turma:
    """The turma of a scorer token; ViewOnly for its viewer token, else UnknownTurma."""
    return scorer_holder(Turma, token, UnknownTurma)


def viewer_turma(token: str) -> Turma:
    """The turma of a viewer token, else UnknownTurma."""
    return viewer_holder(Turma, token, UnknownTurma)


def turma_of(mesa: Mesa) -> Turma | None:
    """The turma a table was saved in, if any."""
    return None if mesa.turma_id is None else db.session.get(Turma, mesa.turma_id)


def turma_name(text: str) -> str:
    """A turma's name as typed (already made visible), or a pt-BR refusal when too long (or,
    from a file, with a character the forms take out)."""
    return checked_text(text, "Nome da turma", MAX_NAME) or DEFAULT_NAME


def token_in_link(link: str) -> str:
    """The scorer token in a pasted turma link (or the bare token), or a pt-BR refusal."""
    text = link.strip()
    if VIEW_PATH.search(text):
        raise InputError(VIEW_LINK)
    found = TURMA_PATH.search(text)
    token = found.group(1) if found else text
    if not shaped(token):
        raise InputError(NOT_FOUND)
    return token


_MESAS = Mesa.__table__
_TURMAS = Turma.__table__
# A table goes in a turma on its revision, never a torneio's table (its names are the torneio's;
# a pair saves a copy of its matches from the TV instead).
_PLACE = claiming(
    _MESAS,
    _MESAS.c.edit_token == bindparam("token"),
    _MESAS.c.torneio_id.is_(None),
    returning=(_MESAS.c.id,),
    turma_id=bindparam("turma"),
)
_BUMP = (
    update(_TURMAS)
    .where(_TURMAS.c.id == bindparam("turma"))
    .values(revision=_TURMAS.c.revision + 1)
)
_TOKEN = _TURMAS.c.edit_token == bindparam("token")
_CLAIM = claiming(_TURMAS, _TOKEN, returning=(_TURMAS.c.id, _TURMAS.c.aliases))


_HELD_BY = select(_MESAS.c.turma_id).where(_MESAS.c.edit_token == bindparam("token"))
_DEPART = (
    update(_TURMAS)
    .where(_TURMAS.c.id == bindparam("turma"))
    .values(departures=_TURMAS.c.departures + 1)
)


def _place(connection: Connection, mesa_token: str, revision: int, turma_id: int) -> None:
    """Put a table in a turma, a write on the table's revision (StaleRevision otherwise); the
    turma it leaves, if any, counts a departure (its cached statistics no longer hold)."""
    held_by = connection.execute(_HELD_BY, {"token": mesa_token}).scalar_one_or_none()
    if claim(connection, _PLACE, revision, token=mesa_token, turma=turma_id) is None:
        raise StaleRevision()
    # The revision did not move since the read above (the client had it before): the table
    # was in `held_by` until this write.
    if held_by is not None and held_by != turma_id:
        connection.execute(_DEPART, {"turma": held_by})


def _checked_table(mesa_token: str) -> None:
    """UnknownTable or ViewOnly before any write when the table's link is not a scorer's, and
    a pt-BR refusal for a torneio's table."""
    if not shaped(mesa_token):
        raise UnknownTable()
    if scorer_table(mesa_token).torneio_id is not None:
        raise InputError(TORNEIO_TABLE)


def new_turma_values(name: str) -> dict[str, Any]:
    """The row of a new turma named `name`: two fresh tokens, revision 0, no merges."""
    return {
        "edit_token": new_token(),
        "view_token": new_token(),
        "revision": 0,
        "created_at": utcnow(),
        "name": turma_name(name),
        "aliases": {},
    }


def create_turma(mesa_token: str, revision: int, name: str) -> Turma:
    """A new turma (two fresh tokens) holding the table of this scorer token."""
    _checked_table(mesa_token)
    values = new_turma_values(name)
    with db.engine.begin() as connection:
        new_id = connection.execute(insert(_TURMAS).returning(_TURMAS.c.id), values).scalar_one()
        _place(connection, mesa_token, revision, new_id)
    return Turma(id=new_id, **values)


def join_turma(mesa_token: str, revision: int, link: str) -> Turma:
    """Put the table of this scorer token in the turma of a pasted scorer link."""
    _checked_table(mesa_token)
    token = token_in_link(link)
    turma = find_turma(token, edit=True)
    if turma is None:
        raise InputError(VIEW_LINK if find_turma(token, edit=False) else NOT_FOUND)
    with db.engine.begin() as connection:
        _place(connection, mesa_token, revision, turma.id)
        connection.execute(_BUMP, {"turma": turma.id})
    db.session.expire(turma)
    return turma


def tables(
    turma: Turma, limit: int | None = TABLES_ON_PAGE, before: int | None = None
) -> list[Mesa]:
    """A turma's tables, newest first (the newest `limit` of them, opened before the table
    `before` if given)."""
    query = select(Mesa).where(Mesa.turma_id == turma.id).order_by(Mesa.id.desc())
    if before is not None:
        query = query.where(Mesa.id < before)
    if limit is not None:
        query = query.limit(limit)
    return list(db.session.execute(query).scalars())


@dataclass(frozen=True)
class TablesPage:
    """A page of a turma's tables, newest first, and the id to ask for the older ones (None
    on the last page)."""

    mesas: list[Mesa]
    older: int | None


def tables_page(turma: Turma, before: int | None = None) -> TablesPage:
    """The TABLES_ON_PAGE tables a turma's page lists: the newest, or those opened before the
    table `before`."""
    found = tables(turma, TABLES_ON_PAGE + 1, before)
    shown = found[:TABLES_ON_PAGE]
    return TablesPage(shown, shown[-1].id if len(found) > TABLES_ON_PAGE else None)


_SUCCESSOR = select(Mesa).where(Mesa.previous_id == bindparam("previous"))


def _reachable(rematch: Mesa, mesa: Mesa) -> Mesa:
    """The rematch opened from `mesa`, while its links are still those it was opened with and
    it is still in `mesa`'s turma; else a refusal: "trocar links" (or a move to another turma)
    revokes every way to it but its own links and its turma's."""
    if rematch.link_changes or rematch.turma_id != mesa.turma_id:
        raise InputError(REMATCH_ELSEWHERE)
    return rematch


def play_again(mesa: Mesa) -> Mesa:
    """A new table with this one's names, seating, rules and series, in the same turma, the
    first deal one seat on. One per table: asked twice, the second gets the first's table
    (while it can be reached from this one, see `_reachable`). A torneio's table has none: its
    mesa's next match is the bracket's."""
    if mesa.torneio_id is not None:
        raise InputError(TORNEIO_REMATCH)
    found = db.session.execute(_SUCCESSOR, {"previous": mesa.id}).scalar_one_or_none()
    if found is not None:
        return _reachable(found, mesa)
    settings = {name: getattr(mesa, name) for name in SAME_SETTINGS}
    again = Mesa(
        edit_token=new_token(),
        view_token=new_token(),
        first_dealer=(mesa.first_dealer + 1) % mesa.players,
        turma_id=mesa.turma_id,
        previous_id=mesa.id,
        **settings,
    )
    db.session.add(again)
    try:
        if mesa.turma_id is not None:
            db.session.execute(_BUMP, {"turma": mesa.turma_id})
        db.session.commit()
    except IntegrityError:  # another phone opened the rematch meanwhile
        db.session.rollback()
        return _reachable(db.session.execute(_SUCCESSOR, {"previous": mesa.id}).scalar_one(), mesa)
    return again


def play_again_in_turma(token: str, revision: int) -> Mesa:
    """'Jogar de novo' from a turma's page: the newest table again, on the turma's revision."""
    turma = scorer_turma(token)
    newest = tables(turma, 1)
    if not newest:
        raise InputError(NO_TABLE)
    with db.engine.begin() as connection:
        if claim(connection, _CLAIM, revision, token=token) is None:
            raise StaleTurma()
    return play_again(newest[0])


_ROTATE = claiming(
    _TURMAS,
    _TOKEN,
    returning=(_TURMAS.c.id,),
    edit_token=bindparam("new_edit"),
    view_token=bindparam("new_view"),
)


def rotate_turma_links(token: str, revision: int) -> Turma:
    """New tokens for the turma of this scorer token, on the turma's revision (StaleTurma
    otherwise), as a table's "trocar links": its old links stop working at once."""
    scorer_turma(token)
    new = {"new_edit": new_token(), "new_view": new_token()}
    with db.engine.begin() as connection:
        row = claim(connection, _ROTATE, revision, token=token, **new)
    if row is None:
        raise StaleTurma()
    return scorer_turma(new["new_edit"])


@dataclass(frozen=True)
class Merge:
    """Two spellings of a name to count as one: `source` counted as `target` (both folded),
    shown by the name chosen (`shown`, the target as the statistics show it)."""

    source: str
    target: str
    shown: str


def merge_names(token: str, revision: int, merge: Merge, known: set[str]) -> Turma:
    """Count one name of the turma's statistics as another, on the turma's revision: the
    turma's aliases map each folded name merged to the name chosen (every name merged into
    the source before goes to the target too)."""
    if merge.source not in known or merge.target not in known:
        raise InputError("Escolha dois nomes que aparecem nas estatísticas da turma.")
    if merge.source == merge.target:
        raise InputError("Escolha dois nomes diferentes para juntar.")
    scorer_turma(token)
    with db.engine.begin() as connection:
        row = claim(connection, _CLAIM, revision, token=token)
        if row is None:
            raise StaleTurma()
        aliases = {k: v for k, v in dict(row.aliases or {}).items() if isinstance(v, str)}
        into = (merge.source, merge.target)
        aliases = {k: (merge.shown if folded(v) in into else v) for k, v in aliases.items()}
        aliases[merge.source] = merge.shown
        aliases.pop(merge.target, None)
        connection.execute(update(_TURMAS).where(_TURMAS.c.id == row.id).values(aliases=aliases))
    turma = scorer_turma(token)
    db.session.refresh(turma)
    return turma
