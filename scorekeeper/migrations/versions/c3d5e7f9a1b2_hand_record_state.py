"""hand_record.state: the match state after each record (a checkpoint for the board)

Revision ID: c3d5e7f9a1b2
Revises: 9b1f3c2d4e5a
Create Date: 2026-12-01 13:00:00

"""
from alembic import op
import sqlalchemy as sa

from scorekeeper.rules import Kind, MatchConfig, MatchState, Outcome


# revision identifiers, used by Alembic.
revision = 'c3d5e7f9a1b2'
down_revision = '9b1f3c2d4e5a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand_record', schema=None) as batch_op:
        batch_op.add_column(sa.Column('state', sa.JSON(), nullable=True))
        batch_op.drop_index('ix_hand_record_mesa_status')
        batch_op.create_index(
            'ix_hand_record_mesa_status_seq', ['mesa_id', 'status', 'seq'], unique=False
        )
    _fill_states()


def _fill_states():
    """Each table's current branch (its active records, then its undone ones, in order) folded
    once: every such record gets the state after it; discarded records keep none."""
    bind = op.get_bind()
    records = sa.table(
        'hand_record', sa.column('id'), sa.column('mesa_id'), sa.column('seq'),
        sa.column('kind'), sa.column('side'), sa.column('points'), sa.column('status'),
        sa.column('state', sa.JSON()),
    )
    mesas = bind.execute(sa.text(
        'SELECT id, players, best_of, first_dealer, special_at FROM mesa'
    )).fetchall()
    for mesa_id, players, best_of, first_dealer, special_at in mesas:
        config = MatchConfig(
            players=players, best_of=best_of, first_dealer=first_dealer, special_at=special_at
        )
        state = MatchState(config)
        rows = bind.execute(
            sa.select(records.c.id, records.c.kind, records.c.side, records.c.points)
            .where(records.c.mesa_id == mesa_id, records.c.status != 'discarded')
            .order_by(records.c.seq)
        ).fetchall()
        for record_id, kind, side, points in rows:
            state = state.apply(Outcome(Kind(kind), side, points))
            bind.execute(
                records.update().where(records.c.id == record_id).values(state=state.snapshot())
            )


def downgrade():
    with op.batch_alter_table('hand_record', schema=None) as batch_op:
        batch_op.drop_index('ix_hand_record_mesa_status_seq')
        batch_op.create_index('ix_hand_record_mesa_status', ['mesa_id', 'status'], unique=False)
        batch_op.drop_column('state')
