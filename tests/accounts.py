"""Test players, registered as a player does: `POST /api/v1/users` answers only that a mail is
on its way, and the token comes from confirming the address with the mailed code
(`POST /api/v1/users/verify`).

`mailed_code` reads the code from the mail the server queued (the real path); `sign_up`
registers, confirms and then takes the confirmation mail out of the outbox, so that what the
mail tests count is what the game sent."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from sqlalchemy.engine import Engine
from sqlmodel import select

from server.storage.db import app_engine, get_engine, session_scope
from server.storage.models import Outbox

CODE = re.compile(r"/(?:verify|recover)\?code=([^\s&]+)")


def _engine(db: Any) -> Engine:
    if isinstance(db, str):
        return get_engine(db)
    if isinstance(db, Engine):
        return db
    return app_engine(getattr(db, "application", db))  # a Flask test client or app


def mailed_code(db: Any, email: str, kind: str = "verify_email", take: bool = False) -> str:
    """The code of the newest ``kind`` mail to ``email`` (``db``: an engine, a database URL, a
    Flask app or test client); ``take``: delete that mail."""
    engine = _engine(db)
    with session_scope(engine) as session:
        mail = session.exec(select(Outbox).where(Outbox.to_email == email, Outbox.kind == kind)
                            .order_by(Outbox.id.desc())).first()
        assert mail is not None, f"no {kind} mail to {email}"
        code = CODE.search(mail.text_body).group(1)
        if take:
            session.delete(mail)
    return unquote(code)


def sign_up(flask_client, name: str, email: str | None = None, db: Any = None) -> dict:
    """Register ``name`` and confirm the address with the mailed code; the confirmation's
    answer (id, name, email, token...). ``flask_client``: a Flask test client, or anything with
    ``post(path, json=...)`` answering like requests (then ``db`` says where the mail is)."""
    email = email or f"{name.lower()}@example.org"
    answer = flask_client.post("/api/v1/users", json={"name": name, "email": email})
    assert answer.status_code == 202, answer.get_json(silent=True)
    code = mailed_code(db if db is not None else flask_client, email.strip().lower(), take=True)
    confirmed = flask_client.post("/api/v1/users/verify", json={"code": code})
    body = confirmed.get_json(silent=True)
    assert confirmed.status_code == 200 and body["verified"] and body["token"], body
    return body


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
