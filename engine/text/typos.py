"""Guessing what a line that is no command meant: `mvoe 2f` -> `move 2f` ("did you mean").

Only a line shaped like a command is guessed at, so greetings and sign-offs stay prose."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.data import GEMS, ITEMS, OBJECTIVES, RELICS
from engine.text.notation_words import WORDS, meant_word

# Words of a greeting or a sign-off one slip away from a command word (`Love,` and `move`).
_PROSE = frozenset("""best fine hope love more mind nice nine line well tell self sent kind
cheers deep done kept keen made mile time save some seen""".split())
_BARE = ("mine", "keep", "end", "undo")  # the words that make a command alone


def meant(line: str, names: Mapping[int, str] | None = None,
          extra: tuple[str, ...] = ()) -> str | None:
    """The command a line that is none probably meant (`mvoe 2f` -> `move 2f`), else None.

    Only a line shaped like a command: its first word a known word's slip or prefix (of the
    commands, or of `extra` words), followed by nothing but what commands take (hexes,
    numbers, gems, card or player names, options), so greetings and sign-offs stay prose."""
    words = line.split()
    if not words or len(words) > 8 or words[0].lower() in _PROSE or not words[0].isalpha():
        return None
    word = meant_word(words[0], WORDS + extra)
    if word is None:
        return None
    if len(words) == 1 and word not in _BARE + extra:
        return None
    if not all(_argument_like(token, names) for token in words[1:]):
        return None
    return " ".join([word, *words[1:]])


_CARD_WORDS = frozenset(
    part for table in (ITEMS, OBJECTIVES, RELICS) for key in table for part in key.split("_"))


def _argument_like(token: str, names: Mapping[int, str] | None) -> bool:
    word = token.lower().strip("'\"")
    if re.fullmatch(r"\d+[a-z]|[+-]?\d+|--[a-z-]+(=.*)?|(roll|market):\w+", word):
        return True
    name_words = {part.lower() for name in (names or {}).values() for part in name.split()}
    return (word in {"to", "or", "supply", "the", "of", *WORDS} | _CARD_WORDS | name_words
            or any(gem.startswith(word) for gem in GEMS if len(word) >= 2))
