"""The turma's names as a bar's night has them: a name merged into another reads as the name
chosen everywhere the turma shows or exports it; a name edited on a table that has played is
either a typo fixed (every game of the table credited to the new name) or another person
sitting down (the games before the edit stay with who left, the game in play and the next ones
go to who came); and the turma's CSV credits every game to the names its statistics show."""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.mesa import InputError, service
from scorekeeper.domain.mesa.service import ASK_NAMES
from scorekeeper.domain.mesa.settings import TableSettings, folded
from scorekeeper.domain.turma import tallies, turmas
from scorekeeper.extensions import db
from scorekeeper.models import HandRecord, Mesa
from scorekeeper.rules import MatchState, RulesError
from scorekeeper.web.turma import present as turma_present

from ..profiles import examples
from .helpers import (
    by_testid,
    csv_rows_in,
    join_turma,
    new_turma,
    open_table,
    play,
    post,
    revision,
    turma_rev,
)
from .test_table_edit import edit

FIELD = {"jogador_0": "Zé", "jogador_1": "Tião", "jogador_2": "Bia", "jogador_3": "Duda"}
WIN_A, WIN_B = "normal:0:12", "normal:1:12"


def cards(html: str, testid: str) -> dict[str, tuple[int, int]]:
    """The statistics cards with this test id, by name: games and wins."""
    found = {}
    for card in re.findall(rf'data-testid="{testid}"([^>]*)>', html):
        data = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', card))
        found[data.get("nome") or data["nomes"]] = (int(data["partidas"]), int(data["vitorias"]))
    return found


def statistics(html: str) -> str:
    """The statistics part of a turma's page: its chart, lists and head-to-heads."""
    start = html.index('data-testid="estatisticas"')
    return html[start : html.index("</section>\n", html.index('data-testid="lista-confrontos"'))]


def turma_csv(client: FlaskClient, turma: str) -> list[dict[str, str]]:
    """The turma's CSV export, a dict a game."""
    return csv_rows_in(client.get(f"/turma/{turma}/exportar.csv").text)


