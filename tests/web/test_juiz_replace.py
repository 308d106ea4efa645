"""The juiz corrects as well as adds: a ruling put in the place of the board's last hand (the
one tapped before the argument) in one write, which one Desfazer takes back whole (the hand
tapped comes back) and one Refazer makes again; the board, its checkpoints, the history, the
turma's statistics and its file stay the fold of the active records. On both databases."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.domain.mesa import Board, board_of, service
from scorekeeper.domain.turma import mesa_summary, stored_summaries, transfer, turmas
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, ENTRY_COLUMNS, HandRecord, Mesa, MesaSummary, entry
from scorekeeper.rules import Kind, Outcome, RulesError

from ..profiles import examples
from .helpers import flashed, open_table, play, post, revision, scores
from .test_juiz import hooks, text_of
from .test_juiz_mineiro_table import form_of, mineiro_table
from .test_turma_stats import cards, table_in_turma
from .test_turma_transfer import exported, imported, new_table, picture, resealed

ROUNDS_FOR_ELES = "/juiz/mao?rodadas=eles,eles"
WHOLE = "/juiz/mao?vira=4o&jogadores=4&mao=1&eventos="
TRUCO_FOR_NOS = "1:truco,2:aceita,1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"  # Nós +3
PLAYED_ONZE_FOR_NOS = "1:aceita,1:3p,2:2c,3:Ae,4:Ko,1:2p,2:Ac,3:Ke,4:Qo"  # played, won by Nós


def log_of(app: Flask, token: str) -> list[tuple[str, int | None, int | None, str]]:
    """Every record of the table as (kind, side, points, status), in order."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(HandRecord).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        ).scalars()
        return [(r.kind, r.side, r.points, r.status) for r in rows]


def reasons(app: Flask, token: str) -> list[str | None]:
    """The reason of every record of the table, in order."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(HandRecord.reason).filter_by(mesa_id=mesa.id).order_by(HandRecord.seq)
        )
        return list(rows.scalars())


def folded_and_read(app: Flask, token: str) -> tuple[Board, Board]:
    """The table's board as the app reads it (its checkpoints) and as the fold of every record
    from the first gives it."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(*ENTRY_COLUMNS).where(HandRecord.mesa_id == mesa.id).order_by(HandRecord.seq)
        )
        return service.read_board(mesa), board_of(mesa, [entry(row) for row in rows])


def same_fold(app: Flask, token: str) -> bool:
    """True when the board read from the checkpoints is the fold of the whole log."""
    read, folded = folded_and_read(app, token)
    return read == folded


def juiz_page(client: FlaskClient, url: str) -> str:
    """A juiz page that must answer 200; its HTML."""
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    return response.text


def replaced_by_juiz(client: FlaskClient, token: str, testid: str, url: str) -> Any:
    """Open the juiz from the board, draw `url` and post its button `testid`."""
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, url)
    action = "/juiz/mao/aplicar" if "eventos=" in url else "/juiz/aplicar"
    return client.post(action, data=form_of(html, testid))


# --- the offer and the write -----------------------------------------------------------------


