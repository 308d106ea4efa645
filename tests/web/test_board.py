"""The scorer's board: opening a table, taps, special hands, undo/redo, deal, log, refusals."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Mesa

from .helpers import HX, by_testid, open_table, play, post, records, revision, scores, tap

TO_ELEVEN = ("normal:0:9", "normal:0:1", "normal:0:1")  # Nós 11 x 0 in three hands
TO_FERRO = (  # 10 x 10, then Nós reach 11 and run from their mão de onze: 11 x 11
    "normal:0:9", "normal:0:1", "normal:1:9", "normal:1:1", "normal:0:1", "onze_correu:1",
)


def test_nova_mesa_opens_a_default_table_and_goes_to_its_board(client: FlaskClient) -> None:
    """One tap opens a 2x2 table 'Nós' x 'Eles' at 0 x 0 with the +N buttons."""
    home = client.get("/")
    assert 'data-testid="nova-mesa"' in home.text
    token = open_table(client)
    board = client.get(f"/m/{token}")
    assert board.status_code == 200
    assert scores(board.text) == (0, 0)
    assert "Nós" in board.text and "Eles" in board.text
    for value in (1, 3, 6, 9, 12):
        assert f">+{value}</button>" in board.text
    assert by_testid(board.text, "series-a") == "0"


def test_scorer_token_has_at_least_128_bits(app: Flask, client: FlaskClient) -> None:
    """The scorer link is unguessable: 24 random bytes, url-safe."""
    token = open_table(client)
    assert len(token) >= 32
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa)).scalar_one()
        assert mesa.view_token != mesa.edit_token and len(mesa.view_token) >= 32


def test_home_lists_the_tables_this_browser_opened_newest_first(client: FlaskClient) -> None:
    """Resume a table from the home page."""
    first = open_table(client, time_a="Primeira")
    second = open_table(client, time_a="Segunda")
    html = client.get("/").text
    assert html.index(f"/m/{second}") < html.index(f"/m/{first}")


def test_options_set_teams_players_series_and_dealer(client: FlaskClient) -> None:
    """The folded-away options: names, 1x1, best of 3, who deals first."""
    token = open_table(
        client, jogadores="2", time_a="Ana", time_b="Bia", jogador_0="Ana", jogador_1="Bia",
        pe="1", serie="melhor_de_3",
    )
    html = client.get(f"/m/{token}").text
    assert "Melhor de 3" in html
    assert "Dá as cartas (pé): Bia · Começa (mão): Ana" in html


def test_new_table_with_overlong_name_is_refused_in_portuguese(
    app: Flask, client: FlaskClient
) -> None:
    """A name longer than the limit is refused with a pt-BR message and no table is made."""
    response = client.post("/mesas", data={"time_a": "x" * 200})
    assert response.status_code == 422
    assert "muito longo" in (by_testid(response.text, "mensagem") or "")
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Mesa)).scalar() == 0


def test_tap_adds_the_hand_value_and_bumps_the_revision(client: FlaskClient) -> None:
    """Nós +3: the score shows 3 x 0 and the revision grows by one."""
    token = open_table(client)
    before = revision(client, token)
    response = tap(client, token, "normal:0:3")
    assert response.status_code == 200
    assert scores(response.text) == (3, 0)
    assert revision(client, token) == before + 1
    assert "Nós +3" in (by_testid(response.text, "confirmacao") or response.text)


def test_stale_revision_is_refused_with_409_and_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Another phone tapped first: the old revision gets 409, the fresh board, a message."""
    token = open_table(client)
    rev = revision(client, token)
    assert tap(client, token, "normal:0:3", rev).status_code == 200
    stale = tap(client, token, "normal:1:1", rev)
    assert stale.status_code == 409
    assert "mudou em outro aparelho" in (by_testid(stale.text, "mensagem") or "")
    assert scores(stale.text) == (3, 0)
    assert len(records(app, token)) == 1


