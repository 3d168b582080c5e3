"""plans: the lines a player leaves for their next turn

Revision ID: 0005_replies_plans
Revises: 0005_hardening_sessions
Create Date: 2026-12-02 02:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0005_replies_plans'
down_revision = '0005_hardening_sessions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('plans',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('lines', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=10), nullable=False),
    sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('plans', schema=None) as batch_op:
        batch_op.create_index('ix_plans_user_id', ['user_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('plans', schema=None) as batch_op:
        batch_op.drop_index('ix_plans_user_id')
    op.drop_table('plans')