def test_after_a_tap_the_juiz_offers_each_value_in_the_place_of_the_last_hand(
    client: FlaskClient,
) -> None:
    """Nós +3 tapped, the juiz rules the hand for Eles: beside each aplicar-<n> a
    substituir-<n>, saying which hand it replaces."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    found = hooks(html)
    values = (1, 3, 6, 9, 12)
    assert {f"aplicar-{v}" for v in values} <= found.keys()
    assert {f"substituir-{v}" for v in values} <= found.keys()
    assert text_of(html, "trocar-qual", "strong") == "Trocar a última mão (Nós +3) por esta:"
    assert "no lugar de Nós +3" in text_of(html, "substituir-3", "button")
    assert form_of(html, "substituir-3")["cid"] != form_of(html, "aplicar-3")["cid"]


def test_replacing_records_the_ruling_in_the_place_of_the_last_hand(
    client: FlaskClient, app: Flask
) -> None:
    """'Trocar' takes Nós +3 out and records Eles +3 in one write (one revision), says so on
    the board and in the history, and the board is the fold of the active records."""
    token = open_table(client)
    play(client, token, "normal:0:1", "normal:0:3")
    rev = revision(client, token)
    response = replaced_by_juiz(client, token, "substituir-3", ROUNDS_FOR_ELES)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/m/{token}")
    assert flashed(client, take=True) == ["Eles +3 no lugar de Nós +3 · pelo juiz"]
    assert revision(client, token) == rev + 1
    board = client.get(f"/m/{token}").text
    assert scores(board) == (1, 3)
    assert log_of(app, token) == [
        ("normal", 0, 1, ACTIVE),
        ("normal", 0, 3, "discarded"),
        ("normal", 1, 3, ACTIVE),
    ]
    assert reasons(app, token)[-1] == "pelo juiz, no lugar de Nós +3"
    history = client.get(f"/m/{token}/historico").text
    assert "Eles +3 <small class=\"kind\">pelo juiz, no lugar de Nós +3</small>" in history
    read, folded = folded_and_read(app, token)
    assert read == folded and read.state.points == (1, 3)


def test_one_undo_brings_the_tapped_hand_back_and_one_redo_the_ruling(
    client: FlaskClient, app: Flask
) -> None:
    """Desfazer on the board after a replacement: the hand tapped is back and the ruling out;
    Refazer: the ruling again. Each one write, the board always the full fold."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    assert replaced_by_juiz(client, token, "substituir-6", ROUNDS_FOR_ELES).status_code == 303
    flashed(client, take=True)
    undone = post(client, token, "desfazer")
    assert undone.status_code == 200 and scores(undone.text) == (3, 0)
    assert log_of(app, token) == [("normal", 0, 3, ACTIVE), ("normal", 1, 6, "undone")]
    assert same_fold(app, token)
    redone = post(client, token, "refazer")
    assert redone.status_code == 200 and scores(redone.text) == (0, 6)
    assert log_of(app, token) == [("normal", 0, 3, "discarded"), ("normal", 1, 6, ACTIVE)]
    assert same_fold(app, token)
    again = post(client, token, "desfazer")
    assert scores(again.text) == (3, 0)
    assert post(client, token, "desfazer").status_code == 200  # then the tap itself
    assert scores(client.get(f"/m/{token}").text) == (0, 0)
    for expected in ((3, 0), (0, 6)):  # redone in order: the tap, then the ruling in its place
        assert scores(post(client, token, "refazer").text) == expected
    assert post(client, token, "refazer").status_code == 422


def test_a_tap_after_undoing_a_replacement_keeps_the_tapped_hand(
    client: FlaskClient, app: Flask
) -> None:
    """Undone, the replacement is discarded by the next tap like any undone record: the hand
    tapped stays, the ruling never comes back."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    assert replaced_by_juiz(client, token, "substituir-3", ROUNDS_FOR_ELES).status_code == 303
    post(client, token, "desfazer")
    play(client, token, "normal:1:1")
    assert scores(client.get(f"/m/{token}").text) == (3, 1)
    assert [status for *_, status in log_of(app, token)] == [ACTIVE, "discarded", ACTIVE]
    assert post(client, token, "refazer").status_code == 422


def test_the_hand_that_ended_the_game_can_be_replaced(client: FlaskClient, app: Flask) -> None:
    """Nós took the game with +3 at 9: the juiz offers no apply (the game is over) but the
    replacement, played on 9 x 0; Eles +3 in its place reopens the game at 9 x 3."""
    token = open_table(client)
    play(client, token, "normal:0:9", "normal:0:3")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    assert "aplicar-3" not in hooks(html) and "substituir-3" in hooks(html)
    assert client.post("/juiz/aplicar", data=form_of(html, "substituir-3")).status_code == 303
    read, folded = folded_and_read(app, token)
    assert read == folded
    assert read.state.points == (9, 3) and read.state.game_winner is None


def test_a_whole_hand_replaces_the_last_hand_in_one_tap(client: FlaskClient, app: Flask) -> None:
    """The whole hand (truco aceito, Nós +3) in the place of a tapped Eles +1."""
    token = open_table(client, jogadores="4")
    play(client, token, "normal:1:1")
    response = replaced_by_juiz(client, token, "substituir-mao", WHOLE + TRUCO_FOR_NOS)
    assert response.status_code == 303
    assert flashed(client, take=True) == ["Nós +3 no lugar de Eles +1 · pelo juiz · truco aceito"]
    assert reasons(app, token)[-1] == "pelo juiz, no lugar de Eles +1 · truco aceito"
    assert scores(client.get(f"/m/{token}").text) == (3, 0)
    assert log_of(app, token)[-1] == ("normal", 0, 3, ACTIVE)


def test_a_mineiro_table_offers_its_own_values_in_the_place_of_the_last_hand(
    client: FlaskClient, app: Flask
) -> None:
    """On a Truco Mineiro table the replacements are its ladder's: substituir-2 … -12."""
    token = mineiro_table(client)
    play(client, token, "normal:0:4")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    offered = {key for key in hooks(html) if key.startswith("substituir-")}
    assert offered == {f"substituir-{v}" for v in (2, 4, 6, 10, 12)}
    assert client.post("/juiz/aplicar", data=form_of(html, "substituir-2")).status_code == 303
    assert scores(client.get(f"/m/{token}").text) == (0, 2)


