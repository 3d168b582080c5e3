"""Bounded work before any check (issue 32, M7, H2, L1): what a mail may hold before the server
parses it, measured on its raw bytes in one pass. A Subject of 30,000 encoded words cost 28 s of
CPU in the header parser, a `To:` of 40,000 addresses 19 s, and a multipart nested 1,000 deep
raised RecursionError out of ingest (and out of every IMAP poll). Real mail is far inside every
limit here: a long thread's headers are a few hundred lines, a mail a handful of parts deep.

A mail over a limit is recorded as `unreadable` and, if its sender is registered, answered with
the reason; it is never parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_HEADER_BYTES = 256 * 1024
MAX_HEADERS = 500
MAX_ENCODED_WORDS = 400  # =?charset?enc?text?= in all the headers together
MAX_MULTIPARTS = 40  # declared multipart containers: the depth is at most their number
MAX_PARTS = 200
MAX_RAW_LINE = 256 * 1024  # bytes between two line breaks (RFC 5322 says 998)
MAX_RAW_LINES = 100_000

ENCODED_WORD = re.compile(rb"=\?[^?\s]{1,40}\?[bBqQ]\?")
CONTENT_TYPE = re.compile(rb"^content-type:", re.IGNORECASE | re.MULTILINE)
MULTIPART = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/", re.IGNORECASE | re.MULTILINE)
HEADER_START = re.compile(rb"^[!-9;-~]{1,100}:", re.MULTILINE)
END_OF_HEADERS = re.compile(rb"\r?\n\r?\n")


@dataclass(frozen=True)
class RawHeaders:
    """The header section, split off without parsing it."""

    text: bytes

    @classmethod
    def of(cls, raw: bytes) -> RawHeaders:
        end = END_OF_HEADERS.search(raw, 0, MAX_HEADER_BYTES + 4)
        return cls(raw[:end.start()] if end else raw[:MAX_HEADER_BYTES])


def beyond_limits(raw: bytes) -> str | None:
    """Why `raw` is more than the server parses, or None. Linear in its size."""
    headers = RawHeaders.of(raw)
    if len(headers.text) >= MAX_HEADER_BYTES:
        return f"its headers are over {MAX_HEADER_BYTES // 1024} KiB"
    if len(HEADER_START.findall(headers.text)) > MAX_HEADERS:
        return f"it has more than {MAX_HEADERS} header lines"
    if len(ENCODED_WORD.findall(headers.text)) > MAX_ENCODED_WORDS:
        return f"its headers hold more than {MAX_ENCODED_WORDS} encoded words"
    if raw.count(b"\n") > MAX_RAW_LINES:
        return f"it has more than {MAX_RAW_LINES} lines"
    if max(map(len, raw.split(b"\n"))) > MAX_RAW_LINE:
        return f"it has a line over {MAX_RAW_LINE // 1024} KiB"
    if len(MULTIPART.findall(raw)) > MAX_MULTIPARTS:
        return f"it nests more than {MAX_MULTIPARTS} multipart parts"
    if len(CONTENT_TYPE.findall(raw)) > MAX_PARTS:
        return f"it has more than {MAX_PARTS} parts"
    return None

