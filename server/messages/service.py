"""Posting and reading table talk, the same for every way in (API, page, mail).

Who may do what: a game's players talk on the ``players`` channel and read both; on a public
game anyone signed in posts on the ``spectators`` channel, and anyone who may see the game reads
it. A private game has no spectator channel (its outsiders get 404 before this, as for every
other view of it). The limits are counted in the table itself, per user and game, as the
invitation limits are (server/games/invitation_limits.py): one count for the API, the page and
the mail, which runs outside any request.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func
from sqlmodel import select

from engine.text.wording import clean
from server import i18n
from server.i18n import N_
from server.storage.models import Command, Game, Message, Seat, User

MAX_LENGTH = 1000
CHANNELS = ("players", "spectators")
LIST_LIMIT = 50
MAX_LIST_LIMIT = 200
MINUTE, HOUR = timedelta(minutes=1), timedelta(hours=1)
# Line breaks and tabs become spaces: a message is one paragraph wherever it is shown (a mail
# line, a terminal line, a page); every other control character is dropped (engine/text/wording.py).
_FOLDED = re.compile(r"[\t\n\r\x0b\x0c\u2028\u2029]+")


class MessageRefused(Exception):
    """A message that is not posted: the HTTP status that says why, and the words for the user
    (`message` in English; `in_language(lang)` in theirs: `words` is the catalog's message,
    `values` its fields)."""

    def __init__(self, status: int, words: str, retry_after: int | None = None, **values):
        message = words.format(**values) if values else words
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after
        self.words, self.values = words, values

    def in_language(self, language: str | None) -> str:
        return i18n.translate(language, self.words, **self.values)


@dataclass(frozen=True)
class Limits:
    per_minute: int
    per_hour: int

    @classmethod
    def of(cls, config) -> Limits:  # noqa: ANN001 - Flask's config or a mapping
        return cls(int(config["MESSAGES_PER_GAME_MINUTE"]), int(config["MESSAGES_PER_GAME_HOUR"]))


def clean_text(raw: str) -> str:
    """The text as stored: folded to one paragraph, without control characters, trimmed; 422
    when nothing is left or it is longer than MAX_LENGTH."""
    text = clean(_FOLDED.sub(" ", raw)).strip()
    if not text:
        raise MessageRefused(422, N_("the message is empty: write something to say"))
    if len(text) > MAX_LENGTH:
        raise MessageRefused(422, N_("a message has at most {most:,} characters; yours has "
                                     "{length:,}: shorten it or say it in two messages"),
                             most=MAX_LENGTH, length=len(text))
    return text


def choose_channel(game: Game, member: bool, channel: str | None) -> str:
    """The channel a post goes to (default: the players' for a player, else the spectators'),
    or MessageRefused saying why the caller cannot post there."""
    channel = channel or ("players" if member else "spectators")
    if channel not in CHANNELS:
        raise MessageRefused(422, f"there is no channel {channel!r}: use players or spectators")
    if channel == "players" and not member:
        hint = (": post on the spectators' channel (channel spectators)" if game.public else "")
        raise MessageRefused(403, f"only the players of game {game.id} talk on its players' "
                                  f"channel{hint}")
    if channel == "spectators" and not game.public:
        raise MessageRefused(422, f"game {game.id} is private: it has no spectators' channel; "
                                  "talk on the players' channel")
    return channel


def _check_rate(session, game: Game, user: User, limits: Limits, now: datetime) -> None:
    for window, allowed, per in ((MINUTE, limits.per_minute, "minute"),
                                 (HOUR, limits.per_hour, "hour")):
        if allowed <= 0:
            continue
        count, oldest = session.exec(
            select(func.count(), func.min(Message.created_at))
            .where(Message.game_id == game.id, Message.user_id == user.id,
                   Message.created_at > now - window)).one()
        if count >= allowed:
            if count > allowed:  # the window's oldest counted message is the one to wait out
                oldest = session.exec(
                    select(Message.created_at)
                    .where(Message.game_id == game.id, Message.user_id == user.id,
                           Message.created_at > now - window)
                    .order_by(Message.created_at.desc()).offset(allowed - 1)).first()
            wait = max(1, math.ceil((oldest + window - now).total_seconds()))
            raise MessageRefused(429, N_("you have posted {count} messages in game {game} in "
                                         "the past minute, the most allowed: wait {wait} seconds")
                                 if per == "minute" else
                                 N_("you have posted {count} messages in game {game} in the "
                                    "past hour, the most allowed: wait {wait} seconds"),
                                 retry_after=wait, count=count, game=game.id, wait=wait)


def post(session, game: Game, user: User, member: bool, raw_text: str, now: datetime,
         limits: Limits, channel: str | None = None, dedupe_key: str | None = None) -> Message:
    """Store one message (flushed, not committed), or MessageRefused. With `dedupe_key`, a
    second post under the same key returns the first one instead."""
    if dedupe_key is not None:
        earlier = session.exec(select(Message).where(Message.dedupe_key == dedupe_key)).first()
        if earlier is not None:
            return earlier
    chosen = choose_channel(game, member, channel)
    text = clean_text(raw_text)
    _check_rate(session, game, user, limits, now)
    message = Message(game_id=game.id, user_id=user.id, channel=chosen, text=text,
                      created_at=now, dedupe_key=dedupe_key)
    session.add(message)
    session.flush()
    return message


def readable_channels(member: bool, channel: str | None = None) -> tuple[str, ...]:
    """The channels a caller reads (a player both), narrowed to `channel`; 403 for a non-player
    asking for the players' channel."""
    if channel is not None and channel not in CHANNELS:
        raise MessageRefused(422, f"there is no channel {channel!r}: use players or spectators")
    if channel == "players" and not member:
        raise MessageRefused(403, "only the game's players read its players' channel")
    if channel is not None:
        return (channel,)
    return CHANNELS if member else ("spectators",)


