"""The board on the game page: the hex rows only (the panels are HTML text beside it), drawn to
fill the page's width, and the place of each hex's controls over it in percent of the picture,
so a tap on a hex is a tap on its control."""

from __future__ import annotations

from flask_babel import gettext

from engine.board import ROWS, row_hexes
from engine.text.wording import Words
from server.picture.svg import describe
from server.picture.svg.hexes import BOARD_HEIGHT, BOARD_WIDTH, draw_hexes
from server.picture.svg.markup import element, escape


def web_board_svg(view: dict, names: dict[int, str], title: str,
                  words: Words | None = None) -> str:
    """The hexes and explorers as an SVG that scales to its box (the page sets its width), its
    words in the page's language (`words`: the engine's wording in it)."""
    printed = (words or Words()).translations.gettext
    head = element("title", escape(title), id="board-title")
    desc = element("desc", escape(describe(view, names, gettext)), id="board-desc")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" class="board-picture" '
        'aria-labelledby="board-title board-desc" '
        f'viewBox="0 0 {BOARD_WIDTH:.0f} {BOARD_HEIGHT:.0f}" preserveAspectRatio="xMidYMid meet" '
        'font-family="DejaVu Sans, Verdana, sans-serif">'
        f"{head}{desc}{draw_hexes(view, names, gettext, printed)}</svg>"
    )


def board_controls(controls: dict[str, list]) -> list[dict]:
    """Each hex that has controls, in board order (the top row first, left to right, as the
    picture reads and as Tab goes): its name and its controls (board.css places them)."""
    hexes = []
    for row in range(ROWS, 0, -1):
        for name in row_hexes(row):
            here = controls.get(f"hex:{name}")
            if not here:
                continue
            hexes.append({"hex": name, "controls": here})
    return hexes
