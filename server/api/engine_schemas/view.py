"""The parts of the view (engine.view.view) as JSON schema, and the options and outcome it
shares with the export; server.api.games.play_schemas.ViewSchema puts them together.

engine/view.py builds dicts, not dataclasses, so this is written out; every object is closed
(``additionalProperties: false``) and tests validate real views against it, so a key the engine
adds or renames fails them. Options come from the engine's dataclass.
"""

from __future__ import annotations

import dataclasses
import typing

from engine import board
from engine.data import REGION_ROWS
from engine.options import Options
from engine.scoring.tally import CATEGORIES as RELIC_CATEGORIES
from server.api.engine_schemas.annotations import field_schema
from server.api.engine_schemas.values import (
    GEM,
    HEX,
    ITEM,
    OBJECTIVE,
    RELIC,
    ROYALTY_TOKEN,
    SEAT,
    TILE,
    nullable,
    per_gem,
)

INTEGER = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
BOOLEAN = {"type": "boolean"}
STRING = {"type": "string"}
# engine.api.pending_kind and engine.state.Turn.kind: what the game waits for.
PENDING_KINDS = ("turn", "rhom", "removal", "choose_gem", "give_gem", "discard_objective", "roll")
TURN_KINDS = ("turn", "removal", "rhom")
PHASES = ("reveal", "move", "actions", "restore")
PLAYER_KINDS = ("human", "rhom", "bot")


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _array(items: dict) -> dict:
    return {"type": "array", "items": items}


def _closed(properties: dict, optional: tuple[str, ...] = (), description: str = "") -> dict:
    schema = {"type": "object", "properties": properties,
              "required": [name for name in properties if name not in optional],
              "additionalProperties": False}
    return {"description": description, **schema} if description else schema


def _options() -> dict:
    hints = typing.get_type_hints(Options)
    properties = {f.name: field_schema(hints[f.name], f.name) for f in dataclasses.fields(Options)}
    properties["players"].update(minimum=1, maximum=4)
    properties["mining_cost"]["enum"] = [1, 3]
    properties["leftover_gems"]["enum"] = ["any", "same_type"]
    return _closed(properties, description="The game's options (engine.options.Options)")


