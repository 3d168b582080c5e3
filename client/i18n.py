"""The command line's own messages in the language of `LANG` (issue 30): Japanese for `ja_JP.UTF-8`
(or LC_ALL / LC_MESSAGES, which win, as gettext reads them), English otherwise.

The catalog is client/translations/<lang>/LC_MESSAGES/client.mo (compiled beside its .po and
committed, so an installed client needs no build step). `_` looks the message up; texts from the
server (errors, narration) come in the language the server was asked for (`language()` goes in
the Accept-Language header of every request).
"""

from __future__ import annotations

import os
from functools import cache
from gettext import NullTranslations
from pathlib import Path

from babel.support import Translations

import engine
from engine.text.notation_words import NotationError

LANGUAGES = ("en", "ja")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
ENGINE_TRANSLATIONS = Path(engine.__file__).resolve().parent / "translations"


def language() -> str:
    """The first of LC_ALL, LC_MESSAGES, LANG that is set, as one of LANGUAGES."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


@cache
def _catalog(lang: str, domain: str = "client") -> NullTranslations:
    if lang == "en":
        return NullTranslations()
    where = ENGINE_TRANSLATIONS if domain == "engine" else TRANSLATIONS
    return Translations.load(str(where), [lang], domain=domain)


def engine_catalog() -> NullTranslations:
    """The engine's words (narration, card texts, names) in the language of `LANG`."""
    return _catalog(language(), "engine")


def refusal(error: Exception) -> str:
    """An error as the command line shows it: the engine's refusals (engine/errors.py) and the
    notation's reasons (a line that is no command) in the language of `LANG`, any other as it
    is."""
    if not isinstance(error, (engine.RuleError, NotationError)) or language() == "en":
        return str(error)
    return error.translated(engine_catalog())


def _(message: str) -> str:
    return _catalog(language()).gettext(message)


def N_(message: str) -> str:
    """Mark `message` for the catalog where it is written; `_` looks it up when shown."""
    return message


def listed(items) -> str:  # noqa: ANN001
    """Items one after another, parted by the reader's comma ("、" in Japanese)."""
    return _(", ").join(items)
