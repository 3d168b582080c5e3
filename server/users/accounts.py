"""Making an account: one way for the API's POST /users and the register page.

Registering answers alike whatever the address: a mail is on its way. A new address gets its
account, with a token nobody is shown, and the mail that confirms it; confirming (the link's
button, `POST /users/verify`, `iridescia confirm --code`) gives the confirmer a new token
(server/users/verification.py), so the token only ever reaches whoever reads the address's mail.
A taken address gets no account: its owner is mailed that someone tried, with a link to a new
token. Nothing in the answer (status, headers, body) tells the two apart."""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server import i18n
from server.http.auth import hash_token, new_token
from server.storage.models import User
from server.users import account_mail

# A join code carried through the confirmation link (server/games/lobby.py makes them).
_JOIN_CODE = re.compile(r"[0-9A-Za-z]{4,32}")


def by_email(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == email)).first()


def register(session: Session, name: str, email: str, now: datetime,
             join: str | None = None, language: str | None = None) -> None:
    """Register ``email`` (name and address already validated by UserCreateSchema) and commit:
    a new address's unconfirmed account and the mail that confirms it (its link carries the
    join code ``join``, if any, to the page it opens), or, for a taken address, the mail that
    tells its owner. The caller answers the same either way.

    ``language``: the one the registering page or request was in (the page's, or the API
    request's Accept-Language: the command line sends its LANG's). A new account keeps it as
    its language, so the confirming mail and every later one are in it until the player
    chooses; English is the default and is not recorded as a choice. A taken address keeps its
    own."""
    join = join if join and _JOIN_CODE.fullmatch(join) else None
    taken = by_email(session, email)
    if taken is None:
        # The token is shown to nobody: confirming the address gives the confirmer a new one.
        user = User(name=name, email=email, token_hash=hash_token(new_token()), created_at=now,
                    language=language if language and language != i18n.DEFAULT else None)
        session.add(user)
        try:
            session.flush()
            account_mail.confirmation(session, user, now, join=join)
            session.commit()
            return
        except IntegrityError:  # registered at the same moment by another request
            session.rollback()
            taken = by_email(session, email)
            if taken is None:
                raise
    account_mail.registered_again(session, taken, now)
    session.commit()
