"""Property: any evening of a torneio, driven through its pages (results, taps and undos on the
mesas' phones, the organiser's W.O.s, results, words taken back, swaps, call-offs, the draw undone
and made again, pairs saving their matches from the TV, and hostile writes from the mesas'
phones: a rematch, a move to a turma, an edit of names, a new series), keeps every page
answering, the bracket equal to its rebuild from the tables' logs, and no champion without a
final played (or decided) between the bracket's pairs."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.domain.mesa import all_records, board_of
from scorekeeper.domain.torneio import bracket, reading
from scorekeeper.extensions import db
from scorekeeper.models import Jogo, Mesa, Torneio

from ..profiles import examples
from .helpers import open_torneio, organiser_post, post, revision, tap

KINDS = (
    ["win"] * 4
    + ["tap", "undo", "undo", "wo", "override", "takeback", "calloff", "save", "undraw", "draw"]
    + ["swap", "hostile"] * 2
)
# Before the first point the draw may still change: an evening opens with a few of those steps.
OPENING = ["hostile", "hostile", "swap", "swap", "undraw", "draw", "tap"]
STEPS = st.tuples(
    st.lists(
        st.tuples(st.sampled_from(OPENING), st.integers(0, 63), st.integers(0, 1)), max_size=6
    ),
    st.lists(
        st.tuples(st.sampled_from(KINDS), st.integers(0, 63), st.integers(0, 1)),
        min_size=4,
        max_size=30,
    ),
).map(lambda parts: parts[0] + parts[1])
PROPERTY = settings(
    deadline=None,
    max_examples=examples(20),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def tables(app: Flask, token: str) -> list[tuple[str, str | None, str | None]]:
    """Every table of the torneio (called now or once: closed tables kept) as (scorer token,
    match key if still called, why closed), oldest first."""
    with app.app_context():
        torneio = db.session.execute(
            select(Torneio).where(Torneio.edit_token == token)
        ).scalar_one()
        rows = db.session.execute(
            select(Mesa, Jogo.key)
            .outerjoin(Jogo, Jogo.mesa_id == Mesa.id)
            .where(Mesa.torneio_id == torneio.id)
            .order_by(Mesa.id)
        ).all()
        return [(mesa.edit_token, key, mesa.closed) for mesa, key in rows]


def keys_and_pairs(client: FlaskClient, token: str) -> list[tuple[str, list[str]]]:
    """Each match the organiser's page offers a word on: its key and its pairs' ids."""
    page = client.get(f"/t/{token}").text
    found = []
    for article in re.split(r'(?=<article[^>]*data-testid="jogo")', page)[1:]:
        key = re.search(r'data-key="([^"]+)"', article)
        pairs = re.findall(r'name="dupla" value="(\d+)"', article)
        if key and pairs:
            found.append((key.group(1), pairs))
    return found


def pair_ids(client: FlaskClient, token: str) -> list[str]:
    """The registered pairs' ids, from the swap form (after the draw)."""
    return re.findall(r'<select name="de">(.*?)</select>', client.get(f"/t/{token}").text, re.S)


def phone_tap(client: FlaskClient, table: str, code: str) -> int:
    """A tap from a match's phone, on the revision it shows (0 for a table taken back
    meanwhile: its write then finds no table); its status."""
    return tap(client, table, code, revision(client, table, missing=0)).status_code


def step(app: Flask, client: FlaskClient, token: str, kind: str, pick: int, side: int) -> int:
    """One thing that happens in the evening; the status of its request (0: nothing to do)."""
    known = tables(app, token)
    playing = [t for t, key, closed in known if key is not None and closed is None]
    words = keys_and_pairs(client, token)
    if kind in ("win", "tap") and playing:
        table = playing[pick % len(playing)]
        return phone_tap(client, table, f"normal:{side}:{12 if kind == 'win' else 1}")
    if kind == "undo" and known:
        table = known[pick % len(known)][0]
        return post(client, table, "desfazer", revision(client, table, missing=0)).status_code
    if kind in ("wo", "override") and words:
        key, pairs = words[pick % len(words)]
        how, pair = ("wo" if kind == "wo" else "organizador"), pairs[side % 2]
        answer = organiser_post(client, token, f"jogo/{key}/decidir", como=how, dupla=pair)
        return answer.status_code
    if kind == "takeback" and words:
        key = words[pick % len(words)][0]
        return organiser_post(client, token, f"jogo/{key}/decidir", como="desfeito").status_code
    if kind == "calloff" and words:
        key = words[pick % len(words)][0]
        return organiser_post(client, token, f"jogo/{key}/cancelar").status_code
    if kind == "swap":
        options = re.findall(r'value="(\d+)"', "".join(pair_ids(client, token)))
        if len(options) >= 2:
            first, second = options[pick % len(options)], options[(pick + 1) % len(options)]
            return organiser_post(client, token, "trocar", de=first, para=second).status_code
    if kind == "hostile" and known:
        return hostile(client, known[pick % len(known)][0], pick)
    if kind == "save":
        return save(client, token, pick)
    if kind in ("undraw", "draw"):
        route = "desfazer-sorteio" if kind == "undraw" else "sortear"
        return organiser_post(client, token, route).status_code
    return 0


