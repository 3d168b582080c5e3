"""Draw an engine view as text that fits 80 columns, in colour on a terminal.

The drawing is engine/text/board.py's, shared with the emails; here its lines become
``rich.text.Text`` so that colour is only styling: with ``color=False`` the output is exactly
the same characters without escape codes, which is what the expectation files in the tests hold.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from client.i18n import engine_catalog
from engine.text.board import view_lines
from engine.text.columns import WIDTH
from engine.text.line import Line


def to_string(lines: list[Line], color: bool) -> str:
    if not color:
        return "\n".join(line.plain.rstrip() for line in lines)
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=WIDTH, force_terminal=True, color_system="standard", soft_wrap=True
    )
    for line in lines:
        console.print(Text.assemble(*line.spans), soft_wrap=True)
    return buffer.getvalue().rstrip("\n")


def render_view(view: dict, game: dict | None = None, *, color: bool = False) -> str:
    return to_string(view_lines(view, game, engine_catalog()), color)
