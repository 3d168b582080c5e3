"""stand-ins: the bot level that plays a player's turn when its deadline passes, chosen per seat
(`iridescia join --stand-in`) or for every game (the account's preference)

Revision ID: 0007_bots_stand_ins
Revises: 0006_mail_out_bounces
Create Date: 2026-12-02 02:45:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0007_bots_stand_ins'
down_revision = '0006_mail_out_bounces'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stand_in', sa.String(length=20), nullable=True))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stand_in', sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('stand_in')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('stand_in')
