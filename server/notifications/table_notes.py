""""Around the table" in a game's mail: who is away on vacation and until when, whether the game
is paused or a pause is asked for (server/vacations). Read when the mail is rendered, as the
table stands at the time the mail was queued: the other players learn of a vacation in their
next mail."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select

from server.storage.models import Game, Seat, User


def table_notes(session, game: Game, seat: int | None, at: datetime) -> list[str]:
    rows = session.exec(
        select(Seat.seat, Seat.wants_pause, User.name, User.away_until)
        .join(User, Seat.user_id == User.id)
        .where(Seat.game_id == game.id, Seat.seat.is_not(None))  # type: ignore[union-attr]
        .order_by(Seat.seat)
    ).all()
    notes = []
    for other, _wants, name, until in rows:
        if other != seat and until is not None and until > at:
            notes.append(f"{name} is away on vacation until {until.strftime('%Y-%m-%d %H:%M UTC')}"
                         ": their turns wait for them.")
    if game.paused_at is not None:
        notes.append(f"The game is paused (every player asked): no deadline runs until a player "
                     f"resumes it (reply `resume`, or `iridescia resume {game.id}`).")
    else:
        asked = [name for _seat, wants, name, _until in rows if wants]
        waiting = [name for _seat, wants, name, _until in rows if not wants]
        if asked:
            notes.append(f"{' and '.join(asked)} asked to pause the game; it pauses when "
                         f"{' and '.join(waiting)} agree{'s' if len(waiting) == 1 else ''} "
                         f"(reply `pause`, or `iridescia pause {game.id}`).")
    return notes