# --- refusals: nothing changes ---------------------------------------------------------------


def test_a_stale_replacement_is_refused_and_changes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    """The board moved on after the juiz page was drawn: 409 with the message, nothing
    replaced."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    play(client, token, "normal:0:1")
    before = log_of(app, token)
    response = client.post("/juiz/aplicar", data=form_of(html, "substituir-3"))
    assert response.status_code == 409
    assert "O placar mudou em outro aparelho; confira." in response.text
    assert log_of(app, token) == before and flashed(client, take=True) == []


@pytest.mark.parametrize(
    "last",
    [
        ("correcao", {"lado": "0", "pontos": "5", "motivo": "conta errada"}),
        ("proxima", {}),
    ],
)
def test_no_replacement_when_the_last_record_is_no_hand(
    client: FlaskClient, app: Flask, last: tuple[str, dict[str, str]]
) -> None:
    """After a correction or a 'próxima partida' marker the juiz offers no replacement, and
    one posted anyway is refused in pt-BR, nothing changed."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    form = form_of(html, "substituir-3")
    kind, fields = last
    if kind == "correcao":
        assert post(client, token, "corrigir", **fields).status_code == 200
    else:
        play(client, token, "normal:0:12", "proxima_partida")
    assert not any(k.startswith("substituir") for k in hooks(juiz_page(client, ROUNDS_FOR_ELES)))
    before = log_of(app, token)
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        newest = service.load_board(mesa).last
    assert newest is not None
    form |= {"rev": str(revision(client, token)), "substitui": str(newest.id)}
    response = client.post("/juiz/aplicar", data=form)
    assert response.status_code == 422
    assert "não é uma mão" in response.text
    assert log_of(app, token) == before


def test_no_replacement_on_an_empty_board(client: FlaskClient) -> None:
    """Nothing tapped yet: nothing to replace."""
    token = open_table(client)
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    assert "aplicar-3" in hooks(html) and "trocar" not in hooks(html)


def test_the_same_hand_again_is_neither_offered_nor_recorded(
    client: FlaskClient, app: Flask
) -> None:
    """The ruling says what was tapped: no substituir for it, and a posted one is refused."""
    token = open_table(client)
    play(client, token, "normal:1:3")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, ROUNDS_FOR_ELES)
    assert "substituir-3" not in hooks(html) and "substituir-1" in hooks(html)
    form = form_of(html, "substituir-1") | {"pontos": "3"}
    response = client.post("/juiz/aplicar", data=form)
    assert response.status_code == 422 and "já está marcada assim" in response.text
    assert log_of(app, token) == [("normal", 1, 3, ACTIVE)]


