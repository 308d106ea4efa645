"""The torneio's clock: the organiser starts each bracket round, the TV and
the organiser's page show when it ends, a match's board shows it too, and at the limit the rule
chosen at creation is applied once to every match still playing, with a line in its table's log.
Time is given (`now`) or the round's start is set back: no test sleeps."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.domain.torneio import access, calls, clock, reading
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Jogo, Mesa, Torneio
from scorekeeper.web.torneio import present

from .helpers import (
    by_testid,
    open_table,
    open_torneio,
    organiser_post,
    play,
    scores,
    table_at,
    tap,
    torneio_rev,
    tv_path,
)

LATER = timedelta(minutes=91)  # past the 90 minutes of a round


def clock_torneio(client: FlaskClient, pairs: int = 4, **form: str) -> str:
    """A torneio of `pairs` pairs on 2 mesas, drawn; its organiser token."""
    return open_torneio(client, pairs, **{"nome": "Copa do Bar", "formato": "3", **form})


def start(client: FlaskClient, token: str, round_: int = 1) -> Any:
    """The organiser taps 'Começar rodada' on a round."""
    return organiser_post(client, token, f"rodada/{round_}/comecar")


def table_of_mesa(client: FlaskClient, token: str, number: int) -> str:
    """The scorer token of the match now at mesa `number`, through the mesa's stable link."""
    return table_at(client, token, number)


def torneio_row(app: Flask, token: str) -> Torneio:
    """The torneio as stored (in the caller's app context)."""
    found = access.find_torneio(token, edit=True)
    assert found is not None
    return found


def started_at(app: Flask, token: str, round_: int = 1) -> datetime:
    """When the round's clock was started, as stored."""
    with app.app_context():
        begun = clock.started(torneio_row(app, token).clock, round_)
    assert begun is not None
    return begun


def read_at(app: Flask, token: str, now: datetime) -> reading.Snapshot:
    """The torneio read (synced) at `now`."""
    with app.app_context():
        return calls.sync(torneio_row(app, token), now=now)


def log_lines(app: Flask, table: str) -> list[tuple[str, str | None]]:
    """A table's active records as (kind, reason), oldest first."""
    with app.app_context():
        mesa = db.session.execute(select(Mesa).where(Mesa.edit_token == table)).scalar_one()
        rows = db.session.execute(
            select(HandRecord.kind, HandRecord.reason)
            .where(HandRecord.mesa_id == mesa.id, HandRecord.status == "active")
            .order_by(HandRecord.seq)
        ).all()
    return [(row.kind, row.reason) for row in rows]


def decisions(app: Flask, token: str) -> dict[str, tuple[int | None, str | None]]:
    """Each called match's (decided pair, how)."""
    with app.app_context():
        torneio = torneio_row(app, token)
        rows = db.session.execute(select(Jogo).where(Jogo.torneio_id == torneio.id)).scalars()
        return {j.key: (j.decided, j.decided_how) for j in rows}


def pairs_of(app: Flask, token: str, key: str) -> tuple[int, int]:
    """The pairs called to a match."""
    with app.app_context():
        torneio = torneio_row(app, token)
        jogo = db.session.execute(
            select(Jogo).where(Jogo.torneio_id == torneio.id, Jogo.key == key)
        ).scalar_one()
        return jogo.pair_a, jogo.pair_b


def local(moment: datetime) -> str:
    """HH:MM in the organiser's time zone (America/Sao_Paulo)."""
    return moment.astimezone(ZoneInfo("America/Sao_Paulo")).strftime("%H:%M")


# --- starting a round ---------------------------------------------------------------------------


def test_the_organiser_starts_a_round_and_its_deadline_shows_on_its_page(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client)
    page = client.get(f"/t/{token}").text
    assert 'data-testid="comecar-rodada" data-rodada="1"' in page
    assert start(client, token).status_code == 303
    ends = local(started_at(app, token) + timedelta(minutes=90))
    page = client.get(f"/t/{token}").text
    assert 'data-testid="comecar-rodada" data-rodada="1"' not in page
    shown = by_testid(page, "relogio")
    assert shown is not None and shown.startswith(f"termina às {ends} · faltam ")


