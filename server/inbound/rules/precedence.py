"""`Precedence: bulk`, `junk`, `list` or `auto_reply` (RFC 2076; what list servers and many
auto-responders set)."""

from __future__ import annotations

MACHINE = {"bulk", "junk", "list", "auto_reply", "auto-reply"}


def check(headers) -> str | None:
    precedence = headers.get("Precedence").strip().lower()
    if precedence in MACHINE:
        return f"Precedence: {precedence}"
    return None