def credited(rows: list[dict[str, str]]) -> tuple[dict[str, tuple[int, int]], ...]:
    """What the CSV credits, as the statistics count it: each player's and each pair's games
    and wins (a side 'Ana e Caio' is the pair and its two players; a side of one name, a
    player in 1x1). One side won each game: where both read the same (names merged into one
    lineup), the game is a win and a loss for it."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    pair_games: Counter[str] = Counter()
    pair_wins: Counter[str] = Counter()
    for row in rows:
        assert row["vencedor"] in (row["lado_1"], row["lado_2"])
        winner = "lado_1" if row["vencedor"] == row["lado_1"] else "lado_2"
        for side in ("lado_1", "lado_2"):
            won = side == winner
            if " e " in row[side]:
                pair_games[row[side]] += 1
                pair_wins[row[side]] += won
            for name in row[side].split(" e "):
                games[name] += 1
                wins[name] += won
    players = {name: (games[name], wins[name]) for name in games}
    pairs = {name: (pair_games[name], pair_wins[name]) for name in pair_games}
    return players, pairs


def played(cards_found: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """The cards of those who finished a game."""
    return {name: counts for name, counts in cards_found.items() if counts[0]}


def assert_csv_agrees(client: FlaskClient, turma: str) -> None:
    """The CSV credits each player and pair the games and wins the statistics page shows."""
    html = client.get(f"/turma/{turma}").text
    players, pairs = credited(turma_csv(client, turma))
    assert players == played(cards(html, "stats-jogador"))
    assert pairs == played(cards(html, "stats-dupla"))


# --- merging names -----------------------------------------------------------------------------


@pytest.mark.parametrize("stored", [False, True], ids=["newest-tables", "stored-tally"])
def test_merging_a_name_shows_the_name_chosen_in_every_statistic_and_export(
    app: Flask, monkeypatch: pytest.MonkeyPatch, stored: bool
) -> None:
    """Tião played the first table, Sebastião the second: "Contar Tião como Sebastião" makes
    every list, pair, head-to-head, chart bar and legend, list page, table line, merge choice
    and export read "Sebastião", the games of both counted; with the first tables in the stored
    tally too (the merge counts them again under the new key)."""
    if stored:
        monkeypatch.setattr(tallies, "KEEP_OPEN", 1)
    client = app.test_client()
    first = open_table(client, **FIELD)
    turma = new_turma(client, first, "Bar")
    play(client, first, WIN_A)
    second = open_table(client, **{**FIELD, "jogador_1": "Sebastião"})
    join_turma(client, second, turma)
    play(client, second, WIN_A)
    third = open_table(client, **{**FIELD, "jogador_1": "sebastião "})  # another spelling
    join_turma(client, third, turma)
    play(client, third, WIN_B)
    page = client.get(f"/turma/{turma}").text
    assert {"Tião", "Sebastião"} <= set(cards(page, "stats-jogador"))
    with app.app_context():
        stats_stored = db.session.execute(db.text("SELECT count(*) FROM turma_record")).scalar()
    assert bool(stats_stored) == stored

    options = dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', page))
    source = next(key for key, name in options.items() if name == "Tião")
    target = next(key for key, name in options.items() if name == "Sebastião")
    data = {"rev": turma_rev(client, turma), "de": source, "para": target}
    assert client.post(f"/turma/{turma}/juntar-nomes", data=data).status_code == 303

    page = client.get(f"/turma/{turma}").text
    shown = statistics(page)
    assert "Tião" not in shown and "sebastião" not in shown
    assert cards(page, "stats-jogador")["Sebastião"] == (3, 1)
    assert cards(page, "stats-dupla")["Sebastião e Duda"] == (3, 1)
    assert 'data-nomes="Zé e Bia x Sebastião e Duda" data-vitorias="2-1"' in page
    assert re.search(r'data-testid="grafico-barra"[^>]*data-nome="Sebastião e Duda"', page)
    assert "<span>Sebastião e Duda <b>1</b></span>" in page  # the chart's legend
    lines = re.findall(r'data-testid="turma-mesa-jogadores">([^<]*)<', page)
    assert lines == ["Zé e Bia x Sebastião e Duda"] * 3  # every table, whatever it typed
    assert "Tião" not in re.findall(r"<option[^>]*>([^<]+)</option>", page)
    listed = client.get(f"/turma/{turma}/estatisticas/jogadores").text
    assert "Tião" not in listed and cards(listed, "stats-jogador")["Sebastião"] == (3, 1)
    viewer = re.search(r'href="[^"]*/vt/([^"/]+)" data-testid="turma-link-assistir"', page)
    assert viewer and "Tião" not in statistics(client.get(f"/vt/{viewer.group(1)}").text)

    rows = turma_csv(client, turma)
    assert [row["lado_2"] for row in rows] == ["Sebastião e Duda"] * 3
    document = json.loads(client.get(f"/turma/{turma}/exportar.json").text)
    assert {p["nome"] for p in document["jogadores"]} == {"Zé", "Bia", "Sebastião", "Duda"}
    assert [m["lados"][1] for m in document["mesas"]] == ["Sebastião e Duda"] * 3
    assert {g["lado_2"] for g in document["partidas"]} == {"Sebastião e Duda"}
    assert_csv_agrees(client, turma)


def test_a_merge_into_a_name_merged_into_before_keeps_one_chosen_name(app: Flask) -> None:
    """Tião counted as Sebastião, then Sebastião as Seba: every spelling reads "Seba", the
    games of all three counted once."""
    client = app.test_client()
    first = open_table(client, jogadores="2", time_a="Tião", time_b="Beto")
    turma = new_turma(client, first, "Bar")
    play(client, first, WIN_A)
    for name in ("Sebastião", "Seba"):
        token = open_table(client, jogadores="2", time_a=name, time_b="Beto")
        join_turma(client, token, turma)
        play(client, token, WIN_A)
    for source, target in (("tião", "sebastião"), ("sebastião", "seba")):
        rev = turma_rev(client, turma)
        data = {"rev": rev, "de": source, "para": target}
        assert client.post(f"/turma/{turma}/juntar-nomes", data=data).status_code == 303
    page = client.get(f"/turma/{turma}").text
    assert set(cards(page, "stats-jogador")) == {"Seba", "Beto"}
    assert cards(page, "stats-jogador")["Seba"] == (3, 3)
    assert 'data-nomes="Seba x Beto" data-vitorias="3-0"' in page
    assert {row["vencedor"] for row in turma_csv(client, turma)} == {"Seba"}


# --- a name edited: a typo fixed, or another person -------------------------------------------


def settings_of(app: Flask, token: str) -> list[dict[str, object]]:
    """What the table's edit records keep, oldest first."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        texts = db.session.execute(
            db.select(HandRecord.settings)
            .filter_by(mesa_id=mesa.id, kind="mesa_editada")
            .order_by(HandRecord.seq)
        ).scalars()
        return [json.loads(text) for text in texts]


