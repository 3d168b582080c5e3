"""bounces: each one recorded, and since when an account's address bounces

Revision ID: 0006_mail_out_bounces
Revises: 0005_replies_plans
Create Date: 2026-12-02 03:05:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0006_mail_out_bounces'
down_revision = '0005_replies_plans'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mail_bounces',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('hard', sa.Boolean(), nullable=False),
    sa.Column('detail', sa.String(length=500), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('mail_bounces', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_bounces_user_id'), ['user_id'], unique=False)
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('email_bouncing_at', sa.DateTime(timezone=True),
                                      nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('email_bouncing_at')
    with op.batch_alter_table('mail_bounces', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_bounces_user_id'))
    op.drop_table('mail_bounces')
