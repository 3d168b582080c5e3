"""Signed, expiring codes for the links in account mails (itsdangerous, keyed from
IRIDESCIA_SECRET_KEY, one salt per purpose so that one kind of code never passes for another).

- a *confirmation* code names the user and the address it was sent to: it confirms that address
  only while it is still the account's;
- a *recovery* code names the user and a fingerprint of their current token: once it has been
  used (the token changed), it is dead.

The links point at IRIDESCIA_BASE_URL: ``/verify?code=…`` and ``/recover?code=…`` are pages
(server/web/account_pages.py) whose button posts the code; the API takes the same codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import User

CONFIRM, RECOVER = "confirm-address", "recover-token"
PAGES = {CONFIRM: "/verify", RECOVER: "/recover"}


@dataclass(frozen=True)
class Code:
    user_id: int
    proof: str  # the address (confirmation) or the token fingerprint (recovery)


def _serializer(purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=f"iridescia-{purpose}")


def _max_age(purpose: str) -> int:
    hours = current_app.config["VERIFICATION_LINK_HOURS" if purpose == CONFIRM
                               else "RECOVERY_LINK_HOURS"]
    return int(hours * 3600)


def token_fingerprint(user: User) -> str:
    return user.token_hash[:16]


def make_code(purpose: str, user: User) -> str:
    proof = user.email if purpose == CONFIRM else token_fingerprint(user)
    return _serializer(purpose).dumps({"u": user.id, "p": proof})


def link(purpose: str, code: str, join: str | None = None) -> str:
    """The page's address for ``code``; ``join``: a join code the page offers after."""
    base = current_app.config["BASE_URL"].rstrip("/")
    query = {"code": code, **({"join": join} if join else {})}
    return f"{base}{PAGES[purpose]}?{urlencode(query)}"


def hours(purpose: str) -> int:
    return _max_age(purpose) // 3600


def read_code(purpose: str, code: str) -> Code:
    """The code's user and proof; 422 saying what to do for an expired or mangled code."""
    again = Said(N_("ask for a new one: `iridescia confirm --resend`") if purpose == CONFIRM
                 else N_("ask for a new one: `iridescia recover --email ADDRESS`"))
    try:
        data = _serializer(purpose).loads(code.strip(), max_age=_max_age(purpose))
    except SignatureExpired:
        fail(422, Said(N_("this link has expired (links are good for {hours} hours): {again}"),
                       hours=hours(purpose), again=again))
    except BadSignature:
        fail(422, Said(N_("this link is not valid: copy the whole link from the mail, or {again}"),
                       again=again))
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        fail(422, Said(N_("this link is not valid: {again}"), again=again))
    return Code(data["u"], str(data.get("p")))
