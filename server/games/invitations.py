"""Inviting someone to a game by mail: the invitation, its mail and the words of it."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from engine.text.wording import clean
from server import wakeups
from server.storage.models import Game, Invitation, Outbox, User, dedupe_key


def invite(session: Session, game: Game, inviter: User, email: str, base_url: str,
           now: datetime, mail: bool = True) -> bool:
    """Record the invitation and, when ``mail`` (server/games/invitation_limits.py), queue its
    mail unless this game's invitation was queued for the address already. True if queued.
    A disabled account (by an operator) is sent nothing, invitations included."""
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
        session.add(Outbox(
            dedupe_key=key, game_id=game.id, user_id=None, to_email=email,
            kind="invitation",
            subject=f"{clean(inviter.name)} invites you to a game of Gems of Iridescia",
            text_body=invitation_text(clean(inviter.name), game, email, base_url),
            status="pending", next_attempt_at=now, created_at=now,
        ))
    session.flush()
    return invitation.mailed


def invitation_text(inviter: str, game: Game, email: str, base_url: str) -> str:
    """How to join by replying (nothing to install) or with the CLI (with the right server)."""
    server = base_url.rstrip("/")
    return (
        f"{inviter} invites you to play Gems of Iridescia ({game.seats} players), "
        f"game {game.id}"
        + (f", a rematch of game {game.rematch_of}: it starts when every player has accepted"
           if game.rematch_of else "") + ".\n\n"
        "To play by email, reply to this message with the one word\n\n"
        "    join\n\n"
        "and you are seated (an account is made for this address). Then every move is a reply\n"
        "too: each email tells what happened, shows the board and lists what you may type.\n\n"
        "To play from a terminal instead, with the iridescia command line client:\n\n"
        f"    iridescia --server {server} register --name YOUR-NAME --email {email}\n"
        f"    iridescia join {game.join_code}\n\n"
        f"(the join code is {game.join_code}; the server is {server}).\n\n"
        f"Or register on the web page, {server}/register?join={game.join_code}, and join with\n"
        "the code from there.\n"
    )
