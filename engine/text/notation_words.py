"""Reading a notation line word by word: the command words, the split line, its arguments.

`USAGE` says what each command word takes, and every error quotes it. `_split` cuts a line into its
word, positional arguments and --options as a shell would (forgiving an apostrophe in a name); the
readers (`_gem`, `_hex`, `_component`, ...) take an argument as a person would write it: any case,
gem prefixes, names with spaces, dashes or underscores. engine/text/notation.py builds the commands.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from engine.board import HexNameError, parse_hex
from engine.data import GEMS
from engine.errors import Listed, Refusal, _Catalog, _in

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

# Japanese words for the verbs (issue 30): the rest of the line is the same notation, so a reply
# written either way works for every player. `help` lists them.
SYNONYMS: dict[str, str] = {
    "公開": "reveal", "移動": "move", "採掘": "mine", "売る": "sell", "買う": "buy",
    "使う": "play", "復元": "restore", "終了": "end",
}


def command_word(token: str) -> str:
    """The command word a line's first token stands for (`Reveal`, `公開` -> `reveal`)."""
    return SYNONYMS.get(token, token.lower().replace("_", "-"))


class NotationError(ValueError):
    """A line that is not a command; the message quotes the line and says what is accepted.

    `reason` is a `Refusal` (engine/errors.py): its English is the text, its template and values
    say it again in a reader's language (`translated(catalog)`, as a RuleError's)."""

    def __init__(self, line: str, reason: Refusal):
        self.line = line
        self.reason = reason
        super().__init__(f"{line.strip()!r}: {reason}")

    def translated(self, translations: _Catalog | None = None) -> str:
        """The line and why it is no command, the reason in the catalog's language."""
        if translations is None:
            return str(self)
        return f"{self.line.strip()!r}: {_in(self.reason, translations)}"


# The parts of a reason that name what an argument should have been (`_component`, `_count`).
_WHAT = {
    "an item": (Refusal("an item"), Refusal("items")),
    "a relic": (Refusal("a relic"), Refusal("relics")),
    "a tile": (Refusal("a tile"), Refusal("tiles")),
    "an objective": (Refusal("an objective"), Refusal("objectives")),
    "a die item": (Refusal("a die item"), Refusal("items")),
    "hex": (Refusal("hex"), None),
    "gem": (Refusal("gem"), None),
    "a number of gems": (Refusal("a number of gems"), None),
    "a number of stone dice": (Refusal("a number of stone dice"), None),
    "a die number (0, 1, ...)": (Refusal("a die number (0, 1, ...)"), None),
}


def commands_listed() -> Listed:
    """The command words, one after another (a reason ends with them)."""
    return Listed(WORDS)


@dataclass
class _Words:
    """A line split into its word, positional arguments and --options."""

    line: str
    word: str
    args: list[str]
    options: dict[str, list[str]]
    names: Mapping[int, str] | None = None  # the players' names by seat, to type `to Ben`

    def fail(self, reason: Refusal) -> NotationError:
        return NotationError(self.line, Refusal("{reason} (write: {usage})", reason=reason,
                                                usage=USAGE[self.word]))

    def option(self, name: str) -> str | None:
        values = self.options.pop(name, [])
        if len(values) > 1:
            raise self.fail(Refusal("--{name} is given twice", name=name))
        return values[0] if values else None

    def done(self) -> None:
        if self.options:
            raise self.fail(Refusal("{word} does not take --{option}", word=self.word,
                                    option=sorted(self.options)[0]))


def _split(line: str) -> _Words:
    if not isinstance(line, str):
        raise NotationError(str(line), Refusal("a command is a line of text"))
    line = line.replace("\u3000", " ")  # a Japanese keyboard's wide space parts words too
    try:
        tokens = shlex.split(line, comments=False)
    except ValueError:
        # An apostrophe in a name ("Miner's Hat") or an unclosed quote: words, quotes dropped.
        tokens = [t.strip("'\"") for t in line.split() if t.strip("'\"")]
    if not tokens:
        raise NotationError(line, Refusal("an empty line; the commands are {commands}",
                                          commands=commands_listed()))
    word = command_word(tokens[0])
    if word not in USAGE:
        raise NotationError(line, Refusal("unknown command {word!r}; the commands are {commands}",
                                          word=tokens[0], commands=commands_listed()))
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
                    raise NotationError(line, Refusal("{reason} (write: {usage})", usage=USAGE[word],
                                                      reason=Refusal("--{name} needs a value",
                                                                     name=name)))
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
        raise w.fail(Refusal("{text!r} is not a gem: use {gems}", text=text, gems=Listed(GEMS)))
    return matches[0]


