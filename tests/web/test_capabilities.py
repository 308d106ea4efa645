"""Every way into a table is a capability that can be taken back: "trocar links" revokes every
link that led to the table but its turma's scorer link, a turma changes its own links, every
way to open a table or a turma counts against one per-address limit, exports never carry a
spreadsheet formula, and the score's image is cached only at the revision it draws."""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.domain.turma.turmas import REMATCH_ELSEWHERE
from scorekeeper.extensions import db
from scorekeeper.models import Mesa, Turma
from scorekeeper.web.common.exports import FORMULA_STARTS

from .helpers import by_testid, new_turma, open_table, post, revision, tap, turma_rev


def token_after(response) -> str:  # type: ignore[no-untyped-def]
    """The table's or turma's token in a 303's Location."""
    assert response.status_code == 303, response.text
    found = re.search(r"/(?:m|turma)/([A-Za-z0-9_-]+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def rotate(client: FlaskClient, table: str) -> str:
    """'Trocar links' on a table; its new scorer token."""
    rev = revision(client, table)
    return token_after(client.post(f"/m/{table}/trocar-links", data={"rev": rev}))


# --- "Trocar links" revokes every way in ----------------------------------------------------


def test_a_rematch_whose_links_were_changed_is_not_reached_from_the_table_before_it(
    client: FlaskClient,
) -> None:
    """'Jogar de novo' on the previous table gives its one rematch, until the rematch's links
    are changed: then it is refused in pt-BR and the new scorer link appears nowhere."""
    first = open_table(client)
    rematch = token_after(client.post(f"/m/{first}/jogar-de-novo"))
    assert token_after(client.post(f"/m/{first}/jogar-de-novo")) == rematch  # a double tap
    renewed = rotate(client, rematch)
    again = client.post(f"/m/{first}/jogar-de-novo")
    assert again.status_code == 422 and renewed not in again.text
    assert by_testid(again.text, "mensagem") == REMATCH_ELSEWHERE
    assert client.get(f"/m/{renewed}").status_code == 200


def test_a_rematch_that_moved_to_another_turma_is_not_reached_from_the_first_turma(
    client: FlaskClient,
) -> None:
    """The turma's 'jogar de novo' gives the newest table's rematch, until that rematch moves to
    another turma: then the first turma's link no longer reaches it."""
    first = open_table(client)
    turma = new_turma(client, first)
    rematch = token_after(
        client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": turma_rev(client, turma)})
    )
    elsewhere = new_turma(client, open_table(client))
    moved = client.post(
        f"/m/{rematch}/turma",
        data={"rev": revision(client, rematch), "acao": "entrar", "link": elsewhere},
    )
    assert moved.status_code == 303
    refused = client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": turma_rev(client, turma)})
    assert refused.status_code == 422 and rematch not in refused.text
    assert by_testid(refused.text, "mensagem") == REMATCH_ELSEWHERE
    refused = client.post(f"/m/{first}/jogar-de-novo")
    assert refused.status_code == 422 and rematch not in refused.text


def test_the_turma_scorer_link_still_reaches_a_table_whose_links_were_changed(
    client: FlaskClient,
) -> None:
    """The turma's scorer link (the group's organiser) is the one way in that outlives a
    table's 'trocar links': its page links the table's new board."""
    table = open_table(client)
    turma = new_turma(client, table)
    renewed = rotate(client, table)
    page = client.get(f"/turma/{turma}").text
    assert f"/m/{renewed}" in page and f"/m/{table}" not in page


def test_a_turma_changes_its_own_links_and_the_old_ones_stop_at_once(
    app: Flask, client: FlaskClient
) -> None:
    """'Trocar links' on a turma's page: new scorer and viewer links, the old ones 404 (pages,
    exports, image, writes), the tables and statistics kept; a stale page changes nothing."""
    table = open_table(client)
    turma = new_turma(client, table)
    with app.app_context():
        held = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
        old_view = db.session.get(Turma, held.turma_id).view_token
    rev = turma_rev(client, turma)
    stale = client.post(f"/turma/{turma}/trocar-links", data={"rev": rev - 1})
    assert stale.status_code == 409 and client.get(f"/turma/{turma}").status_code == 200
    renewed = client.post(f"/turma/{turma}/trocar-links", data={"rev": rev})
    new = token_after(renewed)
    assert new != turma
    page = client.get(renewed.headers["Location"]).text
    assert by_testid(page, "links-trocados") and 'data-testid="turma-mesa"' in page
    for gone in (
        f"/turma/{turma}",
        f"/vt/{old_view}",
        f"/turma/{turma}/exportar.csv",
        f"/vt/{old_view}/exportar.json",
        f"/vt/{old_view}/imagem.png",
    ):
        assert client.get(gone).status_code == 404, gone
    assert client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": rev + 1}).status_code == 404
    assert old_view not in page


# --- One limit for every way to open a table or a turma --------------------------------------


@pytest.fixture
def limited(app: Flask) -> Flask:
    """The app with the open-table limit on, at 3 a minute per address."""
    return create_app({**app.config, "RATELIMIT_ENABLED": True, "OPEN_TABLE_LIMIT": "3/minute"})


def test_every_way_to_open_a_table_or_a_turma_counts_against_one_limit(limited: Flask) -> None:
    """A new table, 'jogar de novo' on a table and a new turma use up the same budget; then the
    turma's 'jogar de novo', a table's and a new table are all a pt-BR 429, while joining a
    turma (which opens nothing) and taps go on."""
    client = limited.test_client()
    first = open_table(client)
    rematch = token_after(client.post(f"/m/{first}/jogar-de-novo"))
    turma = new_turma(client, rematch)
    refused = [
        client.post(f"/turma/{turma}/jogar-de-novo", data={"rev": turma_rev(client, turma)}),
        client.post(f"/m/{first}/jogar-de-novo"),
        client.post("/mesas"),
        client.post(f"/m/{first}/turma", data={"rev": "0", "acao": "criar", "nome": "Outra"}),
    ]
    assert [r.status_code for r in refused] == [429] * 4
    assert all("Muitos pedidos" in r.text for r in refused)
    joined = client.post(
        f"/m/{first}/turma", data={"rev": revision(client, first), "acao": "entrar", "link": turma}
    )
    assert joined.status_code == 303
    assert tap(client, first, "normal:0:3").status_code == 200
    with limited.app_context():
        db.engine.dispose()


# --- Exports never carry a formula -----------------------------------------------------------

PAYLOADS = ("=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "=HYPERLINK(\"x\")")


def cells(text: str) -> list[str]:
    """Every cell of a CSV export (a byte-order mark, then cells separated by ';')."""
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";")
    return [cell for row in rows for cell in row]


def test_exports_neutralise_spreadsheet_formulas_in_every_text_column(
    client: FlaskClient,
) -> None:
    """Team and player names and correction reasons that a spreadsheet would run ('=', '+',
    '-', '@' first) go out in the table's and the turma's CSV with a leading apostrophe: shown
    as text, never run; numbers stay numbers."""
    table = open_table(
        client,
        time_a=PAYLOADS[0],
        time_b=PAYLOADS[1],
        jogador_0=PAYLOADS[2],
        jogador_1=PAYLOADS[3],
        jogador_2=PAYLOADS[4],
        jogador_3=PAYLOADS[0],
    )
    turma = new_turma(client, table)
    post(client, table, "corrigir", lado="0", pontos="5", motivo=PAYLOADS[1])
    post(client, table, "corrigir", lado="1", pontos="7", motivo=PAYLOADS[3])
    assert tap(client, table, "normal:0:12").status_code == 200  # the game is over
    with client.application.app_context():
        held = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
        turma_view = db.session.get(Turma, held.turma_id).view_token
    exports = [
        client.get(f"/m/{table}/exportar.csv").text,
        client.get(f"/turma/{turma}/exportar.csv").text,
        client.get(f"/vt/{turma_view}/exportar.csv").text,
    ]
    for text in exports:
        found = cells(text)
        assert not [cell for cell in found if cell.startswith(FORMULA_STARTS)], text
    table_cells = cells(exports[0])
    assert "'" + PAYLOADS[1] in table_cells and "'" + PAYLOADS[3] in table_cells
    assert any(cell.startswith("'" + PAYLOADS[2]) for cell in cells(exports[1]))
    assert "12" in table_cells  # a score is still a number


# --- The score's image is cached only at its revision ----------------------------------------


def test_the_score_image_is_kept_by_caches_only_at_the_revision_it_draws(
    app: Flask, client: FlaskClient
) -> None:
    """The live view's preview names the image at the table's revision, which caches may keep
    for good; the same image asked for without it (or at an old revision) is the score now,
    which no cache keeps."""
    table = open_table(client)
    tap(client, table, "normal:0:3")
    with app.app_context():
        view = db.session.execute(db.select(Mesa).filter_by(edit_token=table)).scalar_one()
    html = client.get(f"/v/{view.view_token}").text
    image = re.search(r'<meta property="og:image" content="[^"]*(/v/[^"]+)"', html)
    assert image and image.group(1).endswith("imagem.png?rev=1")
    current = client.get(image.group(1))
    assert current.status_code == 200 and "immutable" in current.headers["Cache-Control"]
    for other in (f"/v/{view.view_token}/imagem.png", f"/v/{view.view_token}/imagem.png?rev=0"):
        assert client.get(other).headers["Cache-Control"] == "no-cache"
    tap(client, table, "normal:1:1")
    assert client.get(image.group(1)).headers["Cache-Control"] == "no-cache"