def test_a_round_started_twice_is_refused_and_keeps_its_first_start(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client)
    start(client, token)
    first = started_at(app, token)
    again = start(client, token)
    assert again.status_code == 422
    assert by_testid(again.text, "mensagem") == "O tempo dessa rodada já começou."
    assert started_at(app, token) == first


def test_a_round_with_no_match_ready_cannot_start(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client)
    refused = start(client, token, 2)
    assert refused.status_code == 422
    assert "Nenhum jogo dessa rodada está pronto" in (by_testid(refused.text, "mensagem") or "")
    with app.app_context():
        assert torneio_row(app, token).clock == {}


def test_a_round_that_is_not_in_the_bracket_cannot_start(client: FlaskClient) -> None:
    token = clock_torneio(client)
    refused = start(client, token, 7)
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == "Essa rodada não existe na chave."


def test_starting_a_round_from_a_stale_page_does_nothing(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client)
    stale = torneio_rev(client, token)
    organiser_post(client, token, "mesa/2/pausar", pausar="1")
    refused = client.post(f"/t/{token}/rodada/1/comecar", data={"rev": stale})
    assert refused.status_code == 409
    with app.app_context():
        assert torneio_row(app, token).clock == {}


# --- where the deadline shows --------------------------------------------------------------------


def test_the_tv_shows_when_the_round_ends_and_how_long_is_left(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client)
    assert 'data-testid="tv-relogio"' not in client.get(tv_path(client, token)).text
    start(client, token)
    ends = started_at(app, token) + timedelta(minutes=90)
    shown = by_testid(client.get(tv_path(client, token)).text, "tv-relogio")
    assert shown is not None
    assert re.fullmatch(rf"Semifinal: termina às {local(ends)} · faltam (89|90) min", shown)


def test_the_tv_poll_sees_a_change_each_minute_while_the_clock_runs(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client)
    view = tv_path(client, token).rsplit("/", 1)[-1]
    with app.app_context():
        still = reading.version(view, now=datetime.now(UTC))
        assert still == reading.version(view, now=datetime.now(UTC) + timedelta(minutes=5))
    start(client, token)
    begun = started_at(app, token)
    with app.app_context():
        first = reading.version(view, now=begun + timedelta(seconds=10))
        same = reading.version(view, now=begun + timedelta(seconds=50))
        next_minute = reading.version(view, now=begun + timedelta(seconds=70))
    assert first == same
    assert next_minute != first


def test_the_tv_shows_time_up_once_the_limit_came(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="proxima")
    start(client, token)
    begun = started_at(app, token)
    read_at(app, token, begun + LATER)
    with app.app_context():
        snap = reading.snapshot(torneio_row(app, token))
        shown = present.round_clocks(snap, begun + LATER)[1]
    assert shown.text == f"tempo esgotado às {local(begun + timedelta(minutes=90))}"
    assert not shown.running


def test_a_torneio_match_board_shows_until_when_its_round_plays(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client)
    table = table_of_mesa(client, token, 1)
    assert 'data-testid="tempo-rodada"' not in client.get(f"/m/{table}").text
    start(client, token)
    ends = local(started_at(app, token) + timedelta(minutes=90))
    shown = by_testid(client.get(f"/m/{table}").text, "tempo-rodada")
    assert shown == f"Tempo da rodada: até {ends}"
    plain = open_table(client)  # a table of no torneio carries no such line
    assert 'data-testid="tempo-rodada"' not in client.get(f"/m/{plain}").text


# --- the limit -----------------------------------------------------------------------------------


def test_nothing_happens_before_the_limit(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="onze")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:3")
    start(client, token)
    read_at(app, token, started_at(app, token) + timedelta(minutes=89))
    assert scores(client.get(f"/m/{table}").text) == (3, 0)
    with app.app_context():
        assert not clock.applied(torneio_row(app, token).clock, 1)


