"""What a player wrote, line by line: a mail word (show, board, legal, help, explain NAME, stop,
...), a game command in the engine's notation (alternatives `move 3c or move 3d` included), a
mistyped command (`mvoe 2f`: "did you mean `move 2f`?"), or words that are neither (a greeting,
a thank-you).

Words that are neither are harmless before the first command and after the last (they are
reported and skipped); between two commands they stop the message there, since running the
commands after a mistyped one would play a turn the player did not mean. A mistyped command
stops the run wherever it stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.text import notation
from server.i18n import N_, Said
from server.inbound.table_words import is_table_word

# The mail words beyond the game's commands (docs/mail.md); `board` is `show`.
MAIL_WORDS = ("show", "board", "legal", "help", "join", "new solo", "stop", "unsubscribe",
              "plan clear", "rematch")
# Words followed by what they are about: `explain wishing well`.
WORDS_WITH_ARGUMENT = ("explain",)


@dataclass(frozen=True)
class Line:
    number: int  # 1-based, among the lines of the new text
    text: str
    kind: str  # word | command | say | typo (a command mistyped) | invalid | other
    word: str | None = None  # the mail word, for kind "word"
    error: str | None = None  # why the line is not a command (typo, invalid, other): a Said when
    # it is the server's own words, the notation's Refusal (engine/errors.py) when the engine's
    said: str | None = None  # for kind "say": the message, as written after `say`
    argument: str = ""  # what a word with an argument is about (`explain NAME`)


def said(raw: str) -> str | None:
    """The message of a `say ...` line (its whole rest: a `#` in it is part of what is said),
    None for any other line."""
    word, _, rest = raw.strip().partition(" ")
    return rest.strip() if word.lower() == "say" and rest.strip() else None


def mail_word(text: str) -> str | None:

    words = " ".join(text.lower().strip(" .!").split())
    return words if words in MAIL_WORDS or is_table_word(words) else None


def classify(text: str, number: int, seat: int | None, names=None) -> Line:
    """The line's kind; `seat` (None: no game) is who would play a command; `names` (the
    players' names by seat) are words a command may hold. A command is only read here by its
    words: what it says is checked when it is played (engine/text/script.py), against the
    board as it is then."""
    word = mail_word(text)
    if word is not None:
        return Line(number, text, "word", word=word)
    first, _, rest = text.strip().partition(" ")
    if first.lower() in WORDS_WITH_ARGUMENT:
        return Line(number, text, "word", word=first.lower(), argument=rest.strip())
    firsts = [notation.command_word(part.split()[0]) for part in notation.alternatives(text)]
    if firsts and all(word in notation.WORDS for word in firsts):
        return Line(number, text, "command")
    guess = notation.meant(text, names, extra=MAIL_WORDS[:3] + WORDS_WITH_ARGUMENT)
    if guess is not None:
        return Line(number, text, "typo",
                    error=Said(N_("not a command: did you mean `{guess}`?"), guess=guess))
    try:
        notation.parse(text, seat if seat is not None else 0, names=names)
    except notation.NotationError as error:
        # The notation's reason is the engine's Refusal: said in the reader's language.
        kind = "invalid" if firsts and firsts[0] in notation.WORDS else "other"
        return Line(number, text, kind, error=error.reason)
    return Line(number, text, "command")


def read_lines(texts: list[str], seat: int | None, names=None) -> list[Line]:
    """The lines worth a look: not blank, not `#` comments (a `#` ends a line's text)."""
    lines = []
    for number, raw in enumerate(texts, start=1):
        message = said(raw)
        if message is not None:
            lines.append(Line(number, raw.strip(), "say", said=message))
            continue
        text = raw.split("#", 1)[0].strip()
        if text:
            lines.append(classify(text, number, seat, names))
    return lines


def split_said(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """(the `say` lines, the others): messages are posted wherever they stand in the mail and
    neither start nor stop its commands."""
    return ([line for line in lines if line.kind == "say"],
            [line for line in lines if line.kind != "say"])


def split_around_commands(lines: list[Line]) -> tuple[list[Line], list[Line], list[Line]]:
    """(skipped before, to run, skipped after): the words that are neither commands nor mail
    words before the first command and after the last are skipped; those between stay, and
    stop the run when reached."""
    acting = [i for i, line in enumerate(lines) if line.kind != "other"]
    if not acting:
        return lines, [], []
    first, last = acting[0], acting[-1]
    return lines[:first], lines[first:last + 1], lines[last + 1:]


def join_word(texts: list[str]) -> str | None:
    """The word for the dice a player wrote after `join` (``join tolami-veruko``): the rest of
    the first line that starts with `join`; None when there is none."""
    for raw in texts:
        first, _, rest = raw.split("#", 1)[0].strip().partition(" ")
        if first.lower().strip(" .!") == "join":
            return rest.strip() or None
    return None
