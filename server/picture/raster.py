"""The hex board drawn straight to a palette PNG, for mail and `GET /games/ID/board.png`.

The same layout as the SVG's hex rows (svg/hexes.py: the same centres, fills, gem shapes and
letters, explorers), without the panels: what they show goes beside the picture as text. Drawn by
Pillow rather than rasterised from the SVG: resvg took 53 ms for the hex rows alone (the whole
picture with panels 116 ms) and a palette besides; Pillow draws them in about 10 ms and a palette
of 64 colours makes the file ~15 KB instead of ~160 KB (bench/picture prints both).

Drawn from the public view (`engine.view(state, None)`): nothing private is on the board, so one
picture per game version serves every player (server/picture/cache.py keeps it).
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.board import ROWS

from .svg.hexes import BOARD_HEIGHT, BOARD_WIDTH, LEFT, RADIUS, ROW_STEP, TOP, _corners, centre
from .svg.symbols import (
    GEM_COLOURS,
    GEM_LETTERS,
    GEM_SHAPES,
    REGION_FILLS,
    bonus_label,
    player_colour,
)

FONT_DIRECTORY = "/usr/share/fonts/truetype/dejavu"
BACKGROUND = "#fbfaf6"
PALETTE_COLOURS = 64  # the board's ~20 colours and the text's anti-aliased edges
WIDTH, HEIGHT = round(BOARD_WIDTH), round(BOARD_HEIGHT)


@cache
def _font(size: int, bold: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(f"{FONT_DIRECTORY}/{name}", size)
    except OSError:  # DejaVu missing (the Makefile installs it): Pillow's own font, scaled
        return ImageFont.load_default(size)


def _centred(draw: ImageDraw.ImageDraw, x: float, y: float, words: str, size: int,
             fill: str, bold: bool = False) -> None:
    draw.text((x, y), words, font=_font(size, bold), fill=fill, anchor="mm")


def _gem(draw: ImageDraw.ImageDraw, gem: str, x: float, y: float, s: float = 9.0) -> None:
    colour, shape = GEM_COLOURS[gem], GEM_SHAPES[gem]
    if shape == "circle":
        draw.ellipse((x - s, y - s, x + s, y + s), fill=colour, outline="#222")
    elif shape == "square":
        draw.rectangle((x - s * 0.85, y - s * 0.85, x + s * 0.85, y + s * 0.85), fill=colour,
                       outline="#222")
    elif shape == "diamond":
        draw.polygon([(x, y - s * 1.15), (x + s * 1.15, y), (x, y + s * 1.15),
                      (x - s * 1.15, y)], fill=colour, outline="#222")
    else:
        draw.polygon([(x, y - s * 1.15), (x + s * 1.1, y + s * 0.8), (x - s * 1.1, y + s * 0.8)],
                     fill=colour, outline="#222")
    _centred(draw, x, y + 1, GEM_LETTERS[gem], 10, "#fff", bold=True)


def _hex(draw: ImageDraw.ImageDraw, cell: dict, region: str) -> None:
    name, state, tile = cell["hex"], cell["state"], cell["tile"]
    x, y = centre(name)
    outline = _corners(x, y, RADIUS - 1.5)
    if state == "empty":
        draw.polygon(outline, outline="#aaa")
    elif state == "face_down":
        draw.polygon(outline, fill="#6d5a48", outline="#3b2f25")
        _centred(draw, x, y, "?", 16, "#e8dccb")
    else:
        draw.polygon(outline, fill=REGION_FILLS[region], outline="#555")
        if tile["gem"]:
            _gem(draw, tile["gem"], x, y - 6)
        else:
            _centred(draw, x, y - 6, "★I" if tile["iridia"] else "R*", 14, "#b03a7a", bold=True)
        bonus = bonus_label(tile["bonus"])
        if bonus:
            _centred(draw, x, y + 11, bonus, 10, "#222")
    if cell["barricade"]:
        draw.line((x - 20, y + 18, x + 20, y - 18), fill="#b00", width=5)
        _centred(draw, x, y + 24, "barricade", 8, "#b00", bold=True)
    draw.text((x - RADIUS * 0.55, y - RADIUS * 0.45 - 7), name, font=_font(8),
              fill="#e8dccb" if state == "face_down" else "#333")


def _explorers(draw: ImageDraw.ImageDraw, names: dict[int, str], players: list[dict]) -> None:
    """As the SVG places them: several on one hex spread out, the airship's below row 1."""
    at: dict[str | None, list[int]] = {}
    for player in players:
        if not player["finished"]:
            at.setdefault(player["position"], []).append(player["seat"])
    for position, seats in at.items():
        for i, seat in enumerate(seats):
            if position is None:
                x, y = LEFT + 40 + i * 110, TOP + ROWS * ROW_STEP + 30
            else:
                cx, cy = centre(position)
                x, y = cx - 16, cy + 8 + i * 13 - (len(seats) - 1) * 6
            colour = player_colour(seat)
            draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=colour, outline="#fff", width=2)
            draw.text((x + 9, y), names.get(seat, f"seat {seat}")[:14], font=_font(10, True),
                      fill=colour, anchor="lm", stroke_width=2, stroke_fill="#fff")


def draw_board(view: dict, names: dict[int, str]) -> Image.Image:
    """The hex rows, region names, the airship and the explorers, in RGB."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row in view["board"]:
        region = row["region"]
        if row["row"] in (1, 3, 5, 7, 9):  # the region's first row: its name between its rows
            y = TOP + (ROWS - row["row"]) * ROW_STEP - (ROW_STEP / 2 if row["row"] != 9 else 0)
            draw.text((12, y), region.capitalize(), font=_font(14, True), fill="#444",
                      anchor="lm")
        for cell in row["hexes"]:
            _hex(draw, cell, region)
    draw.text((12, TOP + ROWS * ROW_STEP + 35), "Airship", font=_font(12), fill="#444",
              anchor="lm")
    _explorers(draw, names, view["players"])
    return image


def board_png(view: dict, names: dict[int, str]) -> bytes:
    """The hex board as a palette PNG of at most `PALETTE_COLOURS` colours, WIDTH (under 640)
    pixels wide."""
    image = draw_board(view, names).quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
