"""Bot seats' turns, and the stand-ins' turns at a missed deadline, thought out before the
scheduler locks their games.

A strong bot (and `hard`, the default stand-in) thinks for a fraction of a second per command, several seconds a turn; on SQLite
the scheduler's transaction holds the database's write lock throughout, so thinking inside it
would keep every player's command waiting. The turn is therefore planned first, in a read-only
transaction (no lock): each command is decided on the game's state and applied to it with the
generator the server will use for it (`engine.rng_for(seed, version)`), so the plan is exactly the
turn the server will then play. The claimed game applies the plan if the game is still at the
version it was planned at (nobody else can have moved: it is the bot's turn), and thinks again
otherwise. A stand-in's turn is planned only where the player left no plan of their own: at
the lock, a plan made since is played instead of it (server/plans/).
"""

import random

from sqlalchemy import and_, func
from sqlmodel import select

import engine
from server.games import seeding
from server.games.due_times import HUMAN_DECISIONS
from server.games.seat_kinds import bot_policy_of, stand_in_policy
from server.games.service import load_state
from server.plans import store as plans_store
from server.storage.db import read_only, session_scope
from server.storage.models import Game, Seat, User

# A turn the bot could not finish in this many commands is a bug, not a long turn.
MOST_COMMANDS_PER_TURN = 60


def policy_rng(game_seed: str, version: int) -> random.Random:
    # Seeded by the game's secret and version: replaying the decision gives the same turn.
    return random.Random(f"{game_seed}/auto/{version}")


def bot_turn(seed: str, version: int, state, seat: int, policy_name: str | None) -> list:
    """The commands `seat`'s bot plays from `state` (at `version`) to the end of its turn."""
    return policy_turn(seed, version, state, seat, bot_policy_of(policy_name),
                       f"the {policy_name} bot")


def stand_in_turn(seed: str, version: int, state, seat: int, chosen: str | None) -> list:
    """The commands the stand-in `chosen` for `seat` plays from `state` to the end of its turn."""
    return policy_turn(seed, version, state, seat, stand_in_policy(chosen),
                       f"the {chosen or 'default'} stand-in")


def policy_turn(seed: str, version: int, state, seat: int, policy, who: str) -> list:
    """The commands `policy` plays for `seat` from `state` (at `version`) to the end of its turn."""
    commands = []
    while engine.current_player(state) == seat and not engine.is_terminal(state):
        if len(commands) >= MOST_COMMANDS_PER_TURN:
            raise RuntimeError(f"{who} did not end seat {seat}'s turn")
        command = policy(state, seat, policy_rng(seed, version))
        events = engine.decide(state, command, engine.rng_for(seed, version))
        state = engine.replay(events, state)
        version += len(events)
        commands.append(command)
    return commands


def plan_bot_turns(db, now, budget=None, limit: int = 10) -> dict[tuple[str, int], list]:
    """Plans for the bot turns and stand-in turns due at `now`: {(game id, version): commands},
    thought out without holding any lock, asking `budget` before each game after the first."""

    plans: dict[tuple[str, int], list] = {}
    with session_scope(read_only(db)) as session:
        due = session.exec(
            # The stand-in: the seat's own choice for the game, else the account's preference.
            select(Game, Seat, func.coalesce(Seat.stand_in, User.stand_in))
            .join(Seat, and_(Seat.game_id == Game.id, Seat.seat == Game.current_seat))
            .join(User, and_(Seat.user_id == User.id, User.disabled_at.is_(None)), isouter=True)
            .where(Game.status == "active", Game.automatic_due_at.is_not(None),
                   Game.automatic_due_at <= now, Seat.kind.in_(("bot", "human")),
                   Game.pending_kind.in_(HUMAN_DECISIONS), Game.held_since.is_(None),
                   Game.paused_at.is_(None))
            .order_by(Game.automatic_due_at, Game.id)
            .limit(limit)
        ).all()
        for index, (game, seat, chosen) in enumerate(due):
            if index and budget is not None and not budget.left():
                break
            if seat.kind == "human" and plans_store.get(session, game.id, seat.seat):
                continue  # the player's own plan is played at the lock, not a stand-in
            state = load_state(session, game)
            seed = seeding.dice_seed(game)
            plans[(game.id, game.version)] = (
                bot_turn(seed, game.version, state, seat.seat, seat.bot_policy)
                if seat.kind == "bot"
                else stand_in_turn(seed, game.version, state, seat.seat, chosen))
    return plans
