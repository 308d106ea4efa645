"""Every route the app has, walked with hostile values: each path parameter in turn (past 32 and
64 bits, negative, NUL, 5,000 characters, non-ASCII, '..', another page's token) beside real
values for the others, so that the request reaches deep code; then each form field and query
argument the route reads. On both databases no answer is a 5xx, every refusal is the app's own
pt-BR page, and a path naming nothing is a 404."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import Dupla, HandRecord, Jogo, Mesa, Torneio, TorneioMesa, Turma

from .helpers import open_table, open_torneio, play, revision

# Path segments as sent (already escaped): numbers past every integer column, NUL, a long one,
# non-ASCII (an Arabic-Indic three among them: a digit to Python's `\d`), dots and a slash.
HOSTILE_SEGMENTS = (
    "0",
    "-1",
    str(2**31),
    str(2**63),
    str(10**30),
    "%00",
    "a%00b",
    "x" * 5000,
    quote("ação"),
    quote("٣"),
    quote("１"),
    "..",
    "%2F",
    quote("a b"),
)
# What cannot name anything in any path parameter, answered 404: not `0` and another page's
# token (well formed), nor an escaped slash (a path of another shape, e.g. /m//marcar).
NAMELESS = frozenset(HOSTILE_SEGMENTS) - {"0", "%2F"}
# Parameters whose value the route never reads: a write to a viewer's link is 403 whatever it is.
UNREAD = {("share.refuse_write", "rest")}
# Form and query values: empty, negative, past 32 and 64 bits, NUL, long, a digit to Python's
# int() but not in ASCII.
HOSTILE_VALUES = ("", "-1", str(2**31), str(10**30), "a\x00b", "x" * 5000, "٣")
IGNORED_METHODS = {"HEAD", "OPTIONS"}
PARAMETER = re.compile(r"<(?:([a-zA-Z_]+)(?:\([^)]*\))?:)?([a-zA-Z_]+)>")


READ: set[str] = set()  # the names of the form fields and query arguments read since cleared


class RecordingDict(ImmutableMultiDict):  # type: ignore[type-arg]
    """A request's form or query arguments that note every name a view reads."""

    def __getitem__(self, key: Any) -> Any:
        """The value; `key` noted."""
        READ.add(str(key))
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None, type: Any = None) -> Any:  # noqa: A002
        """The value or `default`; `key` noted."""
        READ.add(str(key))
        return super().get(key, default, type)

    def getlist(self, key: Any, type: Any = None) -> Any:  # noqa: A002
        """Every value; `key` noted."""
        READ.add(str(key))
        return super().getlist(key, type)

    def __contains__(self, key: object) -> bool:
        """Whether it is there; `key` noted."""
        READ.add(str(key))
        return super().__contains__(key)


@dataclass
class World:
    """Real things for every kind of link: a table with hands in a turma, a drawn torneio with
    its pairs, mesas, a called match and that match's table."""

    values: dict[str, str]  # a path parameter's real value, by the rule's prefix or name
    form: dict[str, str]  # a valid value for every field a route may read
    made: tuple[object, ...] = ()  # what it was made of (`fingerprint`)


