"""Creating, finding, joining, leaving and starting games; a game as the API shows it."""

from __future__ import annotations

import secrets
import string
from datetime import datetime
from typing import Any

from flask import g
from sqlalchemy import and_, bindparam, func
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

import engine
from server import clock
from server.games import seeding, service
from server.games.invitations import invitation_text, invite  # noqa: F401 (the lobby's words)
from server.games.pace import pace_name, time_left
from server.games.reactions import PlayerLeft, publish
from server.games.seat_kinds import bot_level, player_id, stand_in
from server.http.auth import (
    authenticated,
    bearer_token,
    current_user,
    hash_token,
    refuse_if_disabled,
    refuse_token,
    require_user,
)
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.db import sql
from server.storage.models import Game, Seat, User

_ID_ALPHABET = string.ascii_lowercase + string.digits
# Bot seats are named in the order they were created: "Bot Amber (hard)", ...
BOT_NAMES = ("Amber", "Beryl", "Coral")
SETTING_NAMES = ("reminder_interval_hours", "turn_deadline_hours", "absent_after_missed",
                 "rhom_delay_seconds", "removal_grace_hours")


def _random_id(length: int) -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(length))


def create_game(session: Session, user: User, data: dict[str, Any], now: datetime) -> Game:

    seed, seed_hash = service.new_seed()
    game = Game(
        id=_random_id(8), status="open", public=data["public"], created_by=user.id,
        created_at=now, join_code=_random_id(10), seats=data["seats"], rhom=data["rhom"],
        variants=dict(data["variants"]), seed=seed, seed_hash=seed_hash,
        seed_rule=seeding.SEED_RULE, rematch_of=data.get("rematch_of"),
        rules_version=data.get("rules_version") or engine.RULES_VERSION,
        **{name: data[name] for name in SETTING_NAMES},
    )
    session.add(game)
    session.flush()
    session.add(Seat(game_id=game.id, user_id=user.id, kind="human", joined_at=now,
                     stand_in=data.get("stand_in"),
                     seed_contribution=seeding.checked_contribution(data.get("contribution"))))
    policy = bot_level(data.get("bot_policy"))
    for name in BOT_NAMES[: data.get("bots", 0)]:
        session.add(Seat(game_id=game.id, user_id=None, kind="bot", name=f"Bot {name} ({policy})",
                         bot_policy=policy, joined_at=now))
    session.flush()
    return game


def is_full(session: Session, game: Game) -> bool:
    """Every seat is taken, by players or bots: the game can start."""
    return len(players(session, game)) >= game.seats


def players(session: Session, game: Game) -> list[Seat]:
    """The seats that take part in the engine's game: humans and bots (not the Rhom)."""
    return [m for m in members(session, game) if m.kind in ("human", "bot")]


def engine_options(game: Game) -> dict[str, Any]:
    return {"players": game.seats, "rhom": game.rhom, **game.variants}


def members(session: Session, game: Game) -> list[Seat]:
    rows = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
    return sorted(rows, key=lambda s: (s.seat is None, s.seat if s.seat is not None else 0,
                                       s.joined_at, s.id or 0))


def seat_of(session: Session, game: Game, user: User | None) -> Seat | None:
    if user is None:
        return None
    return session.exec(
        select(Seat).where(Seat.game_id == game.id, Seat.user_id == user.id)
    ).first()


# One statement, built once: this runs on every game request.
_GAME_AND_SEAT = (
    select(Game, Seat)
    .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == bindparam("user_id")))
    .where(Game.id == bindparam("game_id"))
)


# Built once; plain rows, not ORM objects (a list may hold many games and seats).
_SEATS_OF_GAMES = (
    select(Seat.id, Seat.game_id, Seat.seat, Seat.user_id, Seat.kind, Seat.absent, Seat.joined_at,
           Seat.bot_policy, Seat.wants_pause, User.away_until,
           func.coalesce(Seat.stand_in, User.stand_in).label("stand_in"),
           func.coalesce(User.name, Seat.name).label("name"))
    .outerjoin(User, User.id == Seat.user_id)
    .where(Seat.game_id.in_(bindparam("game_ids", expanding=True)))  # type: ignore[union-attr]
)


def visible_game(session: Session, game_id: str, user: User | None) -> tuple[Game, Seat | None]:
    """The game and the caller's seat; 404 unless the caller plays in it or it is public."""
    if user is None:
        game, seat = session.get(Game, game_id), None
    else:
        row = session.exec(
            _GAME_AND_SEAT, params={"game_id": game_id, "user_id": user.id}  # type: ignore[call-overload]
        ).first()
        game, seat = row if row is not None else (None, None)
    require_visible(game_id, game, member=seat is not None)
    return game, seat


def require_visible(game_id: str, game: Game | None, *, member: bool) -> None:
    """404 unless the game exists and the caller plays in it or it is public."""
    if game is None or (not member and not game.public):
        fail(404, Said(N_("there is no game {game_id!r} you can see"), game_id=game_id),
             game_id=game_id)


