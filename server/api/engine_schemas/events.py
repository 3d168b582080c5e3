"""One schema per engine event (engine.events.EVENT_TYPES) for its payload, one per stored
event (seq, type, payload, actor, at), and ``Event``: any stored event, told apart by ``type``.

Payloads are engine.events.event_to_dict's, as engine.view.redact_event shows them while the game
runs: deck orders and the tiles left out of the game are then counts, face-down tiles and other
seats' objectives null. The export, after the end, shows them whole.
"""

from __future__ import annotations

import dataclasses
import typing

from engine import events as engine_events
from server.api.engine_schemas.annotations import field_schema
from server.api.engine_schemas.commands import own_docstring
from server.api.engine_schemas.values import ITEM, RELIC, STRING_FIELDS, TILE, nullable, per_gem

EVENT = "Event"
ACTOR = {"type": "string", "pattern": "^(server|user:[0-9]+|operator:.+)$",
         "description": "Who played the command: `user:<id>` (a player), `server` (deadlines, "
                        "the Rhom, bots, removals) or `operator:<name>`"}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def payload_name(event_type: str) -> str:
    """``turn_started`` -> ``TurnStarted``: the engine's class name, a fact in the past tense."""
    return engine_events.EVENT_TYPES[event_type].__name__


def record_name(event_type: str) -> str:
    return payload_name(event_type) + "Event"


# Fields whose strings name something other than STRING_FIELDS says for that name.
_STRINGS = {
    "item_deck_reshuffled": {"deck": ITEM},
    "market_refreshed": {"deck": ITEM},
    "relic_deck_shuffled": {"deck": RELIC},
}
# The dict fields, by field name.
_OBJECTS = {
    "options": _ref("Options"),
    "layout": {"type": "object", "description": "hex -> tile id; null while face down",
               "additionalProperties": nullable(TILE)},
    "gems": per_gem({"type": "integer", "minimum": 0}),
    "values": per_gem({"type": "integer", "minimum": 1, "maximum": 6}),
}
# What engine.view.redact_event turns into a count while the game runs.
_COUNTED = {
    "game_started": ("removed_tiles", "item_deck", "relic_deck", "rhom_deck"),
    "item_deck_reshuffled": ("deck",),
    "market_refreshed": ("deck",),
    "relic_deck_shuffled": ("deck",),
    "rhom_deck_reshuffled": ("deck",),
}
_COUNT = {"type": "integer", "minimum": 0, "description": "How many, while the game runs"}


def _payload_schema(cls: type) -> dict:
    hints = typing.get_type_hints(cls, vars(engine_events))
    strings = {**STRING_FIELDS, **_STRINGS.get(cls.type, {})}
    properties: dict = {"type": {"type": "string", "enum": [cls.type]},
                        "v": {"type": "integer", "enum": [engine_events.SCHEMA_VERSION]}}
    for field in dataclasses.fields(cls):
        schema = field_schema(hints[field.name], field.name, strings=strings, objects=_OBJECTS)
        if field.name in _COUNTED.get(cls.type, ()):
            schema = {"oneOf": [schema, _COUNT]}
        properties[field.name] = schema
    if cls is engine_events.GameStarted:
        # Each seat's objectives; another seat's are null while the game runs.
        objectives = properties["objectives"]["items"]
        objectives["items"] = nullable(objectives["items"])
    schema = {"type": "object", "properties": properties, "required": list(properties),
              "additionalProperties": False}
    doc = own_docstring(cls)
    return {"description": doc, **schema} if doc else schema


def _record_schema(event_type: str) -> dict:
    return {
        "type": "object",
        "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "type": {"type": "string", "enum": [event_type]},
            "payload": _ref(payload_name(event_type)),
            "actor": ACTOR,
            "at": {"type": "string", "format": "date-time"},
        },
        "required": ["seq", "type", "payload", "actor", "at"],
        "additionalProperties": False,
    }


def components() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for event_type, cls in engine_events.EVENT_TYPES.items():
        out[payload_name(event_type)] = _payload_schema(cls)
        out[record_name(event_type)] = _record_schema(event_type)
    out[EVENT] = {
        "description": "One event of a game's log, told apart by `type` (its payload's type).",
        "oneOf": [_ref(record_name(t)) for t in engine_events.EVENT_TYPES],
        "discriminator": {"propertyName": "type", "mapping": {
            t: f"#/components/schemas/{record_name(t)}" for t in engine_events.EVENT_TYPES}},
    }
    return out
