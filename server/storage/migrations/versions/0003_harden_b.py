"""users.verified_at (addresses are confirmed), invitations.mailed and the indexes the
invitation limits and the account mails count with

Revision ID: 0003_harden_b
Revises: 0002
Create Date: 2026-12-01 10:00:00

Accounts that exist before this revision are marked confirmed as of their creation: they have
been mailed all along, and their games would otherwise fall silent at the upgrade.
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_harden_b'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('verified_at', sa.DateTime(timezone=True), nullable=True))
    users = sa.table('users', sa.column('verified_at', sa.DateTime(timezone=True)),
                     sa.column('created_at', sa.DateTime(timezone=True)))
    op.execute(users.update().values(verified_at=users.c.created_at))

    with op.batch_alter_table('invitations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mailed', sa.Boolean(), server_default=sa.true(),
                                      nullable=False))
        batch_op.create_index('ix_invitations_invited_by_created_at',
                              ['invited_by', 'created_at'], unique=False)
        batch_op.create_index('ix_invitations_email_created_at', ['email', 'created_at'],
                              unique=False)

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_user_id'), ['user_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_user_id'))
    with op.batch_alter_table('invitations', schema=None) as batch_op:
        batch_op.drop_index('ix_invitations_email_created_at')
        batch_op.drop_index('ix_invitations_invited_by_created_at')
        batch_op.drop_column('mailed')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('verified_at')
