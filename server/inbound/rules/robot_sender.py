"""A From address that no person reads: mailer-daemon, postmaster, noreply and the like."""

from __future__ import annotations

ROBOT_LOCAL_PARTS = {"mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply",
                     "do-not-reply", "bounce", "bounces", "auto-reply", "autoreply"}


def check(headers) -> str | None:
    address = headers.from_address[1]
    local = address.partition("@")[0]
    if local in ROBOT_LOCAL_PARTS or local.startswith(("bounce-", "bounces-", "bounces+")):
        return f"sent by {address}"
    return None
