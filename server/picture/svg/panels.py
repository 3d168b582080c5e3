"""The side of the picture: whose turn and the pending roll, the gem market and supply, the relic
row, the item market, the royalty tokens, and a panel per player."""

from __future__ import annotations

import textwrap

from engine.data import GEMS, ITEMS, RELICS, ROYALTY_POINTS, TILES
from engine.text.wording import item_text, objective_text

from .markup import element, escape, group, text
from .symbols import (
    GEM_LETTERS,
    gem_mark,
    gems_needed,
    hold_words,
    name_of,
    player_colour,
)

LINE = 15.0
PANEL_WIDTH = 430.0


class Column:
    """Lines of text laid out downwards from (x, y)."""

    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self.parts: list[str] = []

    def heading(self, words: str) -> None:
        self.y += 6
        self.parts.append(text(self.x, self.y + 12, words, font_size=14, font_weight="bold",
                               fill="#222", class_="heading"))
        self.y += LINE + 4

    def line(self, words: str, indent: float = 0, **style: object) -> None:
        """A line of 12 px text, wrapped to the panel's width (continuations indented)."""
        width = int((PANEL_WIDTH - 16 - indent) / 7)
        for i, piece in enumerate(textwrap.wrap(words, width) or [""]):
            self.parts.append(text(self.x + indent + (12 if i else 0), self.y + 11, piece,
                                   **{"font_size": 12, "fill": "#222", **style}))
            self.y += LINE


def _turn(column: Column, view: dict, names: dict[int, str]) -> None:
    turn = view["turn"]
    if view["over"]:
        column.heading("The game is over")
        return
    if turn is None:
        return
    who = names.get(turn["seat"], f"seat {turn['seat']}")
    kind = {"removal": "removal turn", "rhom": "turn (the Rhom)"}.get(turn["kind"], "turn")
    column.heading(f"{who}'s {kind} {turn['number']}, {turn['phase']} step")
    pending = view["pending"]
    if pending and pending["kind"] != "roll":
        wanted = {"choose_gem": "choose the rainbow tile's gem",
                  "give_gem": f"give away {pending.get('count', 1)} gem(s)",
                  "discard_objective": "discard an objective"}.get(pending["kind"], pending["kind"])
        column.line(f"Waiting for {who} to {wanted}", fill="#b03a2e")
    roll = view["roll"]
    if roll:
        dice = " ".join(str(d) for d in roll["dice"])
        stone = f" + stone {' '.join(str(d) for d in roll['stone'])}" if roll["stone"] else ""
        target = f" (the tile's gem is worth {roll['target']})" if roll.get("target") else ""
        label = "Mining roll" if roll["kind"] == "mine" else "Wishing Well roll"
        column.line(f"{label}: {dice}{stone}{target}", class_="roll", font_weight="bold")


def _market(column: Column, view: dict) -> None:
    market = view["market"]
    column.heading("Gem market (die value) and supply")
    y = column.y + 4
    for i, gem in enumerate(GEMS):
        x = column.x + 12 + i * 100
        column.parts.append(gem_mark(gem, x, y + 6))
        column.parts.append(text(x + 14, y + 11, f"{gem} {market['gem_values'][gem]}",
                                 font_size=12, fill="#222", class_="gem-value"))
        column.parts.append(text(x + 14, y + 25, f"supply {market['supply'][gem]}",
                                 font_size=10, fill="#555"))
    column.y += 36
    column.line(f"Stone dice in the pool: {market['stone_dice']}")


def _relics(column: Column, view: dict) -> None:
    column.heading(f"Relic row ({view['market']['relic_deck']} in the deck)")
    for relic_id in view["market"]["relics"]:
        relic = RELICS[relic_id]
        lead = relic.lead_gem or "any (Iridia)"
        column.line(f"{relic.name}: {gems_needed(relic.requirement())}, {relic.points} pts, "
                    f"{relic.category}, lead {lead}", class_="relic")


