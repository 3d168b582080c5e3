"""The null sender: `MAIL FROM:<>` (RFC 5321 §4.5.5: bounces and other notices, which must never
be answered) as the SMTP receiver saw it, or `Return-Path: <>` as an MTA's pipe or a mailbox
wrote it. Also mail with no From address at all."""

from __future__ import annotations


def check(headers) -> str | None:
    if headers.mail_from == "":
        return "a null envelope sender (MAIL FROM:<>)"
    # Either says so: marking one's own mail a bounce gains a sender nothing but silence.
    if headers.return_path == "":
        return "a null sender (Return-Path: <>)"
    if not headers.from_address[1]:
        return "no From address"
    return None
