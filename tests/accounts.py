"""Test players who confirmed their address, as a player does by opening the mailed link.

Most mail tests look at game mail only: `confirm` uses the confirmation code the server mailed
(the real path, POST /api/v1/users/verify) and then takes that mail out of the outbox, so that
what the tests count is what the game sent."""

from __future__ import annotations

import re

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox


def confirm(flask_client, user_id: int) -> None:
    engine = app_engine(flask_client.application)
    with session_scope(engine) as session:
        mail = session.exec(select(Outbox).where(Outbox.user_id == user_id,
                                                 Outbox.kind == "verify_email")).one()
        code = re.search(r"/verify\?code=(\S+)", mail.text_body).group(1)
    answer = flask_client.post("/api/v1/users/verify", json={"code": code})
    assert answer.status_code == 200 and answer.get_json()["verified"], answer.get_json()
    with session_scope(engine) as session:
        session.delete(session.get(Outbox, mail.id))


def add_confirmed_user(session, email: str) -> None:
    """A confirmed account for ``email`` (mail queued by hand needs a recipient who may get it:
    server/mail/consent.py), unless there is one."""
    import secrets

    from server.http.tokens import hash_token
    from server.storage.models import User, utcnow

    if session.exec(select(User).where(User.email == email)).first() is None:
        session.add(User(name=email.split("@")[0], email=email,
                         token_hash=hash_token(secrets.token_urlsafe(16)), verified_at=utcnow()))
        session.flush()
