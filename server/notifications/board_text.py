"""The board of an engine view (`engine.view`) as plain text, for emails."""

GEM_LETTERS = {"amethyst": "A", "citrine": "C", "emerald": "E", "sapphire": "S"}
LEGEND = (
    "A/C/E/S amethyst/citrine/emerald/sapphire tile, * rainbow, I Iridia Stone, "
    "? face down, # barricade, . empty; @N explorer of seat N"
)


def _cell(hex_: dict) -> str:
    if hex_.get("barricade"):
        mark = "#"
    elif hex_["state"] == "face_down":
        mark = "?"
    elif hex_["state"] == "revealed" and hex_.get("tile"):
        tile = hex_["tile"]
        mark = (
            "I"
            if tile.get("iridia")
            else "*"
            if tile.get("rainbow")
            else GEM_LETTERS.get(tile.get("gem"), "?")
        )
    else:
        mark = "."
    explorers = "".join(f"@{seat}" for seat in hex_.get("explorers", []))
    return f"{hex_['hex']} {mark}{explorers}"


def board_text(view: dict) -> str:
    """Rows from the Castle (top) down to row 1, each hex as `4c E@1`."""
    lines = []
    for row in sorted(view.get("board", []), key=lambda r: r["row"], reverse=True):
        cells = "  ".join(f"{_cell(h):<9}" for h in row["hexes"]).rstrip()
        lines.append(f"{row['row']} {row.get('region', ''):<10} {cells}")
    lines.append("")
    lines.append(LEGEND)
    return "\n".join(lines)