def _joined(statement):
    return (statement.join(User, Message.user_id == User.id)
            .join(Seat, (Seat.game_id == Message.game_id) & (Seat.user_id == Message.user_id),
                  isouter=True))


# The newest messages of a game's channels: every game page reads them, so built once.
_NEWEST = _joined(
    select(Message, User.name, Seat.seat, Seat.id)
    .where(Message.game_id == bindparam("game_id"),
           Message.channel.in_(bindparam("channels", expanding=True)))
).order_by(Message.id.desc()).limit(bindparam("limit"))  # type: ignore[union-attr]


def listing(session, game: Game, channels: tuple[str, ...], since: int | None = None,
            limit: int = LIST_LIMIT) -> list[dict]:
    """The messages of `channels`, oldest first: the `limit` after id `since`, or without it the
    newest `limit`."""
    if since is None:
        rows = session.exec(_NEWEST, params={  # type: ignore[call-overload]
            "game_id": game.id, "channels": list(channels), "limit": limit}).all()
        return [as_json(*row) for row in reversed(rows)]
    rows = session.exec(_joined(
        select(Message, User.name, Seat.seat, Seat.id)
        .where(Message.game_id == game.id, Message.channel.in_(channels), Message.id > since)
        .order_by(Message.id).limit(limit))).all()  # type: ignore[arg-type]
    return [as_json(*row) for row in rows]


def as_json(message: Message, name: str, seat: int | None, seat_row: int | None) -> dict:
    return {"id": message.id, "channel": message.channel, "user_id": message.user_id,
            "name": clean(name), "player": seat_row is not None, "seat": seat,
            "text": message.text, "at": message.created_at.isoformat()}


def since_last_turn(session, game: Game, user_id: int, seat: int, version: int,
                    limit: int = 30) -> tuple[list[dict], int]:
    """What the others said (both channels) after the player's own last command before
    `version`: (the newest `limit` of them, oldest first; how many earlier ones there are)."""

    commands = session.exec(
        select(Command.at, Command.command).where(Command.game_id == game.id,
                                                  Command.version < version)
        .order_by(Command.version.desc())).all()
    last = next((at for at, command in commands if command.get("seat") == seat), None)
    condition = [Message.game_id == game.id, Message.user_id != user_id]
    if last is not None:
        condition.append(Message.created_at > last)
    total = session.exec(select(func.count()).select_from(Message).where(*condition)).one()
    rows = session.exec(_joined(
        select(Message, User.name, Seat.seat, Seat.id).where(*condition)
        .order_by(Message.id.desc()).limit(limit))).all()  # type: ignore[arg-type]
    told = [as_json(*row) for row in reversed(rows)]
    return told, max(0, total - len(told))


def told_line(message: dict) -> str:
    """`[players] Bob, 12:04 UTC: nice move` — how a mail and the CLI tell one message."""
    at = datetime.fromisoformat(message["at"])
    who = message["name"] if message["player"] else f"{message['name']} (watching)"
    return f"[{message['channel']}] {who}, {at:%Y-%m-%d %H:%M} UTC: {message['text']}"
