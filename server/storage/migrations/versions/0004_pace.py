"""pace, vacations, pauses and mail choices: users.away_until and the vacations they took;
games paused by their table and the time a turn's clock stood still; each player's wish to
pause; the digest, quiet hours and time zone of a user, and their mail choice per game

Revision ID: 0004_pace
Revises: 0004_talk_cards
Create Date: 2026-12-01 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0004_pace'
down_revision = '0004_talk_cards'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('vacations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vacations_user_id'), ['user_id'], unique=False)
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('away_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False,
                                      server_default='UTC'))
        batch_op.add_column(sa.Column('digest_hour', sa.Integer(), nullable=False,
                                      server_default='8'))
        batch_op.add_column(sa.Column('quiet_hours', sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column('next_digest_at', sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.create_index(batch_op.f('ix_users_next_digest_at'), ['next_digest_at'],
                              unique=False)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('held_since', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('wants_pause', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('email_preference', sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('email_preference')
        batch_op.drop_column('wants_pause')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('held_since')
        batch_op.drop_column('paused_at')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_users_next_digest_at'))
        batch_op.drop_column('next_digest_at')
        batch_op.drop_column('quiet_hours')
        batch_op.drop_column('digest_hour')
        batch_op.drop_column('time_zone')
        batch_op.drop_column('away_until')
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vacations_user_id'))
    op.drop_table('vacations')
