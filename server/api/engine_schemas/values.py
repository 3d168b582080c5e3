"""JSON schemas of the engine's identifiers (gems, items, relics, tiles, hexes), from its tables."""

from __future__ import annotations

from engine.board import ALL_HEXES
from engine.data import GEMS, ITEMS, OBJECTIVES, RELICS, ROYALTY_POINTS, TILES


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


# The identifiers as components, so a generated client has one enum per kind of thing.
IDENTIFIERS: dict[str, dict] = {
    "Gem": {"type": "string", "enum": list(GEMS)},
    "ItemName": {"type": "string", "enum": list(ITEMS)},
    "RelicName": {"type": "string", "enum": list(RELICS)},
    "ObjectiveName": {"type": "string", "enum": list(OBJECTIVES)},
    "TileId": {"type": "string", "enum": list(TILES)},
    "Hex": {"type": "string", "enum": list(ALL_HEXES),
            "description": "A hex name: row 1-9, then a letter"},
    "RoyaltyToken": {"type": "string", "enum": list(ROYALTY_POINTS)},
}
GEM, ITEM, RELIC, OBJECTIVE = _ref("Gem"), _ref("ItemName"), _ref("RelicName"), _ref("ObjectiveName")
TILE, HEX, ROYALTY_TOKEN = _ref("TileId"), _ref("Hex"), _ref("RoyaltyToken")
# engine.commands._die: a die of the pending roll by index, or a market die by its gem.
DIE = {"type": "string", "pattern": "^(roll:(0|[1-9][0-9]*)|market:(" + "|".join(GEMS) + "))$",
       "description": "roll:<index> (a die of the pending roll) or market:<gem>"}
SEAT = {"type": "integer", "minimum": 0}


def per_gem(value: dict) -> dict:
    """An object keyed by gem name (some gems may be missing)."""
    return {"type": "object", "properties": {gem: dict(value) for gem in GEMS},
            "additionalProperties": False}


def nullable(schema: dict) -> dict:
    """``schema`` or null (OpenAPI 3.1, i.e. JSON Schema 2020-12)."""
    if "type" in schema and "$ref" not in schema:
        out = {**schema, "type": [schema["type"], "null"]}
        if "enum" in schema:
            out["enum"] = [*schema["enum"], None]
        return out
    return {"anyOf": [schema, {"type": "null"}]}


def described(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


# The identifier a string field names, by field name: the engine names its fields consistently
# (every `gem` is a gem, every `hex` a hex...), in commands and events alike.
STRING_FIELDS: dict[str, dict] = {
    "gem": GEM, "gems": GEM, "give": GEM, "take": GEM,
    "item": ITEM, "market": ITEM, "item_deck": ITEM,
    "relic": RELIC, "relic_row": RELIC, "relic_deck": RELIC,
    "objective": OBJECTIVE, "objectives": OBJECTIVE,
    "tile": TILE, "tiles": TILE, "discard_tile": TILE, "removed_tiles": TILE,
    "hex": HEX, "hexes": HEX,
    "die": DIE,
    "token": ROYALTY_TOKEN, "royalty_tokens": ROYALTY_TOKEN,
}