def test_the_edit_asks_typo_or_another_person_only_when_a_counted_name_changes_after_play(
    app: Flask,
) -> None:
    """A table that has not played changes names without a question; once it has played, the
    edit form carries the question (shown at once without JavaScript), a name changed without
    an answer is refused in pt-BR with the form as posted and nothing written, an answer no
    page offers too; the answer is kept in the edit's record. No question for the series, a
    team's name in 2x2, or players swapping seats."""
    client = app.test_client()
    token = open_table(client, **FIELD)
    assert 'data-testid="nomes-pergunta"' not in client.get(f"/m/{token}/editar").text
    assert edit(client, token, jogador_1="Tiao").status_code == 303
    assert settings_of(app, token)[-1].keys() == {"antes", "depois"}
    play(client, token, "normal:0:3")
    form = client.get(f"/m/{token}/editar").text
    question = re.search(r'<fieldset class="pick renames"[^>]*data-testid="nomes-pergunta"', form)
    assert question and "asked" not in question.group(0)
    assert 'value="corrigir"' in form and 'value="substituir"' in form
    assert "Corrigir o nome</b> (erro de digitação)" in form
    assert "Entrou outra pessoa no lugar</b>" in form

    rev = revision(client, token)
    refused = edit(client, token, jogador_1="Tião")
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == ASK_NAMES
    assert re.search(r'<fieldset class="pick renames asked"', refused.text)
    assert re.search(r'name="jogador_1"[^>]*value="Tião"', refused.text)
    assert 'id="nomes-falta"' in refused.text
    odd = edit(client, token, jogador_1="Tião", nomes="talvez")
    assert odd.status_code == 422 and by_testid(odd.text, "mensagem") == ASK_NAMES
    assert revision(client, token) == rev and len(settings_of(app, token)) == 1

    assert edit(client, token, jogador_1="Tião", nomes="corrigir").status_code == 303
    assert settings_of(app, token)[-1]["nomes"] == "corrigir"
    assert "Nomes mudados (erro de digitação): Tiao → Tião" in client.get(f"/m/{token}").text
    assert edit(client, token, serie="melhor_de_3").status_code == 303
    assert edit(client, token, time_a="Os Zapeiros").status_code == 303
    swapped = edit(client, token, jogador_0="Bia", jogador_2="Zé")
    assert swapped.status_code == 303
    kept = [edited.get("nomes") for edited in settings_of(app, token)]
    assert kept == [None, "corrigir", None, None, None]


def test_a_typo_fix_credits_every_game_of_the_table_to_the_new_name_and_undo_takes_it_back(
    app: Flask,
) -> None:
    """Tiao (a typo) played a game and half another: fixed to Tião mid-game, every game of the
    table is Tião's, no "Tiao" left in the statistics or the CSV; undoing the fix gives every
    game back to "Tiao", redoing it to Tião."""
    client = app.test_client()
    token = open_table(client, **{**FIELD, "jogador_1": "Tiao", "serie": "melhor_de_3"})
    turma = new_turma(client, token, "Bar")
    play(client, token, WIN_B, "proxima_partida", "normal:1:9")
    assert edit(client, token, jogador_1="Tião", nomes="corrigir").status_code == 303
    page = client.get(f"/turma/{turma}").text
    assert "Tiao" not in statistics(page)
    assert cards(page, "stats-jogador")["Tião"] == (1, 1)
    assert cards(page, "stats-dupla")["Tião e Duda"] == (1, 1)
    post(client, token, "desfazer")
    page = client.get(f"/turma/{turma}").text
    assert "Tião" not in statistics(page) and cards(page, "stats-jogador")["Tiao"] == (1, 1)
    post(client, token, "refazer")
    play(client, token, "normal:1:3")  # Tião finishes the game
    page = client.get(f"/turma/{turma}").text
    assert "Tiao" not in statistics(page)
    assert cards(page, "stats-jogador")["Tião"] == (2, 2)
    assert cards(page, "stats-dupla") == {"Zé e Bia": (2, 0), "Tião e Duda": (2, 2)}
    assert 'data-nomes="Zé e Bia x Tião e Duda" data-vitorias="0-2"' in page
    assert [row["lado_2"] for row in turma_csv(client, turma)] == ["Tião e Duda"] * 2
    assert_csv_agrees(client, turma)


