"""Signed reply addresses: every email's Reply-To is `play+TOKEN@domain`, one per recipient.

    play-u12-k3x9q2ab-v40-<signature>   play game k3x9q2ab as user 12, written at version 40
    join-i7-k3x9q2ab-<signature>        accept invitation 7 to game k3x9q2ab
    prefs-u12-<signature>               change user 12's mail preferences (unsubscribe)
    bounce-u12-<signature>              the envelope sender (VERP) of mail to user 12's address:
                                        a bounce comes back to it (server/inbound/bounces.py)

The signature is an HMAC-SHA256 (the standard library's `hmac`) keyed from the server's secret
key, over the purpose and every field, and for a user's token also over the hash of their current
API token: rotating the token voids every reply address that user was sent. An invitation's token
is over the invited address instead (there is no user yet). Lower case only, since some mail
servers fold the case of local parts; 80 bits of signature keep the whole local part under 64
characters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from email.utils import parseaddr

PURPOSES = ("play", "join", "prefs", "bounce")
SIGNATURE_CHARS = 16


@dataclass(frozen=True)
class ReplyToken:
    """What a reply address says: the purpose and whom and what it is about."""

    purpose: str
    user_id: int | None = None
    game_id: str | None = None
    version: int | None = None
    invitation_id: int | None = None

    def fields(self) -> list[str]:
        if self.purpose == "play":
            return [f"u{self.user_id}", self.game_id or "", f"v{self.version}"]
        if self.purpose == "join":
            return [f"i{self.invitation_id}", self.game_id or ""]
        return [f"u{self.user_id}"]


class BadToken(ValueError):
    """The address's token is not one the server signed (tampered, or for another key)."""


def _key(secret_key: str) -> bytes:
    # A key of its own, derived from the app's secret: a reply address never verifies anything
    # else the secret key signs.
    return hmac.new(secret_key.encode(), b"iridescia reply address", hashlib.sha256).digest()


def _signature(secret_key: str, token: ReplyToken, bound_to: str) -> str:
    message = "|".join([token.purpose, *token.fields(), bound_to]).encode()
    digest = hmac.new(_key(secret_key), message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:SIGNATURE_CHARS]


def sign(secret_key: str, token: ReplyToken, bound_to: str) -> str:
    """The token text; `bound_to` is the user's token hash (play, prefs) or the invited address
    (join), which the verifier must supply again."""
    return "-".join([token.purpose, *token.fields(), _signature(secret_key, token, bound_to)])


def read(text: str) -> ReplyToken:
    """The unverified claims of a token text; BadToken when it is not shaped like one."""
    parts = text.lower().split("-")
    try:
        purpose = parts[0]
        if purpose == "play" and len(parts) == 5:
            return ReplyToken("play", user_id=_number(parts[1], "u"), game_id=parts[2],
                              version=_number(parts[3], "v"))
        if purpose == "join" and len(parts) == 4:
            return ReplyToken("join", invitation_id=_number(parts[1], "i"), game_id=parts[2])
        if purpose in ("prefs", "bounce") and len(parts) == 3:
            return ReplyToken(purpose, user_id=_number(parts[1], "u"))
    except ValueError:
        pass
    raise BadToken(f"{text!r} is not a reply address this server gives out")


def _number(text: str, prefix: str) -> int:
    if not text.startswith(prefix) or not text[1:].isdigit():
        raise ValueError(text)
    return int(text[1:])


def verify(secret_key: str, text: str, bound_to: str) -> bool:
    """Whether `text`'s signature is the server's for `bound_to`."""
    token = read(text)
    given = text.lower().rsplit("-", 1)[-1]
    return hmac.compare_digest(given, _signature(secret_key, token, bound_to))


@dataclass(frozen=True)
class ReplyBase:
    """`IRIDESCIA_REPLY_ADDRESS` split: `play@example.org` gives play+TOKEN@example.org."""

    local: str
    domain: str

    @classmethod
    def parse(cls, address: str) -> ReplyBase:
        email = parseaddr(address)[1] or "play@localhost"
        local, _, domain = email.rpartition("@")
        if not local or not domain or "+" in local:
            raise ValueError(
                f"IRIDESCIA_REPLY_ADDRESS {address!r} must be a plain address such as "
                "play@example.org (the server adds +TOKEN itself)"
            )
        return cls(local.lower(), domain.lower())

    @property
    def bare(self) -> str:
        return f"{self.local}@{self.domain}"

    def address(self, token_text: str) -> str:
        return f"{self.local}+{token_text}@{self.domain}"

    def token_of(self, recipient: str) -> str | None:
        """'' for the bare address, the token text for a signed one, None when `recipient` is
        not ours at all."""
        email = parseaddr(recipient)[1].lower()
        local, _, domain = email.rpartition("@")
        if domain != self.domain:
            return None
        base, plus, token = local.partition("+")
        if base != self.local:
            return None
        return token if plus else ""


def play_address(base: ReplyBase, secret_key: str, user_id: int, token_hash: str, game_id: str,
                 version: int) -> str:
    token = ReplyToken("play", user_id=user_id, game_id=game_id, version=version)
    return base.address(sign(secret_key, token, token_hash))


def join_address(base: ReplyBase, secret_key: str, invitation_id: int, game_id: str,
                 email: str) -> str:
    token = ReplyToken("join", invitation_id=invitation_id, game_id=game_id)
    return base.address(sign(secret_key, token, email.lower()))


def prefs_token(secret_key: str, user_id: int, token_hash: str) -> str:
    return sign(secret_key, ReplyToken("prefs", user_id=user_id), token_hash)


def bounce_address(base: ReplyBase, secret_key: str, user_id: int, email: str) -> str:
    """The envelope sender of mail to user `user_id` at `email` (VERP): signed over the address,
    so a bounce counts only against the address it was sent to, even after the user changes it."""
    return base.address(sign(secret_key, ReplyToken("bounce", user_id=user_id), email.lower()))
