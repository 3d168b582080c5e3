"""seeds no one can choose and rematches: the seed rule a game was made under, the dice seed
mixed from the server's seed and the players' words at the start, each seat's word; the
finished game a game is the rematch of; a finished game's outcome (what the ratings are
derived from); the seeks (seats and pace a player wants) that wait for
their match

Revision ID: 0008_community_seeds
Revises: 0007_bots_stand_ins
Create Date: 2026-12-02 02:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0008_community_seeds'
down_revision = '0007_bots_stand_ins'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_rule', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('play_seed', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('rematch_of', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('outcome', sa.JSON(), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_rematch_of'), ['rematch_of'], unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_contribution', sa.String(length=64), nullable=True))
    op.create_table('seeks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('seats', sa.Integer(), nullable=False),
    sa.Column('pace', sa.String(length=8), nullable=False),
    sa.Column('contribution', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('seeks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seeks_user_id'), ['user_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seeks_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('seeks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seeks_game_id'))
        batch_op.drop_index(batch_op.f('ix_seeks_user_id'))
    op.drop_table('seeks')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('seed_contribution')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_rematch_of'))
        batch_op.drop_column('outcome')
        batch_op.drop_column('rematch_of')
        batch_op.drop_column('play_seed')
        batch_op.drop_column('seed_rule')