def test_a_player_seated_mid_game_is_credited_with_the_game_in_play_and_the_next(
    app: Flask,
) -> None:
    """Zé and Bia win the first game; Zé leaves mid-second-game after a mão de onze his pair
    played and Rui sits down ("entrou outra pessoa"): the second game, finished by Rui, is
    Rui's; the first and the mão de onze stay Zé's. An edit right after a game's last hand,
    before "próxima partida", leaves that game with who played it. The CSV says the same."""
    client = app.test_client()
    token = open_table(client, **{**FIELD, "serie": "melhor_de_5"})
    turma = new_turma(client, token, "Bar")
    play(client, token, WIN_A, "proxima_partida")
    play(client, token, "normal:0:9", "normal:0:1", "normal:0:1", "onze_perdeu:1")
    assert edit(client, token, jogador_0="Rui", nomes="substituir").status_code == 303
    play(client, token, *["onze_perdeu:1"] * 3)  # Rui e Bia lose it from 11 x 3
    page = client.get(f"/turma/{turma}").text
    players = cards(page, "stats-jogador")
    assert players["Zé"] == (1, 1) and players["Rui"] == (1, 0) and players["Bia"] == (2, 1)
    pairs = cards(page, "stats-dupla")
    assert pairs["Zé e Bia"] == (1, 1) and pairs["Rui e Bia"] == (1, 0)
    onze = re.search(r'data-nomes="Zé e Bia"[^>]*data-onze="(\d+)"', page)
    assert onze and onze.group(1) == "1"
    rows = turma_csv(client, turma)
    assert [(row["lado_1"], row["vencedor"]) for row in rows] == [
        ("Zé e Bia", "Zé e Bia"),
        ("Rui e Bia", "Tião e Duda"),
    ]
    play(client, token, "proxima_partida", WIN_A)  # game 3 over: Rui e Bia won it
    assert edit(client, token, jogador_0="Zé", nomes="substituir").status_code == 303
    page = client.get(f"/turma/{turma}").text
    assert cards(page, "stats-jogador")["Rui"] == (2, 1)  # the game ended before the edit
    assert cards(page, "stats-jogador")["Zé"] == (1, 1)
    assert_csv_agrees(client, turma)


def test_a_1x1_teams_name_fixed_renames_the_player_of_every_game(app: Flask) -> None:
    """In 1x1 the team's name is its player's: "Ana" typed as "Anna" after two games, fixed,
    credits both games to Ana; unnamed seats given names as a fix credit the games played
    before to them."""
    client = app.test_client()
    token = open_table(client, jogadores="2", time_a="Anna", time_b="Beto")
    turma = new_turma(client, token, "Bar")
    play(client, token, WIN_A, "proxima_partida", WIN_B)
    assert edit(client, token, time_a="Ana", nomes="corrigir").status_code == 303
    page = client.get(f"/turma/{turma}").text
    assert set(cards(page, "stats-jogador")) == {"Ana", "Beto"}
    assert cards(page, "stats-jogador")["Ana"] == (2, 1)
    unnamed = open_table(client)
    join_turma(client, unnamed, turma)
    play(client, unnamed, WIN_A)
    named = {f"jogador_{seat}": name for seat, name in enumerate(("Ana", "Beto", "Caio", "Duda"))}
    assert edit(client, unnamed, **named, nomes="corrigir").status_code == 303
    page = client.get(f"/turma/{turma}").text
    assert cards(page, "stats-dupla")["Ana e Caio"] == (1, 1)
    assert_csv_agrees(client, turma)


# --- property: random edits and merges, the statistics a fold of the log, the CSV agreeing -----

Credits = tuple[dict[str, tuple[int, int]], dict[frozenset[str], tuple[int, int]]]
Game = tuple[tuple[str, ...], tuple[str, ...], int]  # each side's names, the winner
POOL = ("Ana", "Bia", "Caio", "Duda", "Edu", "Fê", "Gil", "Hugo")
EDIT = st.tuples(
    st.just("editar"),
    st.integers(0, 9),
    st.integers(0, 3),
    st.sampled_from(POOL),
    st.sampled_from(["corrigir", "substituir"]),
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("nova"), st.permutations(POOL)),
        st.tuples(st.just("marcar"), st.integers(0, 9), st.integers(0, 40)),
        st.tuples(st.just("marcar"), st.integers(0, 9), st.integers(0, 40)),
        st.tuples(st.just("partida"), st.integers(0, 9), st.integers(0, 1)),
        st.tuples(st.just("partida"), st.integers(0, 9), st.integers(0, 1)),
        EDIT,
        EDIT,
        st.tuples(st.just("desfazer"), st.integers(0, 9)),
        st.tuples(st.just("juntar"), st.sampled_from(POOL), st.sampled_from(POOL)),
        st.tuples(st.just("juntar"), st.sampled_from(POOL), st.sampled_from(POOL)),
        st.tuples(st.just("ver")),
    ),
    min_size=1,
    max_size=25,
)


