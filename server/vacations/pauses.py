"""A game paused by its table: every player asks for it (`iridescia pause GAME`), and it is
paused when the last one has; any one player resumes it (`iridescia resume GAME`), as at a
table where a break needs everybody but anybody may call the others back. Resuming before
everybody agreed withdraws the requests. While paused, no deadline runs, no reminder is sent and
the server plays nothing, not even the Rhom or a bot; players may still play if they like.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select

from server import wakeups
from server.games.due_times import update_due_times
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Seat


def _players(session, game: Game) -> list[Seat]:
    """The seats that vote: the humans (the Rhom and bots do not)."""
    return list(session.exec(
        select(Seat).where(Seat.game_id == game.id, Seat.kind == "human",
                           Seat.user_id.is_not(None))  # type: ignore[union-attr]
    ))


def waiting_for(session, game: Game) -> list[Seat]:
    """The players who have not asked for the pause yet."""
    return [seat for seat in _players(session, game) if not seat.wants_pause]


def _refresh(session, game: Game, now: datetime) -> None:

    session.flush()
    update_due_times(session, game, None, now)
    wakeups.note(session, f"g:{game.id}", "due")


def ask_pause(session, game: Game, seat: Seat, now: datetime) -> bool:
    """The player asks to pause; True when that made the game paused."""
    if game.status != "active":
        fail(409, Said(N_("game {game} is not being played: only an active game can be paused"),
                       game=game.id), game_id=game.id, game_status=game.status)
    if game.paused_at is not None:
        fail(409, Said(N_("game {game} is paused already: `iridescia resume {game}` starts it "
                          "again"), game=game.id), game_id=game.id)
    seat.wants_pause = True
    session.add(seat)
    session.flush()
    if waiting_for(session, game):
        return False
    game.paused_at = now
    session.add(game)
    _refresh(session, game, now)
    return True


def resume(session, game: Game, now: datetime) -> None:
    """Any player resumes the game (or withdraws the requests to pause it)."""
    asked = [seat for seat in _players(session, game) if seat.wants_pause]
    if game.paused_at is None and not asked:
        fail(409, Said(N_("game {game} is not paused and nobody asked to pause it"),
                       game=game.id), game_id=game.id)
    for seat in asked:
        seat.wants_pause = False
        session.add(seat)
    if game.paused_at is not None:
        game.paused_at = None
        session.add(game)
        _refresh(session, game, now)
