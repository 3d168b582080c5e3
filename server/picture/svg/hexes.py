"""The board's hex rows (RULINGS §1): row 1 (Desert) at the bottom, row 9 (the Castle) at the top,
the 6-hex rows set half a hex in, as the doubled columns of engine/board.py say."""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.board import ROWS, parse_hex

from .markup import element, escape, group, points, text
from .symbols import GEM_LETTERS, REGION_FILLS, bonus_label, gem_mark, player_colour

RADIUS = 34.0
HEX_WIDTH = math.sqrt(3) * RADIUS
LEFT = 92.0  # room for the region names
TOP = 60.0
ROW_STEP = 1.5 * RADIUS
BOARD_WIDTH = LEFT + 13 * HEX_WIDTH / 2 + 20
BOARD_HEIGHT = TOP + ROWS * ROW_STEP + 90  # the airship lies below row 1


def centre(hex_name: str) -> tuple[float, float]:
    row, column = parse_hex(hex_name)
    return LEFT + HEX_WIDTH / 2 + column * HEX_WIDTH / 2, TOP + (ROWS - row) * ROW_STEP


def _corners(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
            for a in range(-90, 270, 60)]


def _same(words: str) -> str:
    return words


def _bonus(bonus: dict | None, _: Callable[[str], str]) -> str:
    """A tile's bonus on its hex: "+2c", "+1pt", "+die" (symbols.bonus_label) in `_`'s
    language."""
    if _ is _same or not bonus:
        return bonus_label(bonus)
    if bonus["kind"] == "stone_die":
        return _("+die")
    unit = _("{n}c") if bonus["kind"] == "coins" else _("{n}pt")
    return "+" + unit.format(n=bonus["amount"])


def _tile_words(tile: dict, _: Callable[[str], str], names: Callable[[str], str]) -> str:
    if tile["iridia"]:
        return _("Iridia Stone")
    gem = _("rainbow") if tile["rainbow"] else names(tile["gem"])
    bonus = _bonus(tile["bonus"], _)
    return f"{gem} {bonus}".strip()


def _hex(cell: dict, region: str, _: Callable[[str], str] = _same,
         names: Callable[[str], str] = _same) -> str:
    name, state = cell["hex"], cell["state"]
    x, y = centre(name)
    outline = points(_corners(x, y, RADIUS - 1.5))
    tile = cell["tile"]
    if state == "empty":
        words = _("empty")
        parts = [element("polygon", points=outline, fill="none", stroke="#999",
                         stroke_dasharray="4 3")]
    elif state == "face_down":
        words = _("face down")
        parts = [element("polygon", points=outline, fill="#6d5a48", stroke="#3b2f25"),
                 text(x, y + 5, "?", text_anchor="middle", font_size=16, fill="#e8dccb")]
    else:
        words = _tile_words(tile, _, names)
        parts = [element("polygon", points=outline, fill=REGION_FILLS[region], stroke="#555")]
        if tile["gem"]:
            parts.append(gem_mark(tile["gem"], x, y - 6))
        elif tile["iridia"]:
            parts.append(text(x, y - 2, "★I", text_anchor="middle", font_size=15,
                              font_weight="bold", fill="#b03a7a"))
        else:
            parts.append(text(x, y - 2, "R*", text_anchor="middle", font_size=14,
                              font_weight="bold", fill="#b03a7a"))
        bonus = _bonus(tile["bonus"], _)
        if bonus:
            parts.append(text(x, y + 14, bonus, text_anchor="middle", font_size=10, fill="#222"))
    if cell["barricade"]:
        words += _(", barricaded")
        parts.append(element("line", x1=x - 20, y1=y + 18, x2=x + 20, y2=y - 18,
                             stroke="#b00", stroke_width=5, stroke_linecap="round"))
        parts.append(text(x, y + 27, _("barricade"), text_anchor="middle", font_size=8,
                          fill="#b00", font_weight="bold"))
    parts.append(text(x - RADIUS * 0.55, y - RADIUS * 0.45, name, font_size=8, fill="#333",
                      class_="hex-name"))
    title = element("title", escape(f"{name}: {words}"))
    return group([title, *parts], class_=f"hex {state.replace('_', '-')}", id=f"hex-{name}")


def _explorers(board: list[dict], names: dict[int, str], players: list[dict],
               _: Callable[[str], str] = _same) -> list[str]:
    """Each explorer a disc in its player's colour with the name beside it; several on one hex
    are spread out. Explorers still in the airship (no position) wait below row 1."""
    out = []
    at: dict[str | None, list[int]] = {}
    for p in players:
        if not p["finished"]:
            at.setdefault(p["position"], []).append(p["seat"])
    for position, seats in at.items():
        for i, seat in enumerate(seats):
            if position is None:
                x = LEFT + 40 + i * 110
                y = TOP + ROWS * ROW_STEP + 30
            else:
                cx, cy = centre(position)
                x, y = cx - 16, cy + 8 + i * 13 - (len(seats) - 1) * 6
            name = names.get(seat, f"seat {seat}")
            where = _("the airship") if position is None else position
            out.append(group([
                element("title", escape(_("{name}'s explorer on {where}").format(
                    name=name, where=where))),
                element("circle", cx=x, cy=y, r=7, fill=player_colour(seat), stroke="#fff",
                        stroke_width=2),
                text(x + 9, y + 4, name[:14], font_size=10, font_weight="bold",
                     fill=player_colour(seat), stroke="#fff", stroke_width=2.5,
                     paint_order="stroke", class_="explorer-name"),
            ], class_="explorer", id=f"explorer-{seat}"))
    return out


def draw_hexes(view: dict, names: dict[int, str], _: Callable[[str], str] = _same,
               printed: Callable[[str], str] = _same) -> str:
    """The hex rows and the explorers. `_`: the server catalog's gettext for the picture's own
    words (the page's language; English by default), `printed`: the engine's, for the regions'
    and gems' printed names."""
    parts = []
    for row in view["board"]:
        region = row["region"]
        if row["row"] in (1, 3, 5, 7, 9):  # the region's first row: its name between its rows
            y = TOP + (ROWS - row["row"]) * ROW_STEP
            middle = y - (ROW_STEP / 2 if row["row"] != 9 else 0)
            parts.append(text(12, middle + 5, printed(region.capitalize()), font_size=14,
                              font_weight="bold", fill="#444", class_="region-name"))
        parts.extend(_hex(cell, region, _, printed) for cell in row["hexes"])
    airship_y = TOP + ROWS * ROW_STEP + 8
    parts.append(text(12, airship_y + 27, _("Airship"), font_size=12, fill="#444"))
    parts.extend(_explorers(view["board"], names, view["players"], _))
    return group(parts, class_="board")


__all__ = ["BOARD_HEIGHT", "BOARD_WIDTH", "GEM_LETTERS", "draw_hexes"]
