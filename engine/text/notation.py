"""Command notation: one line of text per command, as a player types it (the SAN of Iridescia).

    parse("reveal 3c 3d", seat=1)  ->  Reveal(seat=1, hexes=("3c", "3d"))
    format(Move(1, "4b"))          ->  "move 4b"

The words are the CLI's (`iridescia move GAME 4b` is `move 4b` here), so a line read in `legal`,
an email or the web page can be typed back by mail or after `iridescia ... GAME`. The seat is not
part of the line: it is whoever sends it. `format` writes one canonical line per command and
`parse` reads it back to the same command; `parse` also accepts what a person would write:
any case, gem prefixes (`em`), names with spaces, dashes or underscores, `--opt=value`.

A line is read word by word in notation_words.py (the command words and their usage, the error,
the arguments); this module has each command's parser and formatter side by side, so a command's
line is read and written in one place.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from engine.board import parse_hex
from engine.commands import (
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
from engine.data import ITEMS, OBJECTIVES, RELICS, TILES, display_name
from engine.errors import Name, Refusal
from engine.text.notation_words import (
    SYNONYMS,
    USAGE,
    WORDS,
    NotationError,
    _component,
    _count,
    _die,
    _gem,
    _hex,
    _joined,
    _one,
    _player,
    _seat_or_supply,
    _split,
    _to_id,
    command_word,
    got,
)
from engine.text.typos import meant  # a line's likely meaning; `notation.meant` as before

__all__ = [
    "SYNONYMS", "USAGE", "WORDS", "NotationError", "alternatives", "canonical", "command_word",
    "format", "format_command", "has_notation", "meant", "parse", "parse_command", "parse_many",
]

_DICE_ITEMS = ("jolty_jackhammer", "dazzling_dynamite")


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


def parse(line: str, seat: int, *, view: Mapping | None = None,
          names: Mapping[int, str] | None = None) -> Command:
    """The command `line` stands for, played by `seat`. Raises NotationError quoting the line.

    `view` (the seat's view, engine.view or GET /view) is only needed to fill what a person may
    leave out: `sell GEM` without a count sells them all, `modify` without --item uses the
    die item the seat holds. `names` (the players' names by seat) lets a player be named
    (`give amethyst to Ben`, `--target Ben`); a seat number is always understood."""
    commands = parse_many(line, seat, view=view, names=names)
    if len(commands) != 1:
        raise NotationError(line, Refusal(
            "give one gem per command here: write `give GEM --to SEAT`"))
    return commands[0]


def parse_many(line: str, seat: int, *, view: Mapping | None = None,
               names: Mapping[int, str] | None = None) -> list[Command]:
    """`parse`, where a line may stand for several commands of one kind: `give 2 amethyst to
    Ben` is two gems given, one command each (a mail's line or a plan's)."""
    w = _split(line)
    w.names = names
    if w.word == "give":
        count, command = _give(w, seat, _held(view, seat))
        w.done()
        return [command] * count
    command = _PARSERS[w.word](w, seat, _held(view, seat))
    w.done()
    return [canonical(command)]


def alternatives(line: str) -> list[str]:
    """The alternatives a line offers, in order: `move 3c or move 3d`."""
    return [part.strip() for part in re.split(r"\s+or\s+", line.strip(), flags=re.I)
            if part.strip()]


def _reveal(w, seat, me):
    if not 1 <= len(w.args) <= 2:
        raise w.fail(Refusal("reveal takes one or two hexes"))
    hexes = tuple(_hex(w, a) for a in w.args)
    if len(set(hexes)) != len(hexes):
        raise w.fail(Refusal("{hex} is named twice", hex=hexes[0]))
    return Reveal(seat, hexes)


def _relocate(w, seat, me):
    hex_ = _hex(w, _one(w, "hex"))
    tile = w.option("discard-tile")
    return Relocate(seat, hex_, None if tile is None else _tile(w, tile, me))


def _tile(w, text: str, me) -> str:
    """A tile by id, or by its printed name (`Desert Amethyst`): then one of that name the
    seat holds (identical tiles are one choice), read from its view."""
    held = list((me or {}).get("tiles") or [])
    wanted = " ".join(text.lower().split())
    named = [tile for tile in held if display_name(tile).lower() == wanted]
    if named and _to_id(text) not in TILES:
        return named[0]
    return _component(w, text, TILES, "a tile")


def _give(w, seat, me):
    """(how many, the command): `give GEM --to SEAT`, `give [N] GEM to NAME|supply`."""
    args = list(w.args)
    to = w.option("to")
    lowered = [a.lower() for a in args]
    if to is None and "to" in lowered:
        at = lowered.index("to")
        to, args = " ".join(args[at + 1:]), args[:at]
    count = 1
    if len(args) == 2 and re.fullmatch(r"\d+", args[0]):
        count, args = _count(w, args[0], "a number of gems", 1), args[1:]
    if len(args) != 1:
        raise w.fail(Refusal("{word} takes one {what}, got {got}", word="give",
                             what=Refusal("gem"), got=got(args)))
    gem = _gem(w, args[0])
    if not to:
        raise w.fail(Refusal("say who receives it with --to SEAT, or --to supply"))
    return count, GiveGem(seat, gem, _seat_or_supply(w, to))


def _mine(w, seat, me):
    if w.args:
        raise w.fail(_no_argument(w))
    stone = w.option("stone-dice")
    return Mine(seat, 0 if stone is None else _count(w, stone, "a number of stone dice"))


def _keep(w, seat, me):
    if w.args:
        raise w.fail(_no_argument(w))
    gem = w.option("gem")
    return KeepRoll(seat, None if gem is None else _gem(w, gem))


def _reroll(w, seat, me):
    if not w.args:
        raise w.fail(Refusal("reroll needs the dice to roll again, numbered from 0"))
    return Reroll(seat, tuple(_count(w, a, "a die number (0, 1, ...)") for a in w.args))


def _modify(w, seat, me):
    if len(w.args) != 2:
        raise w.fail(Refusal("modify takes a die and a change"))
    die = _die(w, w.args[0])
    text = w.args[1].strip()
    if not re.fullmatch(r"[+-]?[12]", text):
        raise w.fail(Refusal("{text!r} is not a change: use +1, -1, +2 or -2", text=w.args[1]))
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
        raise w.fail(Refusal("roll-market needs the gem dice to roll"))
    return RollMarket(seat, tuple(_gem(w, a) for a in w.args))


def _sell(w, seat, me):
    if len(w.args) == 1 and me is not None:
        gem = _gem(w, w.args[0])
        count = int((me.get("hold") or {}).get(gem, 0))
        if not count:
            raise w.fail(Refusal("you hold no {gem} to sell", gem=Name(gem)))
        return Sell(seat, gem, count)
    if len(w.args) != 2:
        raise w.fail(Refusal("sell takes a gem and how many"))
    return Sell(seat, _gem(w, w.args[0]), _count(w, w.args[1], "a number of gems", 1))


_PLAY_VALUES = {
    "take": _gem,
    "gem": _gem,
    "relic": lambda w, v: _component(w, v, RELICS, "a relic"),
    "hex": _hex,
    "target": _player,
}


def _play(w, seat, me):
    item = _component(w, _joined(w, "an item"), ITEMS, "an item")
    if item not in PLAY_ITEM_FIELDS:
        raise w.fail(Refusal("{item} is played with modify, not play", item=_item(item))
                     if item in _DICE_ITEMS else
                     Refusal("{item} is played with reroll or roll-market, not play",
                             item=_item(item)))
    values: dict = {}
    for name in PLAY_ITEM_FIELDS[item]:
        if name == "give":
            gems = w.options.pop("give", [])
            if len(gems) != 2:
                raise w.fail(Refusal("{item} needs --give twice (the two gems you trade in)",
                                     item=_item(item)))
            values["give"] = tuple(_gem(w, g) for g in gems)
            continue
        value = w.option(name)
        if value is None:
            raise w.fail(Refusal("{item} needs --{option}", item=_item(item), option=name))
        values[name] = _PLAY_VALUES[name](w, value)
    return PlayItem(seat, item, **values)


def _item(item: str) -> Name:
    return Name(ITEMS[item].name)


def _no_argument(w) -> Refusal:
    return Refusal("{word} takes no argument, got {got}", word=w.word, got=" ".join(w.args))


def _nothing(kind):
    def parse_bare(w, seat, me):
        if w.args:
            raise w.fail(_no_argument(w))
        return kind(seat)

    return parse_bare


_PARSERS = {
    "reveal": _reveal,
    "move": lambda w, seat, me: Move(seat, _hex(w, _one(w, "hex"))),
    "relocate": _relocate,
    "choose": lambda w, seat, me: ChooseGem(seat, _gem(w, _one(w, "gem"))),
    "give": lambda w, seat, me: _give(w, seat, me)[1],
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


def format(command: Command, names: Mapping[int, str] | None = None) -> str:
    """The canonical line for `command` (what `legal` prints and `parse` reads back); with
    `names` (the players' names by seat), the line a person reads: other players by name, and
    items, relics and objectives by their printed names (`buy Axe of Awesomeness`), which
    `parse` reads back just as well."""
    formatter = _FORMATTERS.get(type(command))
    if formatter is None:
        raise ValueError(f"{command.type} is played by the server, it has no notation")
    words = formatter(canonical(command))
    if names is None:
        return shlex.join(words)
    seat_at = {GiveGem: "--to", PlayItem: "--target"}.get(type(command))
    if seat_at in words:
        at = words.index(seat_at) + 1
        if words[at].isdigit() and int(words[at]) in names:
            words[at] = names[int(words[at])]
    card = _CARD_TABLES.get(type(command))
    if card is not None and words[1] in card:
        # The card's name stands unquoted: its words are read back joined (`_joined`).
        return " ".join([words[0], card[words[1]].name,
                         shlex.join(_named_options(words[2:]))]).rstrip()
    return shlex.join(_named_options(words))


_CARD_TABLES: dict[type, Mapping] = {Buy: ITEMS, PlayItem: ITEMS, Restore: RELICS,
                                     DiscardObjective: OBJECTIVES}


def _named_options(words: list[str]) -> list[str]:
    """Option values that are cards, by name (`--relic 'Book of Iridescia'`, `--discard-tile
    'Desert Amethyst'`: a tile's name is read back from the seat's view, which holds it)."""
    named = list(words)
    for at, word in enumerate(named[:-1]):
        table = {"--relic": RELICS, "--item": ITEMS, "--discard-tile": TILES}.get(word)
        if table is not None and named[at + 1] in table:
            named[at + 1] = display_name(named[at + 1])
    return named


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