def test_only_a_hand_takes_the_place_of_a_hand(app: Flask) -> None:
    """A correction in the place of a hand (which its undo could not take back whole) is
    refused by the domain, nothing changed."""
    with app.app_context():
        token = service.open_table({}).edit_token
        tapped(token, Outcome(Kind.NORMAL, 0, 3))
        with pytest.raises(RulesError, match="Só uma mão"):
            in_its_place(token, Outcome(Kind.CORRECAO, 1, 5))
        assert service.scorer_board(token).state.points == (3, 0)
        assert service.scorer_table(token).revision == 1


def test_a_replacement_of_the_other_rule_set_is_refused(client: FlaskClient, app: Flask) -> None:
    """From a Mineiro board a Paulista ruling offers no replacement; posted anyway, it is
    refused naming the table's rule set, nothing changed."""
    token = mineiro_table(client)
    play(client, token, "normal:0:4")
    assert "trocar" not in hooks(juiz_page(client, "/juiz/mao?variante=paulista&rodadas=eles,eles"))
    html = juiz_page(client, ROUNDS_FOR_ELES)
    form = form_of(html, "substituir-6") | {"variante": "paulista"}
    response = client.post("/juiz/aplicar", data=form)
    assert response.status_code == 422 and "Esta mesa joga Truco Mineiro" in response.text
    assert log_of(app, token) == [("normal", 0, 4, ACTIVE)]


def test_a_replacement_sent_again_after_a_lost_answer_records_once(
    client: FlaskClient, app: Flask
) -> None:
    """The same form posted twice (its client id journaled): one replacement, the board as
    the first left it."""
    token = open_table(client)
    play(client, token, "normal:0:3")
    client.get(f"/m/{token}/juiz")
    form = form_of(juiz_page(client, ROUNDS_FOR_ELES), "substituir-3")
    assert client.post("/juiz/aplicar", data=form).status_code == 303
    assert client.post("/juiz/aplicar", data=form).status_code == 303
    assert log_of(app, token) == [("normal", 0, 3, "discarded"), ("normal", 1, 3, ACTIVE)]


# --- a fact said once --------------------------------------------------------------------------


def test_a_whole_mao_de_onze_applied_says_in_the_log_that_it_was_played_once(
    client: FlaskClient, app: Flask
) -> None:
    """At 11 x 0 the whole hand is the mão de onze, played and won: the log line says
    'jogou e ganhou' from the record's kind and 'pelo juiz', not 'mão de onze jogada' again."""
    token = open_table(client, jogadores="4")
    play(client, token, "normal:0:9", "normal:0:1", "normal:0:1")
    client.get(f"/m/{token}/juiz")
    html = juiz_page(client, WHOLE + PLAYED_ONZE_FOR_NOS)
    assert client.post("/juiz/mao/aplicar", data=form_of(html, "aplicar-mao")).status_code == 303
    assert reasons(app, token)[-1] == "pelo juiz"
    history = client.get(f"/m/{token}/historico").text
    said = re.search(r'<small class="kind">([^<]*)</small>', history)
    assert said is not None
    assert said.group(1) == "mão de onze: quem tinha 11 jogou e ganhou · pelo juiz"


# --- the turma's statistics -------------------------------------------------------------------


def test_the_turma_counts_the_ruling_not_the_hand_it_replaced(app: Flask) -> None:
    """Nós took the game with a tapped +12; the juiz gives that hand to Eles: the turma's
    statistics give Eles' players the game; undone, Nós' again; redone, Eles'."""
    client, token, turma = table_in_turma(app)
    play(client, token, "normal:0:12")

    def wins() -> tuple[str, str]:
        players = cards(client, turma, "stats-jogador")
        return players["Ana"]["vitorias"], players["Beto"]["vitorias"]

    assert wins() == ("1", "0")
    client.get(f"/m/{token}/juiz")
    form = form_of(juiz_page(client, ROUNDS_FOR_ELES), "substituir-12")
    assert client.post("/juiz/aplicar", data=form).status_code == 303
    assert wins() == ("0", "1")
    post(client, token, "desfazer")
    assert wins() == ("1", "0")
    post(client, token, "refazer")
    assert wins() == ("0", "1")


# --- the log stays the truth: checkpoints, summaries and the turma's file ---------------------

