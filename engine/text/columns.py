"""Text within a width counted in terminal columns: a wide (Japanese) character takes two, so
labels are padded and lines wrapped by columns, not characters."""

from __future__ import annotations

import textwrap
import unicodedata

WIDTH = 80
NO_LINE_START = "、。，．）」』】〉》・ー：；！？"


def columns(text: str) -> int:
    """How many terminal columns `text` takes: a wide (CJK) character two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns."""
    return text + " " * max(0, width - columns(text))


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` columns."""
    kept = ""
    for char in text:
        if columns(kept + char) > width:
            break
        kept += char
    return kept


def wrap_columns(text: str, width: int, first: str, rest: str, breaks: bool) -> list[str]:
    """textwrap.wrap within `width` columns; Japanese text (no spaces) is cut anywhere."""
    if columns(text) == len(text):
        return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                             break_long_words=breaks, break_on_hyphens=False)
    lines, line = [], first
    for char in text:
        if columns(line + char) > width:
            # No line starts with a closing mark (、。）」): the character before it goes down too.
            carried = line[-1] if char in NO_LINE_START and len(line) > len(rest) + 1 else ""
            lines.append(line[:len(line) - len(carried)].rstrip())
            line = rest + carried
        line += char
    lines.append(line.rstrip())
    return [line.replace("\xa0", " ") for line in lines]


def wrap(label: str, items: list[str], width: int = WIDTH, comma: str = ", ") -> list[str]:
    """`label`, then `items` parted by `comma` (the reader's: "、" in Japanese), wrapped."""
    # Non-breaking spaces keep each name on one line; textwrap only breaks at ASCII whitespace.
    body = comma.join(item.replace(" ", "\xa0") for item in items) if items else "-"
    indent = max(12, columns(label) + 1)
    lines = wrap_columns(body, width, pad(label, indent), " " * indent, False)
    return [line.replace("\xa0", " ") for line in lines]
