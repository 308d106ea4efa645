"""torneio: tournaments, their pairs, mesas, matches and súmulas; mesa.torneio_id

Revision ID: c9d1e3f5a7b9
Revises: b8c0d2e4f6a8
Create Date: 2026-12-02 13:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9d1e3f5a7b9'
down_revision = 'b8c0d2e4f6a8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('torneio',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('edit_token', sa.String(length=64), nullable=False),
    sa.Column('view_token', sa.String(length=64), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('variante', sa.String(length=16), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=False),
    sa.Column('final_best_of', sa.Integer(), nullable=False),
    sa.Column('mesas', sa.Integer(), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('at_limit', sa.String(length=16), nullable=False),
    sa.Column('third_place', sa.Boolean(), nullable=False),
    sa.Column('slots', sa.JSON(), nullable=True),
    sa.Column('clock', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_torneio_edit_token', 'torneio', ['edit_token'], unique=True)
    op.create_index('ix_torneio_view_token', 'torneio', ['view_token'], unique=True)
    op.create_table('dupla',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('torneio_id', sa.Integer(), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('reserve', sa.String(length=24), nullable=False),
    sa.Column('paid', sa.Boolean(), nullable=False),
    sa.Column('checked_in', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['torneio_id'], ['torneio.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_dupla_torneio_id', 'dupla', ['torneio_id'], unique=False)
    op.create_table('torneio_mesa',
    sa.Column('torneio_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('paused', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['torneio_id'], ['torneio.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('torneio_id', 'number')
    )
    op.create_index('ix_torneio_mesa_token', 'torneio_mesa', ['token'], unique=True)
    # Plain ADD COLUMN (no batch, see d4e6f8a0b2c4): SQLite takes the reference inline.
    references = {'torneio_id': 'torneio', 'copied_from_id': 'mesa'}
    if op.get_bind().dialect.name == 'sqlite':
        for column, table in references.items():
            op.execute(f'ALTER TABLE mesa ADD COLUMN {column} INTEGER REFERENCES {table} (id)')
    else:
        for column, table in references.items():
            op.add_column('mesa', sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(f'fk_mesa_{column}_{table}', 'mesa', table, [column], ['id'])
    op.create_index('ix_mesa_torneio_id', 'mesa', ['torneio_id'], unique=False)
    op.create_index(
        'uq_mesa_turma_copied_from', 'mesa', ['turma_id', 'copied_from_id'], unique=True
    )
    op.create_table('jogo',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('torneio_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=8), nullable=False),
    sa.Column('mesa_number', sa.Integer(), nullable=False),
    sa.Column('mesa_id', sa.Integer(), nullable=False),
    sa.Column('pair_a', sa.Integer(), nullable=False),
    sa.Column('pair_b', sa.Integer(), nullable=False),
    sa.Column('called_at', sa.DateTime(), nullable=False),
    sa.Column('decided', sa.Integer(), nullable=True),
    sa.Column('decided_how', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['mesa_id'], ['mesa.id']),
    sa.ForeignKeyConstraint(['torneio_id'], ['torneio.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('mesa_id'),
    sa.UniqueConstraint('torneio_id', 'key', name='uq_jogo_torneio_key')
    )
    op.create_index('ix_jogo_torneio_id', 'jogo', ['torneio_id'], unique=False)
    op.create_table('sumula',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('torneio_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=8), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('text', sa.String(length=200), nullable=False),
    sa.ForeignKeyConstraint(['torneio_id'], ['torneio.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_sumula_torneio_id', 'sumula', ['torneio_id'], unique=False)


def downgrade():
    op.drop_index('ix_sumula_torneio_id', table_name='sumula')
    op.drop_table('sumula')
    op.drop_index('ix_jogo_torneio_id', table_name='jogo')
    op.drop_table('jogo')
    op.drop_index('uq_mesa_turma_copied_from', table_name='mesa')
    op.drop_index('ix_mesa_torneio_id', table_name='mesa')
    # SQLite copies the mesa table to drop a column: foreign keys off, so that dropping the
    # old copy does not cascade to the hand records.
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if sqlite:
        op.execute('PRAGMA foreign_keys=OFF')
    else:
        op.drop_constraint('fk_mesa_copied_from_id_mesa', 'mesa', type_='foreignkey')
        op.drop_constraint('fk_mesa_torneio_id_torneio', 'mesa', type_='foreignkey')
    with op.batch_alter_table('mesa', schema=None) as batch_op:
        batch_op.drop_column('copied_from_id')
        batch_op.drop_column('torneio_id')
    if sqlite:
        op.execute('PRAGMA foreign_keys=ON')
    op.drop_index('ix_torneio_mesa_token', table_name='torneio_mesa')
    op.drop_table('torneio_mesa')
    op.drop_index('ix_dupla_torneio_id', table_name='dupla')
    op.drop_table('dupla')
    op.drop_index('ix_torneio_view_token', table_name='torneio')
    op.drop_index('ix_torneio_edit_token', table_name='torneio')
    op.drop_table('torneio')
