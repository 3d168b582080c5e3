"""English and Japanese (issue 30): the catalogs, a reader's language and dates in its words.

Two Babel domains: `messages` in server/translations/<lang>/LC_MESSAGES/ (the pages, mails,
answers; Flask-Babel's gettext in templates) and `engine` in engine/translations/ (narration, card
texts, printed names; passed to engine/text as a gettext-like object, since the engine reads no
file: the server and the command line load it). The .mo files
are committed beside their .po so a fresh clone runs as it is (tests/server/i18n checks they are
compiled from the .po and that no message lacks its Japanese).

- `language_of(user)`: the language a user chose, None until they choose.
- `best_match(accept_language)`: the page's language before a choice.
- `engine_catalog(lang)`, `catalog(lang)`: the loaded catalogs (English: none, NullTranslations).
- `format_datetime(moment, lang, zone)`: a date and time as the language writes it.
- `translate(lang, message, **values)`: a message marked with `N_`, its fields filled.
- `Said(message, **values)`: a message the core writes once (an error of server/games, a
  sign-in link refused...) that reads as its English wherever it is a string (the mail log,
  the server's own tests of it) and is said again in each reader's language where it is shown:
  the API's error body, the error page, the answer to a mail (`say(text, lang)`).
- `refusal(error, lang)`: a rule's refusal (the engine's RuleError or Refusal, or the notation's
  NotationError) in `lang`; `say` and `translate` say an engine Refusal as they say a Said.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from gettext import NullTranslations
from pathlib import Path

from babel import Locale
from babel import dates as babel_dates
from babel.support import Translations

import engine
from engine.text.notation_words import NotationError

LANGUAGES: tuple[str, ...] = ("en", "ja")
DEFAULT = "en"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
ENGINE_TRANSLATIONS = Path(engine.__file__).resolve().parent / "translations"
NAMES = {"en": "English", "ja": "日本語"}


def normal(language: str | None) -> str:
    """`language` if it is one of LANGUAGES (any case, "ja-JP" is "ja"), else English."""
    code = (language or "").strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT


def language_of(user) -> str | None:  # noqa: ANN001
    """The language the user chose (None: not chosen yet)."""
    return getattr(user, "language", None) if user is not None else None


def mail_language(user) -> str:  # noqa: ANN001
    """A mail's language: the recipient's choice, English until they choose."""
    return normal(language_of(user))


def best_match(accept_language: str | None) -> str:
    """The best of LANGUAGES for an Accept-Language header ("ja,en;q=0.8" -> "ja")."""
    best, best_q = DEFAULT, -1.0
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        if code not in LANGUAGES:
            continue
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if q > best_q or (q == best_q and order == 0):
            best, best_q = code, q
    return best


@cache
def _load(language: str, domain: str) -> NullTranslations:
    if language == DEFAULT:
        return NullTranslations()
    where = ENGINE_TRANSLATIONS if domain == "engine" else TRANSLATIONS
    return Translations.load(str(where), [language], domain=domain)


def catalog(language: str | None) -> NullTranslations:
    """The server's catalog (pages, mails, answers) for `language`."""
    return _load(normal(language), "messages")


def engine_catalog(language: str | None) -> NullTranslations:
    """The engine's catalog (narration, card texts, printed names) for `language`."""
    return _load(normal(language), "engine")


def format_datetime(moment: datetime, language: str | None, zone: str | None = None) -> str:
    """`moment` in `zone` (IANA name; UTC by default) as `language` writes a date and time,
    with the zone: "Dec 24, 2026, 3:00 PM (UTC)" / "2026/12/25 0:00 (Asia/Tokyo)"."""
    tz = babel_dates.get_timezone(zone or "UTC")
    locale = Locale.parse(normal(language))
    pattern = locale.datetime_formats["medium"]
    day = babel_dates.format_date(moment.astimezone(tz), "medium", locale=locale)
    hour = babel_dates.format_time(moment, "short", tzinfo=tz, locale=locale)
    return pattern.replace("{1}", day).replace("{0}", hour) + f" ({zone or 'UTC'})"


