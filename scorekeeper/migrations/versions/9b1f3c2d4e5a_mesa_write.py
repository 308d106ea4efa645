"""mesa_write: the client-made id of every applied write

Revision ID: 9b1f3c2d4e5a
Revises: 5ddde812e8af
Create Date: 2026-12-01 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9b1f3c2d4e5a'
down_revision = '5ddde812e8af'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('mesa_write',
    sa.Column('mesa_id', sa.Integer(), nullable=False),
    sa.Column('client_id', sa.String(length=36), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('record_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['mesa_id'], ['mesa.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('mesa_id', 'client_id')
    )


def downgrade():
    op.drop_table('mesa_write')