def names_domain_step(
    app: Flask,
    turma: str,
    tokens: list[str],
    merges: dict[str, str],
    action: tuple,  # type: ignore[type-arg]
) -> None:
    """One step through the domain, as its route does it (the page read for its revision
    first); a refusal changes nothing. A merge applied goes in `merges` (folded names), the
    test's own account of them."""
    kind, *args = action
    if kind == "nova":
        settings = {"player_names": list(args[0][:4]), "players": 4, "best_of": 3}
        with app.app_context():
            token = service.open_table(settings).edit_token
            turmas.join_turma(token, 0, turma)
        tokens.append(token)
        return
    if kind == "ver":
        with app.app_context():
            turma_present.turma_view(turmas.scorer_turma(turma))
        return
    if kind == "juntar":
        source, target = folded(args[0]), folded(args[1])
        with app.app_context(), contextlib.suppress(InputError):
            row = turmas.scorer_turma(turma)
            wanted, known = turma_present.merge_of(row, source, target)
            turmas.merge_names(turma, row.revision, wanted, known)
            merges.update({k: target for k, v in merges.items() if v == source})
            merges[source] = target
            merges.pop(target, None)
        return
    token = tokens[args[0] % len(tokens)]
    with app.app_context():
        board = service.scorer_board(token)
    with app.app_context(), contextlib.suppress(RulesError):
        legal = board.state.legal_outcomes()
        if kind == "marcar" and legal:
            service.record_outcome(token, board.mesa.revision, legal[args[1] % len(legal)])
        elif kind == "partida" and legal:  # a game won at once, or the next one begun
            codes = (f"normal:{args[1]}:12", "proxima_partida", "nova_serie")
            chosen = [outcome for outcome in legal if outcome.code in codes]
            service.record_outcome(token, board.mesa.revision, (chosen or legal)[0])
        elif kind == "desfazer":
            service.undo(token, board.mesa.revision)
        else:  # one seat to a name not at the table: a typo fixed or another person
            names = list(board.mesa.player_names)
            if args[2] in names:
                return
            names[args[1]] = args[2]
            settings = {**TableSettings.of(board.mesa).columns(), "player_names": names}
            dealer = board.state.pe
            service.edit_table(token, board.mesa.revision, settings, dealer, None, args[3])


FIXED_AFTER_A_GAME: Game = ((), (), -1)  # a mark among the games: a name fixed after one


def fold_of_the_log(app: Flask, turma: str) -> list[Game]:
    """Every finished game of the turma, oldest table first, as the test reads the log: the
    names on each side and the winner. A game is credited to whoever sat when its last hand
    was recorded; an edit recorded as a typo fixed renames the old name in the table's games
    before it (and, for the test's statistics, puts FIXED_AFTER_A_GAME among the games)."""
    games = []
    with app.app_context():
        every = turmas.tables(turmas.scorer_turma(turma), None)
        for mesa in sorted(every, key=lambda m: m.id):
            records = [r for r in service.all_records(mesa) if r.status == "active"]
            edits = [json.loads(r.settings) for r in records if r.kind == "mesa_editada"]
            lineup = list(edits[0]["antes"]["player_names"] if edits else mesa.player_names)
            table: list[tuple[list[str], int]] = []
            before = None
            for record in records:
                if record.kind == "mesa_editada":
                    kept = json.loads(record.settings)
                    old, new = kept["antes"]["player_names"], kept["depois"]["player_names"]
                    if kept.get("nomes") == "corrigir":
                        games += [FIXED_AFTER_A_GAME] if table else []
                        fixes = {o: n for o, n in zip(old, new, strict=True) if o != n}
                        table = [([fixes.get(n, n) for n in seats], w) for seats, w in table]
                    lineup = list(new)
                state = MatchState.restore(mesa.match_config, list(record.state))
                ended = before is None or before.game_winner is None
                if state.game_winner is not None and ended:
                    table.append((list(lineup), state.game_winner))
                before = state
            games += [(tuple(seats[0::2]), tuple(seats[1::2]), winner) for seats, winner in table]
    return games


