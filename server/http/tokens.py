"""API tokens: made, hashed, read from the request.

A token is 32 random bytes (url-safe base64), shown once; the database keeps only its sha256, which
is enough for a token of that entropy. Clients send ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from flask import request


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# RFC 6750 (2.1): the scheme (any case), one space, the token (token68). Nothing else: a header
# with two spaces or a space after the token was once read as if it were right, which hid
# clients that build it wrongly (and every other server refuses them).
BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9\-._~+/]+=*)")
EXPECTED_FORM = ("send your API token as exactly 'Authorization: Bearer <token>': the word "
                 "Bearer, one space, the token, nothing after it")


def bearer_token() -> str | None:
    """The token of an 'Authorization: Bearer <token>' header; None without one, or for a
    header of any other form (the caller answers 401 with EXPECTED_FORM)."""
    match = BEARER.fullmatch(request.headers.get("Authorization", ""))
    return match.group(1) if match else None