def test_lider_gives_each_match_to_the_pair_ahead_as_the_organiser_decided_by_time(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="lider")
    first, second = table_of_mesa(client, token, 1), table_of_mesa(client, token, 2)
    play(client, first, "normal:1:3")
    play(client, second, "normal:0:1", "normal:0:1")
    start(client, token)
    read_at(app, token, started_at(app, token) + LATER)
    a1, b1 = pairs_of(app, token, "1-0")
    a2, _b2 = pairs_of(app, token, "1-1")
    decided = decisions(app, token)
    assert (decided["1-0"], decided["1-1"]) == ((b1, "tempo"), (a2, "tempo"))
    assert decided["2-0"] == (None, None)  # the final, called as soon as they were decided
    reason = log_lines(app, first)[-1][1]
    assert reason is not None and reason.startswith("tempo esgotado: ")
    assert "vence quem estava na frente (" in reason
    page = client.get(f"/t/{token}").text
    assert page.count("decidido no tempo") == 2
    assert scores(client.get(f"/m/{first}").text) == (0, 3)  # the score is left as it was


def test_a_match_the_clock_gave_away_takes_no_more_taps_on_its_board(
    app: Flask, client: FlaskClient
) -> None:
    """At the limit the pair ahead wins: the match's board is over at once, saying so, and a
    tap sent after is refused with nothing recorded."""
    token = clock_torneio(client, no_limite="lider")
    first = table_of_mesa(client, token, 1)
    play(client, first, "normal:1:3")
    start(client, token)
    read_at(app, token, started_at(app, token) + LATER)
    board = client.get(f"/m/{first}").text
    assert 'data-testid="jogo-encerrado"' in board and "O tempo da rodada acabou" in board
    lines = log_lines(app, first)
    assert tap(client, first, "normal:0:1").status_code == 422
    assert log_lines(app, first) == lines


def test_lider_on_a_tie_lets_the_next_hand_decide(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="lider")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:1", "normal:1:1")
    start(client, token)
    begun = started_at(app, token)
    read_at(app, token, begun + LATER)
    assert log_lines(app, table)[-1] == ("correcao", clock.TIED)
    assert decisions(app, token)["1-0"] == (None, None)
    play(client, table, "anulada", "normal:1:1")
    read_at(app, token, begun + LATER + timedelta(minutes=1))
    assert decisions(app, token)["1-0"] == (pairs_of(app, token, "1-0")[1], "tempo")


def test_onze_puts_every_match_still_playing_at_eleven_each_with_a_line_in_its_log(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="onze")
    first, second = table_of_mesa(client, token, 1), table_of_mesa(client, token, 2)
    play(client, first, "normal:0:3", "normal:1:1")
    start(client, token)
    read_at(app, token, started_at(app, token) + LATER)
    for table in (first, second):
        assert scores(client.get(f"/m/{table}").text) == (11, 11)
        board = client.get(f"/m/{table}").text
        assert 'data-testid="mao-de-ferro"' in board
        lines = log_lines(app, table)
        assert lines[-2:] == [("correcao", "tempo esgotado: partida em 11 x 11")] * 2
    assert decisions(app, token) == {"1-0": (None, None), "1-1": (None, None)}


def test_onze_puts_the_next_games_of_the_series_at_eleven_too(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="onze")
    table = table_of_mesa(client, token, 1)
    start(client, token)
    begun = started_at(app, token)
    read_at(app, token, begun + LATER)
    play(client, table, "ferro:0", "proxima_partida")
    assert scores(client.get(f"/m/{table}").text) == (0, 0)
    read_at(app, token, begun + LATER + timedelta(minutes=1))
    assert scores(client.get(f"/m/{table}").text) == (11, 11)
    reasons = [reason for _kind, reason in log_lines(app, table)]
    assert reasons.count("tempo esgotado: partida em 11 x 11") == 4