def expected(games: list[Game], merges: dict[str, str]) -> Credits:
    """Each player's and each pair's games and wins, names merged as `merges` say (the pool's
    names each have one spelling: a merged name reads as the pool's spelling of its target)."""
    spelled = {folded(name): name for name in POOL}

    def shown(name: str) -> str:
        key = folded(name)
        return spelled[merges.get(key, key)]

    players: dict[str, list[int]] = {}
    pairs: dict[frozenset[str], list[int]] = {}
    for *sides, winner in games:
        for side, seated in enumerate(sides):
            names = [shown(name) for name in seated]
            for name in names:
                counts = players.setdefault(name, [0, 0])
                counts[0] += 1
                counts[1] += side == winner
            counts = pairs.setdefault(frozenset(names), [0, 0])
            counts[0] += 1
            counts[1] += side == winner
    return (
        {name: (c[0], c[1]) for name, c in players.items()},
        {names: (c[0], c[1]) for names, c in pairs.items()},
    )


def statistics_read(app: Flask, turma: str) -> Credits:
    """Each player's and pair's games and wins as the turma's statistics give them (every table
    counted, the stored tally brought up to date), those who finished a game."""
    with app.app_context():
        standing = tallies.standing(turmas.scorer_turma(turma))
        players = {
            r.name: (r.games, r.wins) for r in standing.each("paulista", "players") if r.games
        }
        pairs = {
            frozenset(r.name.split(" e ")): (r.games, r.wins)
            for r in standing.each("paulista", "pairs")
            if r.games
        }
    return players, pairs


def csv_read(app: Flask, turma: str) -> Credits:
    """What the turma's CSV export credits each player and pair."""
    with app.app_context():
        found = turma_present.turma_games(turmas.scorer_turma(turma))
        rows = [dict(zip(turma_present.GAMES_HEADER, row, strict=True)) for row in found]
    players, pairs = credited(rows)
    return players, {frozenset(name.split(" e ")): counts for name, counts in pairs.items()}


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(  # a game, a typo fixed after it, the next game, the new name merged into another
    steps=[
        ("partida", 0, 0),
        ("editar", 0, 1, "Edu", "corrigir"),
        ("partida", 0, 1),
        ("partida", 0, 1),
        ("ver",),
        ("juntar", "Edu", "Ana"),
        ("ver",),
    ]
)
@example(  # another person mid-game, a second table, a merge, the newest game undone
    steps=[
        ("marcar", 0, 3),
        ("editar", 0, 0, "Gil", "substituir"),
        ("partida", 0, 0),
        ("nova", ("Gil", "Hugo", "Bia", "Caio", "Ana", "Duda", "Edu", "Fê")),
        ("partida", 1, 1),
        ("juntar", "Gil", "Bia"),
        ("ver",),
        ("desfazer", 0),
    ]
)
@example(  # a game, then both sides merged into one pair: it played itself, won once
    steps=[("partida", 0, 0), ("juntar", "Ana", "Bia"), ("juntar", "Caio", "Duda")]
)
@given(steps=STEPS)
def test_after_any_edits_and_merges_the_statistics_and_the_csv_equal_a_fold_of_the_log(
    app: Flask, monkeypatch: pytest.MonkeyPatch, steps: list[tuple]  # type: ignore[type-arg]
) -> None:
    """After any sequence of tables, taps, undos, names edited mid-game (typos fixed or another
    person seated), merges and page views (a tally stored in steps), each player's and pair's
    games and wins in the statistics equal a fold of the log the test makes itself, and the
    CSV credits them the same."""
    monkeypatch.setattr(tallies, "KEEP_OPEN", 1)
    monkeypatch.setattr(tallies, "STEP", 2)
    first = {"player_names": list(POOL[:4]), "players": 4, "best_of": 3}
    with app.app_context():
        token = service.open_table(first).edit_token
        turma = turmas.create_turma(token, 0, "Bar").edit_token
    tokens, merges = [token], {}
    for action in steps:
        names_domain_step(app, turma, tokens, merges, action)
    games = fold_of_the_log(app, turma)
    event("a name fixed after a game" if FIXED_AFTER_A_GAME in games else "no name fixed")
    games = [game for game in games if game != FIXED_AFTER_A_GAME]
    event(f"games finished: {min(len(games), 3)}{'+' if len(games) >= 3 else ''}")
    event("names merged" if merges else "no merge")
    want = expected(games, merges)
    assert statistics_read(app, turma) == want
    assert csv_read(app, turma) == want
