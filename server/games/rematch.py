"""A rematch: a finished game's table plays again. The first player to ask makes a new game with
the same players, seat kinds and settings (the options, the pace and timings, public or not,
under the current rules and a new seed) and the others are invited; asking again (another
player) or joining with the invitation accepts it, and the game starts by itself once every
seat is taken (`lobby.join`)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from server.games import lobby
from server.games.invitations import invite
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Seat, User


def rematch_of(session: Session, game: Game) -> Game | None:
    """The rematch asked for this game, if any (the newest)."""
    return session.exec(select(Game).where(Game.rematch_of == game.id)
                        .order_by(Game.created_at.desc())).first()  # type: ignore[union-attr]


# A rematch that went on without the one asking, by its status.
GONE_ON = {
    "active": N_("the rematch of game {game}, game {rematch}, has already started without you"),
    "paused": N_("the rematch of game {game}, game {rematch}, has already started without you"),
    "finished": N_("the rematch of game {game}, game {rematch}, has already finished without "
                   "you"),
    "closed": N_("the rematch of game {game}, game {rematch}, has already closed without you"),
    "aborted": N_("the rematch of game {game}, game {rematch}, has already aborted without you"),
}


def offered_to(game: Game, seat: Seat | None) -> bool:
    """A rematch is offered to whoever played a finished game."""
    return game.status == "finished" and seat is not None and seat.kind == "human"


def ask(session: Session, game: Game, seat: Seat | None, user: User, now: datetime,
        base_url: str, contribution: str | None = None) -> tuple[Game, bool]:
    """``user`` asks for a rematch of ``game`` (or accepts the one asked): the rematch game and
    whether it was made now. 403 for someone who did not play it, 409 before its end or when
    the rematch has already started without them."""
    if seat is None or seat.kind != "human":
        fail(403, Said(N_("you did not play in game {game}: only its players may ask for a "
                          "rematch"), game=game.id))
    if game.status != "finished":
        fail(409, Said(N_("game {game} is not over: a rematch is offered at its end"),
                       game=game.id), game_id=game.id)
    existing = rematch_of(session, game)
    if existing is not None:
        if lobby.seat_of(session, existing, user) is not None:
            return existing, False
        if existing.status != "open":
            fail(409, Said(GONE_ON.get(existing.status, GONE_ON["active"]), game=game.id,
                           rematch=existing.id), game_id=existing.id)
        return lobby.join(session, user, existing.join_code, now,
                          contribution=contribution), False
    return _create(session, game, user, now, base_url, contribution), True


def _create(session: Session, game: Game, user: User, now: datetime, base_url: str,
            contribution: str | None) -> Game:
    members = lobby.members(session, game)
    bots = [m for m in members if m.kind == "bot"]
    data = {
        "seats": game.seats, "rhom": game.rhom, "variants": dict(game.variants),
        "public": game.public, "rematch_of": game.id, "contribution": contribution,
        "bots": len(bots), "bot_policy": bots[0].bot_policy if bots else "strong",
        **{name: getattr(game, name) for name in lobby.SETTING_NAMES},
    }
    new = lobby.create_game(session, user, data, now)
    others = [m.user_id for m in members if m.kind == "human" and m.user_id != user.id]
    for other in session.exec(select(User).where(User.id.in_(others))).all():  # type: ignore[union-attr]
        invite(session, new, user, other.email, base_url, now)
    if lobby.is_full(session, new):  # solo, or bots only: nobody to wait for
        lobby.start_game(session, new, now, f"user:{user.id}")
    return new
