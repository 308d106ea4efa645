"""Against two real servers on one database (one worker each, as two processes of a deployment):
a client id sent again with another write, at a newer revision, is refused, and nothing of it
ever reaches another table, on either server."""

from __future__ import annotations

import uuid
from pathlib import Path

from ..web.helpers import scores
from .server import Scorer, make_tables, running


def test_a_replayed_client_id_on_one_server_never_reaches_a_table_on_another(
    database_url: str, tmp_path: Path
) -> None:
    """On server A a tap on table 1, then its client id again with another tap at the newer
    revision; server B taps table 2. Server A shows table 2 as B left it, a tap there on A
    stores the true score, and both servers agree on both tables."""
    (first, _), (second, _) = make_tables(database_url, 2)
    with running(database_url, tmp_path, workers=1) as one, running(
        database_url, tmp_path, workers=1
    ) as other:
        attacker, victim_a, victim_b = Scorer(one.url), Scorer(one.url), Scorer(other.url)
        attacker.open(first)
        cid = str(uuid.uuid4())
        assert attacker.post(first, "marcar", 0, cid=cid, o="normal:0:3").status_code == 200
        replayed = attacker.post(first, "marcar", 1, cid=cid, o="normal:0:1")
        victim_b.open(second)
        assert scores(victim_b.post(second, "marcar", 0, o="normal:1:3").text) == (0, 3)
        victim_a.open(second)
        assert scores(victim_a.get(f"{one.url}/m/{second}").text) == (0, 3)
        assert scores(victim_a.post(second, "marcar", 1, o="normal:1:1").text) == (0, 4)
        for server in (one, other):
            reader = Scorer(server.url)
            assert scores(reader.get(f"{server.url}/m/{first}").text) == (3, 0)
            assert scores(reader.get(f"{server.url}/m/{second}").text) == (0, 4)
        assert replayed.status_code == 422
