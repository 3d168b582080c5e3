"""outbox: notices are queued unrendered (version, seat, extra) and rendered when sent

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('seat', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('extra', sa.JSON(), nullable=True))
        batch_op.alter_column('subject', existing_type=sa.String(length=200), nullable=True)
        batch_op.alter_column('text_body', existing_type=sa.Text(), nullable=True)


def downgrade() -> None:
    # The old schema needs words in every row and cannot say which version a notice is about:
    # a notice not rendered yet is parked with a placeholder and a note, kept for the record but
    # not to be sent again (nothing is deleted; `iridescia-server outbox` lists it).
    outbox = sa.table(
        'outbox',
        sa.column('subject', sa.String()),
        sa.column('text_body', sa.Text()),
        sa.column('status', sa.String()),
        sa.column('last_error', sa.Text()),
    )
    op.execute(
        outbox.update()
        .where(outbox.c.text_body.is_(None))
        .values(
            subject=sa.func.coalesce(outbox.c.subject, '(not rendered)'),
            text_body='',
            status=sa.case((outbox.c.status == 'pending', 'parked'), else_=outbox.c.status),
            last_error='queued unrendered by a newer server; parked by the downgrade, cannot be sent',
        )
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('text_body', existing_type=sa.Text(), nullable=False)
        batch_op.alter_column('subject', existing_type=sa.String(length=200), nullable=False)
        batch_op.drop_column('extra')
        batch_op.drop_column('seat')
        batch_op.drop_column('version')
