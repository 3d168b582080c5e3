"""table talk: the messages of a game's players and of its spectators

Revision ID: 0004_talk_cards
Revises: 0003_rules
Create Date: 2026-12-01 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0004_talk_cards'
down_revision = '0003_rules'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=12), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('dedupe_key')
    )
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.create_index('ix_messages_game_id_id', ['game_id', 'id'], unique=False)
        batch_op.create_index('ix_messages_game_id_user_id_created_at',
                              ['game_id', 'user_id', 'created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.drop_index('ix_messages_game_id_user_id_created_at')
        batch_op.drop_index('ix_messages_game_id_id')
    op.drop_table('messages')
