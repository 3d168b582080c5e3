"""What every page's template may use beside Flask-Babel's `_` and `ngettext`: the page's
language for <html lang>, dates and times as that language writes them, the time left and a
game's pace in its words."""

from __future__ import annotations

from flask import Blueprint
from flask_babel import get_locale
from flask_babel import gettext as _

from server import i18n
from server.web.language import day, when


def page_lang() -> str:
    return str(get_locale() or i18n.DEFAULT)


def time_left(text: str | None) -> str | None:
    """server.games.pace.time_left's words ("2 days left") in the page's language."""
    return i18n.time_left(text, page_lang())


def pace_words(pace: str | None) -> str:
    """A game's time for a turn in words: "3 days", "no deadline"."""
    words = {"1d": _("a day"), "3d": _("3 days"), "7d": _("a week"), "none": _("no deadline")}
    return words.get(pace or "none", pace or "")


def level(name: str | None) -> str:
    """A bot's level in words: easy, medium, hard."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return words.get(name or "", name or "")


def track(key: str) -> str:
    """A leaderboard's track in words (server/ratings/derived.py TRACKS)."""
    words = {"2": _("2 players"), "3": _("3 players"), "4": _("4 players"),
             "solo": _("solo against the Rhom")}
    return words.get(key, key)


def vacation(summary: dict) -> str:
    """server.vacations.away.summary in the page's words: away or not, the days left."""
    if summary.get("away_until"):
        where = _("Away until %(when)s: your turns wait for you",
                  when=when(summary["away_until"]))
    else:
        where = _("You are not away")
    return _("%(where)s; %(left)s of %(days)s vacation days left in %(year)s.", where=where,
             left=summary["days_left"], days=summary["days_per_year"], year=summary["year"])


def status(key: str | None) -> str:
    """A game's status (open, active, paused, finished...) in the page's words."""
    return i18n.say(i18n.status(key), page_lang())


def install(blp: Blueprint) -> None:
    blp.add_app_template_filter(when, "when")
    blp.add_app_template_filter(day, "day")
    blp.add_app_template_filter(time_left, "left")
    blp.add_app_template_filter(pace_words, "pace_words")
    blp.add_app_template_filter(level, "level")
    blp.add_app_template_filter(track, "track")
    blp.add_app_template_filter(vacation, "vacation")
    blp.add_app_template_filter(status, "status")
    blp.app_context_processor(lambda: {"page_lang": page_lang()})
