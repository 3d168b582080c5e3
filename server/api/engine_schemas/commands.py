"""One schema per engine command (engine.commands.COMMAND_TYPES), and ``Command``: any of them,
told apart by ``type``. The JSON form is engine.commands.command_to_dict's."""

from __future__ import annotations

import dataclasses
import typing

from engine import commands as engine_commands
from server.api.engine_schemas.annotations import field_schema
from server.api.engine_schemas.values import SEAT, described, nullable

COMMAND = "Command"
LOGGED_COMMAND = "LoggedCommand"
# Played by the server alone (the start, the Rhom's turns): in a game's log, never in a post,
# which refuses them (422).
SERVER_ONLY = ("start_game", "rhom_turn")
POSTABLE = tuple(t for t in engine_commands.COMMAND_TYPES if t not in SERVER_ONLY)


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def schema_name(command_type: str) -> str:
    """``reveal`` -> ``RevealCommand``: the engine's class name, which says what it asks for."""
    return engine_commands.COMMAND_TYPES[command_type].__name__ + "Command"


def own_docstring(cls: type) -> str | None:
    """The class's docstring, not the signature @dataclass writes when it has none."""
    doc = (cls.__doc__ or "").strip()
    return None if not doc or doc.startswith(f"{cls.__name__}(") else doc


def _command_schema(cls: type) -> dict:
    hints = typing.get_type_hints(cls, vars(engine_commands))
    properties: dict = {
        "type": {"type": "string", "enum": [cls.type]},
        "seat": nullable({**SEAT, "description": "The seat that plays it; leave it out (or "
                                                 "null) in a post: yours"}),
    }
    required = ["type"]
    for field in dataclasses.fields(cls):
        if field.name == "seat":
            continue
        schema = field_schema(hints[field.name], field.name, objects={"Options": _ref("Options")})
        if cls is engine_commands.PlayItem and field.name != "item":
            # Each item takes only its own fields (PLAY_ITEM_FIELDS), never as null.
            schema = schema["anyOf"][0] if "anyOf" in schema else {
                **schema, "type": schema["type"][0]}
            takes = [item for item, wanted in engine_commands.PLAY_ITEM_FIELDS.items()
                     if field.name in wanted]
            schema = described(schema, f"Only for {', '.join(takes)}")
        properties[field.name] = schema
        no_default = (field.default is dataclasses.MISSING
                      and field.default_factory is dataclasses.MISSING)
        if no_default:
            required.append(field.name)
    return {"type": "object", "description": own_docstring(cls),
            "properties": properties, "required": required, "additionalProperties": False}


def components() -> dict[str, dict]:
    out = {}
    for command_type, cls in engine_commands.COMMAND_TYPES.items():
        schema = _command_schema(cls)
        if schema["description"] is None:
            schema.pop("description")
        out[schema_name(command_type)] = schema
    out[COMMAND] = _one_of("One engine command a player posts (docs/engine-api.md), told apart "
                           "by `type`. The server plays "
                           + " and ".join(f"`{t}`" for t in SERVER_ONLY)
                           + " itself: posted, they are refused (422).", POSTABLE)
    out[LOGGED_COMMAND] = _one_of("One engine command as a game's log holds it: any a player "
                                  "posts, and those the server plays itself ("
                                  + ", ".join(f"`{t}`" for t in SERVER_ONLY) + ").",
                                  tuple(engine_commands.COMMAND_TYPES))
    return out


def _one_of(description: str, types: tuple[str, ...]) -> dict:
    return {"description": description, "oneOf": [_ref(schema_name(t)) for t in types],
            "discriminator": {"propertyName": "type", "mapping": {
                t: f"#/components/schemas/{schema_name(t)}" for t in types}}}
