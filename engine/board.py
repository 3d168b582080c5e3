"""Board geometry (RULINGS §1): doubled columns, hex names, adjacency, ahead-or-side.

Rows run 1 (bottom, Desert) to 9 (Castle) with 6, 7, 6, 7, ... hexes. A 7-hex row uses columns
0, 2, ..., 12 and a 6-hex row columns 1, 3, ..., 11. A hex is named by its row and a letter that
counts the row's physical hexes from the left ("5c"), empty edge hexes included.
"""

from __future__ import annotations

import re
from functools import cache

from engine.data import CASTLE_ROW, REGION_ROWS
from engine.errors import Refusal

ROWS = 9
ROW_LENGTHS: dict[int, int] = {r: (6 if r % 2 else 7) for r in range(1, ROWS + 1)}
AHEAD_OR_SIDE: dict[str, tuple[int, int]] = {
    "left": (0, -2),
    "up_left": (1, -1),
    "up_right": (1, 1),
    "right": (0, 2),
}
BEHIND: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1))
_NAME = re.compile(r"^([1-9])([a-g])$")


class HexNameError(ValueError):
    pass


def hex_name(row: int, col: int) -> str:
    """The name of the hex at (row, doubled column)."""
    index = col // 2
    return f"{row}{chr(ord('a') + index)}"


def _coords(row: int, index: int) -> tuple[int, int]:
    return row, index * 2 + (1 if ROW_LENGTHS[row] == 6 else 0)


def parse_hex(name: str) -> tuple[int, int]:
    """(row, doubled column) of a hex name such as "5c"; raises HexNameError when off the board."""
    coords = _COORDS.get(name) if isinstance(name, str) else None
    if coords is not None:
        return coords
    match = _NAME.match(name) if isinstance(name, str) else None
    if not match:
        raise HexNameError(Refusal(
            "{name!r} is not a hex name (expected a row 1-9 and a letter, like '3b')", name=name))
    row, index = int(match.group(1)), ord(match.group(2)) - ord("a")
    if index >= ROW_LENGTHS[row]:
        first, last = f"{row}a", f"{row}{chr(ord('a') + ROW_LENGTHS[row] - 1)}"
        raise HexNameError(Refusal("hex {name} is off the board: row {row} runs from {first} to {last}",
                                   name=name, row=row, first=first, last=last))

    return _coords(row, index)


def is_hex(name: object) -> bool:
    try:
        parse_hex(name)  # type: ignore[arg-type]
    except HexNameError:
        return False
    return True


@cache
def row_hexes(row: int) -> tuple[str, ...]:
    """The physical hexes of a row, left to right."""
    return tuple(hex_name(*_coords(row, i)) for i in range(ROW_LENGTHS[row]))


ALL_HEXES: tuple[str, ...] = tuple(h for r in range(1, ROWS + 1) for h in row_hexes(r))
# Every hex's coordinates, parsed once: distances are measured to every hex when relocating.
_COORDS: dict[str, tuple[int, int]] = {}
_COORDS.update((h, parse_hex(h)) for h in ALL_HEXES)


def row_of(name: str) -> int:
    return int(name[0])


def board_order(name: str) -> tuple[int, int]:
    """Sort key of hexes: by row from the bottom, then from the left (R27)."""
    return parse_hex(name)


def region_of_row(row: int) -> str:
    for region, rows in REGION_ROWS.items():
        if row in rows:
            return region
    raise ValueError(row)


def _at(row: int, col: int) -> str | None:
    if row < 1 or row > ROWS:
        return None
    length = ROW_LENGTHS[row]
    offset = 1 if length == 6 else 0
    if (col - offset) % 2 or col < offset or col > offset + 2 * (length - 1):
        return None
    return hex_name(row, col)


def step(name: str, direction: str, distance: int = 1) -> str | None:
    """The hex `distance` steps from `name` in an ahead-or-side direction, or None off the board."""
    row, col = parse_hex(name)
    dr, dc = AHEAD_OR_SIDE[direction]
    return _at(row + dr * distance, col + dc * distance)


@cache
def ahead_or_side(name: str | None) -> tuple[str, ...]:
    """Hexes an explorer at `name` may reveal or enter; None (the airship) reaches all of row 1."""
    if name is None:
        return row_hexes(1)
    return tuple(h for d in AHEAD_OR_SIDE if (h := step(name, d)) is not None)


@cache
def neighbours(name: str) -> tuple[str, ...]:
    """All six neighbours (for the Prosperous Pickaxe's adjacent tile)."""
    row, col = parse_hex(name)
    behind = tuple(h for dr, dc in BEHIND if (h := _at(row + dr, col + dc)) is not None)
    return ahead_or_side(name) + behind


def distance(a: str | None, b: str) -> int:
    """Hex distance; the airship (None) is one step below every row-1 hex."""
    rb, cb = parse_hex(b)
    if a is None:
        return rb
    ra, ca = parse_hex(a)
    dr, dc = abs(ra - rb), abs(ca - cb)
    return dr + max(0, (dc - dr) // 2)


def is_ahead_or_side(frm: str | None, to: str) -> bool:
    """Relocation may not go behind: the target's row is not below the explorer's."""
    return frm is None or row_of(to) >= row_of(frm)


def playable_hexes(participants: int) -> tuple[str, ...]:
    """Hexes that get a tile: 1-2 participants leave the edge hexes of rows 1-8 empty."""
    if participants > 2:
        return ALL_HEXES
    out: list[str] = []
    for r in range(1, ROWS + 1):
        hexes = row_hexes(r)
        out.extend(hexes if r == CASTLE_ROW else hexes[1:-1])
    return tuple(out)


def column_of(name: str) -> int:
    return parse_hex(name)[1]
