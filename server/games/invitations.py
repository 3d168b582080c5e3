"""Inviting someone to a game by mail: the invitation, its mail and the words of it."""

from __future__ import annotations

import functools
from datetime import datetime

from sqlmodel import Session, select

from engine.text.wording import clean
from server import i18n, wakeups
from server.i18n import N_, plain_mail
from server.i18n.plain_mail import Line
from server.storage.models import Game, Invitation, Outbox, User, dedupe_key


def invite(session: Session, game: Game, inviter: User, email: str, base_url: str,
           now: datetime, mail: bool = True) -> bool:
    """Record the invitation and, when ``mail`` (server/games/invitation_limits.py), queue its
    mail unless this game's invitation was queued for the address already. True if queued.
    A disabled account (by an operator) is sent nothing, invitations included. The mail is in
    the language of the address's account, English for an address without one."""
    invitation = Invitation(game_id=game.id, email=email, invited_by=inviter.id, created_at=now,
                            mailed=False)
    session.add(invitation)
    key = dedupe_key(f"invite:{game.id}:{email}")
    disabled = session.exec(select(User.id).where(User.email == email,
                                                  User.disabled_at.is_not(None))).first()
    if mail and disabled is None and session.exec(
            select(Outbox).where(Outbox.dedupe_key == key)).first() is None:
        invitation.mailed = True
        wakeups.note(session, "mail")
        language = i18n.normal(session.exec(select(User.language).where(
            User.email == email)).first())
        subject = i18n.translate(language, N_("{inviter} invites you to a game of Gems of "
                                              "Iridescia"), inviter=clean(inviter.name))
        text, html = plain_mail.bodies(language, subject, invitation_parts(
            clean(inviter.name), game, email, base_url, language))
        session.add(Outbox(
            dedupe_key=key, game_id=game.id, user_id=None, to_email=email,
            kind="invitation", subject=subject, text_body=text, html_body=html,
            status="pending", next_attempt_at=now, created_at=now,
        ))
    session.flush()
    return invitation.mailed


def invitation_text(inviter: str, game: Game, email: str, base_url: str,
                    language: str | None = None) -> str:
    """The invitation's text part."""
    return plain_mail.bodies(language, "", invitation_parts(inviter, game, email, base_url,
                                                             language))[0]


def invitation_parts(inviter: str, game: Game, email: str, base_url: str,
                     language: str | None = None) -> list:
    """How to join by replying (nothing to install) or with the CLI (with the right server)."""
    say = functools.partial(i18n.translate, language)
    server = base_url.rstrip("/")
    if game.rematch_of:
        invites = say(N_("{inviter} invites you to play Gems of Iridescia ({seats} players), "
                         "game {game}, a rematch of game {old}: it starts when every player has "
                         "accepted."), inviter=inviter, seats=game.seats, game=game.id,
                      old=game.rematch_of)
    else:
        invites = say(N_("{inviter} invites you to play Gems of Iridescia ({seats} players), "
                         "game {game}."), inviter=inviter, seats=game.seats, game=game.id)
    return [
        invites,
        say(N_("To play by email, reply to this message with the one word")),
        Line("join"),
        say(N_("and you are seated (an account is made for this address). Then every move is "
               "a reply too: each email tells what happened, shows the board and lists what "
               "you may type.")),
        say(N_("To play from a terminal instead, with the iridescia command line client:")),
        Line(f"iridescia --server {server} register --name YOUR-NAME --email {email}"),
        Line(f"iridescia join {game.join_code}"),
        say(N_("(the join code is {code}; the server is {server})."), code=game.join_code,
            server=server),
        say(N_("Or register on the web page, {page}, and join with the code from there."),
            page=f"{server}/register?join={game.join_code}"),
    ]