def caller_game_and_seat(*columns: Any) -> Any:
    """SELECT ``columns`` of the token's user, the game asked for and the user's seat in it, in
    one statement (the game joins on the id asked for, whatever the token): every game request
    needs the three."""
    return (
        select(*columns)
        .select_from(User)
        .outerjoin(Game, Game.id == bindparam("game_id"))
        .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == User.id))
        .where(User.token_hash == bindparam("token_hash"))
    )


_CALLER_GAME_AND_SEAT = caller_game_and_seat(User, Game, Seat)


def caller_and_game(session: Session, game_id: str, *, required: bool
                    ) -> tuple[User | None, Game, Seat | None]:
    """The calling user (from the bearer token; None without one, unless ``required``), the game
    and the caller's seat: one statement where `current_user` and `visible_game` take two. The
    same answers: 401 for a missing (when required) or unknown token, 404 for a game the caller
    cannot see."""
    token = bearer_token()
    if token is None or "current_user" in g:
        user = require_user() if required else current_user()
        game, seat = visible_game(session, game_id, user)
        return user, game, seat
    token_hash = hash_token(token)
    row = session.exec(
        _CALLER_GAME_AND_SEAT,  # type: ignore[call-overload]
        params={"token_hash": token_hash, "game_id": game_id},
    ).first()
    if row is None:
        refuse_token()
    user, game, seat = row
    authenticated(token_hash, user.id)
    refuse_if_disabled(user.disabled_at)
    g.current_user = user
    require_visible(game_id, game, member=seat is not None)
    return user, game, seat


def require_member(game: Game, seat: Seat | None) -> Seat:
    if seat is None:
        refuse_outsider(game)
    return seat


def refuse_outsider(game: Any) -> None:
    fail(403, Said(N_("you do not play in game {game}: join it with its join code first"),
                   game=game.id))


def start_game(session: Session, game: Game, now: datetime, actor: str) -> None:
    locked(session, Game.id == game.id)  # no one joins or leaves while the seats are counted
    require_open(game)
    seated = players(session, game)
    if len(seated) < game.seats:
        missing = game.seats - len(seated)
        fail(409, Said(N_("waiting for {missing} more players to join") if missing > 1
                       else N_("waiting for {missing} more player to join"), missing=missing),
             joined=len(seated), seats=game.seats)
    seated.sort(key=lambda m: (m.joined_at, m.id or 0))
    seeding.mix_words(game, seated)  # before the first die is drawn

    # The version chosen at creation (a game opened before versions were chosen: the current).
    command = {"type": "start_game", "seat": None, "options": engine_options(game),
               "player_ids": [player_id(m) for m in seated],
               "rules_version": game.rules_version or engine.RULES_VERSION}

    try:
        service.apply_command(session, game, command, actor, now)
    except engine.RuleError as error:
        fail(422, Said(N_("the game cannot start: {error}"), error=error.refusal))


def locked(session: Session, condition: Any) -> Game | None:
    """The game row matching ``condition``, read afresh and locked until the commit (on
    PostgreSQL: FOR NO KEY UPDATE, which seats' foreign keys do not wait for; SQLite's writer
    holds the whole database already). Whatever counts a game's seats and then changes them
    (join, leave, start) holds it: without it, concurrent joins each counted a free seat and
    were all seated (issue 16)."""
    statement = select(Game).where(condition).with_for_update(key_share=True)
    return session.exec(statement.execution_options(populate_existing=True)).first()


def join(session: Session, user: User, code: str, now: datetime,
         stand_in_level: str | None = None, contribution: str | None = None) -> Game:
    """Seat ``user`` in the open game with join code ``code`` (``stand_in_level``: who plays
    their turns at the deadline in this game; None: their account's choice), with their word
    for the dice (``contribution``, server/games/seeding.py)."""
    word = seeding.checked_contribution(contribution)
    game = locked(session, Game.join_code == code.strip())
    if game is None:
        fail(404, Said(N_("no game has the join code {code!r}: check it with whoever invited you"),
                       code=code))
    if seat_of(session, game, user) is not None:
        fail(409, Said(N_("you already play in game {game}"), game=game.id), game_id=game.id)
    require_open(game)
    if is_full(session, game):
        fail(409, Said(N_("game {game} is full ({seats} seats)"), game=game.id, seats=game.seats),
             game_id=game.id)
    session.add(Seat(game_id=game.id, user_id=user.id, kind="human", joined_at=now,
                     stand_in=stand_in_level, seed_contribution=word))
    session.flush()
    if game.rematch_of is not None and is_full(session, game):  # a rematch: all have accepted
        start_game(session, game, now, f"user:{user.id}")
    return game


def require_open(game: Game) -> None:
    """409 unless the game is still gathering players, saying what became of it."""
    if game.status == "open":
        return
    if game.status == "closed":
        fail(409, Said(N_("game {game} was closed: every player left it before the start"),
                       game=game.id), game_id=game.id)
    if game.status == "aborted":
        fail(409, Said(N_("game {game} was aborted by an operator"), game=game.id),
             game_id=game.id)
    fail(409, Said(N_("game {game} has already started"), game=game.id), game_id=game.id)


