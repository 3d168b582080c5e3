"""`new solo` to the bare address, which carries no secret (issue 32, M3: with
`IRIDESCIA_INBOUND_REQUIRE_AUTH=none`, mail forged From a player made games in their name).

Unless the mail passed authentication, `new solo` must carry the player's code, `new solo
7fq2k9xa`: an HMAC of their account and API token under the server's key, told only in mail to
their own address (the list of their games). A forger never sees it; rotating the API token
changes it."""

from __future__ import annotations

import base64
import hashlib
import hmac

WORDS = "new solo"


def code_for(secret_key: str, user_id: int, token_hash: str) -> str:
    message = f"new solo|u{user_id}|{token_hash}".encode()
    key = hmac.new(secret_key.encode(), b"iridescia new solo code", hashlib.sha256).digest()
    return base64.b32encode(hmac.new(key, message, hashlib.sha256).digest()).decode().lower()[:8]


def asked(lines: list[str]) -> list[str]:
    """The codes of every `new solo` line ('' for one without a code)."""
    found = []
    for line in lines:
        words = " ".join(line.lower().strip(" .!`").split())
        if words == WORDS or words.startswith(WORDS + " ") and len(words.split()) == 3:
            found.append(words[len(WORDS):].strip())
    return found


def confirmed(codes: list[str], secret_key: str, user_id: int, token_hash: str) -> bool:
    expected = code_for(secret_key, user_id, token_hash)
    return any(hmac.compare_digest(code, expected) for code in codes if code)
