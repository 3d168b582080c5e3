"""Text from the server, made safe to print: every string another person wrote (names, emails,
messages quoting them) reaches the terminal with its control and escape characters shown, not
obeyed. ``ESC ] 0 ; … BEL`` would retitle the player's terminal and ``ESC [ 2 J`` clear it; rich
strips only BEL and CR, and click.echo nothing.

    printable("\\x1b[2JBob")          # '\\\\x1b[2JBob': the ESC is shown as the four characters \\x1b
    printable_data({"name": "\\x07"})  # every string inside, keys too

Applied to every answer the client decodes (client/http.py), so no command can forget it.
"""

from __future__ import annotations

import re
from typing import Any

# C0 and C1 controls (ESC, BEL, CR, LF, the 8-bit CSI 0x9b...), DEL, and the invisible
# characters that reorder or break the text around them (bidi overrides and isolates, the
# line and paragraph separators).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with each unsafe character replaced by its escape (``\\x1b``, ``\\u202e``)."""
    return _UNSAFE.sub(_shown, text)


def printable_data(data: Any) -> Any:
    """A decoded JSON value with every string in it (keys included) made `printable`."""
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, list):
        return [printable_data(item) for item in data]
    if isinstance(data, dict):
        return {printable_data(key): printable_data(value) for key, value in data.items()}
    return data