def leave(session: Session, game_id: str, user: User) -> Game:
    """Give up ``user``'s seat in an open game (ruling L1, docs/rulings.md). The creator leaving
    hands the game to the member who joined next; the last member leaving closes it, so that its
    join code seats nobody in a game no one can see or cancel any more."""
    game = locked(session, Game.id == game_id)
    seat = seat_of(session, game, user) if game is not None else None
    if game is None or seat is None:
        fail(409, Said(N_("you no longer play in game {game}"), game=game_id), game_id=game_id)
    if game.status != "open":
        fail(409, Said(N_("game {game} has already started: you can only leave before the start"),
                       game=game.id), game_id=game.id)
    session.delete(seat)
    publish(PlayerLeft(session, game.id, user.id))  # their webhook tells them no more of it
    session.flush()
    remaining = [m for m in members(session, game) if m.kind == "human"]
    if not remaining:
        game.status = "closed"
    elif game.created_by == user.id:
        game.created_by = min(remaining, key=lambda m: (m.joined_at, m.id or 0)).user_id
    session.add(game)
    session.flush()
    return game


def is_my_turn(game: Game, seat: Seat | None) -> bool:
    return (game.status == "active" and seat is not None and seat.seat is not None
            and game.current_seat == seat.seat)


def game_json(session: Session, game: Game, user: User | None) -> dict[str, Any]:
    return games_json(session, [game], user)[0]


def games_json(session: Session | Connection, games: list[Any], user: User | None) -> list[dict[str, Any]]:
    """Games (Game objects or `listing` rows) as the API shows them to ``user``, in one
    statement for their seats whatever their number."""
    if not games:
        return []
    seats = sql(session).execute(_SEATS_OF_GAMES, {"game_ids": [g.id for g in games]}).all()
    by_game: dict[str, list[tuple[Any, str | None]]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append((seat, seat.name))
    return [_game_json(game, sorted(by_game.get(game.id, []), key=_member_order), user)
            for game in games]


VARIANT_NAMES = ("mining_cost", "leftover_gems", "catapult_4th")


def plain_game(game: dict[str, Any]) -> dict[str, Any]:
    """A `game_json` dict as GameSchema dumps it (times as ISO 8601, known variants only),
    without marshmallow: a long game list spent more time in the schema than in the database.
    A test holds the two equal."""
    return {
        **game,
        "variants": {k: game["variants"][k] for k in VARIANT_NAMES if k in game["variants"]},
        "deadline_at": _iso(game["deadline_at"]),
        "created_at": _iso(game["created_at"]),
        "players": [dict(player, away_until=_iso(player["away_until"]))
                    for player in game["players"]],
    }


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _member_order(pair: tuple[Any, str | None]) -> tuple:
    s = pair[0]
    return (s.seat is None, s.seat if s.seat is not None else 0, s.joined_at, s.id or 0)


def _my_stand_in(seat: Any) -> str | None:
    """The level that plays the caller's turns at the deadline (the seat's choice, else the
    account's: one coalesced column); None for a spectator."""
    if seat is None or seat.kind != "human":
        return None
    return stand_in(seat.stand_in)


def _away_until(seat: Any, now: datetime) -> datetime | None:
    until = getattr(seat, "away_until", None)
    return until if until is not None and until > now else None


def _game_json(game: Any, rows: list[tuple[Any, str | None]], user: User | None) -> dict:
    seat = next((m for m, _ in rows if user is not None and m.user_id == user.id), None)
    now = clock.now()
    return {
        "id": game.id,
        "status": game.status,
        "public": game.public,
        "join_code": game.join_code if seat is not None else None,
        "seats": game.seats,
        "rhom": game.rhom,
        "variants": game.variants,
        "settings": {name: getattr(game, name) for name in SETTING_NAMES},
        "players": [
            {"seat": m.seat, "user_id": m.user_id,
             "name": "Rhom" if m.kind == "rhom" else (name or "?"),
             "kind": m.kind, "absent": m.absent,
             "bot_policy": bot_level(m.bot_policy) if m.kind == "bot" else None,
             "away_until": _away_until(m, now), "wants_pause": bool(m.wants_pause)}
            for m, name in rows
        ],
        "version": game.version,
        "rules_version": game.rules_version,
        "seed_hash": game.seed_hash,
        "is_my_turn": is_my_turn(game, seat),
        "my_seat": seat.seat if seat is not None else None,
        "my_stand_in": _my_stand_in(seat),
        "current_seat": game.current_seat,
        "pending_kind": game.pending_kind,
        "deadline_at": game.deadline_at,
        "pace": pace_name(game.turn_deadline_hours),
        "time_left": time_left(game.deadline_at, now),
        "paused": game.paused_at is not None,
        "created_at": game.created_at,
    }
