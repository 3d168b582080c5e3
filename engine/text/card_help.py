"""Card help: every card of engine/data.py with its words (engine/text/card_text.py), as one catalogue
(`GET /api/v1/rules/cards`), looked up by name or id (`iridescia explain NAME`) and told in lines.

It describes cards, never who holds them: nothing here reads a game.
"""

from __future__ import annotations

import difflib
import re
import textwrap

from engine.data import GEMS, ITEM_COPIES, ITEMS, OBJECTIVES, RELICS, TILES, display_name
from engine.text.card_text import item_text, objective_condition, relic_text, tile_bonus_text
from engine.text.wording import objective_label, relic_label
from engine.versions import rules_for

WIDTH = 80


def catalogue(rules_version: str | None = None) -> dict:
    """Every item, objective, relic and tile with its text, under `rules_version` (None: the
    current one; UnsupportedRulesVersion for one this engine cannot play)."""
    version = rules_for(rules_version).version
    return {
        "rules_version": version,
        "items": [_item(item_id, version) for item_id in ITEMS],
        "objectives": [_objective(objective_id, version) for objective_id in OBJECTIVES],
        "relics": [_relic(relic_id) for relic_id in RELICS],
        "tiles": [_tile(tile_id) for tile_id in TILES],
    }


def _item(item_id: str, version: str) -> dict:
    item = ITEMS[item_id]
    timing, effect = item_text(item_id, version)
    return {"kind": "item", "id": item.id, "name": item.name, "cost": item.cost,
            "copies": ITEM_COPIES, "start_of_turn": item.start_of_turn, "timing": timing,
            "effect": effect}


def _objective(objective_id: str, version: str) -> dict:
    objective = OBJECTIVES[objective_id]
    return {"kind": "objective", "id": objective.id, "name": objective.name,
            "points": objective.points, "condition": objective_condition(objective_id, version)}


def _relic(relic_id: str) -> dict:
    relic = RELICS[relic_id]
    return {"kind": "relic", "id": relic.id, "name": relic.name, "category": relic.category,
            "lead_gem": relic.lead_gem, "gems": {gem: relic.requirement().get(gem, 0)
                                                 for gem in GEMS},
            "points": relic.points, "text": relic_text(relic_id)}


def _tile(tile_id: str) -> dict:
    tile = TILES[tile_id]
    return {"kind": "tile", "id": tile.id, "name": display_name(tile_id), "region": tile.region,
            "gem": tile.gem, "rainbow": tile.rainbow, "iridia": tile.iridia,
            "bonus": tile.bonus.to_dict() if tile.bonus else None,
            "text": tile_bonus_text(tile)}


class UnknownCard(LookupError):
    """No card has the name asked for; the message suggests the nearest names."""


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _cards(catalogue_: dict) -> list[dict]:
    return [card for kind in ("items", "objectives", "relics", "tiles")
            for card in catalogue_[kind]]


def find(name: str, rules_version: str | None = None) -> list[dict]:
    """The cards `name` names: by id or printed name (case, spaces, `_` and `-` do not matter),
    else every card whose id or name contains it. UnknownCard when none does."""
    wanted = _key(name)
    cards = _cards(catalogue(rules_version))
    if not wanted:
        raise UnknownCard("name a card: `iridescia explain` lists them all")
    exact = [c for c in cards if wanted in (_key(c["id"]), _key(c["name"]))]
    if exact:
        return exact
    partial = [c for c in cards if wanted in _key(c["id"]) or wanted in _key(c["name"])]
    if partial:
        return partial
    names = list(dict.fromkeys(c["name"] for c in cards))
    by_key = {_key(n): n for n in names}
    close = [by_key[k] for k in difflib.get_close_matches(wanted, list(by_key), n=3, cutoff=0.6)]
    hint = f"; did you mean {_or_list(close)}?" if close else ""
    raise UnknownCard(f"no card named {name!r}{hint} (`iridescia explain` lists every card)")


def _or_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _wrapped(label: str, text: str) -> list[str]:
    return textwrap.wrap(f"{label}{text}", WIDTH, initial_indent="  ",
                         subsequent_indent="    ", break_on_hyphens=False)


def explain_lines(cards: list[dict]) -> list[str]:
    """`iridescia explain NAME`: each card told in a few lines (identical tiles once)."""
    lines: list[str] = []
    tiles_by_name: dict[str, list[dict]] = {}
    for card in cards:
        if card["kind"] == "tile":
            tiles_by_name.setdefault(card["name"], []).append(card)
    told_tiles: set[str] = set()
    for card in cards:
        if lines:
            lines.append("")
        kind = card["kind"]
        if kind == "item":
            lines.append(f"{card['name']}: item {card['id']}, {card['cost']} coins "
                         f"({card['copies']} copies)")
            lines += _wrapped("When: ", card["timing"])
            lines += _wrapped("Effect: ", card["effect"])
        elif kind == "objective":
            lines.append(f"{card['name']}: secret objective {card['id']}, {card['points']} "
                         "points at the end if met")
            lines += _wrapped("Condition: ", card["condition"])
        elif kind == "relic":
            lines.append(f"{card['name']}: relic {card['id']}")
            lines += _wrapped("", card["text"])
        else:
            if card["name"] in told_tiles:
                lines.pop()  # the blank line before it
                continue
            told_tiles.add(card["name"])
            same = tiles_by_name[card["name"]]
            ids = ", ".join(t["id"] for t in same)
            copies = f"{len(same)} tiles" if len(same) > 1 else "tile"
            lines += textwrap.wrap(f"{card['name']}: {copies} {ids}, "
                                   f"{card['region'].capitalize()} region", WIDTH,
                                   subsequent_indent="    ")
            lines += _wrapped("", card["text"])
    return lines


def list_lines(rules_version: str | None = None) -> list[str]:
    """`iridescia explain`: every card by kind, one line each, with its id."""
    cards = catalogue(rules_version)
    lines = [f"Items ({ITEM_COPIES} copies each):"]
    lines += [f"  {c['id']:<25} {c['name']} ({c['cost']} coins)" for c in cards["items"]]
    lines += ["", "Secret objectives:"]
    lines += [f"  {c['id']:<25} {objective_label(c['id'])}" for c in cards["objectives"]]
    lines += ["", "Relics:"]
    lines += [f"  {c['id']:<25} {relic_label(c['id'])}" for c in cards["relics"]]
    lines += ["", "Tiles:"]
    counts: dict[str, list[str]] = {}
    for tile in cards["tiles"]:
        counts.setdefault(tile["name"], []).append(tile["id"])
    lines += [f"  {ids[0]:<25} {name}" + (f" (x{len(ids)})" if len(ids) > 1 else "")
              for name, ids in counts.items()]
    lines += ["", "`iridescia explain NAME` tells what a card does (a name or an id)."]
    return lines
