"""API tokens: made, hashed, read from the request.

A token is 32 random bytes (url-safe base64), shown once; the database keeps only its sha256, which
is enough for a token of that entropy. Clients send ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hashlib
import secrets

from flask import request


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token() -> str | None:
    """The token of an 'Authorization: Bearer' header, None without one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