def components() -> dict[str, dict]:
    pending = _closed({"kind": {"type": "string", "enum": list(PENDING_KINDS[3:])},
                       "count": {**COUNT, "description": "give_gem: how many gems to give"}},
                      optional=("count",), description="The decision interrupting the turn")
    tile = _closed({"id": TILE, "gem": nullable(GEM), "rainbow": BOOLEAN, "iridia": BOOLEAN,
                    "bonus": nullable(_ref("TileBonus"))})
    bonus = _closed({"kind": {"type": "string", "enum": ["coins", "points", "stone_die"]},
                     "amount": INTEGER})
    board_hex = _closed({"hex": HEX,
                         "state": {"type": "string", "enum": ["empty", "revealed", "face_down"]},
                         "tile": nullable(_ref("Tile")), "barricade": BOOLEAN,
                         "explorers": _array(SEAT)})
    board_row = _closed({"row": {"type": "integer", "minimum": 1, "maximum": board.ROWS},
                         "region": {"type": "string", "enum": list(REGION_ROWS)},
                         "hexes": _array(_ref("BoardHex"))})
    turn = _closed({
        "seat": SEAT, "kind": {"type": "string", "enum": list(TURN_KINDS)},
        "phase": {"type": "string", "enum": list(PHASES)}, "pending": nullable(_ref("Pending")),
        "extra_turn": BOOLEAN, "number": INTEGER, "tile_gem": nullable(GEM),
        "revealed": _array(HEX), "relocations": _array(HEX), "active_stone_dice": COUNT,
        "sold": BOOLEAN, "bought": BOOLEAN, "mine_cart": BOOLEAN, "pickaxe": nullable(HEX),
        "elixir": BOOLEAN,
        "undo_steps": {**COUNT, "description": "How many of this turn's steps an undo would "
                                                "take back (0: none; docs/undo.md)"}})
    market = _closed({
        "gem_values": per_gem(INTEGER), "supply": per_gem(COUNT), "stone_dice": COUNT,
        "items": _array(ITEM), "item_deck": COUNT, "item_discard": COUNT,
        "relics": _array(RELIC), "relic_deck": COUNT, "royalty_tokens": _array(ROYALTY_TOKEN)})
    player = _closed({
        "seat": SEAT, "kind": {"type": "string", "enum": list(PLAYER_KINDS)},
        "player_id": STRING, "position": nullable(HEX), "coins": COUNT, "hold": per_gem(COUNT),
        "items": _array(ITEM), "stone_dice": COUNT, "points": INTEGER, "tiles": _array(TILE),
        "relics": _array(RELIC), "reserved_relics": _array(RELIC),
        "royalty_token": nullable(ROYALTY_TOKEN), "iridia_stone": BOOLEAN, "finished": BOOLEAN,
        "objectives_held": COUNT,
        "objectives": {**_array(OBJECTIVE), "description": "Yours only (everyone's at the end)"},
    }, optional=("objectives",))
    roll = _closed({"kind": {"type": "string", "enum": ["mine", "wishing_well"]},
                    "dice": _array(INTEGER), "stone": _array(INTEGER),
                    "target": nullable(INTEGER)})
    weathervane = {"type": "string", "enum": ["left", "right"]}
    rhom = _closed({"seat": SEAT, "next_weathervane": nullable(weathervane), "deck": COUNT,
                    "last_card": nullable(INTEGER), "barricades_left": COUNT})
    score = _closed({"seat": SEAT, "in_game": INTEGER, "gems": INTEGER, "relic_sets": INTEGER,
                     "tile_sets": INTEGER, "objective": INTEGER, "total": INTEGER,
                     "rank": {"type": "integer", "minimum": 1},
                     "detail": _ref("ScoreDetail")})
    outcome = _closed({"seats": _array(_ref("SeatScore")), "winners": _array(SEAT)})
    waiting = {"type": "string", "enum": list(PENDING_KINDS),
               "description": "What a running game waits for: a turn, the Rhom's turn, a "
                              "removal, or a decision inside a turn"}
    return {"GamePendingKind": waiting, "Options": _options(), "Pending": pending, "Tile": tile, "TileBonus": bonus,
            "BoardHex": board_hex, "BoardRow": board_row, "ViewTurn": turn, "Market": market,
            "ViewPlayer": player, "Roll": roll, "RhomView": rhom, "SeatScore": score, "ScoreDetail": _score_detail(),
            "Outcome": outcome}


def _score_detail() -> dict:
    """engine/scoring: how a seat's score was chosen (the sets, what the wilds played). Its
    keys are optional: an outcome read back from an old record may carry fewer."""
    category = {"type": "string", "enum": list(RELIC_CATEGORIES)}
    tile_set = _closed({"gem": GEM, "size": {"type": "integer", "minimum": 1},
                        "points": INTEGER})
    relic_set = _closed({"kind": {"type": "string", "enum": ["mixed", *RELIC_CATEGORIES]},
                         "relics": _array(RELIC), "points": INTEGER},
                        description="Three relics of a category, or one of each (mixed)")
    role = _closed({"category": category, "lead_gem": nullable(GEM)},
                   description="The category an Iridia relic plays, and the lead gem when an "
                               "objective needs one")
    objective = _closed({"id": OBJECTIVE, "held": _array(OBJECTIVE), "met": BOOLEAN,
                         "count": INTEGER, "needed": INTEGER, "points": INTEGER},
                        description="The objective that scored (null: none held)")
    return {"type": "object", "description": "The chosen sets and what the wilds played",
            "properties": {
                "tile_sets": _array(tile_set),
                "rainbow_tiles": {**per_gem({"type": "integer", "minimum": 1}),
                                  "description": "How many rainbow tiles counted as each gem"},
                "relic_sets": _array(relic_set),
                "iridia_relics": {"type": "object", "additionalProperties": role,
                                  "propertyNames": RELIC,
                                  "description": "Each Iridia relic held, by name"},
                "objective": {"anyOf": [objective, {"type": "null"}]},
                "iridia_stone": BOOLEAN,
                "royalty_token": nullable(ROYALTY_TOKEN)},
            "additionalProperties": False}