def test_double_tap_with_the_same_revision_counts_once(app: Flask, client: FlaskClient) -> None:
    """A retried request carries the same revision and is not counted twice."""
    token = open_table(client)
    rev = revision(client, token)
    codes = [tap(client, token, "normal:1:6", rev).status_code for _ in range(3)]
    assert codes == [200, 409, 409]
    assert scores(client.get(f"/m/{token}").text) == (0, 6)


def test_illegal_taps_are_refused_in_portuguese_and_change_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Unknown outcome, a side that does not exist, a value that is no hand value, garbage."""
    token = open_table(client)
    for code in ("normal:0:2", "normal:2:3", "normal:0:13", "bogus", "correcao:0:5", "ferro:0",
                 "onze_ganhou:0", "proxima_partida", "", "normal:x:3", "normal:0:3:1"):
        response = tap(client, token, code)
        assert response.status_code == 422, code
        assert by_testid(response.text, "mensagem"), code
    bad_rev = post(client, token, "marcar", o="normal:0:3", rev=None)
    assert bad_rev.status_code == 200  # sanity: a good tap still works after the refusals
    garbage = client.post(f"/m/{token}/marcar", data={"rev": "abc", "o": "normal:0:1"}, headers=HX)
    assert garbage.status_code == 422
    assert [r.kind for r in records(app, token)] == ["normal"]
    assert revision(client, token) == 1


def test_points_above_twelve_do_not_count_and_the_game_ends(client: FlaskClient) -> None:
    """/regras#pontos: first to 12 wins; points above 12 do not count."""
    token = open_table(client)
    html = play(client, token, "normal:1:9", "normal:1:12").text
    assert scores(html) == (0, 12)
    assert by_testid(html, "series-b") == "1"
    assert 'data-testid="proxima-partida"' in html
    assert ">+1</button>" not in html
    refused = tap(client, token, "normal:0:1")
    assert refused.status_code == 422
    assert "acabou" in (by_testid(refused.text, "mensagem") or "")


def test_next_game_starts_at_zero_and_keeps_the_tally(client: FlaskClient) -> None:
    """/regras#pontos: each new game starts at 0 x 0."""
    token = open_table(client)
    html = play(client, token, "normal:0:12", "proxima_partida").text
    assert scores(html) == (0, 0)
    assert by_testid(html, "series-a") == "1"
    assert "Partida 2" in html


def test_mao_de_onze_offers_only_its_outcomes(client: FlaskClient) -> None:
    """/regras#mao-de-onze: play (worth 3) or run (opponents +1), no truco."""
    token = open_table(client)
    html = play(client, token, *TO_ELEVEN).text
    assert scores(html) == (11, 0)
    for hook in ("onze-ganhou", "onze-perdeu", "onze-correu", "anulada"):
        assert f'data-testid="{hook}"' in html
    assert ">+6</button>" not in html and ">+1</button>" not in html
    assert "Não tem truco" in html
    assert "parceiros podem mostrar" in html
    refused = tap(client, token, "normal:1:6")
    assert refused.status_code == 422
    assert "Mão de onze" in (by_testid(refused.text, "mensagem") or "")


def test_mao_de_onze_played_and_won_gives_three_and_the_game(client: FlaskClient) -> None:
    """/regras#mao-de-onze: if played, the hand is worth 3."""
    token = open_table(client)
    html = play(client, token, *TO_ELEVEN, "onze_ganhou:0").text
    assert scores(html) == (12, 0)
    assert 'data-testid="proxima-partida"' in html


def test_mao_de_onze_played_and_lost_gives_opponents_three(client: FlaskClient) -> None:
    """/regras#mao-de-onze: a played and lost hand gives the other side 3."""
    token = open_table(client)
    assert scores(play(client, token, *TO_ELEVEN, "onze_perdeu:1").text) == (11, 3)


