"""Text people type (names, email addresses) without control characters.

A CR/LF in a name broke every mail whose subject quoted it (Python's header check refused the
message and it was parked); ESC and BEL, even in an address's quoted local part, reached the To
header and the operator's terminal raw (issue 16). The API refuses them (`PlainString`,
`PlainEmail`: 422 naming the character); what still reaches a mail header from older rows is
folded to spaces (`header_safe`), and the operator's commands print it escaped (`printable`).
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import ValidationError, fields

from engine.text.wording import CONTROL_CHARACTERS, printable

__all__ = ["UNSAFE", "PlainEmail", "PlainString", "body_safe", "describe", "header_safe",
           "printable", "refuse_control_characters"]

UNSAFE = CONTROL_CHARACTERS  # the one class, shared with the engine's words and the client
_UNSAFE_RUN = re.compile(UNSAFE.pattern + "+")
# In a mail's body the line ends and tabs are the text's own; every other control character
# is someone's name obeyed by a terminal or a mail reader (OSC 0 … BEL retitles a window).
_UNSAFE_IN_A_BODY = re.compile("(?![\n\t])" + UNSAFE.pattern)
_NAMES = {0x07: "BEL", 0x08: "BS", 0x09: "TAB", 0x0A: "LF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL"}


def _json_schema_class(pattern: re.Pattern[str]) -> str:
    """UNSAFE's character class written for a JSON Schema pattern (ECMA-262: \\uXXXX escapes, so
    the spec file holds no control character itself)."""
    body = pattern.pattern[1:-1]
    return "".join(ch if ch == "-" else f"\\u{ord(ch):04x}" for ch in body)


# The name rule as a JSON Schema pattern: no control character, and something other than
# spaces (the name is stripped, and a blank one refused).
_NO_CONTROL = _json_schema_class(UNSAFE)
NAME_PATTERN = f"^[^{_NO_CONTROL}]*[^{_NO_CONTROL}\\s][^{_NO_CONTROL}]*$"


def describe(character: str) -> str:
    """``U+001B ESC``: a character that has no printable form, by its code (and short name)."""
    code = ord(character)
    return f"U+{code:04X}" + (f" {_NAMES[code]}" if code in _NAMES else "")


def refuse_control_characters(value: str) -> None:
    """A marshmallow validator: the value holds no `UNSAFE` character."""
    found = UNSAFE.search(value)
    if found is not None:
        raise ValidationError(
            f"must not contain control characters ({describe(found.group())} at position "
            f"{found.start() + 1}): type it again without them")


class PlainString(fields.String):
    """A string field that refuses control characters before any other check."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        refuse_control_characters(text)
        return text


class PlainEmail(fields.Email):
    """An email field that refuses control characters first (the address syntax allows some in
    a quoted local part), so the message says what to remove."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            refuse_control_characters(value)
        return super()._deserialize(value, attr, data, **kwargs)


def header_safe(text: str) -> str:
    """``text`` for a mail header: each run of unsafe characters (a CR/LF above all) folded to
    one space, so a message is never refused for it."""
    return _UNSAFE_RUN.sub(" ", text) if UNSAFE.search(text) else text



def body_safe(text: str) -> str:
    """``text`` for a mail's text or HTML part: every control character but line ends and tabs
    taken out (names stored before the API refused them reached other players' mail raw, issue
    32 N1; the migration 0005_hardening_sessions cleaned the rows, this keeps any other source
    out)."""
    return _UNSAFE_IN_A_BODY.sub("", text) if UNSAFE.search(text) else text
