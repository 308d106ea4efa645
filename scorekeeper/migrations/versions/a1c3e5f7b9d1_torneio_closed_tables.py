"""mesa.closed and mesa.torneio_mesa (a torneio match decided off its board takes no more
writes; a called-off table still knows its mesa); jogo.decided_a and decided_b (the pairs a
decision was given between)

Revision ID: a1c3e5f7b9d1
Revises: c9d1e3f5a7b9
Create Date: 2026-12-03 16:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1c3e5f7b9d1'
down_revision = 'c9d1e3f5a7b9'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMN: a batch would copy mesa on SQLite, and dropping the old copy would
    # cascade to every hand record.
    op.add_column('mesa', sa.Column('torneio_mesa', sa.Integer(), nullable=True))
    op.add_column('mesa', sa.Column('closed', sa.String(length=16), nullable=True))
    op.add_column('jogo', sa.Column('decided_a', sa.Integer(), nullable=True))
    op.add_column('jogo', sa.Column('decided_b', sa.Integer(), nullable=True))
    # Matches decided before: given between the pairs they were called with, and closed.
    op.execute(
        "UPDATE jogo SET decided_a = pair_a, decided_b = pair_b WHERE decided IS NOT NULL"
    )
    op.execute(
        "UPDATE mesa SET torneio_mesa = (SELECT jogo.mesa_number FROM jogo"
        " WHERE jogo.mesa_id = mesa.id) WHERE torneio_id IS NOT NULL"
    )
    op.execute(
        "UPDATE mesa SET closed = (SELECT jogo.decided_how FROM jogo WHERE jogo.mesa_id = mesa.id"
        " AND jogo.decided IS NOT NULL) WHERE torneio_id IS NOT NULL"
    )


def downgrade():
    # Plain DROP COLUMN (SQLite 3.35+), as the rule set's column.
    op.drop_column('jogo', 'decided_b')
    op.drop_column('jogo', 'decided_a')
    op.drop_column('mesa', 'closed')
    op.drop_column('mesa', 'torneio_mesa')
