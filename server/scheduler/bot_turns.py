"""Bot seats' turns, thought out before the scheduler locks their games.

A strong bot thinks for a fraction of a second per command, several seconds a turn; on SQLite
the scheduler's transaction holds the database's write lock throughout, so thinking inside it
would keep every player's command waiting. The turn is therefore planned first, in a read-only
transaction (no lock): each command is decided on the game's state and applied to it with the
generator the server will use for it (`engine.rng_for(seed, version)`), so the plan is exactly the
turn the server will then play. The claimed game applies the plan if the game is still at the
version it was planned at (nobody else can have moved: it is the bot's turn), and thinks again
otherwise.
"""

import random

from sqlalchemy import and_
from sqlmodel import select

import engine
from server.games import seeding
from server.games.due_times import HUMAN_DECISIONS
from server.games.seat_kinds import bot_policy_of
from server.games.service import load_state
from server.storage.db import read_only, session_scope
from server.storage.models import Game, Seat

# A turn the bot could not finish in this many commands is a bug, not a long turn.
MOST_COMMANDS_PER_TURN = 60


def policy_rng(game_seed: str, version: int) -> random.Random:
    # Seeded by the game's secret and version: replaying the decision gives the same turn.
    return random.Random(f"{game_seed}/auto/{version}")


def bot_turn(seed: str, version: int, state, seat: int, policy_name: str | None) -> list:
    """The commands `seat`'s bot plays from `state` (at `version`) to the end of its turn."""

    policy = bot_policy_of(policy_name)
    commands = []
    while engine.current_player(state) == seat and not engine.is_terminal(state):
        if len(commands) >= MOST_COMMANDS_PER_TURN:
            raise RuntimeError(f"the {policy_name} bot did not end seat {seat}'s turn")
        command = policy(state, seat, policy_rng(seed, version))
        events = engine.decide(state, command, engine.rng_for(seed, version))
        state = engine.replay(events, state)
        version += len(events)
        commands.append(command)
    return commands


def plan_bot_turns(db, now, budget=None, limit: int = 10) -> dict[tuple[str, int], list]:
    """Plans for the bot turns due at `now`: {(game id, version): commands}, thought out without
    holding any lock, asking `budget` before each game after the first."""

    plans: dict[tuple[str, int], list] = {}
    with session_scope(read_only(db)) as session:
        due = session.exec(
            select(Game, Seat)
            .join(Seat, and_(Seat.game_id == Game.id, Seat.seat == Game.current_seat))
            .where(Game.status == "active", Game.automatic_due_at.is_not(None),
                   Game.automatic_due_at <= now, Seat.kind == "bot",
                   Game.pending_kind.in_(HUMAN_DECISIONS))
            .order_by(Game.automatic_due_at, Game.id)
            .limit(limit)
        ).all()
        for index, (game, seat) in enumerate(due):
            if index and budget is not None and not budget.left():
                break
            state = load_state(session, game)
            plans[(game.id, game.version)] = bot_turn(seeding.dice_seed(game), game.version, state, seat.seat,
                                                      seat.bot_policy)
    return plans
