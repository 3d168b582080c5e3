"""Bench players, registered as players are: `POST /api/v1/users` answers only that a mail is
on its way, and the token comes from confirming the address with the code the server mailed
(`POST /api/v1/users/verify`). The code is read from the server's database (its outbox)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

CODE = re.compile(r"/verify\?code=([^\s&]+)")


def mailed_code(db: Any, email: str) -> str:
    """The code of the newest confirmation mail to ``email``; ``db``: an engine or a database
    URL."""
    from sqlmodel import select

    from server.storage.db import get_engine, session_scope
    from server.storage.models import Outbox

    engine = get_engine(db) if isinstance(db, str) else db
    with session_scope(engine) as session:
        mail = session.exec(select(Outbox).where(Outbox.to_email == email,
                                                 Outbox.kind == "verify_email")
                            .order_by(Outbox.id.desc())).first()
        assert mail is not None, f"no confirmation mail to {email}"
        return unquote(CODE.search(mail.text_body).group(1))


def signed_up(call, name: str, email: str, db: Any) -> dict:
    """Register and confirm through ``call(method, path, body) -> (status, body)``; the
    confirmation's answer (``id``, ``token``...)."""
    status, body = call("POST", "/api/v1/users", {"name": name, "email": email})
    assert status == 202, (status, body)
    status, body = call("POST", "/api/v1/users/verify", {"code": mailed_code(db, email)})
    assert status == 200 and body.get("token"), (status, body)
    return body


def client_signed_up(client, name: str, email: str) -> dict:
    """The same on a Flask test client (in-process)."""
    from server.storage.db import app_engine

    def call(method: str, path: str, body: dict):
        response = client.open(path, method=method, json=body)
        return response.status_code, response.get_json()

    return signed_up(call, name, email, app_engine(client.application))
