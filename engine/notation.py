"""Command notation: one line of text per command, as a player types it (the SAN of Iridescia).

    parse("reveal 3c 3d", seat=1)  ->  Reveal(seat=1, hexes=("3c", "3d"))
    format(Move(1, "4b"))          ->  "move 4b"

The words are the CLI's (`iridescia move GAME 4b` is `move 4b` here), so a line read in `legal`,
an email or the web page can be typed back by mail or after `iridescia ... GAME`. The seat is not
part of the line: it is whoever sends it. `format` writes one canonical line per command and
`parse` reads it back to the same command; `parse` also accepts what a person would write:
any case, gem prefixes (`em`), names with spaces, dashes or underscores, `--opt=value`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from .board import HexNameError, parse_hex
from .commands import (
    PLAY_ITEM_FIELDS,
    Buy,
    ChooseGem,
    Command,
    DiscardObjective,
    EndTurn,
    GiveGem,
    KeepRoll,
    Mine,
    ModifyDie,
    Move,
    PlayItem,
    Relocate,
    RemoveTile,
    Reroll,
    Restore,
    Reveal,
    RollMarket,
    Sell,
    Undo,
)
from .data import GEMS, ITEMS, OBJECTIVES, RELICS, TILES

__all__ = [
    "USAGE", "WORDS", "NotationError", "canonical", "format", "format_command", "has_notation",
    "parse", "parse_command",
]

# What each word takes, as shown to a person who got it wrong (and in `help`).
USAGE: dict[str, str] = {
    "reveal": "reveal HEX [HEX]",
    "move": "move HEX",
    "relocate": "relocate HEX [--discard-tile TILE]",
    "choose": "choose GEM",
    "give": "give GEM --to SEAT|supply",
    "discard-objective": "discard-objective OBJECTIVE",
    "mine": "mine [--stone-dice N]",
    "keep": "keep [--gem GEM]",
    "reroll": "reroll DIE...",
    "modify": "modify DIE +1|-1|+2|-2 [--item ITEM]",
    "roll-market": "roll-market GEM...",
    "buy": "buy ITEM",
    "sell": "sell GEM COUNT",
    "play": "play ITEM [--give GEM --give GEM --take GEM | --gem GEM | --relic RELIC | --hex HEX "
            "| --target SEAT]",
    "restore": "restore RELIC",
    "end": "end",
    "remove": "remove HEX",
    "undo": "undo",
}
WORDS: tuple[str, ...] = tuple(USAGE)
_DICE_ITEMS = ("jolty_jackhammer", "dazzling_dynamite")


class NotationError(ValueError):
    """A line that is not a command; the message quotes the line and says what is accepted."""

    def __init__(self, line: str, reason: str):
        self.line = line
        self.reason = reason
        super().__init__(f"{line.strip()!r}: {reason}")


@dataclass
class _Words:
    """A line split into its word, positional arguments and --options."""

    line: str
    word: str
    args: list[str]
    options: dict[str, list[str]]

    def fail(self, reason: str) -> NotationError:
        return NotationError(self.line, f"{reason} (write: {USAGE[self.word]})")

    def option(self, name: str) -> str | None:
        values = self.options.pop(name, [])
        if len(values) > 1:
            raise self.fail(f"--{name} is given twice")
        return values[0] if values else None

    def done(self) -> None:
        if self.options:
            raise self.fail(f"{self.word} does not take --{sorted(self.options)[0]}")


def _split(line: str) -> _Words:
    if not isinstance(line, str):
        raise NotationError(str(line), "a command is a line of text")
    try:
        tokens = shlex.split(line, comments=False)
    except ValueError:
        # An apostrophe in a name ("Miner's Hat") or an unclosed quote: words, quotes dropped.
        tokens = [t.strip("'\"") for t in line.split() if t.strip("'\"")]
    if not tokens:
        raise NotationError(line, "an empty line; the commands are " + ", ".join(WORDS))
    word = tokens[0].lower().replace("_", "-")
    if word not in USAGE:
        raise NotationError(
            line, f"unknown command {tokens[0]!r}; the commands are {', '.join(WORDS)}"
        )
    args: list[str] = []
    options: dict[str, list[str]] = {}
    rest = tokens[1:]
    i = 0
    while i < len(rest):
        token = rest[i]
        if token.startswith("--") and len(token) > 2:
            name, eq, value = token[2:].partition("=")
            name = name.lower().replace("_", "-")
            if not eq:
                if i + 1 >= len(rest) or rest[i + 1].startswith("--"):
                    raise NotationError(line, f"--{name} needs a value (write: {USAGE[word]})")
                i += 1
                value = rest[i]
            options.setdefault(name, []).append(value)
        else:
            args.append(token)
        i += 1
    return _Words(line, word, args, options)


def _to_id(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", " ").replace("'", "").split())


def _gem(w: _Words, text: str) -> str:
    word = text.strip().lower()
    matches = [gem for gem in GEMS if gem.startswith(word)] if word else []
    if len(matches) != 1:
        raise w.fail(f"{text!r} is not a gem: use {', '.join(GEMS)}")
    return matches[0]


def _hex(w: _Words, text: str) -> str:
    name = text.strip().lower()
    try:
        parse_hex(name)
    except HexNameError as error:
        raise w.fail(str(error)) from None
    return name


def _component(w: _Words, text: str, table: Mapping, what: str) -> str:
    """An id typed as its name or id in any case, or as the start of one (`cauldron`)."""
    ident = _to_id(text)
    if ident.startswith("the_") and ident not in table:
        ident = ident[4:]  # "The Book of Iridescia"
    if ident in table:
        return ident
    starting = [known for known in table if known.startswith(ident)] if ident else []
    if len(starting) == 1:
        return starting[0]
    known = f"; it may be {', '.join(starting)}" if starting else (
        f"; the {what.split()[-1]}s are {', '.join(table)}" if len(table) <= 16 else "")
    raise w.fail(f"{text!r} is not {what}{known}")


def _count(w: _Words, text: str, what: str, low: int = 0) -> int:
    if not re.fullmatch(r"\d+", text.strip()) or int(text) < low:
        raise w.fail(f"{text!r} is not {what}")
    return int(text)


def _seat_or_supply(w: _Words, text: str) -> int | None:
    if text.strip().lower() == "supply":
        return None
    return _count(w, text, "a seat number or 'supply'")


def _die(w: _Words, text: str) -> str:
    value = text.strip().lower()
    kind, colon, rest = value.partition(":")
    if colon and kind == "roll" and rest.isdigit():
        return f"roll:{int(rest)}"
    if colon and kind == "market":
        return f"market:{_gem(w, rest)}"
    if not colon and value.isdigit():
        return f"roll:{int(value)}"
    if not colon:
        return f"market:{_gem(w, value)}"
    raise w.fail(f"{text!r} is not a die: use roll:N (a pending die) or market:GEM")


def _one(w: _Words, what: str) -> str:
    if len(w.args) != 1:
        got = "nothing" if not w.args else " ".join(w.args)
        raise w.fail(f"{w.word} takes one {what}, got {got}")
    return w.args[0]


def _joined(w: _Words, what: str) -> str:
    """An id argument may be typed as several words: `buy epic elixir`."""
    if not w.args:
        raise w.fail(f"{w.word} needs {what}")
    return " ".join(w.args)


def canonical(command: Command) -> Command:
    """The command in its one canonical form: a reveal's hexes in board order (bottom row
    first, then left to right), since revealing 1c then 1b is revealing 1b then 1c."""
    if isinstance(command, Reveal):
        hexes = tuple(sorted(command.hexes, key=parse_hex))
        if hexes != command.hexes:
            return Reveal(command.seat, hexes)
    return command


def _held(view: Mapping | None, seat: int) -> Mapping | None:
    for player in (view or {}).get("players") or []:
        if player.get("seat") == seat:
            return player
    return None


def parse(line: str, seat: int, *, view: Mapping | None = None) -> Command:
    """The command `line` stands for, played by `seat`. Raises NotationError quoting the line.

    `view` (the seat's view, engine.view or GET /view) is only needed to fill what a person may
    leave out: `sell GEM` without a count sells them all, `modify` without --item uses the
    die item the seat holds."""
    w = _split(line)
    command = _PARSERS[w.word](w, seat, _held(view, seat))
    w.done()
    return canonical(command)


def _reveal(w, seat, me):
    if not 1 <= len(w.args) <= 2:
        raise w.fail("reveal takes one or two hexes")
    hexes = tuple(_hex(w, a) for a in w.args)
    if len(set(hexes)) != len(hexes):
        raise w.fail(f"{hexes[0]} is named twice")
    return Reveal(seat, hexes)


def _relocate(w, seat, me):
    hex_ = _hex(w, _one(w, "hex"))
    tile = w.option("discard-tile")
    return Relocate(seat, hex_, None if tile is None else _component(w, tile, TILES, "a tile"))


def _give(w, seat, me):
    gem = _gem(w, _one(w, "gem"))
    to = w.option("to")
    if to is None:
        raise w.fail("say who receives it with --to SEAT, or --to supply")
    return GiveGem(seat, gem, _seat_or_supply(w, to))


def _mine(w, seat, me):
    if w.args:
        raise w.fail(f"mine takes no argument, got {' '.join(w.args)}")
    stone = w.option("stone-dice")
    return Mine(seat, 0 if stone is None else _count(w, stone, "a number of stone dice"))


def _keep(w, seat, me):
    if w.args:
        raise w.fail(f"keep takes no argument, got {' '.join(w.args)}")
    gem = w.option("gem")
    return KeepRoll(seat, None if gem is None else _gem(w, gem))


def _reroll(w, seat, me):
    if not w.args:
        raise w.fail("reroll needs the dice to roll again, numbered from 0")
    return Reroll(seat, tuple(_count(w, a, "a die number (0, 1, ...)") for a in w.args))


def _modify(w, seat, me):
    if len(w.args) != 2:
        raise w.fail("modify takes a die and a change")
    die = _die(w, w.args[0])
    text = w.args[1].strip()
    if not re.fullmatch(r"[+-]?[12]", text):
        raise w.fail(f"{w.args[1]!r} is not a change: use +1, -1, +2 or -2")
    delta = int(text)
    item = w.option("item")
    if item is not None:
        item = _component(w, item, {i: None for i in _DICE_ITEMS}, "a die item")
    elif abs(delta) == 2:
        item = "dazzling_dynamite"
    else:
        held = [i for i in _DICE_ITEMS if i in ((me or {}).get("items") or [])]
        item = held[0] if held else "jolty_jackhammer"
    return ModifyDie(seat, item, die, delta)


def _roll_market(w, seat, me):
    if not w.args:
        raise w.fail("roll-market needs the gem dice to roll")
    return RollMarket(seat, tuple(_gem(w, a) for a in w.args))


def _sell(w, seat, me):
    if len(w.args) == 1 and me is not None:
        gem = _gem(w, w.args[0])
        count = int((me.get("hold") or {}).get(gem, 0))
        if not count:
            raise w.fail(f"you hold no {gem} to sell")
        return Sell(seat, gem, count)
    if len(w.args) != 2:
        raise w.fail("sell takes a gem and how many")
    return Sell(seat, _gem(w, w.args[0]), _count(w, w.args[1], "a number of gems", 1))


_PLAY_VALUES = {
    "take": _gem,
    "gem": _gem,
    "relic": lambda w, v: _component(w, v, RELICS, "a relic"),
    "hex": _hex,
    "target": lambda w, v: _count(w, v, "a seat number"),
}


def _play(w, seat, me):
    item = _component(w, _joined(w, "an item"), ITEMS, "an item")
    if item not in PLAY_ITEM_FIELDS:
        own = "modify" if item in _DICE_ITEMS else "reroll or roll-market"
        raise w.fail(f"{ITEMS[item].name} is played with {own}, not play")
    values: dict = {}
    for name in PLAY_ITEM_FIELDS[item]:
        if name == "give":
            gems = w.options.pop("give", [])
            if len(gems) != 2:
                raise w.fail(f"{ITEMS[item].name} needs --give twice (the two gems you trade in)")
            values["give"] = tuple(_gem(w, g) for g in gems)
            continue
        value = w.option(name)
        if value is None:
            raise w.fail(f"{ITEMS[item].name} needs --{name}")
        values[name] = _PLAY_VALUES[name](w, value)
    return PlayItem(seat, item, **values)


def _nothing(kind):
    def parse_bare(w, seat, me):
        if w.args:
            raise w.fail(f"{w.word} takes no argument, got {' '.join(w.args)}")
        return kind(seat)

    return parse_bare


_PARSERS = {
    "reveal": _reveal,
    "move": lambda w, seat, me: Move(seat, _hex(w, _one(w, "hex"))),
    "relocate": _relocate,
    "choose": lambda w, seat, me: ChooseGem(seat, _gem(w, _one(w, "gem"))),
    "give": _give,
    "discard-objective": lambda w, seat, me: DiscardObjective(
        seat, _component(w, _joined(w, "an objective"), OBJECTIVES, "an objective")),
    "mine": _mine,
    "keep": _keep,
    "reroll": _reroll,
    "modify": _modify,
    "roll-market": _roll_market,
    "buy": lambda w, seat, me: Buy(seat, _component(w, _joined(w, "an item"), ITEMS, "an item")),
    "sell": _sell,
    "play": _play,
    "restore": lambda w, seat, me: Restore(
        seat, _component(w, _joined(w, "a relic"), RELICS, "a relic")),
    "end": _nothing(EndTurn),
    "remove": lambda w, seat, me: RemoveTile(seat, _hex(w, _one(w, "hex"))),
    "undo": _nothing(Undo),
}


def has_notation(command: Command) -> bool:
    """False for the commands nobody types (the game's start, the Rhom's turn)."""
    return type(command) in _FORMATTERS


def format(command: Command) -> str:
    """The canonical line for `command` (what `legal` prints and `parse` reads back)."""
    formatter = _FORMATTERS.get(type(command))
    if formatter is None:
        raise ValueError(f"{command.type} is played by the server, it has no notation")
    return shlex.join(formatter(canonical(command)))


def _play_words(c: PlayItem) -> list[str]:
    words = ["play", c.item]
    for name in PLAY_ITEM_FIELDS[c.item]:
        value = getattr(c, name)
        for single in value if isinstance(value, tuple) else (value,):
            words += [f"--{name}", str(single)]
    return words


_FORMATTERS = {
    Reveal: lambda c: ["reveal", *c.hexes],
    Move: lambda c: ["move", c.hex],
    Relocate: lambda c: ["relocate", c.hex] + (["--discard-tile", c.discard_tile]
                                               if c.discard_tile else []),
    ChooseGem: lambda c: ["choose", c.gem],
    GiveGem: lambda c: ["give", c.gem, "--to", "supply" if c.to is None else str(c.to)],
    DiscardObjective: lambda c: ["discard-objective", c.objective],
    Mine: lambda c: ["mine"] + (["--stone-dice", str(c.stone_dice)] if c.stone_dice else []),
    KeepRoll: lambda c: ["keep"] + (["--gem", c.gem] if c.gem else []),
    Reroll: lambda c: ["reroll", *(str(d) for d in c.dice)],
    ModifyDie: lambda c: ["modify", c.die, f"{c.delta:+d}", "--item", c.item],
    RollMarket: lambda c: ["roll-market", *c.gems],
    Buy: lambda c: ["buy", c.item],
    Sell: lambda c: ["sell", c.gem, str(c.count)],
    PlayItem: _play_words,
    Restore: lambda c: ["restore", c.relic],
    EndTurn: lambda c: ["end"],
    RemoveTile: lambda c: ["remove", c.hex],
    Undo: lambda c: ["undo"],
}

# The same functions under names that do not shadow the built-in `format` where imported.
parse_command = parse
format_command = format
