"""The board as a PNG for email (mail clients do not show SVG reliably), and moving it from the
stored HTML into an inline part of the message.

Rasterised by resvg (the resvg-py wheel: Rust, no system library) with DejaVu Sans, the font of
Debian's fonts-dejavu-core, named explicitly so the text looks the same on every machine that has
it (the Makefile and .ci/run install it); elsewhere resvg falls back to the system's fonts.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from server.picture.svg import board_svg

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = [str(DEJAVU / name) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
              if (DEJAVU / name).exists()]
DATA_URI = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
BOARD_CID = "board@iridescia"


def board_png(svg: str) -> bytes:
    import resvg_py

    if FONT_FILES:
        png = resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True,
                                    font_files=FONT_FILES, font_family="DejaVu Sans")
    else:
        png = resvg_py.svg_to_bytes(svg_string=svg)
    return bytes(png)


def data_uri(png: bytes) -> str:
    """How the rendered HTML keeps the picture until the message is built (the outbox stores
    the HTML: a retry sends the same picture)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def inline_images(html: str) -> tuple[str, list[tuple[str, bytes]]]:
    """The HTML with each PNG data URI replaced by a cid: reference, and the images by cid."""
    images: list[tuple[str, bytes]] = []

    def _to_cid(match: re.Match) -> str:
        cid = BOARD_CID if not images else f"image{len(images)}@iridescia"
        images.append((cid, base64.b64decode(match.group(1))))
        return f'src="cid:{cid}"'

    return DATA_URI.sub(_to_cid, html), images


def html_with_board(text: str, view: dict, names: dict[int, str], game_id: str,
                    link: str | None = None) -> str:
    """An HTML body for a plain-text email (the answer to a reply by mail): its text, then the
    board as a picture (inlined by cid: when the message is built), then "Open the game"."""
    from html import escape


    picture = data_uri(board_png(board_svg(view, names, f"Gems of Iridescia, game {game_id}")))
    opened = f'<p><a href="{escape(link)}">Open the game</a></p>' if link else ""
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
            '<body style="font-family: sans-serif">'
            f'<pre style="white-space: pre-wrap">{escape(text)}</pre>'
            f'<p><img src="{picture}" alt="The board of game {escape(game_id)}" '
            f'style="max-width: 100%"></p>{opened}</body></html>')
