"""The forecast: the board carries what the rules engine says its taps lead to, so that its
script can show a tap's score at once (tests/browser/test_board_forecast.py). The game table
served at /previsao/<n>.json and each board's own game end, walked as the board's script walks
them, give the same score, tally and layout as the server's board after the same taps."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.mesa import forecast
from scorekeeper.rules import MatchConfig, MatchState, Outcome

from ..profiles import examples
from .helpers import HX, by_testid, open_table, play, scores

TO_ONZE = ("normal:0:9", "normal:0:1", "normal:0:1")


def board_forecast(html: str) -> dict[str, Any]:
    """What a board says about itself for the forecast (#board data-previsto)."""
    found = re.search(r"id=\"board\"[^>]*data-previsto='([^']+)'", html)
    assert found, html[:300]
    said: dict[str, Any] = json.loads(found.group(1).replace("&#34;", '"'))
    return said


def table_url(html: str) -> str:
    """The game table's URL the board names (#board data-previsao)."""
    found = re.search(r'id="board"[^>]*data-previsao="([^"]+)"', html)
    assert found
    return found.group(1).replace("&amp;", "&")


def step(table: dict[str, Any], node: dict[str, Any], code: str) -> dict[str, Any] | None:
    """One tap through the tables, as static/js/forecast.js takes it (None: not foreseen)."""
    end = node["end"]
    if end:
        if code != end[2]:
            return None
        return {"score": end[3], "wins": end[4], "key": layout(table, end[3]), "end": None,
                "ends": None}  # fmt: skip
    row = table["scores"][node["score"]]
    codes = table["codes"][table["keys"][row[0]]]
    if code not in codes:
        return None
    target = row[codes.index(code) + 1]
    if target >= 0:
        return {**node, "score": target, "key": layout(table, target)}
    if not node["ends"]:
        return None
    won = -1 - target
    side = won % 2
    ending = node["ends"][side]
    return {"score": (won - side) // 2, "wins": ending[0], "key": ending[1], "end": ending,
            "ends": None}  # fmt: skip


def layout(table: dict[str, Any], score: int) -> str:
    """The layout of a game's score in the table."""
    return str(table["keys"][table["scores"][score][0]])


def start(said: dict[str, Any]) -> dict[str, Any]:
    """The board's own node, from its data-previsto."""
    over, ends = said["over"], said["ends"]
    return {"score": said["score"], "wins": said["wins"], "key": said["key"],
            "end": ends[0] if over else None, "ends": None if over else ends}  # fmt: skip


def shown(node: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int], str]:
    """What the board shows of a node: the score, the tally and the layout."""
    a, b = divmod(node["score"], 13)
    return (a, b), (node["wins"][0], node["wins"][1]), node["key"]


def server_shows(html: str) -> tuple[tuple[int, int], tuple[int, int], str]:
    """What the server's board shows: the score, the tally and the layout."""
    wins = (int(by_testid(html, "series-a") or -1), int(by_testid(html, "series-b") or -1))
    key = re.search(r'<div class="fase" data-fase="([^"]+)"', html)
    assert key
    return scores(html), wins, key.group(1)


def test_the_game_table_is_the_rules_engines_answer_for_every_score_and_tap(
    client: FlaskClient,
) -> None:
    """For each threshold, every score of a game and every legal tap: the table's target is the
    score (or the game's end for that side) the engine's MatchState.apply gives."""
    for special_at in (11, 10):
        token = open_table(client, mao_especial=str(special_at))
        table = client.get(table_url(client.get(f"/m/{token}").text)).get_json()
        config = MatchConfig(special_at=special_at)
        for index, row in enumerate(table["scores"]):
            points = divmod(index, 13)
            if 12 in points:
                assert row == []
                continue
            state = MatchState(config, points)
            codes = table["codes"][table["keys"][row[0]]]
            assert codes == [outcome.code for outcome in state.legal_outcomes()]
            for code, target in zip(codes, row[1:], strict=True):
                after = state.apply(Outcome.parse(code))
                won = after.game_winner
                index_after = forecast.score_index(after.points)
                assert target == (index_after if won is None else -1 - (2 * index_after + won))


def test_the_game_table_is_kept_a_year_under_its_versioned_url(client: FlaskClient) -> None:
    """Versioned by its content: immutable for a year; any other threshold is a 404."""
    url = table_url(client.get(f"/m/{open_table(client)}").text)
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "immutable" in response.headers["Cache-Control"]
    assert "immutable" not in client.get(url.split("?")[0]).headers.get("Cache-Control", "")
    assert client.get("/previsao/9.json").status_code == 404


def test_a_board_in_a_series_says_what_each_side_winning_its_game_leads_to(
    client: FlaskClient,
) -> None:
    """Best of 3, Nós a game up: Nós winning this one takes the series (then 0 x 0), Eles
    winning it makes 1 x 1 (kept into the next game)."""
    token = open_table(client, serie="melhor_de_3")
    html = play(client, token, "normal:0:12", "proxima_partida", "normal:1:3").text
    said = board_forecast(html)
    assert said["score"] == 3 and said["wins"] == [1, 0] and said["key"] == "normal"
    assert not said["over"]
    assert said["ends"] == [
        [[2, 0], "serie-0", "nova_serie", 0, [0, 0]],
        [[1, 1], "fim-1", "proxima_partida", 0, [1, 1]],
    ]


def test_the_board_page_carries_the_layout_of_every_phase_a_tap_may_lead_to(
    client: FlaskClient,
) -> None:
    """A best-of-3 board carries a normal hand, the mão de onze of each side, the mão de ferro,
    each side's won game and won series, each once, drawn with no decider and an inert share."""
    token = open_table(client, serie="melhor_de_3", jogador_0="Ana", jogador_1="Beto")
    html = client.get(f"/m/{token}").text
    keys = re.findall(r'<template data-fase="([^"]+)">', html)
    assert sorted(keys) == sorted(
        ["normal", "onze-0", "onze-1", "mao_de_ferro", "fim-0", "fim-1", "serie-0", "serie-1"]
    )
    templates = "".join(re.findall(r"<template.*?</template>", html, re.S))
    assert "Decide:" not in templates
    assert templates.count('class="over-more" inert') == 4
    fragment = client.get(f"/m/{token}/placar?rev=0", headers=HX).text
    assert "<template" not in fragment  # the layouts come once, with the page


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],  # a new table each example
)
@given(choices=st.lists(st.integers(min_value=0, max_value=10), min_size=1, max_size=14))
def test_walking_the_tables_gives_the_servers_board_after_the_same_taps(
    app: Flask, choices: list[int]
) -> None:
    """From a best-of-3 board, each legal tap (picked among the legal ones) walked through the
    game table and the board's game end shows what the server's board shows after it, up to
    the first tap past a second game's end."""
    client = app.test_client()
    token = open_table(client, serie="melhor_de_3")
    html = client.get(f"/m/{token}").text
    table = client.get(table_url(html)).get_json()
    node: dict[str, Any] | None = start(board_forecast(html))
    for choice in choices:
        assert node is not None
        row = table["scores"][node["score"]]
        codes = [node["end"][2]] if node["end"] else table["codes"][table["keys"][row[0]]]
        code = codes[choice % len(codes)]
        node = step(table, node, code)
        html = play(client, token, code).text
        if node is None:
            break
        assert shown(node) == server_shows(html)