def test_mao_de_onze_run_from_gives_opponents_one(client: FlaskClient) -> None:
    """/regras#mao-de-onze: running gives the opponents 1 point."""
    token = open_table(client)
    assert scores(play(client, token, *TO_ELEVEN, "onze_correu:1").text) == (11, 1)


def test_mao_de_onze_in_one_on_one_does_not_mention_partners(client: FlaskClient) -> None:
    """/regras#mao-de-onze: partners see each other's cards only in 2x2."""
    token = open_table(client, jogadores="2")
    assert "parceiros" not in play(client, token, *TO_ELEVEN).text


def test_mao_de_ferro_offers_only_the_two_winners_and_void(client: FlaskClient) -> None:
    """/regras#mao-de-ferro: 11 x 11 is worth 1, no truco, blind."""
    token = open_table(client)
    html = play(client, token, *TO_FERRO).text
    assert scores(html) == (11, 11)
    assert 'data-testid="ferro-a"' in html and 'data-testid="ferro-b"' in html
    assert 'data-testid="onze-ganhou"' not in html and ">+1</button>" not in html
    assert "Vale 1, sem truco, às cegas." in html
    assert "às cegas: ninguém vê as próprias cartas" in html
    assert "no escuro" not in html  # the variant that hides the vira too (/regras#mao-de-ferro)
    done = play(client, token, "ferro:1").text
    assert scores(done) == (11, 12)
    assert by_testid(done, "series-b") == "1"


def test_mao_de_ferro_as_claras_says_so(client: FlaskClient) -> None:
    """/regras#mao-de-ferro: option 'às claras'."""
    token = open_table(client, ferro="claras")
    html = play(client, token, *TO_FERRO).text
    assert "às claras" in html


def test_void_hand_scores_nothing_but_moves_the_deal(client: FlaskClient) -> None:
    """/regras#rodadas-e-empates: three tied rounds, nobody scores; the deal moves on."""
    token = open_table(client, jogador_0="A", jogador_1="B", jogador_2="C", jogador_3="D")
    html = client.get(f"/m/{token}").text
    assert "Dá as cartas (pé): A · Começa (mão): B" in html
    html = play(client, token, "anulada").text
    assert scores(html) == (0, 0)
    assert "Dá as cartas (pé): B · Começa (mão): C" in html


def test_deal_passes_every_hand_and_undo_moves_it_back(client: FlaskClient) -> None:
    """/regras#rodadas-e-empates: each new hand the mão passes to the next player."""
    token = open_table(client, jogador_0="A", jogador_1="B", jogador_2="C", jogador_3="D", pe="3")
    assert "Começa (mão): A" in client.get(f"/m/{token}").text
    html = play(client, token, "normal:0:1", "normal:1:3", "normal:0:1").text
    assert "Dá as cartas (pé): C · Começa (mão): D" in html
    undone = post(client, token, "desfazer").text
    assert "Dá as cartas (pé): B · Começa (mão): C" in undone


def test_without_names_the_board_says_which_side_deals(client: FlaskClient) -> None:
    """The deal alternates sides when no player names are set."""
    token = open_table(client)
    assert "Dá as cartas: Nós" in client.get(f"/m/{token}").text
    assert "Dá as cartas: Eles" in play(client, token, "normal:0:1").text


def test_undo_goes_back_to_the_start_across_games(client: FlaskClient) -> None:
    """Undo again and again, through the next-game marker, back to 0 x 0 of game 1."""
    token = open_table(client)
    play(client, token, "normal:0:3", "normal:0:9", "proxima_partida", "normal:1:1")
    expected = [(0, 0), (12, 0), (3, 0), (0, 0)]
    for want in expected:
        html = post(client, token, "desfazer").text
        assert scores(html) == want
    assert "Partida 1" in html
    refused = post(client, token, "desfazer")
    assert refused.status_code == 422
    assert "Não há mão para desfazer" in (by_testid(refused.text, "mensagem") or "")


