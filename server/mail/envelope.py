"""The envelope sender (MAIL FROM, the Return-Path a bounce goes to) of each message: VERP, a
signed per-recipient address on the reply domain, `play+bounce-u12-<signature>@domain`, so a
bounce names the account whose address failed without reading its text (server/inbound/
bounces.py records it). Mail to no account (an invitation) keeps the From address.
"""

from __future__ import annotations

from server.mail.reply_addresses import ReplyBase, bounce_address


def envelope_sender(row, settings, from_address: str) -> str:
    """`row`'s envelope sender: its VERP address when it goes to an account, else
    `from_address`."""
    if getattr(row, "user_id", None) is None or not row.to_email.isascii():
        return from_address
    return bounce_address(ReplyBase.parse(settings.reply_address), settings.secret_key,
                          row.user_id, row.to_email)