def test_onze_in_mineiro_puts_the_game_at_ten_each(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="onze", variante="mineiro")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:4")
    start(client, token)
    read_at(app, token, started_at(app, token) + LATER)
    assert scores(client.get(f"/m/{table}").text) == (10, 10)
    assert log_lines(app, table)[-1] == ("correcao", "tempo esgotado: partida em 10 x 10")


def test_proxima_writes_its_line_and_the_next_hand_gives_the_match(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="proxima")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:6")
    start(client, token)
    begun = started_at(app, token)
    read_at(app, token, begun + LATER)
    assert log_lines(app, table)[-1] == ("correcao", clock.NEXT_HAND)
    assert scores(client.get(f"/m/{table}").text) == (6, 0)
    assert decisions(app, token)["1-0"] == (None, None)
    play(client, table, "normal:1:1")
    tv = client.get(tv_path(client, token)).text  # the TV's read decides it
    assert 'data-estado="fim"' in tv
    assert decisions(app, token)["1-0"] == (pairs_of(app, token, "1-0")[1], "tempo")


def test_the_organiser_may_take_back_what_the_next_hand_decided(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="proxima")
    table = table_of_mesa(client, token, 1)
    start(client, token)
    begun = started_at(app, token)
    read_at(app, token, begun + LATER)
    play(client, table, "normal:0:1")
    read_at(app, token, begun + LATER)
    assert decisions(app, token)["1-0"] == (pairs_of(app, token, "1-0")[0], "tempo")
    assert organiser_post(client, token, "jogo/1-0/decidir", como="desfeito").status_code == 303
    read_at(app, token, begun + LATER + timedelta(minutes=5))
    assert decisions(app, token)["1-0"] == (None, None)


def test_a_game_over_at_the_limit_moves_on_to_the_next_game_where_the_rule_applies(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="onze")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:12")
    start(client, token)
    read_at(app, token, started_at(app, token) + LATER)
    assert scores(client.get(f"/m/{table}").text) == (11, 11)
    kinds = [kind for kind, _reason in log_lines(app, table)]
    assert kinds[-3:] == ["proxima_partida", "correcao", "correcao"]


def test_the_limit_is_applied_once_however_often_the_torneio_is_read(
    app: Flask, client: FlaskClient
) -> None:
    token = clock_torneio(client, no_limite="proxima")
    table = table_of_mesa(client, token, 1)
    start(client, token)
    begun = started_at(app, token)
    for minutes in (91, 92, 150):
        read_at(app, token, begun + timedelta(minutes=minutes))
    client.get(tv_path(client, token))
    client.get(f"/t/{token}")
    assert [r for _k, r in log_lines(app, table)].count(clock.NEXT_HAND) == 1


def test_two_readers_at_the_limit_apply_it_once(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="onze")
    table = table_of_mesa(client, token, 1)
    start(client, token)
    at = started_at(app, token) + LATER
    with app.app_context():
        stale = torneio_row(app, token)  # the second reader read the torneio before the first
        assert stale.clock and not clock.applied(stale.clock, 1)
        with app.app_context():
            calls.sync(torneio_row(app, token), now=at)
        calls.sync(stale, now=at)
    reasons = [r for _k, r in log_lines(app, table)]
    assert reasons.count("tempo esgotado: partida em 11 x 11") == 2  # one per side
    assert scores(client.get(f"/m/{table}").text) == (11, 11)


def test_the_limit_leaves_a_match_already_over_alone(app: Flask, client: FlaskClient) -> None:
    token = clock_torneio(client, no_limite="onze", formato="1")
    table = table_of_mesa(client, token, 1)
    play(client, table, "normal:0:12")
    start(client, token)
    before = log_lines(app, table)
    read_at(app, token, started_at(app, token) + LATER)
    assert log_lines(app, table) == before
    with app.app_context():
        assert torneio_row(app, token).clock["1" + clock.APPLIED] == "1-1"