def test_undoing_next_game_shows_the_finished_game_and_the_next_undo_reopens_it(
    client: FlaskClient,
) -> None:
    """One undo takes back one recorded step: first the 'Próxima partida' marker (the finished
    game is shown again), then the winning hand (the game reopens)."""
    token = open_table(client)
    play(client, token, "normal:0:3", "normal:0:9", "proxima_partida")
    html = post(client, token, "desfazer").text
    assert scores(html) == (12, 0)
    assert by_testid(html, "series-a") == "1"
    assert 'data-testid="proxima-partida"' in html
    html = post(client, token, "desfazer").text
    assert scores(html) == (3, 0)
    assert by_testid(html, "series-a") == "0"
    assert ">+1</button>" in html


def test_one_redo_brings_back_exactly_what_the_last_undo_took(client: FlaskClient) -> None:
    """After a mão de ferro win and 'Próxima partida': undo, undo, redo, redo walk the same two
    steps back and forth (the marker alone, then the winning hand)."""
    token = open_table(client)
    play(client, token, *TO_FERRO, "ferro:0", "proxima_partida")
    assert scores(post(client, token, "desfazer").text) == (12, 11)
    assert scores(post(client, token, "desfazer").text) == (11, 11)
    redone = post(client, token, "refazer").text
    assert scores(redone) == (12, 11) and 'data-testid="proxima-partida"' in redone
    assert scores(post(client, token, "refazer").text) == (0, 0)


def test_redo_brings_back_undone_hands_until_a_new_hand(client: FlaskClient) -> None:
    """Redo restores undone hands in order; recording a new hand drops the rest."""
    token = open_table(client)
    play(client, token, "normal:0:1", "normal:1:3", "normal:0:6")
    for _ in range(3):
        post(client, token, "desfazer")
    assert scores(post(client, token, "refazer").text) == (1, 0)
    assert scores(post(client, token, "refazer").text) == (1, 3)
    html = play(client, token, "normal:1:12").text
    assert 'data-testid="refazer" disabled' in html
    refused = post(client, token, "refazer")
    assert refused.status_code == 422
    assert scores(refused.text) == (1, 12)


def test_log_lists_every_hand_with_undone_ones_struck_through(client: FlaskClient) -> None:
    """The log: number, side, points, kind, score after; undone hands struck through."""
    token = open_table(client)
    play(client, token, "normal:0:3", "anulada", "normal:1:1")
    html = post(client, token, "desfazer").text
    entries = re.findall(r'<li class="(active|undone)" data-testid="registro">', html)
    assert entries == ["undone", "active", "active"]
    assert "<s>Eles +1</s>" in html
    assert "Mão anulada" in html and "3 x 0" in html
    assert "<svg" in html and "polyline" in html


def test_note_after_a_tap_is_shown_in_the_log(app: Flask, client: FlaskClient) -> None:
    """After +3 the scorer may note 'correram do seis'; it shows in the log."""
    token = open_table(client)
    response = tap(client, token, "normal:1:3")
    assert "correram do seis" in response.text and "truco aceito" in response.text
    record_id = records(app, token)[0].id
    noted = post(client, token, "nota", registro=str(record_id), nota="correram_seis")
    assert noted.status_code == 200
    assert "correram do seis" in noted.text
    assert records(app, token)[0].note == "correram_seis"
    wrong = post(client, token, "nota", registro=str(record_id), nota="doze")
    assert wrong.status_code == 422


def test_a_note_goes_only_on_the_newest_hand(app: Flask, client: FlaskClient) -> None:
    """The board offers notes for the last hand only, and the server holds to it: a note for
    an older hand is refused in pt-BR and changes nothing; once that hand is the newest again
    (the one after it undone), it takes the note."""
    token = open_table(client)
    play(client, token, "normal:1:3", "normal:0:1")
    older = records(app, token)[0]
    refused = post(client, token, "nota", registro=str(older.id), nota="truco")
    assert refused.status_code == 422
    assert by_testid(refused.text, "mensagem") == "A observação vai só na última mão do placar."
    assert records(app, token)[0].note is None
    assert post(client, token, "desfazer").status_code == 200
    noted = post(client, token, "nota", registro=str(older.id), nota="truco")
    assert noted.status_code == 200 and records(app, token)[0].note == "truco"


