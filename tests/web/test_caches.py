"""The per-process caches (scorekeeper/caches.py) change what a request costs, never what it
shows: two workers with their caches, driven by any writes, serve every page exactly as a worker
with every cache off does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import caches, create_app
from scorekeeper.domain.mesa import load_board
from scorekeeper.extensions import db
from scorekeeper.models import Mesa, Turma

from ..profiles import examples
from .helpers import edit_form, open_table, post, revision

CSRF = re.compile(r'(name="csrf_token" value=|"X-CSRFToken": ?|data-csrf=)"[^"]*"')


def worker(app: Flask, kept: str) -> Flask:
    """Another app on the same database (a worker of its own), keeping the caches named."""
    return create_app({**app.config, "CACHES": kept})


def test_tento_caches_names_the_caches_kept() -> None:
    """TENTO_CACHES: unset or 1 keeps every cache, 0 none, a list those named; a name that is
    no cache is refused at start."""
    assert caches.setting("") == caches.setting("1") == caches.NAMES
    assert caches.setting("0") == frozenset()
    assert caches.setting("boards, live") == {"boards", "live"}
    with pytest.raises(ValueError, match="no such cache: tabuleiro"):
        caches.setting("boards,tabuleiro")


def test_with_caches_off_nothing_is_kept(app: Flask) -> None:
    """A worker with TENTO_CACHES=0 keeps no board or live fragment, whatever it serves."""
    cold = worker(app, "0")
    client = cold.test_client()
    table = open_table(client)
    post(client, table, "marcar", o="normal:0:3")
    with cold.app_context():
        view = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
    for path in (f"/m/{table}", f"/v/{view.view_token}/placar", f"/m/{table}/historico"):
        assert client.get(path).status_code == 200
    with cold.app_context():
        assert [len(caches.store(c)) for c in (caches.BOARDS, caches.LIVE)] == [0, 0]


@dataclass
class Evening:
    """What the steps below act on: the tables' scorer tokens (renewed by 'trocar links') and
    the turma's."""

    tables: list[str]
    turma: str
    names: list[str] = field(default_factory=list)


def tokens_of(app: Flask, edit: str) -> tuple[str, str | None]:
    """A table's viewer token and its turma's viewer token, if it is in one."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=edit)).scalar_one()
        turma = db.session.get(Turma, mesa.turma_id) if mesa.turma_id else None
        return mesa.view_token, turma.view_token if turma else None


def pages(app: Flask, evening: Evening) -> list[str]:
    """Every page a table or the turma shows: boards, live views and fragments, histories,
    exports, the turma's pages, exports and statistics."""
    paths = []
    for edit in evening.tables:
        view, _ = tokens_of(app, edit)
        paths += [
            f"/m/{edit}",
            f"/m/{edit}/placar",
            f"/m/{edit}/historico",
            f"/m/{edit}/exportar.csv",
            f"/m/{edit}/exportar.json",
            f"/v/{view}",
            f"/v/{view}/placar",
            f"/v/{view}/placar?tv=1",
        ]
    _, turma_view = tokens_of(app, evening.tables[0])
    paths += [f"/turma/{evening.turma}", f"/turma/{evening.turma}/exportar.json"]
    if turma_view:
        paths += [f"/vt/{turma_view}", f"/vt/{turma_view}/exportar.csv"]
    return paths


def shown(client: FlaskClient, path: str) -> tuple[int, str]:
    """A page's status and text, its per-session CSRF tokens blanked."""
    response = client.get(path)
    return response.status_code, CSRF.sub("csrf", response.text)


STEPS = st.lists(
    st.tuples(
        st.sampled_from([0, 1]),  # the worker
        st.sampled_from([0, 1, 2]),  # the table
        st.sampled_from(
            [
                "tap",
                "tap",
                "tap",
                "desfazer",
                "refazer",
                "nota",
                "corrigir",
                "trocar",
                "juntar",
                "editar",
            ]
        ),
        st.integers(0, 40),
    ),
    min_size=1,
    max_size=10,
)


def step(client: FlaskClient, app: Flask, evening: Evening, action: tuple[int, int, str, int]):  # type: ignore[no-untyped-def]
    """Apply one write to the evening through a worker's client."""
    _, index, kind, pick = action
    table = evening.tables[index]
    if kind == "tap":
        with app.app_context():
            mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
            legal = [o.code for o in load_board(mesa).state.legal_outcomes()]
        post(client, table, "marcar", o=legal[pick % len(legal)])
    elif kind in ("desfazer", "refazer"):
        post(client, table, kind)
    elif kind == "nota":
        last = re.search(r'name="registro" value="(\d+)"', client.get(f"/m/{table}").text)
        if last:
            post(client, table, "nota", registro=last.group(1), nota="truco")
    elif kind == "corrigir":
        post(client, table, "corrigir", lado=str(pick % 2), pontos=str(pick % 12), motivo="conta")
    elif kind == "editar":  # names and the series changed from the edit form as drawn
        form = {**edit_form(client, table), "jogador_0": ("Ana", "Bia", "Caio")[pick % 3]}
        form["serie"] = ("avulsas", "melhor_de_3", "melhor_de_5")[pick % 3]
        form["nomes"] = ("corrigir", "substituir")[pick % 2]  # when asked: a typo or a swap
        client.post(f"/m/{table}/editar", data=form)
    elif kind == "trocar":
        moved = client.post(f"/m/{table}/trocar-links", data={"rev": revision(client, table)})
        found = re.search(r"/m/([A-Za-z0-9_-]+)/", moved.headers["Location"])
        assert found
        evening.tables[index] = found.group(1)
    else:  # put the table in the turma, then merge two of the turma's names
        data = {"rev": revision(client, table), "acao": "entrar", "link": evening.turma}
        client.post(f"/m/{table}/turma", data=data)
        page = client.get(f"/turma/{evening.turma}").text
        names = re.findall(r'<option value="([^"]+)"', page)
        rev = re.search(r'data-testid="turma" data-rev="(\d+)"', page)
        if len(set(names)) > 1 and rev:
            options = sorted(set(names))
            source, target = options[pick % len(options)], options[(pick + 1) % len(options)]
            form = {"rev": rev.group(1), "de": source, "para": target}
            client.post(f"/turma/{evening.turma}/juntar-nomes", data=form)


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)  # the caches are the same on both
@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=STEPS)
def test_two_workers_with_caches_show_what_a_worker_without_caches_shows(
    app: Flask, steps: list[tuple[int, int, str, int]]
) -> None:
    """Any taps, undos, redos, notes, corrections, next games, edits of a table's names and
    series, link changes, turma joins and name merges, written through two workers with their
    caches: after every step each worker serves every board, live view, history, export and
    turma page exactly as a worker with every cache off does."""
    workers = [worker(app, "1"), worker(app, "1")]
    cold = worker(app, "0").test_client()
    clients = [w.test_client() for w in workers]
    players = {"jogador_0": "Ana", "jogador_1": "Beto", "jogador_2": "ana", "jogador_3": "Duda"}
    tables = [open_table(clients[0], **players) for _ in range(3)]
    saved = clients[0].post(
        f"/m/{tables[0]}/turma", data={"rev": "0", "acao": "criar", "nome": "Quinta"}
    )
    found = re.search(r"/turma/([A-Za-z0-9_-]+)", saved.headers["Location"])
    assert found
    evening = Evening(tables, found.group(1))
    for action in steps:
        step(clients[action[0]], workers[action[0]], evening, action)
        for path in pages(app, evening):
            expected = shown(cold, path)
            assert expected[0] == 200, path
            for client in clients:
                assert shown(client, path) == expected, path
