"""The mail words about time away and mail: `vacation until 2026-12-24`, `vacation end`,
`pause`, `resume` (server/vacations), `notify every|digest [HOUR]|reminders|none`
(server/users/mail_choices.py), and the reader's language and display settings: `language
ja|en`, `tiles gem|region`, `relics gem|category` (docs/i18n.md). Each is done in a transaction of its own and answered with
one sentence: what it did, or why not (the API's 4xx message)."""

from __future__ import annotations

import functools
import re
from datetime import date, datetime

from sqlmodel import select
from werkzeug.exceptions import HTTPException

from server import i18n
from server.i18n import N_
from server.storage.db import session_scope
from server.storage.models import Game, Seat, User
from server.users.mail_choices import choose_by_words
from server.vacations import away, pauses

PATTERN = re.compile(
    r"vacation until \d{4}-\d{2}-\d{2}|vacation end|pause|resume"
    r"|notify (every|every turn|digest( \d{1,2})?|reminders|none)( here)?"
    r"|language (en|ja)|tiles (gem|region)|relics (gem|category)"
)
HELP = N_("""    vacation until 2026-12-24   away until that day: your turns wait, no reminders
    vacation end   back early
    pause     ask to pause this game (it pauses when every player has); resume: start it again
    notify every | notify digest 8 | notify reminders | notify none
              which mail you get (add `here` for this game only): every turn, one digest a
              day at 8 (your time zone), only reminders, or nothing
    language ja | language en   the language of your mails, answers and pages (日本語)
    tiles gem | tiles region    your tiles sorted by the gem on them or by region
    relics gem | relics category   your relics sorted by gem type or by category""")

# The mail words of the reader's settings: the word, the User column, the sentence that says it.
SETTINGS = {"language": ("language", N_("Your mails, answers and pages are now in {value}.")),
            "tiles": ("tile_sort", N_("Your tiles are now sorted by {value}.")),
            "relics": ("relic_sort", N_("Your relics are now sorted by {value}."))}
SORT_WORDS = {"gem": N_("gem"), "region": N_("region"), "category": N_("category")}


def is_table_word(words: str) -> bool:
    return PATTERN.fullmatch(words) is not None


def act(db, user_id: int, game_id: str | None, words: str, now: datetime,
        language: str | None = None) -> str:
    """Do what the words say; the sentence for the answer, in `language`."""
    with session_scope(db) as session:
        user = session.get(User, user_id)
        try:
            return _act(session, user, game_id, words, now, language)
        except HTTPException as error:
            session.rollback()
            reason = (getattr(error, "data", None) or {}).get("message") or str(error)
            return i18n.translate(language, NOT_DONE, words=words, reason=reason)


NOT_DONE = N_("`{words}` was not done: {reason}.")


def _act(session, user: User, game_id: str | None, words: str, now: datetime,
         language: str | None = None) -> str:
    say = functools.partial(i18n.translate, language)

    if words.startswith("vacation until "):
        until = date.fromisoformat(words.removeprefix("vacation until "))
        away.start_vacation(session, user, until, now)
        left = away.allowance(session, user, now).left
        return say(N_("You are away until {until} 00:00 UTC: your turns wait for you, and no "
                    "reminders come. {left} vacation days are left this year."),
                 until=until.isoformat(), left=left)
    if words.startswith("notify"):

        return choose_by_words(session, user, game_id, words, now, language)
    word, _, value = words.partition(" ")
    if word in SETTINGS:
        column, said = SETTINGS[word]
        setattr(user, column, value)
        session.add(user)
        language = user.language  # the answer is in the language just chosen
        shown = (i18n.NAMES[value] if word == "language"
                 else i18n.gettext(language, SORT_WORDS[value]))
        return i18n.gettext(language, said).format(value=shown)
    if words == "vacation end":
        away.end_vacation(session, user, now)
        return say(N_("Welcome back: your turns' clocks run again, with the time they had left."))
    game = session.get(Game, game_id) if game_id else None
    seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id)
                        ).first() if game else None
    if game is None or seat is None:
        return say(NOT_DONE, words=words, reason=say(N_("reply to an email of the game you mean")))
    if words == "pause":
        if pauses.ask_pause(session, game, seat, now):
            return say(N_("Game {game} is paused: every player asked. Reply `resume` to start it "
                        "again."), game=game.id)
        waiting = _names(session, pauses.waiting_for(session, game))
        return say(N_("You asked to pause game {game}; it pauses when {names} asks too.")
                 if len(waiting) == 1 else
                 N_("You asked to pause game {game}; it pauses when {names} ask too."),
                 game=game.id, names=say(N_(" and ")).join(waiting))
    pauses.resume(session, game, now)
    return say(N_("Game {game} runs again: each waiting turn has the time it had left."),
             game=game.id)


def _names(session, seats) -> list[str]:
    ids = [s.user_id for s in seats]
    return list(session.exec(select(User.name).where(User.id.in_(ids))))  # type: ignore[union-attr]
