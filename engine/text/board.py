"""An engine view (docs/engine-api.md, "The view") drawn as text within 80 columns: the board,
the gem market and supply, the relic and item rows, every player's public state and the reader's
own hold, coins, items and objective with its text.

Shared by `iridescia show` (client/render.py adds colour) and the emails (server/notifications):
the client may not import the server nor the server the client, and both already depend on the
engine, whose view this draws. It is pure: a view (and the players' names) in, lines out. Each
line is a `Line` of (text, style) spans; the style is only a hint for a terminal, so a line's
`plain` text is exactly what is drawn without colour.
"""

from __future__ import annotations

import textwrap

from engine.data import GEMS, TILES
from engine.text.line import Line
from engine.text.wording import (
    GEM_LETTERS,
    component_name,
    item_label,
    item_text,
    objective_text,
    relic_category,
    relic_label,
)

display_name = component_name


WIDTH = 80
LABEL_WIDTH = 8
CELL_WIDTH = 10  # 9 characters of content and one space
NAME_WIDTH = 24
GEM_STYLES = {
    "amethyst": "bold magenta",
    "citrine": "bold yellow",
    "emerald": "bold green",
    "sapphire": "bold blue",
}
RAINBOW_STYLE = "bold bright_white on magenta"
IRIDIA_STYLE = "bold black on bright_cyan"
LEGEND = [
    "A amethyst  C citrine  E emerald  S sapphire  R rainbow  I Iridia Stone",
    "2c coins  2p points  sd stone die  ░░ face down  ## barricade  · empty",
    "digits after a tile: the seats whose explorers stand there",
]


def bonus_code(bonus) -> str:
    """`2c`, `3p`, `sd` or '' for the view's tile bonus, whichever shape the engine gives."""
    if not bonus:
        return ""
    if isinstance(bonus, dict):
        kind = str(bonus.get("kind") or bonus.get("type") or "")
        amount = bonus.get("amount", bonus.get("value", bonus.get("count", "")))
    else:
        text = str(bonus)
        kind, _, amount = text.replace(":", "_").rpartition("_") if "_" in text or ":" in text \
            else (text, "", "")
        if not amount.isdigit():
            kind, amount = text, ""
    kind = kind.lower()
    if kind.startswith("coin"):
        return f"{amount}c"
    if kind.startswith("point") or kind.startswith("royal"):
        return f"{amount}p"
    if kind.startswith("stone"):
        return "sd"
    return kind[:3]


def tile_code(tile: dict) -> tuple[str, str]:
    """The 4-character code of a revealed tile and its style."""
    if tile.get("iridia"):
        return "I" + bonus_code(tile.get("bonus")), IRIDIA_STYLE
    if tile.get("rainbow"):
        return "R" + bonus_code(tile.get("bonus")), RAINBOW_STYLE
    gem = tile.get("gem")
    return GEM_LETTERS.get(gem, "?") + bonus_code(tile.get("bonus")), GEM_STYLES.get(gem, "")


def hex_cell(cell: dict, viewer) -> Line:
    text = Line(f"{cell['hex']:<3}", style="dim")
    state = cell.get("state")
    if cell.get("barricade"):
        text.append(f"{'##':<4}", style="bold red")
    elif state == "face_down":
        text.append(f"{'░░':<4}", style="dim")
    elif state == "revealed" and cell.get("tile"):
        code, style = tile_code(cell["tile"])
        text.append(code[:4], style=style)
        text.append(" " * (4 - len(code[:4])))
    else:
        text.append(f"{'·':<4}", style="dim")
    seats = "".join(str(s) for s in cell.get("explorers") or [])[:2]
    style = "bold reverse" if viewer is not None and viewer in (cell.get("explorers") or []) \
        else "bold cyan"
    text.append(seats, style=style)
    text.append(" " * (2 - len(seats)))
    return text


