"""mesa.variante: a table's rule set, Truco Paulista for every table made before

Revision ID: b8c0d2e4f6a8
Revises: a7b9c1d3e5f7
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8c0d2e4f6a8'
down_revision = 'a7b9c1d3e5f7'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMN with a server default: every existing table plays Truco Paulista.
    op.add_column(
        'mesa',
        sa.Column('variante', sa.String(length=16), nullable=False, server_default='paulista'),
    )


def downgrade():
    # Plain DROP COLUMN (SQLite 3.35+): a batch would copy mesa, and dropping the old copy
    # would cascade to every hand record.
    op.drop_column('mesa', 'variante')
