"""The answer to a registered player who writes to the bare address: their games, each with the
address that plays it, and how to start a solo game."""

from __future__ import annotations

from datetime import datetime

from server import i18n
from server.games import listing
from server.i18n import N_
from server.inbound import answer, solo_code
from server.inbound.record import Outcome, finish
from server.mail import reply_addresses
from server.storage.db import session_scope
from server.storage.models import User


def list_games(app, db, record_id: int, letter, user_id: int, now: datetime,
               asked_solo: bool = False):
    """`asked_solo`: the mail said `new solo` without the player's code (see solo_code.py)."""

    base = reply_addresses.ReplyBase.parse(app.config["REPLY_ADDRESS"])
    secret = app.config["SECRET_KEY"]
    with session_scope(db) as session:
        user = session.get(User, user_id)
        language = answer.language_of(user, letter)
        lines = []
        for game in listing.games_of(session, user):
            if game.status == "finished":
                continue
            turn = (i18n.gettext(language, N_("your turn")) if game.status == "active"
                    and game.current_seat == game.my_seat_number
                    else i18n.say(i18n.status(game.status), language))
            reply_to = reply_addresses.play_address(base, secret, user.id, user.token_hash, game.id,
                                              game.version)
            lines.append("  " + i18n.translate(language, N_("{game} ({turn}): write to {address}"),
                                               game=game.id, turn=turn, address=reply_to))
        intro = (i18n.gettext(language, N_("Your games, and the address to write to for each:"))
                 + "\n" + "\n".join(lines) if lines
                 else i18n.gettext(language, N_("You play in no game now.")))
        code = solo_code.code_for(secret, user.id, user.token_hash)
        if asked_solo:
            intro = i18n.gettext(language, N_(
                "No game was started: `new solo` needs your code, so that nobody else can start "
                "games in your name.")) + "\n\n" + intro
        intro += "\n\n" + i18n.translate(language, N_(
            "To start a game against the Rhom, send `new solo {code}` to {address} (the code is "
            "yours: keep it to yourself)."), code=code, address=base.bare)
        finish(session, record_id, "answered", f"listed {len(lines)} game(s)", user_id=user.id)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, N_("your games"), language),
                            answer.render_answer(language, name=user.name, intro=intro), now,
                            user_id=user.id, language=language)
    return Outcome("answered", f"listed {len(lines)} game(s)", True)
