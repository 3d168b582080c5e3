"""Commands: what a participant asks for. JSON form {"type": name, "seat": int, ...fields}."""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.board import HexNameError, parse_hex
from engine.data import GEMS, ITEMS, OBJECTIVES, RELICS, TILES, display_name
from engine.errors import InvalidCommand, Listed, Name, Refusal
from engine.options import Options


@dataclass(frozen=True)
class Command:
    seat: int | None

    type = ""


@dataclass(frozen=True)
class StartGame(Command):
    options: Options
    player_ids: tuple[str, ...]
    rules_version: str | None = None  # None: the engine's current RULES_VERSION
    type = "start_game"


@dataclass(frozen=True)
class Reveal(Command):
    hexes: tuple[str, ...]
    type = "reveal"


@dataclass(frozen=True)
class Move(Command):
    hex: str
    type = "move"


@dataclass(frozen=True)
class Relocate(Command):
    hex: str
    discard_tile: str | None = None
    type = "relocate"


@dataclass(frozen=True)
class ChooseGem(Command):
    gem: str
    type = "choose_gem"


@dataclass(frozen=True)
class GiveGem(Command):
    gem: str
    to: int | None
    type = "give_gem"


@dataclass(frozen=True)
class DiscardObjective(Command):
    objective: str
    type = "discard_objective"


@dataclass(frozen=True)
class Mine(Command):
    stone_dice: int = 0
    type = "mine"


@dataclass(frozen=True)
class KeepRoll(Command):
    gem: str | None = None
    type = "keep_roll"


@dataclass(frozen=True)
class ModifyDie(Command):
    item: str
    die: str
    delta: int
    type = "modify_die"


@dataclass(frozen=True)
class Reroll(Command):
    dice: tuple[int, ...]
    type = "reroll"


@dataclass(frozen=True)
class RollMarket(Command):
    gems: tuple[str, ...]
    type = "roll_market"


@dataclass(frozen=True)
class Buy(Command):
    item: str
    type = "buy"


@dataclass(frozen=True)
class Sell(Command):
    gem: str
    count: int
    type = "sell"


# Which extra fields each item's play_item takes (docs/engine-api.md).
PLAY_ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    "cauldron_of_fortune": ("give", "take"),
    "marvelous_mine_cart": (),
    "epic_elixir": (),
    "axe_of_awesomeness": ("gem",),
    "wishing_well": (),
    "regal_reference_book": ("relic",),
    "prosperous_pickaxe": ("hex",),
    "swapping_stones": ("target",),
    "clever_catapult": ("hex",),
}


@dataclass(frozen=True)
class PlayItem(Command):
    item: str
    give: tuple[str, ...] | None = None
    take: str | None = None
    gem: str | None = None
    relic: str | None = None
    hex: str | None = None
    target: int | None = None
    type = "play_item"


@dataclass(frozen=True)
class Restore(Command):
    relic: str
    type = "restore"


@dataclass(frozen=True)
class EndTurn(Command):
    type = "end_turn"


@dataclass(frozen=True)
class Undo(Command):
    """Take back your own steps of this turn since the last one that revealed something or drew
    chance (engine/rules/undo.py); not a rule of the game, so every rules version has it."""

    type = "undo"


@dataclass(frozen=True)
class RemoveTile(Command):
    hex: str
    type = "remove_tile"


@dataclass(frozen=True)
class RhomTurn(Command):
    type = "rhom_turn"


COMMAND_TYPES: dict[str, type[Command]] = {
    c.type: c
    for c in (
        StartGame, Reveal, Move, Relocate, ChooseGem, GiveGem, DiscardObjective, Mine, KeepRoll,
        ModifyDie, Reroll, RollMarket, Buy, Sell, PlayItem, Restore, EndTurn, RemoveTile, RhomTurn,
        Undo,
    )
}


def _hex(v: object, name: str) -> str:
    if not isinstance(v, str):
        raise InvalidCommand("{name} must be a hex name like '3b', got {v!r}", name=name, v=v)
    try:
        parse_hex(v)
    except HexNameError as e:
        raise InvalidCommand(e.args[0]) from None
    return v


def _gem(v: object, name: str) -> str:
    if v not in GEMS:
        raise InvalidCommand("{name} must be one of {gems}, got {v!r}", name=name,
                             gems=Listed(map(Name, GEMS)), v=v)
    return v  # type: ignore[return-value]


def _int(v: object, name: str) -> int:
    if type(v) is not int:
        raise InvalidCommand("{name} must be a whole number, got {v!r}", name=name, v=v)
    return v


def _seat(v: object, name: str) -> int:
    if type(v) is not int or v < 0:
        raise InvalidCommand("{name} must be a seat number (0 or more), got {v!r}", name=name, v=v)
    return v


def _member(table: dict, what: Refusal):
    def check(v: object, name: str) -> str:
        if not isinstance(v, str) or v not in table:
            raise InvalidCommand("{name}: {v!r} is not a known {what}", name=name, v=v, what=what)
        return v

    return check


def _optional(check):
    def opt(v: object, name: str):
        return None if v is None else check(v, name)

    return opt


def _list(check, lo: int, hi: int):
    def lst(v: object, name: str) -> tuple:
        if not isinstance(v, (list, tuple)) or not lo <= len(v) <= hi:
            raise InvalidCommand("{name} must be a list of {lo} to {hi} values, got {v!r}",
                                 name=name, lo=lo, hi=hi, v=v)
        return tuple(check(x, name) for x in v)

    return lst