TAPS = st.tuples(st.just("marcar"), st.integers(0, 40))
STEPS = st.lists(
    st.one_of(
        TAPS,
        TAPS,
        st.tuples(st.just("substituir"), st.integers(0, 40)),
        st.tuples(st.just("substituir"), st.integers(0, 40)),
        st.tuples(st.just("desfazer"), st.integers(1, 3)),
        st.tuples(st.just("refazer"), st.integers(1, 3)),
        st.tuples(st.just("corrigir"), st.integers(0, 1), st.integers(0, 11)),
        st.tuples(st.just("resumo")),
    ),
    max_size=30,
)


def domain_write(mesa: Mesa, kind: str, args: list[Any]) -> None:
    """One write as its route makes it, on the table's revision (RulesError when refused);
    'resumo' stores the turma's summary of the table."""
    token, rev = mesa.edit_token, mesa.revision
    board = service.read_board(mesa)
    if kind == "marcar":
        legal = board.state.legal_outcomes()
        service.record_outcome(token, rev, legal[args[0] % len(legal)])
    elif kind == "substituir":
        last = service.last_hand(board)
        if last is None:
            raise RulesError("no hand to replace")
        legal = last.before.legal_outcomes()
        outcome = legal[args[0] % len(legal)]
        service.replace_last(token, rev, last.record.id, outcome, "pelo juiz")
    elif kind == "corrigir":
        service.record_outcome(token, rev, Outcome(Kind.CORRECAO, args[0], args[1]), "teste")
    elif kind == "desfazer":
        service.undo(token, rev)
    elif kind == "refazer":
        service.redo(token, rev)
    else:
        stored_summaries.summaries([mesa])


def fresh(mesa_id: int) -> Mesa:
    """The table as it is now."""
    db.session.rollback()
    mesa = db.session.get(Mesa, mesa_id)
    assert mesa is not None
    return mesa


def cold_summary(mesa: Mesa) -> dict[str, Any]:
    """The table's summary folded from every active record, its checkpoints left out."""
    records = HandRecord.__table__
    query = (
        select(*ENTRY_COLUMNS)
        .where(records.c.mesa_id == mesa.id, records.c.status == ACTIVE)
        .order_by(records.c.seq)
    )
    found = mesa_summary.summarize(mesa, [entry(row) for row in db.session.execute(query)])
    return {k: v for k, v in found.items() if k != "marks"}


def kept_summary(mesa: Mesa) -> dict[str, Any]:
    """The table's summary brought up to date from the stored one, its checkpoints left out."""
    table = MesaSummary.__table__
    row = db.session.execute(select(table).where(table.c.mesa_id == mesa.id)).first()
    found = stored_summaries.refreshed(mesa, row)
    return {k: v for k, v in found.items() if k != "marks"}


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@example(  # replaced, undone, undone below, redone twice, replaced again
    steps=[
        ("marcar", 1),
        ("marcar", 3),
        ("resumo",),
        ("substituir", 7),
        ("desfazer", 2),
        ("refazer", 2),
        ("substituir", 2),
        ("resumo",),
    ],
    best_of=3,
)
@given(steps=STEPS, best_of=st.sampled_from([0, 3]))
def test_after_any_replacements_undos_and_redos_the_log_stays_the_truth(
    app: Flask, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[Any, ...]], best_of: int
) -> None:
    """For any taps, replacements of the last hand, undos, redos and corrections: the board
    read from the checkpoints equals the fold of the whole log from its first record, and the
    turma's summary brought up to date from the one stored on the way equals the fold of every
    active record; a replacement moves the revision on by one."""
    monkeypatch.setattr(stored_summaries, "MARGIN", 2)  # checkpoints among a few records
    with app.app_context():
        mesa_id = service.open_table({"players": 2, "best_of": best_of}).id
        for kind, *args in steps:
            for _ in range(args[0] if kind in ("desfazer", "refazer") else 1):
                before = fresh(mesa_id)
                rev = before.revision
                try:
                    domain_write(before, kind, args)
                except RulesError:
                    break
                mesa = fresh(mesa_id)
                if kind == "substituir":
                    assert mesa.revision == rev + 1
                read, folded = folded_and_read(app, mesa.edit_token)
                assert read == folded
                assert kept_summary(mesa) == cold_summary(mesa)


