"""How each gem, bonus and player is drawn: colours, and the letters and shapes that tell the gems
apart without colour (for colour-blind players and for text search)."""

from __future__ import annotations

from engine.data import display_name

from .markup import element, points, text

GEM_COLOURS = {"amethyst": "#8e44ad", "citrine": "#e1b12c", "emerald": "#27ae60",
               "sapphire": "#2e64c8"}
GEM_LETTERS = {"amethyst": "A", "citrine": "C", "emerald": "E", "sapphire": "S"}
# Each gem its own outline too: amethyst a triangle, citrine a circle, emerald a square, sapphire
# a diamond.
GEM_SHAPES = {"amethyst": "triangle", "citrine": "circle", "emerald": "square",
              "sapphire": "diamond"}
PLAYER_COLOURS = ("#c0392b", "#16a085", "#34495e", "#d35400", "#7f8c8d")
REGION_FILLS = {"desert": "#f3e2b3", "canyon": "#e8b89a", "forest": "#b8d8a8",
                "ruins": "#c9c3d6", "castle": "#f0d0e0"}


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def gem_mark(gem: str, x: float, y: float, size: float = 9.0) -> str:
    """The gem's shape in its colour with its letter inside."""
    colour = GEM_COLOURS[gem]
    shape = GEM_SHAPES[gem]
    s = size
    if shape == "circle":
        outline = element("circle", cx=x, cy=y, r=s)
    elif shape == "square":
        outline = element("rect", x=x - s * 0.85, y=y - s * 0.85, width=s * 1.7, height=s * 1.7)
    elif shape == "diamond":
        outline = element("polygon", points=points([(x, y - s * 1.15), (x + s * 1.15, y),
                                                    (x, y + s * 1.15), (x - s * 1.15, y)]))
    else:
        outline = element("polygon", points=points([(x, y - s * 1.15), (x + s * 1.1, y + s * 0.8),
                                                    (x - s * 1.1, y + s * 0.8)]))
    return (f'<g class="gem gem-{gem}" fill="{colour}" stroke="#222" stroke-width="0.8">'
            f"{outline}</g>"
            + text(x, y + s * 0.4, GEM_LETTERS[gem], class_="gem-letter", text_anchor="middle",
                   font_size=s * 1.1, font_weight="bold", fill="#fff"))


def bonus_label(bonus: dict | None) -> str:
    if not bonus:
        return ""
    if bonus["kind"] == "stone_die":
        return "+die"
    unit = "c" if bonus["kind"] == "coins" else "pt"
    return f"+{bonus['amount']}{unit}"


def gems_needed(requirement: dict[str, int]) -> str:
    """"2A 1C" for a relic's cost."""
    return " ".join(f"{n}{GEM_LETTERS[g]}" for g, n in requirement.items() if n)


def hold_words(hold: dict[str, int]) -> str:
    words = [f"{n}{GEM_LETTERS[g]}" for g, n in sorted(hold.items()) if n]
    return " ".join(words) if words else "empty"


def name_of(component_id: str) -> str:
    try:
        return display_name(component_id)
    except KeyError:
        return component_id.replace("_", " ")