def test_correction_sets_points_with_a_required_reason(app: Flask, client: FlaskClient) -> None:
    """'Corrigir placar' sets a side's points, needs a reason, and is logged as a correction."""
    token = open_table(client)
    missing = post(client, token, "corrigir", lado="0", pontos="5", motivo="")
    assert missing.status_code == 422
    too_high = post(client, token, "corrigir", lado="0", pontos="12", motivo="erro")
    assert too_high.status_code == 422
    done = post(client, token, "corrigir", lado="1", pontos="7", motivo="esquecemos uma mão")
    assert done.status_code == 200
    assert scores(done.text) == (0, 7)
    assert "Eles: placar corrigido para 7" in done.text and "esquecemos uma mão" in done.text
    assert [r.kind for r in records(app, token)] == ["correcao"]


def test_best_of_three_ends_at_two_wins_and_offers_a_new_series(client: FlaskClient) -> None:
    """/regras#pontos (the queda): best of 3 goes to the first with 2 games."""
    token = open_table(client, serie="melhor_de_3")
    html = play(client, token, "normal:0:12", "proxima_partida", "normal:0:12").text
    assert by_testid(html, "series-a") == "2"
    assert 'data-testid="nova-serie"' in html and "Série para Nós!" in html
    assert tap(client, token, "proxima_partida").status_code == 422
    fresh = play(client, token, "nova_serie").text
    assert scores(fresh) == (0, 0) and by_testid(fresh, "series-a") == "0"


def test_best_of_five_needs_three_wins(client: FlaskClient) -> None:
    """/regras#pontos: best of 5 goes to the first with 3 games."""
    token = open_table(client, serie="melhor_de_5")
    html = play(
        client, token, "normal:0:12", "proxima_partida", "normal:1:12", "proxima_partida",
        "normal:0:12",
    ).text
    assert 'data-testid="proxima-partida"' in html and "nova-serie" not in html


