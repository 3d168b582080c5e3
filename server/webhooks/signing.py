"""The signature on every webhook delivery, and how a receiver checks it (docs/webhooks.md).

    X-Iridescia-Timestamp: 1764590400
    X-Iridescia-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the secret>

The timestamp is inside what is signed, so a receiver that refuses a timestamp older than a few
minutes refuses a replayed delivery too. Each webhook has its own random secret, shown to its
owner once, when the webhook is set.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Iridescia-Signature"
TIMESTAMP_HEADER = "X-Iridescia-Timestamp"
# How old a delivery `verify` still accepts by default (a retry is signed afresh).
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    return secrets.token_hex(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def headers(secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {TIMESTAMP_HEADER: str(timestamp), SIGNATURE_HEADER: signature(secret, timestamp, body)}


def verify(secret: str, timestamp: str, signed: str, body: bytes, now: float,
           tolerance: int = TOLERANCE_SECONDS) -> bool:
    """What a receiver does: the signature matches and the timestamp is recent."""
    try:
        moment = int(timestamp)
    except ValueError:
        return False
    if abs(now - moment) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, moment, body), signed)
