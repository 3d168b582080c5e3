"""The server's automatic removal turn (RULINGS §5, R28), decided from the public view.

A finished player's removal turn exists "to prevent your opponents from staying behind too long",
so the removal the server plays for them targets the rearmost explorer still exploring:

1. the rearmost explorer is the one in the lowest row (the airship counts as row 0); between
   explorers in the same row, the one who plays soonest after the remover;
2. it removes a tile that explorer could move onto next: ahead of or beside it (from the
   airship: row 1), not barricaded; a revealed tile first (it could step onto it now), then a
   face-down one; between those, the lowest row, then the leftmost;
3. when that explorer has no such tile, the next explorer from the back is tried; when none has
   one, the removable tile nearest the rearmost explorer (then the lowest row, the leftmost).

It reads only the public view, so what the server will do is predictable by every player.
Games created under rules version 1 keep version 1's choice (`policies.default_removal`).
"""

from __future__ import annotations

from engine.board import ahead_or_side, board_order, distance, row_of


def rearmost_removal(view: dict, commands: list):
    """The `remove_tile` command among `commands` that the rules above choose."""
    by_hex = {c.hex: c for c in commands}
    hexes = {h["hex"]: h for row in view["board"] for h in row["hexes"]}
    remover = view["turn"]["seat"] if view.get("turn") else 0
    count = len(view["players"])
    exploring = [p for p in view["players"] if not p.get("finished")]

    def rear_first(p: dict) -> tuple[int, int]:
        position = p.get("position")
        return (row_of(position) if position else 0, (p["seat"] - remover) % count)

    ordered = sorted(exploring, key=rear_first)
    for explorer in ordered:
        options = [
            h for h in ahead_or_side(explorer.get("position"))
            if h in by_hex and not hexes[h]["barricade"]
        ]
        if options:
            best = min(options, key=lambda h: (hexes[h]["state"] != "revealed", board_order(h)))
            return by_hex[best]
    rearmost = ordered[0].get("position") if ordered else None
    return by_hex[min(by_hex, key=lambda h: (distance(rearmost, h), board_order(h)))]
