"""Helpers for the scheduler tests: a clock moved by hand, an SMTP handler that can refuse, and
a table of players who play through the real API and the server's command path."""

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from unittest import mock

from sqlmodel import select

import engine
from engine.bots.policies import greedy_policy
from server.games import service
from server.games.service import apply_command, load_state
from server.scheduler.automatic import play_due_turns
from server.storage.db import app_engine, session_scope
from server.storage.models import Event, Game
from tests.accounts import sign_up


class Clock:
    """A time source the test moves: `clock()` is now, `clock.advance(hours=2)` moves it."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class Received:
    sender: str
    recipients: list[str]
    message: object
    peer: tuple = ()  # the client's address and port: one per SMTP session


@dataclass
class MailHandler:
    """Accepts mail, or answers with `refuse` (e.g. "451 4.3.0 try later") while it is set."""

    received: list[Received] = field(default_factory=list)
    refuse: str | None = None
    refused: int = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            self.refused += 1
            return self.refuse
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message,
                                      tuple(session.peer)))
        return "250 Message accepted for delivery"


@dataclass
class Player:
    name: str
    email: str
    id: int
    token: str


class Table:
    """Players and games through the real API (the Flask test client), and a bot that plays the
    humans' turns with an engine policy, sending each command with the expected version."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.players: dict[int, Player] = {}

    def _call(self, method, path, player=None, **body):
        headers = {"Authorization": f"Bearer {player.token}"} if player else {}
        response = getattr(self.client, method)(
            f"/api/v1{path}", json=body or None, headers=headers
        )
        assert response.status_code < 300, (path, response.status_code, response.get_json())
        return response.get_json()

    def register(self, name: str) -> Player:
        email = f"{name.lower()}@example.org"
        data = sign_up(self.client, name, email)  # the player opened the mailed link
        player = Player(name, email, data["id"], data["token"])
        self.players[player.id] = player
        return player

    def new_game(self, creator: Player, others=(), seed="fixed", **settings) -> str:
        """A started game; its secret seed is `seed`, so every test plays the same game."""
        with mock.patch.object(service, "new_seed", lambda: (seed, service.seed_hash(seed))):
            game = self._call("post", "/games", creator, seats=1 + len(others), **settings)
        for other in others:
            self._call("post", "/games/join", other, code=game["join_code"])
        if others:
            self._call("post", f"/games/{game['id']}/start", creator)
        return game["id"]

    def game(self, game_id: str):
        with session_scope(app_engine(self.app)) as session:
            return session.get(Game, game_id)

    def events(self, game_id: str) -> list[dict]:
        """The game's events (their engine JSON), in order."""
        with session_scope(app_engine(self.app)) as session:
            return list(session.exec(select(Event.payload).where(Event.game_id == game_id)
                                     .order_by(Event.seq)))

    def state(self, game_id: str):
        with session_scope(app_engine(self.app)) as session:
            return load_state(session, session.get(Game, game_id))

    def player_at(self, game_id: str, seat: int) -> Player | None:
        data = self._call("get", f"/games/{game_id}", next(iter(self.players.values())))
        for entry in data["players"]:
            if entry["seat"] == seat and entry["user_id"] is not None:
                return self.players.get(entry["user_id"])
        return None

    def play_one(self, game_id: str, policy=None, rng=None) -> bool:
        """The human to act plays one command; False when no human is to act."""
        state = self.state(game_id)
        seat = engine.current_player(state)
        if seat is None or engine.pending_kind(state) in ("rhom", "removal"):
            return False
        player = self.player_at(game_id, seat)
        if player is None:
            return False
        command = engine.command_to_dict(
            (policy or greedy_policy)(state, seat, rng or random.Random(seat))
        )
        version = self.game(game_id).version
        self._call(
            "post", f"/games/{game_id}/commands", player, command=command, expected_version=version
        )
        return True

    def play_at(self, game_id: str, now, player=None, policy=None) -> int:
        """The human to act (or `player`, whoever is to act) plays their whole turn through the
        server's command path at the time `now`; returns the seat that played."""
        seat = engine.current_player(self.state(game_id))
        player = player or self.player_at(game_id, seat)
        rng = random.Random(seat)
        while True:
            with session_scope(app_engine(self.app)) as session:
                game = session.get(Game, game_id)
                state = load_state(session, game)
                if engine.current_player(state) != seat:
                    return seat
                command = (policy or greedy_policy)(state, seat, rng)
                apply_command(session, game, command, f"user:{player.id}", now)

    def play_turn(self, game_id: str, policy=None) -> int:
        """The human to act plays until the decision leaves their seat; returns that seat."""
        seat = engine.current_player(self.state(game_id))
        while engine.current_player(self.state(game_id)) == seat and self.play_one(game_id, policy):
            pass
        return seat

    def play_to_the_end(self, game_id: str, limit: int = 5000) -> None:
        """The humans play through the API and the scheduler plays the Rhom's turns and
        removals, until the game is finished."""
        for _ in range(limit):
            if self.game(game_id).status == "finished":
                return
            if not self.play_one(game_id):
                play_due_turns(app_engine(self.app), datetime.now(UTC))
        raise AssertionError(f"game {game_id} did not end in {limit} steps")


def kill_when_marked(script: str, args: list[str], marker, what: str) -> None:
    """Run `script` (python -c) with `args` in a process of its own until it creates the file
    `marker`, then SIGKILL it, as a power cut would (`what` names the moment, for the failure)."""
    process = subprocess.Popen([sys.executable, "-c", script, *args], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            assert process.poll() is None, "the scheduler process ended early"
            time.sleep(0.05)
        assert marker.exists(), f"the scheduler never {what}"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
