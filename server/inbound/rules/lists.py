"""Mail from a mailing list (RFC 2369/2919 headers: List-Id, List-Unsubscribe, List-Post), even
without `Precedence: list` (issue 26: a list post had its commands played). A player's own
reply never carries them: mail clients do not copy them from the mail answered."""

from __future__ import annotations

LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post", "Mailing-List")


def check(headers) -> str | None:
    for name in LIST_HEADERS:
        if headers.has(name):
            return f"list mail ({name})"
    return None
