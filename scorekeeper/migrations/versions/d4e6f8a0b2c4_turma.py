"""turma: groups of tables with their own links; mesa.turma_id, mesa.previous_id, mesa_summary

Revision ID: d4e6f8a0b2c4
Revises: c3d5e7f9a1b2
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e6f8a0b2c4'
down_revision = 'c3d5e7f9a1b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('turma',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('edit_token', sa.String(length=64), nullable=False),
    sa.Column('view_token', sa.String(length=64), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('aliases', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('turma', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_turma_edit_token'), ['edit_token'], unique=True)
        batch_op.create_index(batch_op.f('ix_turma_view_token'), ['view_token'], unique=True)

    op.create_table('mesa_summary',
    sa.Column('mesa_id', sa.Integer(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['mesa_id'], ['mesa.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('mesa_id')
    )
    # Plain ADD COLUMN (no batch): on SQLite a batch would copy and drop the mesa table, and
    # with foreign keys on, dropping it would cascade to every hand record. SQLite takes the
    # reference inline (it cannot add a constraint later); other engines add it by name.
    references = {'turma_id': 'turma', 'previous_id': 'mesa'}
    if op.get_bind().dialect.name == 'sqlite':
        for column, table in references.items():
            op.execute(
                f'ALTER TABLE mesa ADD COLUMN {column} INTEGER'
                f' REFERENCES {table} (id)'
            )
    else:
        for column, table in references.items():
            op.add_column('mesa', sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(f'fk_mesa_{column}_{table}', 'mesa', table, [column], ['id'])
    op.create_index('ix_mesa_turma_id', 'mesa', ['turma_id'], unique=False)
    op.create_index('uq_mesa_previous_id', 'mesa', ['previous_id'], unique=True)


def downgrade():
    op.drop_index('uq_mesa_previous_id', table_name='mesa')
    op.drop_index('ix_mesa_turma_id', table_name='mesa')
    # SQLite copies the mesa table to drop columns: with foreign keys off, so that dropping the
    # old copy does not cascade to the hand records.
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if sqlite:
        op.execute('PRAGMA foreign_keys=OFF')
    with op.batch_alter_table('mesa', schema=None) as batch_op:
        batch_op.drop_column('previous_id')
        batch_op.drop_column('turma_id')
    if sqlite:
        op.execute('PRAGMA foreign_keys=ON')

    op.drop_table('mesa_summary')
    with op.batch_alter_table('turma', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_turma_view_token'))
        batch_op.drop_index(batch_op.f('ix_turma_edit_token'))

    op.drop_table('turma')
