"""The command line's tables (`games`, `open`, `leaderboard`): cells padded to a width counted
in terminal columns, so a Japanese heading or word (two columns a character) keeps the columns
straight."""

from __future__ import annotations

from engine.text.columns import columns


def left(text, width: int) -> str:
    """`text` padded on the right to `width` columns (longer text is left whole)."""
    text = str(text)
    return text + " " * max(0, width - columns(text))


def right(text, width: int) -> str:
    text = str(text)
    return " " * max(0, width - columns(text)) + text


def cut(text, width: int) -> str:
    """`text` cut to at most `width` columns."""
    text = str(text)
    while columns(text) > width:
        text = text[:-1]
    return text
