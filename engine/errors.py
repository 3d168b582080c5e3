"""Why a command was refused. Every message is for the player and quotes their input.

A refusal is written once, in English, as a template and its values:
``IllegalCommand("you named hex {hex} twice", hex=h)``. ``str(error)`` is the English text;
``error.translated(catalog)`` the same refusal in the language of a gettext-like catalog (the
engine's, engine/translations: the template is looked up, then filled). Babel extracts the
templates (babel-engine.cfg names these classes and `Refusal` as keywords), and
tests/server/i18n/test_untranslated_words.py fails on a refusal written any other way.

The values stay as given (hexes, numbers, what the player typed) but for names, wrapped in
`Name`: the catalog names them in its language, as `Words.name` and `Words.gem` do (every printed
name is a message of the engine's catalog, engine/text/printed_names.py). The engine reads no
file: the caller passes the catalog in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class _Catalog(Protocol):
    def gettext(self, message: str) -> str: ...


class Name(str):
    """A gem, tile, item, relic or objective in a refusal: ``shown`` in English (what the text
    said before refusals were translated: a gem's or a card's name, a tile's or an objective's
    id), its printed name ``printed`` looked up in the reader's catalog."""

    printed: str

    def __new__(cls, shown: str, printed: str | None = None) -> Name:
        name = super().__new__(cls, shown)
        name.printed = printed or shown
        return name

    def translated(self, translations: _Catalog) -> str:
        return translations.gettext(self.printed)


class Listed(tuple):
    """Values shown one after another, parted by a comma (the catalog's own comma: "、")."""

    separator = ", "

    def __new__(cls, values: Iterable[object]) -> Listed:
        return super().__new__(cls, tuple(values))

    def __str__(self) -> str:
        return self.separator.join(map(str, self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def translated(self, translations: _Catalog) -> str:
        return translations.gettext(self.separator).join(
            str(_in(value, translations)) for value in self)


class Reasons(Listed):
    """Reasons one after another, parted by a semicolon (the catalog's own: "。")."""

    separator = "; "


class Seat(int):
    """A seat in a refusal: "seat 2" in the engine's English (the engine knows no names), its
    player's name once the server names the table's seats (`RuleError.named`)."""

    def __str__(self) -> str:
        return f"seat {int(self)}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def translated(self, translations: _Catalog) -> str:
        return translations.gettext("seat {seat}").format(seat=int(self))


class Refusal(str):
    """A refusal's text: the English (the str itself), with its template and values kept to
    write it again in another language. Also a reason inside another refusal (`{why}`)."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, /, **values: object) -> Refusal:
        refusal = super().__new__(cls, template.format(**values) if values else template)
        refusal.template, refusal.values = template, values
        return refusal

    def translated(self, translations: _Catalog) -> str:
        text = translations.gettext(self.template)
        if not self.values:
            return text
        return text.format(**{key: _in(value, translations) for key, value in self.values.items()})

    def named(self, names: dict[int, str]) -> Refusal:
        """The same refusal with each `Seat` in it replaced by its player's name."""
        if not self.values:
            return self
        return Refusal(self.template, **{key: _named(value, names)
                                         for key, value in self.values.items()})


def _named(value: object, names: dict[int, str]) -> object:
    if isinstance(value, Seat):
        return names.get(int(value), value)
    if isinstance(value, Refusal):
        return value.named(names)
    if isinstance(value, Listed):
        return type(value)(_named(item, names) for item in value)
    return value


def _in(value: object, translations: _Catalog) -> object:
    """A value as the catalog's language shows it: names and reasons translated, the rest as is."""
    translated = getattr(value, "translated", None)
    return translated(translations) if callable(translated) else value


class RuleError(Exception):
    """Base class: the command was not applied."""

    def __init__(self, message: str = "", /, **values: object) -> None:
        if isinstance(message, Refusal) and not values:
            self.refusal = message
        else:
            self.refusal = Refusal(message, **values)
        super().__init__(str(self.refusal))

    def named(self, names: dict[int, str]) -> RuleError:
        """This refusal with its seats named by their players (`names` by seat), in English and
        in every catalog: players read names, never seat numbers."""
        self.refusal = self.refusal.named(names)
        self.args = (str(self.refusal),)
        return self

    def translated(self, translations: _Catalog | None = None) -> str:
        """The refusal in the catalog's language (None: English, ``str(self)``)."""
        if translations is None:
            return str(self)
        return self.refusal.translated(translations)


class InvalidCommand(RuleError):
    """The command is malformed: unknown type, missing or badly typed field."""


class IllegalCommand(RuleError):
    """The command is well formed but the rules forbid it now."""


class NotYourTurn(RuleError):
    """Another seat is to act."""


class GameOver(RuleError):
    """The game has ended; nothing more can be played."""
