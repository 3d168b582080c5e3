"""The board as an SVG picture, drawn from what a seat may see (engine.view decides that, so the
picture can show nothing the view hides). Pure and deterministic: the same view and names give
the same text, byte for byte.

    svg = board_svg(engine.view(state, seat), {0: "Ada", 1: "Bo"}, title="Game k3x9q2ab")
"""

from __future__ import annotations

from collections.abc import Callable

from .hexes import BOARD_HEIGHT, BOARD_WIDTH, _same, draw_hexes
from .markup import element, escape
from .panels import PANEL_WIDTH, draw_panels
from .symbols import hold_words


def describe(view: dict, names: dict[int, str], _: Callable[[str], str] = _same) -> str:
    """The picture's <desc>: what it shows, in words, for screen readers (`_`: the server
    catalog's gettext, English by default)."""
    parts = []
    for player in view["players"]:
        name = names.get(player["seat"], f"seat {player['seat']}")
        where = player["position"] or _("the airship")
        hold = hold_words(player["hold"])
        parts.append(_("{name} on {where} with {points} points, {coins} coins, hold {hold}").format(
            name=name, where=where, points=player["points"], coins=player["coins"],
            hold=_("empty") if hold == "empty" else hold))
    turn = view["turn"]
    if view["over"]:
        parts.append(_("the game is over"))
    elif turn is not None:
        parts.append(_("{name} to play").format(name=names.get(turn["seat"], turn["seat"])))
    return _("; ").join(parts) + _(".")


def board_svg(view: dict, names: dict[int, str], title: str = "Gems of Iridescia") -> str:
    """The whole picture: hex rows on the left, markets and player panels on the right."""
    board = draw_hexes(view, names)
    panels, bottom = draw_panels(view, names, BOARD_WIDTH + 16, 10)
    width = BOARD_WIDTH + PANEL_WIDTH + 30
    height = max(BOARD_HEIGHT, bottom + 10)
    head = element("title", escape(title), id="board-title")
    desc = element("desc", escape(describe(view, names)), id="board-desc")
    background = element("rect", x=0, y=0, width=width, height=height, fill="#fbfaf6")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" '
        'aria-labelledby="board-title board-desc" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">'
        f"{head}{desc}{background}{board}{panels}</svg>\n"
    )


__all__ = ["board_svg", "describe"]
