"""A delivery status notification (RFC 3464 `multipart/report`) or a bounce that names the
failed recipients: recorded, never answered (what it means for the address is the bounce
handling's business)."""

from __future__ import annotations


def check(headers) -> str | None:
    if headers.content_type == "multipart/report":
        return "a delivery status notification"
    if headers.has("X-Failed-Recipients"):
        return "a bounce (X-Failed-Recipients)"
    return None
