"""A mail's headers read without the costly parts of the header parser: raw values (unfolded,
cut to a bounded length), the addresses of To/Cc found by one linear expression, and only the
From and Subject decoded (issue 32, M7). The rules (`rules/`) and the checks before the body is
read see only this."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parseaddr

from server.inbound.limits import RawHeaders

MAX_VALUE = 4000  # characters of a header value looked at
MAX_ADDRESSES = 50  # recipients read from To/Cc/Delivered-To when the envelope gives none
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9.-]{1,253}")


@dataclass(frozen=True)
class MailHeaders:
    """What the rules and the gates read. `mail_from`: the envelope sender when the way in knows
    it ('' for the null sender `<>`), else None."""

    message: Message
    mail_from: str | None = None

    @classmethod
    def of(cls, raw: bytes, mail_from: str | None = None) -> MailHeaders:
        # compat32 leaves values as the raw strings they are: nothing is decoded until asked.
        return cls(message_from_bytes(RawHeaders.of(raw).text + b"\r\n\r\n",
                                      policy=policy.compat32), mail_from)

    def all(self, name: str) -> list[str]:
        """The raw values of every `name` header, top first; 8-bit ones (RFC 6532) as UTF-8."""
        wanted = name.lower()
        return [_utf8(str(value)) for key, value in self.message.raw_items()
                if key.lower() == wanted]

    def get(self, name: str) -> str:
        """The raw value of the first `name` header, unfolded, '' when there is none."""
        values = self.all(name)
        return " ".join(values[0][:MAX_VALUE].split()) if values else ""

    def has(self, name: str) -> bool:
        return self.message.get(name) is not None

    def decoded(self, name: str) -> str:
        raw = self.get(name)
        try:
            return str(make_header(decode_header(raw)))
        except (LookupError, ValueError, UnicodeError):  # an unknown charset: as it came
            return raw

    @property
    def from_address(self) -> tuple[str, str]:
        """(display name, address lower case) of From."""
        name, address = parseaddr(self.get("From"))
        try:
            name = str(make_header(decode_header(name))) if "=?" in name else name
        except (LookupError, ValueError, UnicodeError):
            pass
        return name, address.strip().lower()

    @property
    def return_path(self) -> str | None:
        """The Return-Path an MTA wrote from the envelope: '' for `<>`, None when absent."""
        value = self.get("Return-Path")
        if not value:
            return None
        return parseaddr(value)[1].strip().lower()

    def addresses(self, *names: str) -> list[str]:
        found: list[str] = []
        for name in names:
            for value in self.all(name):
                found += ADDRESS.findall(value[:MAX_VALUE * 4])
                if len(found) >= MAX_ADDRESSES:
                    return found[:MAX_ADDRESSES]
        return found

    @property
    def content_type(self) -> str:
        return self.get("Content-Type").partition(";")[0].strip().lower()


def _utf8(value: str) -> str:
    """compat32 keeps a raw 8-bit header as surrogate escapes: read them as the UTF-8 they are."""
    try:
        return value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # already text
        return value


def whole(raw: bytes) -> Message:
    """The whole message, parsed (only once it is within `limits` and its sender is known)."""
    return message_from_bytes(raw, policy=policy.default)
