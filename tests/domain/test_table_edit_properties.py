"""Property: edits of a table's names and options, interleaved with taps, corrections, undos and
redos, keep the board equal to the fold of the log, and the table's settings those the log's
newest active edit made (else those it was opened with)."""

from __future__ import annotations

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.domain.mesa import TableSettings, board, service
from scorekeeper.domain.mesa.settings import NAME_CHANGES, edit_of
from scorekeeper.extensions import db
from scorekeeper.models import ACTIVE, ENTRY_COLUMNS, HandRecord, Mesa, entry
from scorekeeper.rules import BEST_OF, Kind, RulesError

from ..profiles import examples
from ..web.helpers import Action, boards, domain_step, kept_board, same

TEAMS = ("Nós", "Eles", "Os Zapeiros", "Patos")
PLAYERS = ("", "Ana", "Beto", "Caio", "Duda")
EDITS = st.fixed_dictionaries(
    {
        "players": st.sampled_from([4, 2]),
        "best_of": st.sampled_from([0, 3, 5]),
        "special_at": st.sampled_from([11, 10]),
        "ferro_mode": st.sampled_from(["cegas", "claras", "escuro"]),
        "deck": st.sampled_from(["sujo", "limpo"]),
        "manilhas": st.just("variavel"),
        "tie_opener": st.just("mao"),
        "team_a": st.sampled_from(TEAMS[:2]),
        "team_b": st.sampled_from(TEAMS[2:]),
        "player_names": st.lists(st.sampled_from(PLAYERS), min_size=4, max_size=4),
        "dealer": st.integers(min_value=0, max_value=3),
        "names": st.sampled_from(NAME_CHANGES),  # a typo fixed or another person, if asked
    }
)
UNDO_REDO = st.sampled_from(["desfazer", "refazer"])
ACTIONS = st.lists(
    st.one_of(
        st.integers(min_value=0, max_value=40),
        UNDO_REDO,
        UNDO_REDO,  # twice as likely: edits get undone and redone, several in a row
        st.tuples(st.sampled_from([0, 1]), st.integers(min_value=0, max_value=11)),
        EDITS,
    ),
    max_size=30,
)


def edit_step(app: Flask, read: board.Board, wanted: dict[str, object]) -> service.Written | None:
    """An edit as its route makes it, on the revision of the board just read; None when the
    rules refuse it (the route's 422: nothing changed, or a series the games played exceed)."""
    values = dict(wanted)
    dealer = int(values.pop("dealer")) % int(values["players"])  # type: ignore[call-overload]
    names = str(values.pop("names"))
    values["player_names"] = list(values["player_names"])[: int(values["players"])]  # type: ignore[call-overload]
    with app.app_context():
        try:
            token, revision = read.mesa.edit_token, read.mesa.revision
            return service.edit_table(token, revision, values, dealer, None, names)
        except RulesError:
            return None


def settings_by_the_log(app: Flask, token: str, opened: TableSettings) -> TableSettings:
    """The settings the log says the table has: those its newest active edit made, else those
    it was opened with."""
    with app.app_context():
        mesa = db.session.execute(db.select(Mesa).filter_by(edit_token=token)).scalar_one()
        rows = db.session.execute(
            db.select(*ENTRY_COLUMNS)
            .where(HandRecord.mesa_id == mesa.id, HandRecord.status == ACTIVE)
            .order_by(HandRecord.seq)
        )
        edits = [entry(row) for row in rows if row.kind == Kind.MESA_EDITADA.value]
        return edit_of(edits[-1])[1] if edits else opened


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS, series=st.sampled_from(["avulsas", "melhor_de_3"]))
def test_edits_among_taps_undos_and_redos_keep_the_board_the_fold_of_the_log(
    app: Flask, actions: list[Action | dict[str, object]], series: str
) -> None:
    """After every step the board read from checkpoints, the one the write answered with and
    the one it kept equal the fold of the whole log (edits reconfiguring it), the revision moved
    by one exactly when the write was applied, and the table's names and options are those of
    the newest active edit, so undoing every edit gives back the table as it was opened."""
    with app.app_context():
        mesa = service.open_table({"best_of": BEST_OF.spelled(series)})
        token, opened = mesa.edit_token, TableSettings.of(mesa)
    checkpointed, _ = boards(app, token)
    for action in actions:
        before = checkpointed.mesa.revision
        if isinstance(action, dict):
            written = edit_step(app, checkpointed, action)
            event("an edit applied" if written else "an edit refused")
        else:
            written = domain_step(app, checkpointed, action)
        checkpointed, folded = boards(app, token)
        assert checkpointed == folded
        assert checkpointed.mesa.revision == before + (written is not None)
        assert written is None or same(written.board, folded)
        kept = kept_board(app, token)
        assert same(kept, folded) or written is None
        assert TableSettings.of(checkpointed.mesa) == settings_by_the_log(app, token, opened)
        assert checkpointed.state.config == checkpointed.mesa.match_config
        if isinstance(action, str) and written and written.record.kind == "mesa_editada":
            event(f"an edit {'undone' if action == 'desfazer' else 'redone'}")