def gettext(language: str | None, message: str) -> str:
    return catalog(language).gettext(message)


def translate(language: str | None, message: str, **values) -> str:
    """`message` (marked with N_ where it is written) in `language`, its {fields} filled after
    the lookup, so the catalog holds one message whatever the values. A `Said` is said in
    `language`, and so is each value that is one."""
    if isinstance(message, Said):
        return message.said_in(language)
    if isinstance(message, engine.Refusal):
        return refusal(message, language)
    translated = catalog(language).gettext(message)
    if not values:
        return translated
    return translated.format(**{key: say(value, language) for key, value in values.items()})


class Said(str):
    """An English sentence that remembers the message it was made of (marked with N_) and its
    fields, to be said again in another language. It is the English wherever a string is
    expected; a field that is a Said itself is said in the same language."""

    message: str
    values: dict

    def __new__(cls, message: str, **values) -> Said:
        english = message.format(**values) if values else message
        said = super().__new__(cls, english)
        said.message, said.values = message, values
        return said

    def said_in(self, language: str | None) -> str:
        if normal(language) == DEFAULT:
            return str.__str__(self)
        return translate(language, self.message, **self.values)

    def __reduce__(self):  # noqa: ANN204 (pickled and copied as what it is)
        return (_said, (self.message, self.values))


def _said(message: str, values: dict) -> Said:
    return Said(message, **values)


def say(text, language: str | None):  # noqa: ANN001, ANN201
    """`text` in `language` when it is a `Said` or the engine's refusal; any other value as
    it is."""
    if isinstance(text, (engine.Refusal, engine.RuleError, NotationError)):
        return refusal(text, language)
    return text.said_in(language) if isinstance(text, Said) else text


def refusal(error: engine.RuleError | engine.Refusal | NotationError, language: str | None) -> str:
    """A rule's refusal in `language`: the engine's catalog fills its template (names in the
    reader's words, hexes and numbers as they are); in English, the engine's own text. The
    notation's NotationError too (a line quoted, why it is no command)."""
    if normal(language) == DEFAULT:
        return str(error)
    return error.translated(engine_catalog(language))


def header_language(content_language: str | None, accept_language: str | None) -> str | None:
    """The language a mail's Content-Language or Accept-Language asks for (None: neither)."""
    said = (content_language or "").strip() or (accept_language or "").strip()
    return best_match(said) if said else None


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks a message for the catalog where it is written; it is translated where shown."""
    return message


# A game's status as players read it (the API's `status` field keeps the key).
STATUSES = {"open": N_("open"), "active": N_("active"), "paused": N_("paused"),
            "finished": N_("finished"), "closed": N_("closed"), "aborted": N_("aborted"),
            "abandoned": N_("abandoned")}


def status(key: str | None) -> Said | str:
    """A game's status (`open`, `active`, ...) as a word to be said in the reader's language."""
    return Said(STATUSES[key]) if key in STATUSES else (key or "")


_SPAN = re.compile(r"(\d+) (day|hour|minute)s?")
_UNITS = {"day": "日", "hour": "時間", "minute": "分"}


def time_left(text: str | None, language: str | None) -> str | None:
    """server.games.pace.time_left's words ("2 days 4 hours left") in `language`."""
    if text is None or normal(language) == "en":
        return text
    if text == "due now":
        return "期限です"
    if text == "under a minute left":
        return "残り1分未満"
    return "残り" + "".join(f"{n}{_UNITS[unit]}" for n, unit in _SPAN.findall(text))


def deadline(text: str | None, language: str | None, zone: str | None = None) -> str | None:
    """A deadline the notices wrote as "2026-12-24 15:00 UTC", in `language`'s way and the
    reader's time zone (English keeps the notices' own form)."""
    if text is None or normal(language) == "en":
        return text
    try:
        moment = datetime.strptime(text, "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    except ValueError:
        return text
    return format_datetime(moment, language, zone)