def make_world(app: Flask, client: FlaskClient) -> World:
    """A table (two hands, in a turma) and a drawn torneio of four pairs on two mesas."""
    table = open_table(client, jogadores="4")
    play(client, table, "normal:0:3", "normal:1:1")
    saved = client.post(
        f"/m/{table}/turma",
        data={"rev": str(revision(client, table)), "acao": "criar", "nome": "Turma"},
    )
    assert saved.status_code == 303, saved.text
    organiser = open_torneio(client)
    assert client.get(f"/t/{organiser}").status_code == 200  # the first matches called
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
        turma = db.session.get(Turma, mesa.turma_id)
        torneio = db.session.execute(
            db.select(Torneio).filter_by(edit_token=organiser)
        ).scalar_one()
        jogo = db.session.execute(
            db.select(Jogo).filter_by(torneio_id=torneio.id).order_by(Jogo.key)
        ).scalars().first()
        assert turma is not None and jogo is not None
        match_table = db.session.get(Mesa, jogo.mesa_id)
        mesa_link = db.session.execute(
            db.select(TorneioMesa).filter_by(torneio_id=torneio.id, number=jogo.mesa_number)
        ).scalar_one()
        pairs = db.session.execute(
            db.select(Dupla.id).filter_by(torneio_id=torneio.id).order_by(Dupla.id)
        ).scalars().all()
        record = db.session.execute(
            db.select(HandRecord.id).filter_by(mesa_id=mesa.id).order_by(HandRecord.id.desc())
        ).scalars().first()
        assert match_table is not None and record is not None
        values = {
            "/m/": table,
            "/v/": mesa.view_token,
            "/turma/": turma.edit_token,
            "/vt/": turma.view_token,
            "/t/": organiser,
            "/tv/": torneio.view_token,
            "/tm/": mesa_link.token,
            "torneio.next_at_table": match_table.edit_token,
            "pair": str(jogo.pair_a),
            "mesa": str(jogo.mesa_number),
            "rodada": "1",
            "key": jogo.key,
            "special_at": "11",
            "rules": "paulista",
            "filename": "css/app.css",
            "rest": "marcar",
            "lista": "jogadores",
            "name": "mineiro",  # /regras/<name>: another rule set's page of the rule book
        }
        form = {
            "o": "normal:0:1", "lado": "0", "pontos": "1", "motivo": "errei", "tipo": "normal",
            "registro": str(record), "nota": "truco", "mesa": table, "acao": "criar",
            "nome": "Nome", "link": turma.view_token, "jogador_1": "Ana", "jogador_2": "Beto",
            "jogador_3": "", "reserva": "", "marca": "pago", "como": "wo",
            "dupla": str(jogo.pair_a), "de": str(pairs[0]), "para": str(pairs[1]),
            "texto": "Atraso", "pausar": "1", "cid": str(uuid.uuid4()), "time_a": "Nós",
            "time_b": "Eles", "jogador_0": "Zé", "serie": "melhor_de_3", "variante": "paulista",
            "jogadores": "4", "formato": "3", "formato_final": "3", "mesas": "2",
            "minutos": "90", "no_limite": "lider", "terceiro": "1", "vira": "4o",
            "jogadas": "5c,6c", "rodada": "1", "rodadas": "nos", "antes": "1", "v": "1",
            "tv": "1", "trocados": "1", "importada": "1",
        }  # fmt: skip
    world = World(values, form)
    world.made = fingerprint(app, world)
    return world


def fingerprint(app: Flask, world: World) -> tuple[object, ...]:
    """What a write may change of what the walk needs: the table's link and turma, the turma's
    link, the torneio's draw, pairs, paused mesas and called matches."""
    values = world.values
    with app.app_context():
        table = db.session.execute(
            db.select(Mesa.turma_id).where(Mesa.edit_token == values["/m/"])
        ).all()
        turma = db.session.execute(
            db.select(Turma.id).where(Turma.edit_token == values["/turma/"])
        ).all()
        torneio = db.session.execute(
            db.select(Torneio).where(Torneio.edit_token == values["/t/"])
        ).scalar_one()
        pairs = db.session.execute(
            db.select(Dupla.id).filter_by(torneio_id=torneio.id).order_by(Dupla.id)
        ).all()
        paused = db.session.execute(
            db.select(TorneioMesa.number).filter_by(torneio_id=torneio.id, paused=True)
        ).all()
        called = db.session.execute(
            db.select(Jogo.key, Jogo.mesa_id, Jogo.decided)
            .filter_by(torneio_id=torneio.id)
            .order_by(Jogo.key)
        ).all()
        return table, turma, torneio.slots, pairs, paused, called


def current_rev(app: Flask, world: World, rule: Rule) -> str:
    """The revision the page a route's form comes from is drawn at now: the turma's, the
    torneio's, else the table's (the juiz applies a hand to it too)."""
    prefix = "/" + rule.rule.split("/")[1] + "/"
    model = {"/turma/": Turma, "/t/": Torneio}.get(prefix, Mesa)
    token = world.values[prefix if model is not Mesa else "/m/"]
    with app.app_context():
        rev = db.session.execute(
            db.select(model.revision).where(model.edit_token == token)
        ).scalar_one_or_none()
    return str(rev or 0)


def parameters(rule: Rule) -> list[str]:
    """The names of a rule's path parameters, in order."""
    return [name for _, name in PARAMETER.findall(rule.rule)]


def real_value(world: World, rule: Rule, name: str) -> str:
    """The world's real value for a path parameter of `rule`."""
    if name != "token":
        return world.values[name]
    if rule.endpoint in world.values:
        return world.values[rule.endpoint]
    prefix = "/" + rule.rule.split("/")[1] + "/"
    return world.values[prefix]


def other_tokens(world: World, rule: Rule, name: str) -> list[str]:
    """For a token: every other page's token (a turma's where a table's goes...)."""
    if name != "token":
        return []
    mine = real_value(world, rule, name)
    return sorted({v for k, v in world.values.items() if k.startswith("/") and v != mine})


def path_of(world: World, rule: Rule, hostile: dict[str, str]) -> str:
    """The rule's path with `hostile` segments (as sent) for some parameters, real ones else."""

    def segment(found: re.Match[str]) -> str:
        name = found.group(2)
        if name in hostile:
            return hostile[name]
        return quote(real_value(world, rule, name), safe="/")

    return PARAMETER.sub(segment, rule.rule)


