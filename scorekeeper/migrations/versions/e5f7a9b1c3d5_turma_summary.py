"""turma_summary: a turma's statistics cached with the key that proves them current;
turma.departures

Revision ID: e5f7a9b1c3d5
Revises: d4e6f8a0b2c4
Create Date: 2026-12-09 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f7a9b1c3d5'
down_revision = 'd4e6f8a0b2c4'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMN on every engine (a batch on SQLite would copy the table).
    op.add_column(
        'turma',
        sa.Column('departures', sa.Integer(), server_default='0', nullable=False),
    )
    op.create_table('turma_summary',
    sa.Column('turma_id', sa.Integer(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('key', sa.JSON(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['turma_id'], ['turma.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('turma_id')
    )


def downgrade():
    op.drop_table('turma_summary')
    # SQLite copies the turma table to drop a column: with foreign keys off, so that dropping
    # the old copy does not touch the tables that refer to it.
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if sqlite:
        op.execute('PRAGMA foreign_keys=OFF')
    with op.batch_alter_table('turma', schema=None) as batch_op:
        batch_op.drop_column('departures')
    if sqlite:
        op.execute('PRAGMA foreign_keys=ON')