_item = _member(ITEMS, Refusal("item"))
_relic = _member(RELICS, Refusal("relic"))
_objective = _member(OBJECTIVES, Refusal("objective"))
_tile = _member(TILES, Refusal("tile"))

# type -> {field: (parser, required)}
_SPECS: dict[str, dict[str, tuple]] = {
    "reveal": {"hexes": (_list(_hex, 1, 2), True)},
    "move": {"hex": (_hex, True)},
    "relocate": {"hex": (_hex, True), "discard_tile": (_optional(_tile), False)},
    "choose_gem": {"gem": (_gem, True)},
    "give_gem": {"gem": (_gem, True), "to": (_optional(_seat), True)},
    "discard_objective": {"objective": (_objective, True)},
    "mine": {"stone_dice": (_int, False)},
    "keep_roll": {"gem": (_optional(_gem), False)},
    "modify_die": {"item": (_item, True), "die": (str, True), "delta": (_int, True)},
    "reroll": {"dice": (_list(_int, 1, 6), True)},
    "roll_market": {"gems": (_list(_gem, 1, 4), True)},
    "buy": {"item": (_item, True)},
    "sell": {"gem": (_gem, True), "count": (_int, True)},
    "restore": {"relic": (_relic, True)},
    "end_turn": {},
    "remove_tile": {"hex": (_hex, True)},
    "rhom_turn": {},
    "undo": {},
}
_PLAY_ITEM_PARSERS = {
    "give": _list(_gem, 2, 2),
    "take": _gem,
    "gem": _gem,
    "relic": _relic,
    "hex": _hex,
    "target": _seat,
}


def _die(v: object, name: str) -> str:
    if isinstance(v, str):
        kind, _, rest = v.partition(":")
        if kind == "roll" and rest.isdigit() and str(int(rest)) == rest:
            return v
        if kind == "market" and rest in GEMS:
            return v
    raise InvalidCommand("{name} must be 'roll:<index>' or 'market:<gem>', got {v!r}", name=name, v=v)


def command_from_dict(d: object) -> Command:
    """Parse a command's JSON form; raises InvalidCommand quoting what was wrong."""
    if not isinstance(d, dict):
        raise InvalidCommand("a command must be an object, got {d!r}", d=d)
    kind = d.get("type")
    if kind not in COMMAND_TYPES:
        raise InvalidCommand("unknown command type {kind!r}; known: {known}", kind=kind,
                             known=Listed(COMMAND_TYPES))
    if kind == "start_game":
        extra = set(d) - {"type", "seat", "options", "player_ids", "rules_version"}
        if extra:
            raise InvalidCommand("start_game does not take {extra}", extra=sorted(extra))
        if d.get("seat") is not None:
            raise InvalidCommand("start_game has no seat, got {seat!r}", seat=d.get("seat"))
        ids = d.get("player_ids")
        if not isinstance(ids, list) or not all(isinstance(i, str) and i for i in ids):
            raise InvalidCommand("player_ids must be a list of non-empty strings, got {ids!r}", ids=ids)
        version = d.get("rules_version")
        if version is not None and not isinstance(version, str):
            raise InvalidCommand("rules_version must be a string such as \"2\", got {version!r}",
                                 version=version)
        return StartGame(None, Options.from_dict(d.get("options", {})), tuple(ids), version)
    seat = _seat(d.get("seat"), "seat")
    if kind == "play_item":
        item = _item(d.get("item"), "item")
        if item not in PLAY_ITEM_FIELDS:
            raise InvalidCommand("{item} is played with modify_die, reroll or roll_market, not play_item",
                                 item=Name(item, display_name(item)))
        wanted = PLAY_ITEM_FIELDS[item]
        extra = set(d) - {"type", "seat", "item", *wanted}
        if extra:
            raise InvalidCommand("play_item {item} does not take {extra}; it takes {wanted}",
                                 item=item, extra=sorted(extra), wanted=list(wanted))
        values = {}
        for f in wanted:
            if f not in d:
                raise InvalidCommand("play_item {item} needs {field!r}", item=item, field=f)
            values[f] = _PLAY_ITEM_PARSERS[f](d[f], f)
        return PlayItem(seat, item, **values)
    spec = _SPECS[kind]
    extra = set(d) - {"type", "seat", *spec}
    if extra:
        raise InvalidCommand("{kind} does not take {extra}", kind=kind, extra=sorted(extra))
    values = {}
    for f, (parser, required) in spec.items():
        if f not in d:
            if required:
                raise InvalidCommand("{kind} needs {field!r}", kind=kind, field=f)

            continue
        if parser is str:
            values[f] = _die(d[f], f)
        else:
            values[f] = parser(d[f], f)
    return COMMAND_TYPES[kind](seat, **values)


def command_to_dict(c: Command) -> dict:
    out: dict = {"type": c.type, "seat": c.seat}
    if isinstance(c, StartGame):
        out["options"] = c.options.to_dict()
        out["player_ids"] = list(c.player_ids)
        if c.rules_version is not None:
            out["rules_version"] = c.rules_version
        return out
    if isinstance(c, PlayItem):
        out["item"] = c.item
        for f in PLAY_ITEM_FIELDS[c.item]:
            v = getattr(c, f)
            out[f] = list(v) if isinstance(v, tuple) else v
        return out
    for f in fields(c):
        if f.name == "seat":
            continue
        v = getattr(c, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out