def _items(column: Column, view: dict) -> None:
    market = view["market"]
    column.heading(f"Item market ({market['item_deck']} in the deck)")
    for item_id in market["items"]:
        item = ITEMS[item_id]
        column.line(f"{item.name}: {item.cost} coins", class_="item")
    tokens = market["royalty_tokens"]
    column.heading("Royalty tokens left")
    column.line(", ".join(f"{name_of(t)} ({ROYALTY_POINTS[t]} pts)" for t in tokens) or "none")


def _tiles_per_gem(tile_ids: list[str]) -> str:
    counts: dict[str, int] = {}
    for tile_id in tile_ids:
        tile = TILES[tile_id]
        key = GEM_LETTERS[tile.gem] if tile.gem else ("I" if tile.iridia else "R*")
        counts[key] = counts.get(key, 0) + 1
    order = [*GEM_LETTERS.values(), "R*", "I"]
    return " ".join(f"{counts[k]}{k}" for k in order if k in counts) or "none"


def _player(column: Column, player: dict, names: dict[int, str], viewer: int | None,
            view_version: str | None = None) -> None:
    seat = player["seat"]
    name = names.get(seat, f"seat {seat}")
    mine = seat == viewer
    start = len(column.parts)
    top = column.y
    column.y += 4
    title = f"{name}{' (you)' if mine else ''}" + (" — finished" if player["finished"] else "")
    column.parts.append(element("rect", x=column.x, y=column.y + 2, width=10, height=10,
                                fill=player_colour(seat)))
    column.parts.append(text(column.x + 16, column.y + 12, title, font_size=13,
                             font_weight="bold", fill=player_colour(seat), class_="player-name"))
    column.y += LINE + 2
    column.line(f"{player['coins']} coins, {player['points']} points, hold "
                f"{hold_words(player['hold'])}, stone dice {player['stone_dice']}", indent=16)
    column.line(f"Tiles: {_tiles_per_gem(player['tiles'])}", indent=16)
    relics = [f"{name_of(r)} ({RELICS[r].category})" for r in player["relics"]]
    if player["reserved_relics"]:
        relics += [f"{name_of(r)} (reserved)" for r in player["reserved_relics"]]
    column.line(f"Relics: {', '.join(relics) or 'none'}", indent=16)
    token = name_of(player["royalty_token"]) if player["royalty_token"] else "none"
    stone = ", the Iridia Stone" if player["iridia_stone"] else ""
    column.line(f"Royalty token: {token}{stone}", indent=16)
    if mine:
        # My own items with what they do and when (engine/text/card_text.py); others' by name.
        for item_id in player["items"]:
            column.line(f"Item: {item_text(item_id, view_version)}", indent=16, class_="item-text")
        if not player["items"]:
            column.line("Items: none", indent=16)
    elif player["items"]:
        column.line(f"Items: {', '.join(name_of(i) for i in player['items'])}", indent=16)
    objectives = player.get("objectives")
    if objectives is not None:
        for objective in objectives:
            column.line(f"Objective: {objective_text(objective, view_version)}", indent=16,
                        class_="objective")
    elif player["kind"] != "rhom":
        column.line(f"Objectives: {player['objectives_held']} secret", indent=16)
    border = element("rect", x=column.x - 6, y=top, width=PANEL_WIDTH, height=column.y - top + 4,
                     fill="#fff" if not mine else "#fdf6e3", stroke=player_colour(seat),
                     stroke_width=2 if mine else 1, rx=6)
    panel = column.parts[start:]
    del column.parts[start:]
    column.parts.append(group([element("title", escape(f"{name}'s panel")), border, *panel],
                              class_="player", id=f"player-{seat}"))
    column.y += 10


def draw_panels(view: dict, names: dict[int, str], x: float, y: float) -> tuple[str, float]:
    """The panels' group and how far down they reach."""
    column = Column(x, y)
    _turn(column, view, names)
    _market(column, view)
    _relics(column, view)
    _items(column, view)
    column.heading("Players")
    viewer = view["viewer"]
    players = sorted(view["players"], key=lambda p: (p["seat"] != viewer, p["seat"]))
    for player in players:
        _player(column, player, names, viewer, view.get("rules_version"))
    return group(column.parts, class_="panels"), column.y