def test_plain_form_post_without_javascript_redirects_to_the_board(client: FlaskClient) -> None:
    """Without htmx, a tap is POST, redirect, GET."""
    token = open_table(client)
    response = client.post(f"/m/{token}/marcar", data={"rev": "0", "o": "normal:0:1"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/m/{token}")
    stale = client.post(f"/m/{token}/marcar", data={"rev": "0", "o": "normal:0:1"})
    assert stale.status_code == 409 and "<html" in stale.text


def test_poll_answers_204_while_unchanged_and_the_board_after_a_change(client: FlaskClient) -> None:
    """The scorer's board follows another phone by polling with its revision."""
    token = open_table(client)
    unchanged = client.get(f"/m/{token}/placar?rev=0")
    assert unchanged.status_code == 204 and unchanged.data == b""
    tap(client, token, "normal:0:3")
    changed = client.get(f"/m/{token}/placar?rev=0")
    assert changed.status_code == 200 and scores(changed.text) == (3, 0)


def test_unknown_token_is_a_portuguese_404(client: FlaskClient) -> None:
    """A made-up scorer link is a 404 page in pt-BR, for pages and writes."""
    assert "não existe" in client.get("/m/inventado").text
    assert client.get("/m/inventado").status_code == 404
    refused = client.post("/m/inventado/marcar", data={"rev": "0", "o": "normal:0:1"})
    assert refused.status_code == 404


def test_names_are_escaped(client: FlaskClient) -> None:
    """HTML in a team name is shown as text."""
    token = open_table(client, time_a="<script>x</script>")
    html = client.get(f"/m/{token}").text
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html


def test_chart_draws_only_the_current_game(client: FlaskClient) -> None:
    """The score chart starts again at 0 x 0 with each new game."""
    token = open_table(client)
    html = play(client, token, "normal:0:12", "proxima_partida", "normal:1:3").text
    assert "1 mão</figcaption>" in html
    points_b = re.search(r'<polyline points="([^"]+)" class="line-b"', html)
    assert points_b and points_b.group(1).split() == ["0,96", "300,72"]


def test_board_shows_the_newest_thirty_entries_and_links_the_whole_log(
    client: FlaskClient,
) -> None:
    """The board keeps its log short; 'Ver o histórico completo' lists every hand."""
    token = open_table(client)
    play(client, token, *(["anulada"] * 32))
    html = client.get(f"/m/{token}").text
    assert html.count('data-testid="registro"') == 30
    assert "Histórico (32)" in html and 'data-testid="historico-completo"' in html
    whole = client.get(f"/m/{token}/historico")
    assert whole.status_code == 200
    assert whole.text.count('data-testid="registro"') == 32


def test_mao_de_ferro_no_escuro_is_a_table_option(client: FlaskClient) -> None:
    """/regras#mao-de-ferro, the variant no escuro: the vira stays hidden until the first
    cards are down."""
    token = open_table(client, ferro="escuro")
    html = play(client, token, *TO_FERRO).text
    assert "a vira só aparece com as cartas da 1ª rodada na mesa" in html
    refused = client.post("/mesas", data={"ferro": "meia-luz"})
    assert refused.status_code == 422


def test_mao_de_onze_names_the_pair_that_decides_in_2x2(client: FlaskClient) -> None:
    """/regras#mao-de-onze: in 2x2 the partners see each other's cards and decide together
    ("Decidem: C e A"); the side's first player in play order says the decision."""
    token = open_table(
        client, jogador_0="A", jogador_1="B", jogador_2="C", jogador_3="D", pe="1"
    )
    html = play(client, token, *TO_ELEVEN).text
    assert "Começa (mão): B" in html  # play order B, C, D, A: C is Nós's first player
    assert "Decidem: C e A." in html
    assert "quem diz a decisão é C, o primeiro do lado a jogar" in html


def test_without_javascript_the_recorded_hand_shows_after_the_redirect(
    client: FlaskClient,
) -> None:
    """POST, redirect, GET: the board's feedback slot then says what was recorded; a message
    (here an undo's) follows the redirect once."""
    token = open_table(client)
    client.post(f"/m/{token}/marcar", data={"rev": "0", "o": "normal:1:3"})
    html = client.get(f"/m/{token}").text
    assert by_testid(html, "confirmacao") == "✓ Eles +3"
    client.post(f"/m/{token}/desfazer", data={"rev": "1"})
    assert by_testid(client.get(f"/m/{token}").text, "mensagem") == "Desfeito: Eles +3."
    assert by_testid(client.get(f"/m/{token}").text, "mensagem") is None


def test_the_chart_draws_the_current_games_score_after_each_hand(client: FlaskClient) -> None:
    """The chart: one point per hand of the current game from 0 x 0, evenly spread over its
    width, each side's height its points (12 at the top); a new game starts with none."""
    token = open_table(client)
    for code in ("normal:0:3", "anulada", "normal:1:1"):
        assert tap(client, token, code).status_code == 200
    page = client.get(f"/m/{token}").text
    a, b = (re.search(rf'points="([^"]*)" class="line-{side}"', page) for side in "ab")
    assert a and b
    assert a.group(1) == "0,96 100,72 200,72 300,72"
    assert b.group(1) == "0,96 100,96 200,96 300,88"
    for code in ("normal:0:9", "proxima_partida"):
        assert tap(client, token, code).status_code == 200
    assert "<polyline" not in client.get(f"/m/{token}").text  # no hand of the new game yet