def board_lines(view: dict) -> list[Line]:
    rows = sorted(view.get("board") or [], key=lambda row: row["row"], reverse=True)
    widest = max((len(row["hexes"]) for row in rows), default=7)
    lines = []
    previous_region = None
    for row in rows:
        region = str(row.get("region") or "").capitalize()
        label = region if region != previous_region else ""
        previous_region = region
        line = Line(f"{label:<{LABEL_WIDTH}}", style="bold")
        if len(row["hexes"]) < widest:
            line.append(" " * (CELL_WIDTH // 2 * (widest - len(row["hexes"]))))
        cells = [hex_cell(cell, view.get("viewer")) for cell in row["hexes"]]
        line.extend(Line(" ").join(cells))
        line.rstrip()
        lines.append(line)
    return lines


def player_names(view: dict, game: dict | None) -> dict[int, str]:
    names = {}
    by_seat = {p.get("seat"): p for p in (game or {}).get("players", [])}
    for player in view.get("players") or []:
        seat = player["seat"]
        if player.get("kind") == "rhom":
            names[seat] = "the Rhom"
        else:
            name = str(by_seat.get(seat, {}).get("name") or player.get("player_id"))
            names[seat] = name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
    return names


def hold_text(hold: dict) -> str:
    return " ".join(f"{GEM_LETTERS[g]}{hold.get(g, 0)}" for g in GEMS)


def tiles_per_gem(tile_ids: list[str]) -> str:
    """`A2 C0 E1 S3 wild 1`: a victory pile counted by gem, as the "most ..." objectives and the
    tile sets count it (rainbow tiles and the Iridia Stone are wild)."""
    counts = dict.fromkeys(GEMS, 0)
    wild = 0
    for tile_id in tile_ids:
        tile = TILES.get(tile_id)
        if tile is None:
            continue
        if tile.wild:
            wild += 1
        elif tile.gem in counts:
            counts[tile.gem] += 1
    return " ".join(f"{GEM_LETTERS[g]}{n}" for g, n in counts.items()) + f" wild {wild}"


def wrap(label: str, items: list[str], width: int = WIDTH) -> list[str]:
    # Non-breaking spaces keep each name on one line; textwrap only breaks at ASCII whitespace.
    body = ", ".join(item.replace(" ", "\xa0") for item in items) if items else "-"
    indent = max(12, len(label) + 1)
    lines = textwrap.wrap(
        body,
        width=width,
        initial_indent=f"{label:<{indent}}",
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace("\xa0", " ") for line in lines]


def turn_lines(view: dict, names: dict[int, str]) -> list[Line]:
    lines = []
    turn = view.get("turn") or {}
    viewer = view.get("viewer")
    if view.get("over"):
        lines.append(Line("Game over.", style="bold"))
        return lines
    seat = turn.get("seat")
    who = f"seat {seat} ({names.get(seat, '?')}{', you' if seat == viewer and seat is not None else ''})"
    kind = turn.get("kind") or "turn"
    phase = turn.get("phase")
    text = f"Turn {turn.get('number', '?')}: {who}"
    if kind == "removal":
        text += ", removal turn: remove one tile below the Castle"
    elif kind == "rhom":
        text += ", the Rhom's turn"
    elif phase:
        text += f", {phase} phase"
    if turn.get("extra_turn"):
        text += " (extra turn)"
    style = "bold reverse" if seat == viewer else "bold"
    lines += [Line(part, style=style) for part in textwrap.wrap(text, WIDTH, subsequent_indent="  ")]
    pending = view.get("pending") or turn.get("pending")
    if pending:
        lines.append(Line(f"Pending: {describe_pending(pending)}", style="bold yellow"))
    roll = view.get("roll")
    if roll:
        lines.append(Line(f"Roll: {describe_roll(roll)}", style="bold yellow"))
    return lines


def describe_pending(pending: dict) -> str:
    kind = pending.get("kind")
    if kind == "give_gem":
        count = pending.get("count", 1)
        return f"give away {count} gem{'s' if count != 1 else ''} (the hold takes 7)"
    if kind == "choose_gem":
        return "choose the gem of the rainbow tile"
    if kind == "discard_objective":
        return "discard one of your two secret objectives"
    if kind == "roll":
        return "keep or change the roll"
    extra = ", ".join(f"{k} {v}" for k, v in pending.items() if k != "kind")
    return f"{kind}{' (' + extra + ')' if extra else ''}"


def describe_roll(roll: dict) -> str:
    parts = [f"{roll.get('kind', 'roll')}: dice {' '.join(str(d) for d in roll.get('dice') or [])}"]
    if roll.get("stone"):
        parts.append(f"stone {' '.join(str(d) for d in roll['stone'])}")
    if roll.get("target") is not None:
        parts.append(f"needs {roll['target']} or more")
    return ", ".join(parts)


def market_lines(view: dict) -> list[str]:
    market = view.get("market") or {}
    values = market.get("gem_values") or {}
    supply = market.get("supply") or {}
    lines = [
        "Gem market  "
        + "  ".join(f"{g} {values.get(g, '?')}" for g in GEMS)
        + f"   stone dice {market.get('stone_dice', '?')}",
        "Supply      " + "  ".join(f"{g} {supply.get(g, '?')}" for g in GEMS),
    ]
    relics = [relic_label(r) for r in market.get("relics") or []]
    lines += wrap("Relics", relics + [f"(deck {market.get('relic_deck', '?')})"])
    items = [item_label(i) for i in market.get("items") or []]
    lines += wrap(
        "Items",
        items
        + [f"(deck {market.get('item_deck', '?')}, discard {market.get('item_discard', '?')})"],
    )
    tokens = [display_name(t) for t in market.get("royalty_tokens") or []]
    lines += wrap("Royalty", tokens)
    rhom = view.get("rhom")
    if rhom:
        lines.append(
            f"Rhom deck   {rhom.get('deck', '?')} cards, next weathervane "
            f"{rhom.get('next_weathervane', '?')}, last card {rhom.get('last_card') or '-'}"
        )
    return lines


PLAYER_HEADER = "Seat Player        At   Coins Hold         Stone Points Tiles Relics Token"


def player_lines(view: dict, names: dict[int, str]) -> list[Line]:
    viewer = view.get("viewer")
    current = (view.get("turn") or {}).get("seat")
    lines = [Line(PLAYER_HEADER, style="bold underline")]
    extras = []
    for player in view.get("players") or []:
        seat = player["seat"]
        marker = ">" if seat == current and not view.get("over") else " "
        name = names.get(seat, "?") + (" *" if seat == viewer else "")
        position = player.get("position") or "-"
        if player.get("finished"):
            position = "done"
        coins = "-" if player.get("kind") == "rhom" else str(player.get("coins", 0))
        token = display_name(player["royalty_token"]) if player.get("royalty_token") else "-"
        row = (
            f"{marker}{seat:<3} {name[:13]:<13} {position:<4} {coins:>5} "
            f"{hold_text(player.get('hold') or {}):<12} {player.get('stone_dice', 0):>5} "
            f"{player.get('points', 0):>6} {len(player.get('tiles') or []):>5} "
            f"{len(player.get('relics') or []):>6} {token}"
        )
        lines.append(Line(row, style="bold" if seat == viewer else ""))
        label = f"  seat {seat}"
        if player.get("iridia_stone"):
            extras.append(f"{label} found the Iridia Stone")
        if player.get("items"):
            extras += wrap(f"{label} items", [item_label(i) for i in player["items"]])
        if player.get("tiles"):
            extras += wrap(f"{label} tiles", [tiles_per_gem(player["tiles"])])
        if player.get("relics"):
            extras += wrap(f"{label} relics", [relic_category(r) for r in player["relics"]])
        if view.get("over") and player.get("objectives") and seat != viewer:
            extras += wrap(f"{label} objective", [display_name(o) for o in player["objectives"]])
        if player.get("reserved_relics"):
            extras += wrap(
                f"{label} reserved", [relic_label(r) for r in player["reserved_relics"]]
            )
    return lines + [Line(line) for line in extras]


def own_lines(view: dict) -> list[Line]:
    viewer = view.get("viewer")
    if viewer is None:
        return [Line("You are watching (no seat in this game).", style="dim")]
    me = next((p for p in view.get("players") or [] if p["seat"] == viewer), None)
    if me is None:
        return []
    lines = [
        Line(
            f"You (seat {viewer}): hold {hold_text(me.get('hold') or {})} "
            f"({sum((me.get('hold') or {}).values())}/7), coins {me.get('coins', 0)}, "
            f"stone dice {me.get('stone_dice', 0)}, points {me.get('points', 0)}",
            style="bold",
        )
    ]
    version = view.get("rules_version")
    items = me.get("items") or []
    lines += _texts("Items", [item_text(i, version) for i in items])
    objectives = me.get("objectives") or []
    lines += _texts("Objectives" if len(objectives) > 1 else "Objective",
                    [objective_text(o, version) for o in objectives])
    return lines


def _texts(label: str, texts: list[str]) -> list[Line]:
    """Each card's text under one label, wrapped within the width (`-` for none)."""
    if not texts:
        return [Line(s) for s in wrap(label, [])]
    lines = []
    for text in texts:
        lines += [Line(s) for s in textwrap.wrap(
            text, WIDTH, initial_indent=f"{label:<12}", subsequent_indent=" " * 12,
            break_on_hyphens=False)]
        label = ""
    return lines


OUTCOME_HEADER = "Rank Seat Player        In game Gems Relic sets Tile sets Objective Total"


def outcome_lines(view: dict, names: dict[int, str]) -> list[str]:
    outcome = view.get("outcome")
    if not outcome:
        return []
    seats = outcome.get("seats") if isinstance(outcome, dict) else outcome
    if isinstance(seats, dict):
        seats = [dict(value, seat=int(key)) for key, value in seats.items()]
    entries = sorted(
        (dict(entry, seat=entry.get("seat", index)) for index, entry in enumerate(seats or [])),
        key=lambda e: (e.get("rank", 99), e["seat"]),
    )
    lines = ["Final scores", OUTCOME_HEADER]
    for e in entries:
        lines.append(
            f"{e.get('rank', '?'):>4} {e['seat']:>4} {names.get(e['seat'], '?')[:13]:<13} "
            f"{e.get('in_game', 0):>7} {e.get('gems', 0):>4} {e.get('relic_sets', 0):>10} "
            f"{e.get('tile_sets', 0):>9} {e.get('objective', 0):>9} {e.get('total', 0):>5}"
        )
    return lines


def view_lines(view: dict, game: dict | None = None, version: int | None = None) -> list[Line]:
    names = player_names(view, game)
    options = view.get("options") or {}
    title = "Game" + (f" {game['id']}" if game and game.get("id") else "")
    if version is None:
        version = view.get("version")
    if version is not None:
        title += f", version {version}"
    rules = (
        f"(mining cost {options.get('mining_cost', '?')}, leftover gems "
        f"{options.get('leftover_gems', '?')})"
    )
    if len(title) + 1 + len(rules) <= WIDTH:
        lines: list[Line] = [Line(f"{title} {rules}", style="bold")]
    else:
        lines = [Line(title, style="bold"), Line(rules)]
    lines += turn_lines(view, names)
    lines.append(Line(""))
    lines += board_lines(view)
    lines += [Line(s, style="dim") for s in LEGEND]
    lines.append(Line(""))
    lines += [Line(s) for s in market_lines(view)]
    lines.append(Line(""))
    lines += player_lines(view, names)
    lines.append(Line(""))
    lines += own_lines(view)
    outcome = outcome_lines(view, names)
    if outcome:
        lines.append(Line(""))
        lines += [Line(s, style="bold" if i < 2 else "") for i, s in enumerate(outcome)]
    return lines


def render_plain(view: dict, game: dict | None = None, version: int | None = None) -> str:
    """The view as `iridescia show --no-color` draws it."""
    return "\n".join(line.plain.rstrip() for line in view_lines(view, game, version))