def _hex(w: _Words, text: str) -> str:
    name = text.strip().lower()
    try:
        parse_hex(name)
    except HexNameError as error:
        raise w.fail(error.args[0]) from None
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
    a, kinds = _WHAT[what]
    known = Refusal("; it may be {names}", names=Listed(starting)) if starting else (
        Refusal("; the {kinds} are {names}", kinds=kinds, names=Listed(table))
        if len(table) <= 16 else "")
    raise w.fail(Refusal("{text!r} is not {what}{known}", text=text, what=a, known=known))


def _count(w: _Words, text: str, what: str, low: int = 0) -> int:
    if not re.fullmatch(r"\d+", text.strip()) or int(text) < low:
        raise w.fail(Refusal("{text!r} is not {what}{known}", text=text, what=_WHAT[what][0],
                             known=""))
    return int(text)


def _seat_or_supply(w: _Words, text: str) -> int | None:
    if text.strip().lower() == "supply":
        return None
    return _player(w, text)


def _player(w: _Words, text: str) -> int:
    """A player typed by name (any case, or the start of one name) or by seat number."""
    if re.fullmatch(r"\d+", text.strip()):
        return int(text)
    wanted = " ".join(text.lower().split())
    names = {seat: " ".join(name.lower().split()) for seat, name in (w.names or {}).items()}
    exact = [seat for seat, name in names.items() if name == wanted]
    starting = [seat for seat, name in names.items() if wanted and name.startswith(wanted)]
    for found in (exact, starting):
        if len(found) == 1:
            return found[0]
    if w.names:
        raise w.fail(Refusal("{text!r} is not a player: the players are {names}", text=text,
                             names=Listed(w.names.values())))
    raise w.fail(Refusal("{text!r} is not a player: name them by seat number", text=text))


# A command word's near misses (`mvoe`, `mov`): a line starting with one is read as a mistyped
# command, not as a greeting, and answered with the line it may have meant.
def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, changes and swaps of two
    neighbouring letters each count one."""
    rows = [[i + j if not i * j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


def meant_word(word: str, known: tuple[str, ...] = WORDS) -> str | None:
    """The one known word `word` is a misspelling (one slip; two for a long word) or a prefix
    (three letters at least) of, else None."""
    word = word.lower().replace("_", "-")
    if word in known or len(word) < 3:
        return None
    starting = [k for k in known if k.startswith(word)]
    if len(starting) == 1:
        return starting[0]
    slips = 2 if len(word) >= 8 else 1
    close = sorted((_edits(word, k), k) for k in known
                   if len(k) >= 4 or sorted(k) == sorted(word))  # `byu`, `ned`
    close = [k for distance, k in close if distance <= slips]
    return close[0] if len(close) == 1 or (close and _edits(word, close[0]) < _edits(
        word, close[1])) else None


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
    raise w.fail(Refusal("{text!r} is not a die: use roll:N (a pending die) or market:GEM",
                         text=text))


def _one(w: _Words, what: str) -> str:
    if len(w.args) != 1:
        raise w.fail(Refusal("{word} takes one {what}, got {got}", word=w.word,
                             what=_WHAT[what][0], got=got(w.args)))
    return w.args[0]


def got(args: list[str]) -> str | Refusal:
    """What a person gave where something else was wanted: their words, or "nothing"."""
    return " ".join(args) if args else Refusal("nothing")


def _joined(w: _Words, what: str) -> str:
    """An id argument may be typed as several words: `buy epic elixir`."""
    if not w.args:
        raise w.fail(Refusal("{word} needs {what}", word=w.word, what=_WHAT[what][0]))
    return " ".join(w.args)
