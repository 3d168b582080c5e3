"""i18n: a user's language (en | ja, null until chosen) and display settings (tile_sort,
relic_sort)

Revision ID: 0005_i18n_language_sorts
Revises: 0004_webhooks
Create Date: 2026-12-02 02:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0005_i18n_language_sorts'
down_revision = '0004_webhooks'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('tile_sort', sa.String(length=10), nullable=False,
                                      server_default='gem'))
        batch_op.add_column(sa.Column('relic_sort', sa.String(length=10), nullable=False,
                                      server_default='gem'))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('relic_sort')
        batch_op.drop_column('tile_sort')
        batch_op.drop_column('language')
