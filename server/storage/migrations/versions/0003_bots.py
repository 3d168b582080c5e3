"""seats: bot seats, played by the server with an engine policy (a name and the policy)

Revision ID: 0003_bots
Revises: 0003_pbem_in
Create Date: 2026-12-01 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_bots'
down_revision = '0003_pbem_in'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column('bot_policy', sa.String(length=20), nullable=True))


def downgrade() -> None:
    # The bots' names and policies are lost; their seats stay, with kind 'bot'.
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('bot_policy')
        batch_op.drop_column('name')
