"""page sessions kept server side (sign-out ends them, a sign-in link starts one only); control
characters cleaned from the names stored before the API refused them

Revision ID: 0005_hardening_sessions
Revises: 0005_i18n_language_sorts
Create Date: 2026-12-02 02:50:00
"""

import re

import sqlalchemy as sa
from alembic import op

revision = '0005_hardening_sessions'
down_revision = '0005_i18n_language_sorts'
branch_labels = None
depends_on = None

# What server.http.strict_fields refuses in a new name today (C0, DEL, C1, the bidirectional
# and line/paragraph separators), as the migration saw it: a copy, so that the migration stays
# what it was whatever the code becomes.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\u2028\u2029]")


def _clean(name: str) -> str:
    cleaned = " ".join(_CONTROL.sub(" ", name).split())
    return cleaned or "player"


def upgrade() -> None:
    op.create_table('page_sessions',
    sa.Column('id_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('link_digest', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id_hash'),
    sa.UniqueConstraint('link_digest')
    )
    with op.batch_alter_table('page_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_page_sessions_user_id'), ['user_id'], unique=False)

    users = sa.table('users', sa.column('id', sa.Integer), sa.column('name', sa.String))
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name)).all():
        if name and _CONTROL.search(name):
            connection.execute(users.update().where(users.c.id == user_id)
                               .values(name=_clean(name)))


def downgrade() -> None:
    with op.batch_alter_table('page_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_page_sessions_user_id'))
    op.drop_table('page_sessions')
