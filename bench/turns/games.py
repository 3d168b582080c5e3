"""Games waiting for an automatic turn, made fast: a few templates played for real, then copies.

Each template is played in process through the server's own command path (`apply_command`, the
humans by the greedy policy, the server's own turns as the scheduler plays them) until the
decision pending is the one wanted: the Rhom's turn, a removal turn, or a human's turn (which the
server plays once its deadline passes). Then bench/scale's `clone_games` copies its rows under
new ids and other users, so a thousand due games cost seconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from unittest import mock

from bench.scale import populate

API = "/api/v1"
KINDS = ("rhom", "removal", "deadline")
# Where each template stops: after at least this many commands (log lengths differ, so the
# states derived differ in cost as they would in real games).
STOPS = (5, 40, 150)


@dataclass
class Kind:
    name: str
    players: int
    settings: dict
    pending: tuple[str, ...]  # the engine's pending kinds to stop at


SHAPES = {
    "rhom": Kind("rhom", 1, {"rhom": True, "rhom_delay_seconds": 0, "turn_deadline_hours": 24},
                 ("rhom",)),
    "removal": Kind("removal", 2, {"removal_grace_hours": 1, "turn_deadline_hours": 24},
                    ("removal",)),
    "deadline": Kind("deadline", 3, {"turn_deadline_hours": 24}, ("turn",)),
}


def _register(client, name: str, rng: random.Random) -> dict:
    """A user who confirmed their address (game mail goes only to confirmed addresses), by the
    code the server mailed them, as a player does (populate.register does both)."""
    return populate.register(client, name, rng)


def play_template(app, client, kind: Kind, stop_after: int, tag: str,
                  rng: random.Random) -> populate.Template | None:
    """A game of `kind` played until its pending decision is one of `kind.pending`, after at
    least `stop_after` commands; None when the game ended first."""
    import engine
    from engine.bots.policies import automatic_command, greedy_policy
    from server.games import service
    from server.storage.db import app_engine, session_scope
    from server.storage.models import Game

    users = [_register(client, f"{tag}{i}", rng) for i in range(kind.players)]
    seed = f"bench-turns-{tag}"
    with mock.patch.object(service, "new_seed", lambda: (seed, service.seed_hash(seed))):
        game = client.post(f"{API}/games", json={"seats": kind.players, **kind.settings},
                           headers={"Authorization": f"Bearer {users[0]['token']}"}).get_json()
    for user in users[1:]:
        client.post(f"{API}/games/join", json={"code": game["join_code"]},
                    headers={"Authorization": f"Bearer {user['token']}"})
    if kind.players > 1:
        client.post(f"{API}/games/{game['id']}/start",
                    headers={"Authorization": f"Bearer {users[0]['token']}"})
    by_seat = {}
    now = datetime.now(UTC) - timedelta(days=2)
    policy_rng = random.Random(tag)
    for played in range(20_000):
        with session_scope(app_engine(app)) as session:
            row = session.get(Game, game["id"])
            state = service.load_state(session, row)
            if row.status != "active":
                return None
            pending = engine.pending_kind(state)
            if played >= stop_after and pending in kind.pending:
                return populate.Template(row.id, "active", kind.players,
                                         [u["id"] for u in users], [u["token"] for u in users],
                                         row.version)
            command = automatic_command(state)
            if command is not None:
                actor = service.SERVER_ACTOR
            else:
                seat = engine.current_player(state)
                if not by_seat:
                    from sqlmodel import select

                    from server.storage.models import Seat

                    by_seat.update({s.seat: s.user_id for s in session.exec(
                        select(Seat).where(Seat.game_id == row.id))})
                command = greedy_policy(state, seat, policy_rng)
                actor = f"user:{by_seat[seat]}"
            service.apply_command(session, row, command, actor, now)
    return None


def templates(app, rng: random.Random) -> dict[str, list[populate.Template]]:
    client = app.test_client()
    made: dict[str, list[populate.Template]] = {}
    for name in KINDS:
        kind = SHAPES[name]
        made[name] = []
        for index, stop in enumerate(STOPS):
            for attempt in range(6):
                template = play_template(app, client, kind, stop, f"{name}{index}x{attempt}", rng)
                if template is not None:
                    made[name].append(template)
                    break
        if not made[name]:
            raise RuntimeError(f"no template game reached a {name} turn")
    return made


def users(app, count: int, rng: random.Random) -> list[int]:
    client = app.test_client()
    return [_register(client, f"player{i}", rng)["id"] for i in range(count)]