def routes(app: Flask) -> list[tuple[Rule, str]]:
    """Every rule of the app with every method it answers."""
    return [
        (rule, method)
        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule)
        for method in sorted((rule.methods or set()) - IGNORED_METHODS)
    ]


def send(client: FlaskClient, method: str, path: str, fields: dict[str, str]) -> TestResponse:
    """One request, its answer read whole: the fields as the query string of a GET, the form of
    anything else."""
    if method == "GET":
        query = urlencode(fields)
        response = client.get(f"{path}?{query}" if query else path, buffered=True)
    else:
        response = client.open(path, method=method, data=fields, buffered=True)
    response.close()
    return response


def handled(response: TestResponse) -> str | None:
    """Why an answer is not the app's own (a 5xx, or a refusal not in pt-BR), or None."""
    if response.status_code >= 500:
        return f"{response.status_code}: {response.text[:300]}"
    if response.status_code >= 400 and response.mimetype == "text/html":
        if 'lang="pt-BR"' not in response.text:
            return f"{response.status_code} not in pt-BR: {response.text[:300]}"
    return None


@pytest.fixture
def recording(app: Flask) -> Flask:
    """The app, its requests (htmx's, as the app has them) noting the fields and arguments its
    views read."""
    app.request_class = type(
        "RecordingRequest", (app.request_class,), {"parameter_storage_class": RecordingDict}
    )
    return app


class Walk:
    """The world a walk works on, made again whenever a write changed what the walk needs of it
    (a link rotated, the draw undone, a pair removed, a match called off...)."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        """A first world."""
        self.app, self.client = app, client
        self.world = make_world(app, client)
        self.changed = False
        self.status = 0  # of the last answer

    def fresh(self) -> World:
        """The world as made, a new one if a write changed it."""
        if self.changed:
            self.changed = False
            if fingerprint(self.app, self.world) != self.world.made:
                self.world = make_world(self.app, self.client)
        return self.world

    def form(self, rule: Rule, read: Iterable[str] | None = None) -> dict[str, str]:
        """A valid form (or query string) for a route: its page's current revision first (as a
        poll sends it, so that polls.py answers it), then a valid value of every field `read`
        (None: of every field any route reads), a new client id among them (an id used before
        would be a retry)."""
        fields = self.world.form if read is None else self.world.form.keys() & set(read)
        rev = current_rev(self.app, self.world, rule)
        form = {"rev": rev, **{name: self.world.form[name] for name in sorted(fields)}}
        if "cid" in form:
            form["cid"] = str(uuid.uuid4())
        return form

    def check(self, method: str, path: str, fields: dict[str, str]) -> str | None:
        """One request: why its answer is not the app's own, or None. A write answered below
        400 may have changed the world."""
        try:
            response = send(self.client, method, path, fields)
        except Exception as error:  # noqa: BLE001  (the test client raises what gives a 500)
            self.changed = True
            return f"500: {type(error).__name__}: {str(error)[:200]}"
        if method != "GET" and response.status_code < 400:
            self.changed = True
        self.status = response.status_code
        return handled(response)


def test_every_path_parameter_refuses_hostile_values(recording: Flask) -> None:
    """Each path parameter of each route and method in turn takes each hostile value, the other
    parameters real and the form valid (a read's query: only the revision, as a poll's): never
    a 5xx, refusals in pt-BR, and a value that cannot name anything is a 404."""
    walk = Walk(recording, recording.test_client())
    failures = []
    for rule, method in routes(recording):
        for name in parameters(rule):
            for value in (*HOSTILE_SEGMENTS, *other_tokens(walk.world, rule, name)):
                world = walk.fresh()
                path = path_of(world, rule, {name: value})
                why = walk.check(method, path, walk.form(rule, () if method == "GET" else None))
                nameless = value in NAMELESS and (rule.endpoint, name) not in UNREAD
                if why is None and nameless and walk.status != 404:
                    why = f"{walk.status} for a path naming nothing"
                if why:
                    failures.append(f"{method} {rule.rule} {name}={value[:20]!r}: {why}")
    assert not failures, "\n".join(failures)


def test_every_field_and_argument_read_refuses_hostile_values(recording: Flask) -> None:
    """Each form field (of a write) or query argument (of a read) a route reads takes each
    hostile value, the other fields it reads valid: never a 5xx, refusals in pt-BR."""
    walk = Walk(recording, recording.test_client())
    failures = []
    for rule, method in routes(recording):
        world = walk.fresh()
        READ.clear()
        walk.check(method, path_of(world, rule, {}), walk.form(rule))
        read = sorted(READ)
        for field in read:
            for value in HOSTILE_VALUES:
                world = walk.fresh()
                fields = {**walk.form(rule, read), field: value}
                why = walk.check(method, path_of(world, rule, {}), fields)
                if why:
                    failures.append(f"{method} {rule.rule} {field}={value[:20]!r}: {why}")
    assert not failures, "\n".join(failures)
