"""The mail a player chooses, for their account and per game (a seat's own choice wins):

- `every_turn`: a mail each time it is their turn, and the reminders (as before);
- `digest`: one mail a day at `digest_hour` in their time zone listing every game where it is
  their turn (server/scheduler/digests.py); no per-turn mail and no reminders for those games;
- `reminders`: only reminders and deadline warnings (no per-turn mail);
- `none`: nothing.

Whatever the choice, nothing is sent in the quiet hours (`quiet_hours`, "22-7" in the player's
time zone): it waits for their end (`quiet_until`). The choice is changed by the API
(PATCH /users/me/preferences, PUT /games/{id}/notifications), `iridescia prefs`, the reply
word `notify digest 8` (`here`: this game only), or one click on a signed link in any mail
(`choice_link`; its page only shows what it will do, its button posts).
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from urllib.parse import urlencode
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app, has_app_context
from itsdangerous import BadSignature, URLSafeSerializer
from sqlmodel import select

from server import i18n
from server.config import Settings
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Seat, User

CHOICES = ("every_turn", "digest", "reminders", "none")
WORDS = {"every": "every_turn", "every turn": "every_turn", "digest": "digest",
         "reminders": "reminders", "none": "none"}
DESCRIBED = {"every_turn": "a mail every turn", "digest": "one digest a day",
             "reminders": "reminders only", "none": "no mail"}
_QUIET = re.compile(r"(\d{1,2})-(\d{1,2})")


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def parse_quiet(text: str) -> tuple[int, int] | None:
    """"22-7" -> (22, 7): from 22:00 to 07:00; None when it is not such a pair of hours."""
    match = _QUIET.fullmatch(text.strip())
    if not match:
        return None
    start, end = int(match.group(1)), int(match.group(2))
    return (start, end) if start < 24 and end < 24 and start != end else None


def quiet_until(quiet_hours: str | None, time_zone: str | None, now: datetime) -> datetime | None:
    """When the quiet hours holding a mail sent at `now` end (None: not quiet now)."""
    hours = parse_quiet(quiet_hours) if quiet_hours else None
    if hours is None:
        return None
    start, end = hours
    local = now.astimezone(zone(time_zone))
    hour = local.hour
    quiet = start <= hour < end if start < end else (hour >= start or hour < end)
    if not quiet:
        return None
    day = local.date() if hour < end else local.date() + timedelta(days=1)
    return datetime.combine(day, time(end), local.tzinfo).astimezone(now.tzinfo)


def next_digest(digest_hour: int, time_zone: str | None, now: datetime) -> datetime:
    """The first `digest_hour`:00 in the player's time zone after `now`."""
    local = now.astimezone(zone(time_zone))
    moment = datetime.combine(local.date(), time(digest_hour), local.tzinfo)
    if moment <= local:
        moment = datetime.combine(local.date() + timedelta(days=1), time(digest_hour),
                                  local.tzinfo)
    return moment.astimezone(now.tzinfo)


def wants_digest(session, user: User) -> bool:
    if user.email_preference == "digest":
        return True
    return session.exec(select(Seat.id).where(Seat.user_id == user.id,
                                              Seat.email_preference == "digest")).first() is not None


def reschedule(session, user: User, now: datetime) -> None:
    """The next digest time, when the user gets a digest for any game."""
    session.flush()
    user.next_digest_at = (next_digest(user.digest_hour, user.time_zone, now)
                           if wants_digest(session, user) else None)
    session.add(user)


def choose(session, user: User, choice: str, now: datetime, game_id: str | None = None,
           digest_hour: int | None = None) -> str:
    """Set the choice (for one game when `game_id`); the sentence saying what it is now."""
    if choice not in CHOICES:
        fail(422, f"choose one of {', '.join(CHOICES)}, not {choice!r}")
    if digest_hour is not None:
        if not 0 <= digest_hour <= 23:
            fail(422, f"the digest hour is a whole hour from 0 to 23, not {digest_hour}")
        user.digest_hour = digest_hour
    where = "all your games"
    if game_id is None:
        user.email_preference = choice
    else:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.user_id == user.id)).first()
        if seat is None:
            fail(404, f"you do not play in game {game_id}")
        seat.email_preference = choice
        if choice != "none":
            seat.mail_stopped = False  # a choice for the game replaces an earlier `stop`
        session.add(seat)
        where = f"game {game_id}"
    reschedule(session, user, now)
    told = DESCRIBED[choice]
    if choice == "digest":
        told += f" at {user.digest_hour}:00 ({user.time_zone})"
    return f"Mail for {where}: {told}."


def choose_by_words(session, user: User, game_id: str | None, words: str, now: datetime,
                    language: str | None = None) -> str:
    """`notify digest 8`, `notify every`, `notify reminders here`, ...; the sentence saying
    what it is now, in `language`."""
    rest = words.removeprefix("notify ").strip()
    here = rest.endswith(" here")
    rest = rest.removesuffix(" here").strip()
    hour = None
    if rest.startswith("digest "):
        rest, hour = "digest", int(rest.split()[1])
    choice = WORDS[rest]
    choose(session, user, choice, now, game_id if here else None, hour)
    told = i18n.gettext(language, DESCRIBED[choice])
    if choice == "digest":
        told = i18n.translate(language, N_("{choice} at {hour}:00 ({zone})"), choice=told,
                              hour=user.digest_hour, zone=user.time_zone)
    if here and game_id is not None:
        return i18n.translate(language, N_("Mail for game {game}: {choice}."), game=game_id,
                              choice=told)
    return i18n.translate(language, N_("Mail for all your games: {choice}."), choice=told)


# One-click links: signed (itsdangerous, keyed from IRIDESCIA_SECRET_KEY) over the user, the
# choice and the game; bound to the user's token, so rotating it ends every such link.
_SALT = "iridescia-mail-choice"


def _config() -> tuple[str, str]:
    """(secret key, base URL): the app's, or the settings' outside a request or tick."""
    if has_app_context():
        return current_app.config["SECRET_KEY"], current_app.config["BASE_URL"]

    settings = Settings.load()
    return settings.SECRET_KEY, settings.BASE_URL


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(_config()[0], salt=_SALT)


def choice_link(user_id: int, token_hash: str, choice: str, game_id: str | None = None) -> str:
    code = _serializer().dumps({"u": user_id, "c": choice, "g": game_id, "t": token_hash[:16]})
    base = _config()[1].rstrip("/")
    return f"{base}/mail-choice?{urlencode({'code': code})}"


def read_link(session, code: str) -> tuple[User, str, str | None]:
    """(user, choice, game id or None) of a one-click code; 422 for one that is not valid."""
    try:
        data = _serializer().loads(code.strip())
    except BadSignature:
        fail(422, Said(N_("this link is not valid: copy the whole link from the mail, or reply "
                          "`notify every` (or digest, reminders, none) to any game mail")))
    user = session.get(User, data.get("u")) if isinstance(data, dict) else None
    if user is None or data.get("c") not in CHOICES or user.token_hash[:16] != data.get("t"):
        fail(422, Said(N_("this link no longer works (your token changed since): use the links "
                          "of a newer mail, or reply `notify every` (or digest, reminders, "
                          "none)")))
    return user, data["c"], data.get("g")


def links_for(user_id: int, token_hash: str, current: str, game_id: str) -> list[tuple[str, str]]:
    """(what, link) for each choice but the current one: the footer of every game mail."""
    return [(DESCRIBED[choice], choice_link(user_id, token_hash, choice))
            for choice in CHOICES if choice != current]
