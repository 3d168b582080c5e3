"""Never answered: mail a machine wrote. One small rule per concern (after Mailman 3's rules),
each a module with `check(headers) -> str | None` (why the mail is a machine's, or None), each
with its tests in tests/server/inbound/rules/. `ingest` asks them in order before anything is
read of the body; the first reason wins, the mail is recorded as `ignored` and never answered.

`X-Auto-Response-Suppress` alone is *not* a reason: Outlook sets it on mail people write.
"""

from __future__ import annotations

from server.inbound.headers import MailHeaders
from server.inbound.rules import (
    auto_submitted,
    delivery_status,
    lists,
    null_sender,
    out_of_office,
    precedence,
    robot_sender,
)

RULES = (null_sender, delivery_status, auto_submitted, precedence, lists, robot_sender,
         out_of_office)


def machine_written(headers: MailHeaders) -> str | None:
    """The first rule's reason, or None when a person wrote the mail."""
    for rule in RULES:
        reason = rule.check(headers)
        if reason is not None:
            return reason
    return None
