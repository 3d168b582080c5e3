"""`rematch`, in reply to a game's mail (the game-over mail above all): asks for a rematch of the
finished game, or accepts the one another player asked for (server/games/rematch.py)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select
from werkzeug.exceptions import HTTPException

from server.games import rematch
from server.inbound import answer
from server.inbound.record import Outcome, finish
from server.storage.db import session_scope
from server.storage.models import Game, Seat, User


def wants_rematch(lines: list) -> bool:
    return any(line.kind == "word" and line.word == "rematch" for line in lines)


def answer_rematch(app, db, record_id: int, letter, user: User, game_id: str,
                   now: datetime) -> Outcome:
    """Ask or accept; the answer says which game it is and whom it waits for, or why not."""
    with session_scope(db) as session:
        game = session.get(Game, game_id)
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.user_id == user.id)).first()
        try:
            new, made = rematch.ask(session, game, seat, session.get(User, user.id), now,
                                    app.config["BASE_URL"])
        except HTTPException as error:
            session.rollback()
            reason = (getattr(error, "data", None) or {}).get("message") or str(error)
            status, detail = "refused", reason
            intro = f"Your mail was not acted on: {reason}."
            new = None
        else:
            status, detail = "answered", f"rematch {new.id} of game {game_id}"
            intro = _told(session, game_id, new, made)
        finish(session, record_id, status, detail, user_id=user.id,
               game_id=new.id if new is not None else game_id)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, f"Rematch of {game_id}"),
                            answer.render_answer(name=user.name, intro=intro), now,
                            user_id=user.id, game_id=new.id if new is not None else None)
    return Outcome(status, detail, True)


def _told(session, old_id: str, new: Game, made: bool) -> str:
    if new.status == "active":
        return (f"Game {new.id}, the rematch of game {old_id}, has started: its first email is "
                "on its way.")
    seated = session.exec(select(Seat).where(Seat.game_id == new.id,
                                             Seat.kind.in_(("human", "bot")))).all()  # type: ignore[attr-defined]
    waiting = new.seats - len(seated)
    asked = "You asked for a rematch" if made else "You accepted the rematch"
    return (f"{asked} of game {old_id}: game {new.id}. The other players are invited; it starts "
            f"by itself when the {waiting} still missing have accepted (by replying `rematch` to "
            "the game's last email, or `join` to the invitation).")
