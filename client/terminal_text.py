"""Text from the server, made safe to print: every string another person wrote (names, emails,
messages quoting them) reaches the terminal with its control and escape characters shown, not
obeyed. ``ESC ] 0 ; … BEL`` would retitle the player's terminal and ``ESC [ 2 J`` clear it; rich
strips only BEL and CR, and click.echo nothing.

    printable("\\x1b[2JBob")          # '\\\\x1b[2JBob': the ESC is shown as the four characters \\x1b
    printable_data({"name": "\\x07"})  # every string inside, keys too

Applied to every answer the client decodes (client/http.py), so no command can forget it.
"""

from __future__ import annotations

from typing import Any

from engine.text.wording import printable

__all__ = ["printable", "printable_data"]


def printable_data(data: Any) -> Any:
    """A decoded JSON value with every string in it (keys included) made `printable`."""
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, list):
        return [printable_data(item) for item in data]
    if isinstance(data, dict):
        return {printable_data(key): printable_data(value) for key, value in data.items()}
    return data