def tapped(token: str, outcome: Outcome) -> None:
    """Record an outcome on the table's current revision, as a tap does."""
    service.record_outcome(token, service.scorer_table(token).revision, outcome)


def in_its_place(token: str, outcome: Outcome) -> None:
    """Record an outcome in the place of the table's last hand, as the juiz does."""
    board = service.scorer_board(token)
    last = service.last_hand(board)
    assert last is not None
    service.replace_last(token, board.mesa.revision, last.record.id, outcome, "pelo juiz")


def test_a_turma_file_carries_replacements_done_and_undone(app: Flask) -> None:
    """A turma whose tables hold a replacement in force and one undone moves to another Tento
    in its file and shows the same everywhere (boards, history, statistics, exports); undo and
    redo then work on the imported tables as on the first."""
    first = new_table(app, None, 2, 3, True)
    with app.app_context():
        turma = turmas.create_turma(first, 0, "Truco de quinta").edit_token
    second = new_table(app, turma, 2, 0, True)
    for token, undone in ((first, False), (second, True)):
        with app.app_context():
            tapped(token, Outcome(Kind.NORMAL, 0, 3))
            in_its_place(token, Outcome(Kind.NORMAL, 1, 6))
            if undone:
                service.undo(token, service.scorer_table(token).revision)
    copy = imported(app, exported(app, turma))
    assert picture(app, copy.turma.edit_token) == picture(app, turma)
    with app.app_context():
        tables = turmas.tables(turmas.scorer_turma(copy.turma.edit_token), None)
        tokens = {m.id: m.edit_token for m in tables}
    for token in tokens.values():
        with app.app_context():
            state = service.scorer_board(token).state
            done = service.redo if state.points == (3, 0) else service.undo
            after = done(token, service.scorer_table(token).revision).board.state.points
        assert after == ((0, 6) if state.points == (3, 0) else (3, 0))


def marked_file(app: Flask, change: str) -> bytes:
    """A turma's file whose one table holds a hand replaced by the juiz, with the replacement's
    mark altered (`change`), sealed again with a checksum that holds."""
    token = new_table(app, None, 2, 0, True)
    with app.app_context():
        turma = turmas.create_turma(token, 0, "Truco de quinta").edit_token
        tapped(token, Outcome(Kind.NORMAL, 0, 1))
        tapped(token, Outcome(Kind.NORMAL, 0, 3))
        in_its_place(token, Outcome(Kind.NORMAL, 1, 3))
    document = json.loads(exported(app, turma))
    fields = document["campos_dos_registros"]
    rows = document["mesas"][0]["registros"]
    status, settings_at = fields.index("status"), fields.index("settings")
    if change == "aponta para uma mão valendo":
        rows[-1][settings_at] = json.dumps({"substitui": 1})
    elif change == "aponta para adiante":
        rows[-1][settings_at] = json.dumps({"substitui": 5})
    elif change == "a trocada volta a valer":
        rows[1][status] = ACTIVE
    else:  # the replaced hand's stored state altered: undo would bring back a wrong board
        state_at = fields.index("state")
        rows[1][state_at] = [*rows[1][state_at][:1], 7, *rows[1][state_at][2:]]
    return resealed(document)


@pytest.mark.parametrize(
    "change",
    [
        "aponta para uma mão valendo",
        "aponta para adiante",
        "a trocada volta a valer",
        "estado da trocada alterado",
    ],
)
def test_a_file_with_an_inconsistent_replacement_is_refused(app: Flask, change: str) -> None:
    """A file whose replacement names a hand it could not have replaced, or whose replaced
    hand would come back with another state, is refused in pt-BR and nothing is written."""
    data = marked_file(app, change)
    with app.app_context():
        before = db.session.execute(select(HandRecord.id)).all()
        with pytest.raises(transfer.BadFile, match="O arquivo da turma tem um problema"):
            transfer.import_turma(data, "test")
        assert db.session.execute(select(HandRecord.id)).all() == before
