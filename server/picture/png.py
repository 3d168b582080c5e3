"""The whole picture (board and panels) as a PNG by resvg, and moving a picture from the stored
HTML into an inline part of the message. Mail and `board.png` carry the hex board alone, drawn
by server/picture/raster.py.

Rasterised by resvg (the resvg-py wheel: Rust, no system library) with DejaVu Sans, the font of
Debian's fonts-dejavu-core, named explicitly so the text looks the same on every machine that has
it (the Makefile and .ci/run install it); elsewhere resvg falls back to the system's fonts.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

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
