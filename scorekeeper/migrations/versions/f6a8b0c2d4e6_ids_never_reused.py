"""hand_record ids never reused (SQLite AUTOINCREMENT); mesa_write.fingerprint;
mesa.link_changes

Revision ID: f6a8b0c2d4e6
Revises: e5f7a9b1c3d5
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6a8b0c2d4e6'
down_revision = 'e5f7a9b1c3d5'
branch_labels = None
depends_on = None


def _autoincrement(on: bool) -> None:
    """On SQLite, copy hand_record into a table whose ids are (or are no longer) AUTOINCREMENT:
    without it SQLite gives a new row the largest id + 1, the id of a row a rolled-back
    transaction inserted, or of a deleted table's newest record. Nothing refers to hand_record,
    so the copy runs with foreign keys on. PostgreSQL's sequences never reuse an id."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.batch_alter_table(
        'hand_record', recreate='always', table_kwargs={'sqlite_autoincrement': on}
    ):
        pass


def upgrade():
    _autoincrement(True)
    # Plain ADD COLUMN on every engine (a batch on SQLite would copy the table).
    op.add_column('mesa_write', sa.Column('fingerprint', sa.String(length=64), nullable=True))
    op.add_column(
        'mesa',
        sa.Column('link_changes', sa.Integer(), server_default='0', nullable=False),
    )


def downgrade():
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if sqlite:
        op.execute('PRAGMA foreign_keys=OFF')
    with op.batch_alter_table('mesa', schema=None) as batch_op:
        batch_op.drop_column('link_changes')
    if sqlite:
        op.execute('PRAGMA foreign_keys=ON')
    with op.batch_alter_table('mesa_write', schema=None) as batch_op:
        batch_op.drop_column('fingerprint')
    _autoincrement(False)
