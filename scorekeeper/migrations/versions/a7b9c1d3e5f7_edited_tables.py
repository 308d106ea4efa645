"""hand_record.settings: a table's settings before and after an edit

Revision ID: a7b9c1d3e5f7
Revises: f6a8b0c2d4e6
Create Date: 2026-12-02 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7b9c1d3e5f7'
down_revision = 'f6a8b0c2d4e6'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMN on every engine (a batch on SQLite would copy the table).
    op.add_column('hand_record', sa.Column('settings', sa.Text(), nullable=True))


def downgrade():
    # An edit's record means nothing without its settings: its kind goes with them.
    op.execute("DELETE FROM hand_record WHERE kind = 'mesa_editada'")
    with op.batch_alter_table(
        'hand_record', table_kwargs={'sqlite_autoincrement': True}
    ) as batch_op:
        batch_op.drop_column('settings')
