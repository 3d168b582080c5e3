"""The server's enum words (a game's status, a player's kind, what a game waits for, a bot
level, a preference's value) and its `time_left` as the command line shows them: the API always
sends the English key, and the client maps each known key to its word in the language of
`LANG`. In English, and for a key the client does not know yet, the key is shown as it came
(as before: "give_gem")."""

from __future__ import annotations

import re

from client.i18n import N_, _

STATUSES = {"open": N_("open"), "active": N_("active"), "finished": N_("finished"),
            "closed": N_("closed"), "aborted": N_("aborted")}
PLAYER_KINDS = {"human": N_("human"), "bot": N_("bot"), "rhom": N_("rhom")}
# engine.api.pending_kind: what a running game waits for.
PENDING_KINDS = {"turn": N_("turn"), "rhom": N_("the Rhom's turn"), "removal": N_("removal turn"),
                 "choose_gem": N_("choose a gem"), "give_gem": N_("give away a gem"),
                 "discard_objective": N_("discard an objective"), "roll": N_("keep or re-roll")}
BOT_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
# The values of `iridescia prefs` (shown with the key a player types to change them).
PREFERENCES = {"every_turn": N_("a mail each turn"), "digest": N_("one digest a day"),
               "reminders": N_("reminders only"), "none": N_("no mail"),
               "automatic": N_("automatic"), "choose": N_("you choose"),
               "gem": N_("gem"), "region": N_("region"), "category": N_("category"),
               "en": N_("English"), "ja": N_("Japanese")}


def _word(words: dict, key) -> str:
    """The key's word when the catalog has one; else (English, a key not known) the key itself,
    as the command line has always shown it."""
    return _(words[key]) if key in words and _(words[key]) != words[key] else str(key)


def status(key) -> str:
    """"open", "active", ... in the reader's language."""
    return _word(STATUSES, key)


def player_kind(key) -> str:
    return _word(PLAYER_KINDS, key)


def pending_kind(key) -> str:
    return _word(PENDING_KINDS, key)


def bot_level(key) -> str:
    return _word(BOT_LEVELS, key)


def preference(key) -> str:
    """A preference's value in words with the key `iridescia prefs` takes ("一日一通のまとめ
    (digest)"); in English the key alone, as it always was."""
    english = PREFERENCES.get(key) or BOT_LEVELS.get(key)
    if english is None or _(english) == english:
        return str(key)
    return f"{_(english)} ({key})"


# server.games.pace.time_left's words: "2 days 4 hours left", "under a minute left", "due now".
SPAN = re.compile(r"(\d+) (day|hour|minute)s?")
UNITS = {"day": N_("{n} days"), "hour": N_("{n} hours"), "minute": N_("{n} minutes")}
TIME_WORDS = {"due now": N_("due now"), "under a minute left": N_("under a minute left")}


def time_left(text) -> str:
    """A game's `time_left` ("2 days 4 hours left") in the reader's language: 残り2日4時間."""
    if text in TIME_WORDS:
        return _word(TIME_WORDS, text)
    spans = SPAN.findall(str(text))
    left = N_("{span} left")
    if not spans or _(left) == left:
        return str(text)
    return _(left).format(span="".join(_(UNITS[unit]).format(n=n) for n, unit in spans))
