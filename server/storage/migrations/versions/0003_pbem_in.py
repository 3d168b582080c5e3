"""mail coming in: every inbound message recorded; a seat can stop its game's mail

Revision ID: 0003_pbem_in
Revises: 0003_harden_a
Create Date: 2026-12-01 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_pbem_in'
down_revision = '0003_harden_a'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inbound_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_key', sa.String(length=250), nullable=False),
    sa.Column('sender', sa.String(length=254), nullable=False),
    sa.Column('recipient', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.String(length=200), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.String(length=16), nullable=True),
    sa.Column('way_in', sa.String(length=10), nullable=False),
    sa.Column('outcome', sa.String(length=20), nullable=False),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.Column('applied', sa.JSON(), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('message_key')
    )
    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_messages_outcome'), ['outcome'], unique=False)
        batch_op.create_index('ix_inbound_messages_sender_received_at', ['sender', 'received_at'],
                              unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mail_stopped', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('mail_stopped')
    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_messages_sender_received_at')
        batch_op.drop_index(batch_op.f('ix_inbound_messages_outcome'))
    op.drop_table('inbound_messages')
