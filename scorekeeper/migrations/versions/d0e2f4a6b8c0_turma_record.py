"""turma_record: a turma's stored tally, one row per player, pair, trio and head-to-head

Revision ID: d0e2f4a6b8c0
Revises: a1c3e5f7b9d1
Create Date: 2026-12-10 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd0e2f4a6b8c0'
down_revision = 'a1c3e5f7b9d1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('turma_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('turma_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('order_wins', sa.Integer(), nullable=False),
    sa.Column('order_rate', sa.Integer(), nullable=False),
    sa.Column('order_name', sa.String(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('shown', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['turma_id'], ['turma.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('turma_id', 'rules', 'kind', 'key', name='uq_turma_record_key')
    )
    op.create_index('ix_turma_record_place', 'turma_record', ['turma_id', 'rules', 'kind', 'order_wins', 'order_rate', 'order_name', 'seq'], unique=False)
    # The tallies stored before were whole JSON documents: gone, each turma's is built again
    # (in steps) on its next view.
    op.execute('DELETE FROM turma_summary')


def downgrade():
    op.drop_index('ix_turma_record_place', table_name='turma_record')
    op.drop_table('turma_record')
    op.execute('DELETE FROM turma_summary')