def hostile(client: FlaskClient, table: str, pick: int) -> int:
    """A write a match's phone should never be able to make: a rematch, a move to a turma, an
    edit swapping the sides' names, a new series."""
    rev = str(revision(client, table, missing=0))
    choice = pick % 4
    if choice == 0:
        return client.post(f"/m/{table}/jogar-de-novo").status_code
    if choice == 1:
        form = {"rev": rev, "acao": "criar", "nome": "Roubada"}
        return client.post(f"/m/{table}/turma", data=form).status_code
    if choice == 2:
        page = client.get(f"/m/{table}/editar").text
        names = dict(re.findall(r'name="(time_[ab])"[^>]*value="([^"]*)"', page))
        form = {"rev": rev, "time_a": names.get("time_b", "X"), "time_b": names.get("time_a", "Y")}
        return client.post(f"/m/{table}/editar", data=form).status_code
    return phone_tap(client, table, "nova_serie")


def save(client: FlaskClient, token: str, pick: int) -> int:
    """A pair's finished matches saved in a new turma from the TV."""
    tv = re.search(
        r'href="[^"]*/tv/([\w-]+)" data-testid="tv-link"', client.get(f"/t/{token}").text
    )
    assert tv
    links = re.findall(
        r'<a href="([^"]+)" data-testid="salvar-dupla"',
        client.get(f"/tv/{tv.group(1)}/duplas").text,
    )
    if not links:
        return 0
    return client.post(links[pick % len(links)], data={"nome": "Amigos"}).status_code


def every_torneio_page_answers(app: Flask, client: FlaskClient, token: str) -> None:
    """The organiser's page, its poll, the TV, its poll and exports, every mesa's link and every
    board of the torneio's tables answer without a server error."""
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    tv = re.search(r'href="[^"]*/tv/([\w-]+)" data-testid="tv-link"', page.text)
    assert tv
    paths = [f"/t/{token}/novidades?v=0", f"/tv/{tv.group(1)}", f"/tv/{tv.group(1)}/estado?v=0"]
    paths += [f"/tv/{tv.group(1)}/torneio.json", f"/tv/{tv.group(1)}/torneio.csv"]
    paths += re.findall(r'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link"', page.text)
    paths += [f"/m/{table}" for table, _key, _closed in tables(app, token)]
    for path in paths:
        answer = client.get(path)
        answer.get_data()  # a streamed export is read to its end: a failure midway fails here
        answer.close()
        assert answer.status_code < 500, (path, answer.status_code)


def check(app: Flask, token: str) -> None:
    """The bracket the pages show equals the one rebuilt from the tables' logs (each folded
    from its first record) and the organiser's words; a champion only from a final played or
    decided between the bracket's pairs."""
    with app.app_context():
        torneio = db.session.execute(
            select(Torneio).where(Torneio.edit_token == token)
        ).scalar_one()
        snap = reading.snapshot(torneio)
        if torneio.slots is None:
            assert snap.bracket is None and not snap.called
            return
        said, results = {}, {}
        for jogo, mesa in db.session.execute(
            select(Jogo, Mesa)
            .join(Mesa, Mesa.id == Jogo.mesa_id)
            .where(Jogo.torneio_id == torneio.id)
        ).all():
            won = board_of(mesa, list(all_records(mesa))).state.series_winner
            if won is not None:
                results[jogo.key] = bracket.Word(
                    (jogo.pair_a, jogo.pair_b)[won], jogo.pair_a, jogo.pair_b
                )
            if jogo.decided is not None:
                said[jogo.key] = bracket.Word(jogo.decided, jogo.decided_a, jogo.decided_b)
            else:
                said.pop(jogo.key, None)
                if jogo.key in results:
                    said[jogo.key] = results[jogo.key]
            assert (mesa.closed is not None) == (jogo.decided is not None)
        rebuilt = bracket.build(torneio.slots, said, torneio.third_place)
        assert snap.bracket == rebuilt
        final = rebuilt.final
        if rebuilt.champion is not None and not final.bye:
            word = said[final.key]
            assert (word.a, word.b) == (final.a, final.b) and word.winner == rebuilt.champion


@PROPERTY
@given(pairs=st.integers(2, 6), mesas=st.integers(1, 3), steps=STEPS)
def test_any_evening_keeps_pages_answering_and_the_bracket_its_tables_rebuild(
    app: Flask, client: FlaskClient, pairs: int, mesas: int, steps: list[tuple[str, int, int]]
) -> None:
    token = open_torneio(client, pairs, mesas=str(mesas), formato="1", formato_final="1")
    check(app, token)
    for kind, pick, side in steps:
        status = step(app, client, token, kind, pick, side)
        assert status < 500, (kind, status)
        if kind == "hostile":  # refused, whatever the match's state (404: a table taken back)
            assert status in (0, 404, 422), status
        check(app, token)
    every_torneio_page_answers(app, client, token)
