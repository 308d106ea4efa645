"""Every sentence that carries a team's name reads right whatever the name: 'Nós', 'Eles', a
person ('Ana') or a plural ('Os Zapeiros'). No sentence makes a verb agree with a name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.domain.mesa import Board, board_of, words
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, UNDONE, Entry, Mesa
from scorekeeper.rules import Kind
from scorekeeper.web.common import board_words
from scorekeeper.web.common.live import live_context
from scorekeeper.web.mesa import present

from .helpers import by_testid, open_table, play, post

# What is said is made from names and boards: the database engine does not matter.
pytestmark = pytest.mark.sqlite_only

NAMES = ("Nós", "Eles", "Ana", "Os Zapeiros")
# Each name plays once as side 0 and once as side 1.
PAIRS = (("Nós", "Eles"), ("Ana", "Os Zapeiros"), ("Os Zapeiros", "Nós"), ("Eles", "Ana"))
# 23:03 UTC is 20:03 in Brasília, the time the pages show.
AT = datetime(2026, 12, 1, 23, 3)
# A name followed by a verb that would have to agree with it ("Nós venceram", "Ana decide").
AGREEING = re.compile(
    r"(?:Nós|Eles|Ana|Os Zapeiros) (?:venc|ganh|perd|decid|corr|jog|fo[ir]|é\b|são\b)"
)


@pytest.fixture(scope="module")
def render_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """An app to render templates with (its database is never touched)."""
    path = tmp_path_factory.mktemp("wording") / "unused.sqlite3"
    made = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    yield made
    with made.app_context():
        db.engine.dispose()


def mesa(
    names: tuple[str, str],
    players: int = 4,
    best_of: int = 0,
    special_at: int = 11,
    player_names: list[str] | None = None,
) -> Mesa:
    """A table in memory (never stored) with these team names."""
    return Mesa(
        id=1,
        edit_token="e",
        view_token="v",
        revision=0,
        team_a=names[0],
        team_b=names[1],
        players=players,
        best_of=best_of,
        first_dealer=0,
        special_at=special_at,
        ferro_mode="cegas",
        player_names=player_names or [],
    )


def entry(seq: int, code: str, score: tuple[int, int], **extra: object) -> Entry:
    """A record from a tap value 'kind[:side[:points]]' with the score after it."""
    kind, *rest = code.split(":")
    values: dict[str, object] = {
        "id": seq,
        "seq": seq,
        "kind": kind,
        "side": int(rest[0]) if rest else None,
        "points": int(rest[1]) if len(rest) > 1 else None,
        "note": None,
        "reason": None,
        "status": ACTIVE,
        "score_a": score[0],
        "score_b": score[1],
        "created_at": AT,
        "state": None,  # board_of folds the records itself
    }
    values.update(extra)
    return Entry(**values)  # type: ignore[arg-type]


def board(table: Mesa, *codes: str) -> Board:
    """The board after these taps (scores as the rules give them)."""
    records: list[Entry] = []
    for code in codes:
        records.append(entry(len(records) + 1, code, (0, 0)))
        after = board_of(table, records).state.points
        records[-1] = entry(len(records), code, after)
    return board_of(table, records)


def text(html: str) -> str:
    """Rendered HTML as the reader sees it: tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def shown_text(html: str, name: str) -> str:
    """The text of the first element with data-testid=name (tags stripped)."""
    match = re.search(rf'<(\w+)[^>]*data-testid="{name}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, name
    return text(match.group(2))


def log_lines(html: str, times: bool = False) -> list[str]:
    """Each log line's text, newest first; its time as HH:MM unless `times`."""
    items = re.findall(r'<li[^>]*data-testid="registro"[^>]*>(.*?)</li>', html, re.S)
    lines = [text(item) for item in items]
    return lines if times else [re.sub(r"\d\d:\d\d$", "HH:MM", line) for line in lines]


# --- describe: every kind of record ----------------------------------------------------------

# The record's side (and points), then the headline for each name on that side.
HEADLINES: dict[str, dict[str, str]] = {
    "normal:{side}:3": {
        "Nós": "Nós +3",
        "Eles": "Eles +3",
        "Ana": "Ana +3",
        "Os Zapeiros": "Os Zapeiros +3",
    },
    "onze_ganhou:{side}": {
        "Nós": "Nós +3",
        "Eles": "Eles +3",
        "Ana": "Ana +3",
        "Os Zapeiros": "Os Zapeiros +3",
    },
    "onze_perdeu:{side}": {
        "Nós": "Nós +3",
        "Eles": "Eles +3",
        "Ana": "Ana +3",
        "Os Zapeiros": "Os Zapeiros +3",
    },
    "onze_correu:{side}": {
        "Nós": "Nós +1",
        "Eles": "Eles +1",
        "Ana": "Ana +1",
        "Os Zapeiros": "Os Zapeiros +1",
    },
    "ferro:{side}": {
        "Nós": "Mão de ferro para Nós",
        "Eles": "Mão de ferro para Eles",
        "Ana": "Mão de ferro para Ana",
        "Os Zapeiros": "Mão de ferro para Os Zapeiros",
    },
    "correcao:{side}:5": {
        "Nós": "Nós: placar corrigido para 5",
        "Eles": "Eles: placar corrigido para 5",
        "Ana": "Ana: placar corrigido para 5",
        "Os Zapeiros": "Os Zapeiros: placar corrigido para 5",
    },
    "anulada": dict.fromkeys(NAMES, "Mão anulada"),
    "proxima_partida": dict.fromkeys(NAMES, "Próxima partida"),
    "nova_serie": dict.fromkeys(NAMES, "Nova série"),
    "mesa_editada": dict.fromkeys(NAMES, "Mesa editada"),
}


def test_the_headline_table_covers_every_kind_of_record() -> None:
    """No kind of record is left out of the wording tests."""
    assert {Kind(code.split(":")[0]) for code in HEADLINES} == set(Kind)


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("code", HEADLINES)
def test_every_kind_of_record_reads_right_for_any_name(code: str, pair: tuple[str, str]) -> None:
    """describe() names the side with no verb to agree with it, on either side of the table."""
    for side, name in enumerate(pair):
        said = words.describe(entry(1, code.format(side=side), (0, 0)).outcome, pair)
        assert said == HEADLINES[code][name]
        assert not AGREEING.search(said)


DETAILS = (  # (tap value, note, reason, special_at, detail)
    ("normal:0:1", None, None, 11, None),
    ("normal:0:3", "truco", None, 11, "truco aceito"),
    ("normal:1:1", "correram_truco", None, 11, "correram do truco"),
    ("normal:0:6", None, "pelo juiz", 11, "pelo juiz"),
    ("normal:0:9", "nove", "pelo juiz", 11, "nove aceito · pelo juiz"),
    ("onze_ganhou:0", None, None, 11, "mão de onze: quem tinha 11 jogou e ganhou"),
    ("onze_perdeu:1", None, None, 11, "mão de onze: quem tinha 11 jogou e perdeu"),
    ("onze_correu:1", None, None, 11, "mão de onze: quem tinha 11 correu"),
    ("onze_correu:0", None, None, 10, "mão de dez: quem tinha 10 correu"),
    (
        "onze_ganhou:1",
        None,
        "pelo juiz",
        10,
        "mão de dez: quem tinha 10 jogou e ganhou · pelo juiz",
    ),
    ("ferro:0", None, None, 11, None),
    ("ferro:1", None, "pelo juiz", 11, "pelo juiz"),
    ("anulada", None, None, 11, None),
    ("correcao:1:5", None, "esquecemos de marcar", 11, "esquecemos de marcar"),
    ("proxima_partida", None, None, 11, None),
    ("nova_serie", None, None, 11, None),
)


@pytest.mark.parametrize(("code", "note", "reason", "special_at", "expected"), DETAILS)
def test_the_detail_shows_only_what_adds_something(
    code: str, note: str | None, reason: str | None, special_at: int, expected: str | None
) -> None:
    """Never 'normal': how a mão de onze went, the note, the record's reason (if any)."""
    rec = entry(1, code, (0, 0), note=note, reason=reason)
    assert board_words.detail(rec, special_at) == expected


# --- the log, with undone entries -----------------------------------------------------------

LOG_TAPS = (
    "normal:0:9",
    "normal:1:1",
    "correcao:1:5",
    "anulada",
    "normal:0:1",
    "normal:0:1",
    "onze_correu:1",
    "onze_perdeu:1",
    "onze_correu:1",
    "onze_correu:1",
    "ferro:0",
    "proxima_partida",
    "normal:1:3",
)
LOG_EXTRA = {  # 1-based seq -> fields; the last two were undone (the hand, then the marker)
    1: {"note": "nove"},
    2: {"reason": "pelo juiz"},
    3: {"reason": "esquecemos de marcar"},
    12: {"status": UNDONE},
    13: {"status": UNDONE},
}


def log_board(names: tuple[str, str]) -> Board:
    """A game through a correction, a void hand, the mão de onze and the mão de ferro."""
    table = mesa(names)
    records: list[Entry] = []
    for seq, code in enumerate(LOG_TAPS, start=1):
        # the score right after the tap, when it was still active
        probe = [replace(r, status=ACTIVE) for r in records] + [entry(seq, code, (0, 0))]
        after = board_of(table, probe).state.points
        records.append(entry(seq, code, after, **LOG_EXTRA.get(seq, {})))
    return board_of(table, records)


def expected_log(a: str, b: str) -> list[str]:
    """The log of log_board, newest first, as the reader sees it."""
    return [
        f"{b} +3 (desfeito) 0 x 3 HH:MM",
        "Próxima partida (desfeito) 0 x 0 HH:MM",
        f"1.10 Mão de ferro para {a} 12 x 11 HH:MM",
        f"1.9 {b} +1 mão de onze: quem tinha 11 correu 11 x 11 HH:MM",
        f"1.8 {b} +1 mão de onze: quem tinha 11 correu 11 x 10 HH:MM",
        f"1.7 {b} +3 mão de onze: quem tinha 11 jogou e perdeu 11 x 9 HH:MM",
        f"1.6 {b} +1 mão de onze: quem tinha 11 correu 11 x 6 HH:MM",
        f"1.5 {a} +1 11 x 5 HH:MM",
        f"1.4 {a} +1 10 x 5 HH:MM",
        "1.3 Mão anulada 9 x 5 HH:MM",
        f"{b}: placar corrigido para 5 esquecemos de marcar 9 x 5 HH:MM",
        f"1.2 {b} +1 pelo juiz 9 x 1 HH:MM",
        f"1.1 {a} +9 nove aceito 9 x 0 HH:MM",
    ]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_log_lines_read_right_for_any_name(render_app: Flask, pair: tuple[str, str]) -> None:
    """The log: no 'normal' on every line, the kind only where it adds, undone marked alike."""
    shown = log_board(pair)
    with render_app.test_request_context():
        log = present.log_entries(shown.mesa, shown.recent, shown.numbers)
        html = render_template("mesa/_log.html", log=log)
    lines = log_lines(html, times=True)
    assert lines == [line.replace("HH:MM", "20:03") for line in expected_log(*pair)]
    assert not any("normal" in line or AGREEING.search(line) for line in lines)


# --- the live view: phase, winner and last-hand lines ---------------------------------------

TO_ELEVEN_A = ("normal:0:9", "normal:0:1", "normal:0:1")
TO_ELEVEN_B = ("normal:1:9", "normal:1:1", "normal:1:1")
TO_FERRO = ("normal:0:9", "normal:0:1", "normal:1:9", "normal:1:1", "normal:0:1", "onze_correu:1")

# (what is on the table, taps, the phase line, the last line) with {a} and {b} the team names.
LIVE = (
    ("fresh", (), "Mão normal", "Nenhuma mão marcada ainda."),
    ("hand", ("normal:1:3",), "Mão normal", "Última mão: {b} +3 · 20:03"),
    ("void", ("anulada",), "Mão normal", "Última mão: Mão anulada · 20:03"),
    ("onze-a", TO_ELEVEN_A, "Mão de onze · quem decide: {a}", "Última mão: {a} +1 · 20:03"),
    ("onze-b", TO_ELEVEN_B, "Mão de onze · quem decide: {b}", "Última mão: {b} +1 · 20:03"),
    (
        "ferro",
        TO_FERRO,
        "Mão de ferro: quem ganhar leva a partida",
        "Última mão: {b} +1 · mão de onze: quem tinha 11 correu · 20:03",
    ),
    (
        "ferro-won",
        (*TO_FERRO, "ferro:1"),
        "Partida para {b}!",
        "Última mão: Mão de ferro para {b} · 20:03",
    ),
    (
        "onze-won",
        (*TO_ELEVEN_A, "onze_ganhou:0"),
        "Partida para {a}!",
        "Última mão: {a} +3 · mão de onze: quem tinha 11 jogou e ganhou · 20:03",
    ),
    (
        "onze-lost",
        ("normal:1:9", *TO_ELEVEN_A, "onze_perdeu:1"),
        "Partida para {b}!",
        "Última mão: {b} +3 · mão de onze: quem tinha 11 jogou e perdeu · 20:03",
    ),
    ("next-game", ("normal:0:12", "proxima_partida"), "Mão normal", "Nova partida começou · 20:03"),
)
SERIES = (
    (
        "series-won",
        ("normal:0:12", "proxima_partida", "normal:0:12"),
        "Série para {a}!",
        "Última mão: {a} +12 · 20:03",
    ),
    (
        "new-series",
        ("normal:1:12", "proxima_partida", "normal:1:12", "nova_serie"),
        "Mão normal",
        "Nova série começou · 20:03",
    ),
)


def render_live(app: Flask, shown: Board, tv: bool = False) -> str:
    """The live fragment of a board, as a viewer's phone (or a TV) polls it."""
    with app.test_request_context():
        return render_template("share/_live.html", **live_context(shown, tv))


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize(
    ("best_of", "case"),
    [(0, case) for case in LIVE] + [(3, case) for case in SERIES],
    ids=lambda value: value[0] if isinstance(value, tuple) else None,
)
def test_live_view_lines_read_right_for_any_name(
    render_app: Flask,
    pair: tuple[str, str],
    best_of: int,
    case: tuple[str, tuple[str, ...], str, str],
) -> None:
    """The live view and TV mode: who decides, who won, and the last hand (never a marker)."""
    _, taps, phase, last = case
    a, b = pair
    shown = board(mesa(pair, best_of=best_of), *taps)
    for tv in (False, True):
        html = render_live(render_app, shown, tv)
        assert shown_text(html, "fase") == phase.format(a=a, b=b)
        assert shown_text(html, "ultima") == last.format(a=a, b=b)
        assert not AGREEING.search(text(html))


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_the_mao_de_onze_names_the_player_who_decides_and_the_mao_de_dez(
    render_app: Flask, pair: tuple[str, str]
) -> None:
    """In 2x2 with names the live view names the pair that decides together, in play order; a
    mão de dez says so."""
    a, b = pair
    named = mesa(pair, player_names=["Ana", "Bia", "Caio", "Os Zapeiros"])
    # first dealer seat 0; after three hands seat 3 deals, seat 0 (Ana, side 0) plays first
    html = render_live(render_app, board(named, *TO_ELEVEN_A))
    assert shown_text(html, "fase") == f"Mão de onze · decidem: Ana e Caio ({a})"
    dez = mesa(pair, special_at=10)
    html = render_live(render_app, board(dez, "normal:1:9", "normal:1:1"))
    assert shown_text(html, "fase") == f"Mão de dez · quem decide: {b}"


WINNERS = {  # name -> (game won, series won)
    "Nós": ("Partida para Nós!", "Série para Nós!"),
    "Eles": ("Partida para Eles!", "Série para Eles!"),
    "Ana": ("Partida para Ana!", "Série para Ana!"),
    "Os Zapeiros": ("Partida para Os Zapeiros!", "Série para Os Zapeiros!"),
}


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_winner_headings_read_right_for_any_name(pair: tuple[str, str]) -> None:
    """The headings of a won game and series (the board's and the live view's)."""
    for side, name in enumerate(pair):
        assert board_words.game_won_text(pair, side) == WINNERS[name][0]
        assert board_words.series_won_text(pair, side) == WINNERS[name][1]
    assert board_words.over_text(board(mesa(pair))) is None
    assert board_words.over_text(board(mesa(pair), "normal:1:12")) == WINNERS[pair[1]][0]
    series = board(mesa(pair, best_of=3), "normal:0:12", "proxima_partida", "normal:0:12")
    assert board_words.over_text(series) == WINNERS[pair[0]][1]


# --- the board's outcome buttons of the mão de onze and the mão de ferro -----------------------

# (taps, [(label, testid, css)]) with {a} and {b} the team names.
SPECIAL_TAPS = (
    (
        TO_ELEVEN_A,
        [
            ("Jogou e ganhou ({a} +3)", "onze-ganhou", "team-a"),
            ("Jogou e perdeu ({b} +3)", "onze-perdeu", "team-b"),
            ("Correu ({b} +1)", "onze-correu", "team-b"),
        ],
    ),
    (
        TO_ELEVEN_B,
        [
            ("Jogou e ganhou ({b} +3)", "onze-ganhou", "team-b"),
            ("Jogou e perdeu ({a} +3)", "onze-perdeu", "team-a"),
            ("Correu ({a} +1)", "onze-correu", "team-a"),
        ],
    ),
    (
        TO_FERRO,
        [
            ("Mão de ferro para {a}", "ferro-a", "team-a"),
            ("Mão de ferro para {b}", "ferro-b", "team-b"),
        ],
    ),
    (("normal:0:3",), []),
)


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize(
    ("taps", "expected"), SPECIAL_TAPS, ids=("onze-a", "onze-b", "ferro", "normal")
)
def test_special_buttons_name_and_colour_the_side_they_score_for(
    pair: tuple[str, str], taps: tuple[str, ...], expected: list[tuple[str, str, str]]
) -> None:
    """Each outcome button says whose points it adds and carries that side's colour class."""
    a, b = pair
    shown = [(t.label, t.testid, t.css) for t in present.special_taps(board(mesa(pair), *taps))]
    assert shown == [(label.format(a=a, b=b), testid, css) for label, testid, css in expected]
    assert not any(AGREEING.search(label) for label, _, _ in shown)


# --- the home page: who deals first --------------------------------------------------------


def test_home_offers_who_deals_first_beside_each_players_name(client: FlaskClient) -> None:
    """A 'dá as cartas primeiro' radio (pe = seat) follows each name field; seat 1 by default."""
    html = client.get("/").text
    assert '<select name="pe"' not in html and "Jogador 1</option>" not in html
    for seat in range(4):
        field = html.index(f'name="jogador_{seat}"')
        radio = html.index(f'name="pe" value="{seat}"')
        following = html.find('name="jogador_', field + 1)
        assert field < radio < (following if following > 0 else len(html))
        label = html[radio : html.index("</label>", radio)]
        assert text("<x " + label) == f"dá as cartas primeiro (jogador {seat + 1})"
    assert re.search(r'name="pe" value="0"[^>]*checked', html)
    assert not re.search(r'name="pe" value="[123]"[^>]*checked', html)


SEATS = {"jogador_0": "Ana", "jogador_1": "Os Zapeiros", "jogador_2": "Nós", "jogador_3": "Eles"}
DEALS = (  # (players, pe, the board's deal line)
    ("4", "0", "Dá as cartas (pé): Ana · Começa (mão): Os Zapeiros"),
    ("4", "1", "Dá as cartas (pé): Os Zapeiros · Começa (mão): Nós"),
    ("4", "2", "Dá as cartas (pé): Nós · Começa (mão): Eles"),
    ("4", "3", "Dá as cartas (pé): Eles · Começa (mão): Ana"),
    ("2", "0", "Dá as cartas (pé): Ana · Começa (mão): Os Zapeiros"),
    ("2", "1", "Dá as cartas (pé): Os Zapeiros · Começa (mão): Ana"),
)


@pytest.mark.parametrize(("players", "pe", "deal"), DEALS)
def test_the_dealer_chosen_beside_a_name_deals_first(
    client: FlaskClient, players: str, pe: str, deal: str
) -> None:
    """The seat whose radio was picked deals the first hand, in 2x2 and in 1x1."""
    token = open_table(
        client, jogadores=players, pe=pe, time_a="Os Zapeiros", time_b="Ana", **SEATS
    )
    assert by_testid(client.get(f"/m/{token}").text, "vez") == deal


@pytest.mark.parametrize("pe", ["2", "3"])
def test_a_1x1_table_refuses_a_dealer_from_seats_three_and_four(
    client: FlaskClient, pe: str
) -> None:
    """Seats 3 and 4 are 2x2 only: a clear refusal, the form kept, no table opened."""
    refused = client.post("/mesas", data={"jogadores": "2", "pe": pe, **SEATS})
    assert refused.status_code == 422
    message = "No 1x1 quem dá as cartas primeiro é o jogador 1 ou o jogador 2."
    assert shown_text(refused.text, "mensagem") == message
    assert re.search(rf'name="pe" value="{pe}"[^>]*checked', refused.text)
    assert 'value="Os Zapeiros"' in refused.text


# --- over HTTP: the live view, TV mode and the history ---------------------------------------


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_live_view_and_tv_mode_over_http_read_right(
    app: Flask, client: FlaskClient, pair: tuple[str, str]
) -> None:
    """A game to its end and the next one, seen from a viewer's link."""
    a, b = pair
    edit = open_table(client, time_a=a, time_b=b, serie="melhor_de_3")
    with app.app_context():
        view = db.session.execute(
            db.select(Mesa.view_token).filter_by(edit_token=edit)
        ).scalar_one()

    def live(line: str) -> list[str]:
        pages = [client.get(f"/v/{view}").text, client.get(f"/v/{view}?tv=1").text]
        return [re.sub(r"\d\d:\d\d$", "HH:MM", shown_text(html, line)) for html in pages]

    play(client, edit, *TO_ELEVEN_A)
    assert live("fase") == [f"Mão de onze · quem decide: {a}"] * 2
    play(client, edit, "onze_ganhou:0")
    assert live("fase") == [f"Partida para {a}!"] * 2
    assert (
        live("ultima")
        == [f"Última mão: {a} +3 · mão de onze: quem tinha 11 jogou e ganhou · HH:MM"] * 2
    )
    play(client, edit, "proxima_partida")
    assert live("fase") == ["Mão normal"] * 2
    assert live("ultima") == ["Nova partida começou · HH:MM"] * 2
    post(client, edit, "corrigir", lado="1", pontos="4", motivo="esquecemos de marcar")
    assert live("ultima") == [f"{b}: placar corrigido para 4 · esquecemos de marcar · HH:MM"] * 2


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_history_page_reads_right_with_undone_hands_and_markers(
    client: FlaskClient, pair: tuple[str, str]
) -> None:
    """The whole log: kinds only where they add, notes, reasons, and undone entries alike."""
    a, b = pair
    edit = open_table(client, time_a=a, time_b=b)
    tapped = play(client, edit, "normal:0:3").text
    record = re.search(r'name="registro" value="(\d+)"', tapped)
    assert record
    assert post(client, edit, "nota", registro=record.group(1), nota="truco").status_code == 200
    play(client, edit, "anulada", "normal:1:9", "normal:1:1", "normal:1:1")
    play(client, edit, "onze_correu:0", "onze_perdeu:0")
    assert post(client, edit, "desfazer").status_code == 200
    history = client.get(f"/m/{edit}/historico")
    assert history.status_code == 200
    assert log_lines(history.text) == [
        f"{a} +3 (desfeito) mão de onze: quem tinha 11 jogou e perdeu 7 x 11 HH:MM",
        f"1.6 {a} +1 mão de onze: quem tinha 11 correu 4 x 11 HH:MM",
        f"1.5 {b} +1 3 x 11 HH:MM",
        f"1.4 {b} +1 3 x 10 HH:MM",
        f"1.3 {b} +9 3 x 9 HH:MM",
        "1.2 Mão anulada 3 x 0 HH:MM",
        f"1.1 {a} +3 truco aceito 3 x 0 HH:MM",
    ]
    play(client, edit, "onze_ganhou:1", "proxima_partida")
    assert post(client, edit, "desfazer").status_code == 200
    lines = log_lines(client.get(f"/m/{edit}/historico").text)
    assert lines[0] == "Próxima partida (desfeito) 0 x 0 HH:MM"
    assert not any(
        "desfeita" in line or "normal" in line or AGREEING.search(line) for line in lines
    )


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_share_page_and_recent_tables_show_the_score_between_the_names(
    client: FlaskClient, pair: tuple[str, str]
) -> None:
    """'Os Zapeiros 3 x 1 Ana': the score sits between the names, no sentence to agree with."""
    a, b = pair
    edit = open_table(client, time_a=a, time_b=b)
    play(client, edit, "normal:0:3", "normal:1:1")
    share = client.get(f"/m/{edit}/compartilhar").text
    lead = re.search(r'<p class="lead">(.*?)</p>', share, re.S)
    assert lead and text(lead.group(1)) == f"{a} 3 x 1 {b}"
    recent = shown_text(client.get("/").text, "mesa-recente")
    assert re.fullmatch(rf"{re.escape(f'{a} 3 x 1 {b}')} aberta \d\d/\d\d \d\d:\d\d", recent)
