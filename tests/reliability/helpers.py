"""Helpers for the reliability tests: players and games through the API (absent players' games
too), the log checks, and counts of what the scheduler said in its log.

    api = Api(app.test_client())            # or Api(requests.Session(), base_url)
    ada = api.register("ada")
    game_id = api.new_game(ada, [bob])       # started, seats decided by the engine
    verify_log(db, game_id)                  # no gap, no duplicate, every command re-decides

``verify_log`` is what "every game replays" means here: the events are numbered 1..version with
no gap, every stored command re-decided at its version with ``engine.rng_for(seed, version)``
yields exactly the events stored after it, and the events fold into the state the server serves.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import select

from server.games.seeding import dice_seed
from server.storage.db import session_scope
from server.storage.models import Command, Event, Game, Seat
from tests.accounts import mailed_code


@dataclass
class Player:
    id: int
    name: str
    email: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Api:
    """The REST API over a Flask test client (in-process) or a requests session (real HTTP)."""

    def __init__(self, client: Any, base_url: str = "", db: Any = None) -> None:
        """``db``: the server's database (an engine or URL), where real HTTP reads the mailed
        confirmation codes."""
        self.client = client
        self.base_url = base_url
        self.real_http = bool(base_url)
        self.db = db

    def call(self, method: str, path: str, player: Player | None = None, json_body: Any = None,
             headers: dict[str, str] | None = None, **kwargs: Any) -> tuple[int, Any, Any]:
        """(status, JSON body or None, headers)."""
        all_headers = dict(player.headers if player else {})
        all_headers.update(headers or {})
        url = f"{self.base_url}/api/v1{path}"
        if self.real_http:
            response = self.client.request(method, url, json=json_body, headers=all_headers,
                                           timeout=kwargs.pop("timeout", 30), **kwargs)
            try:
                body = response.json()
            except ValueError:
                body = None
            return response.status_code, body, response.headers
        response = self.client.open(url, method=method, json=json_body, headers=all_headers,
                                    **kwargs)
        return response.status_code, response.get_json(silent=True), response.headers

    def ok(self, method: str, path: str, player: Player | None = None, json_body: Any = None,
           **kwargs: Any) -> Any:
        status, body, _ = self.call(method, path, player, json_body, **kwargs)
        assert 200 <= status < 300, (method, path, status, body)
        return body

    def register(self, name: str) -> Player:
        """A new player, as one registers: the token comes from confirming the address with
        the mailed code."""
        email = f"{name}@example.org"
        self.ok("POST", "/users", json_body={"name": name, "email": email})
        code = mailed_code(self.db if self.real_http else self.client, email, take=True)
        body = self.ok("POST", "/users/verify", json_body={"code": code})
        return Player(body["id"], body["name"], body["email"], body["token"])

    def new_game(self, creator: Player, others: list[Player] = (), **settings: Any) -> str:
        game = self.ok("POST", "/games", creator, {"seats": 1 + len(others), **settings})
        for other in others:
            self.ok("POST", "/games/join", other, {"code": game["join_code"]})
        if others:
            self.ok("POST", f"/games/{game['id']}/start", creator)
        return game["id"]

    def seats(self, game_id: str, player: Player, players: list[Player]) -> dict[int, Player]:
        """Engine seat -> player, for the humans of a started game."""
        info = self.ok("GET", f"/games/{game_id}", player)
        by_id = {p.id: p for p in players}
        return {entry["seat"]: by_id[entry["user_id"]] for entry in info["players"]
                if entry["user_id"] is not None}

    def play(self, game_id: str, seats: dict[int, Player], commands: int,
             rng: Any) -> int:
        """The humans to act play up to ``commands`` random legal commands; returns how many."""
        played = 0
        for _ in range(commands):
            info = self.ok("GET", f"/games/{game_id}", next(iter(seats.values())))
            player = seats.get(info["current_seat"])
            if info["status"] != "active" or player is None:
                break
            legal = self.ok("GET", f"/games/{game_id}/legal", player)
            if not legal["commands"]:
                break
            command = rng.choice(legal["commands"])
            self.ok("POST", f"/games/{game_id}/commands", player,
                    {"command": command, "expected_version": legal["version"]})
            played += 1
        return played


def verify_log(db: sa.engine.Engine, game_id: str) -> Any:
    """Assert the game's log is whole and re-decides exactly; return the replayed state."""
    import engine

    with session_scope(db) as session:
        game = session.get(Game, game_id)
        events = session.exec(select(Event).where(Event.game_id == game_id)
                              .order_by(Event.seq)).all()  # type: ignore[arg-type]
        commands = session.exec(select(Command).where(Command.game_id == game_id)
                                .order_by(Command.version)).all()  # type: ignore[arg-type]
        # The dice's seed: the server's mixed with the players' words (server/games/seeding.py)
        version, seed = game.version, dice_seed(game)
        payloads = [(e.seq, e.payload) for e in events]
        stored_commands = [(c.version, c.command) for c in commands]
    seqs = [seq for seq, _ in payloads]
    assert seqs == list(range(1, version + 1)), f"game {game_id}: events {seqs} for version {version}"
    state, at = None, 0
    for command_version, command in stored_commands:
        assert command_version == at, f"game {game_id}: a command at {command_version}, log at {at}"
        decided = engine.decide(state, engine.command_from_dict(command),
                                engine.rng_for(seed, command_version))
        produced = [engine.event_to_dict(event) for event in decided]
        stored = [payload for _, payload in payloads[at:at + len(produced)]]
        assert produced == stored, f"game {game_id}: command at {command_version} re-decides otherwise"
        state = engine.replay(decided, state)
        at += len(produced)
    assert at == version, f"game {game_id}: the commands explain {at} events of {version}"
    return state


def event_log(db: sa.engine.Engine, game_id: str | None = None) -> list[tuple]:
    """Every stored event and command (of one game or all): equal lists mean nothing changed."""
    with session_scope(db) as session:
        events = select(Event).order_by(Event.game_id, Event.seq)  # type: ignore[arg-type]
        commands = select(Command).order_by(Command.game_id, Command.version)  # type: ignore[arg-type]
        games = select(Game).order_by(Game.id)  # type: ignore[arg-type]
        if game_id is not None:
            events = events.where(Event.game_id == game_id)
            commands = commands.where(Command.game_id == game_id)
            games = games.where(Game.id == game_id)
        return (
            [("event", e.game_id, e.seq, json.dumps(e.payload, sort_keys=True))
             for e in session.exec(events)]
            + [("command", c.game_id, c.version, json.dumps(c.command, sort_keys=True))
               for c in session.exec(commands)]
            + [("game", g.id, g.version, g.status, g.current_seat) for g in session.exec(games)]
        )


def dump_database(db: sa.engine.Engine) -> str:
    """Every row of every table as text (what a stolen backup would hold)."""
    lines = []
    with db.connect() as connection:
        for table in sa.inspect(db).get_table_names():
            for row in connection.execute(sa.text(f'SELECT * FROM "{table}"')):
                lines.append(f"{table}: {tuple(row)!r}")
    return "\n".join(lines)


def turns_played_for_absent_seats(db, game_ids) -> int:
    """How many turns (absent seats' and removal turns) the server played, from the logs."""
    import engine

    turns = 0
    with session_scope(db) as session:
        for game_id in game_ids:
            events = [e.payload for e in session.exec(select(Event).where(Event.game_id == game_id)
                                                      .order_by(Event.seq))]  # type: ignore[arg-type]
            rows = session.exec(select(Command).where(Command.game_id == game_id)
                                .order_by(Command.version)).all()  # type: ignore[arg-type]
            state, seen = None, set()
            for row, following in zip(rows, [*rows[1:], None], strict=True):
                if row.actor == "server" and state is not None:
                    seen.add((state.turn.number, state.turn.seat))
                end = following.version if following else len(events)
                state = engine.replay([engine.event_from_dict(e)
                                       for e in events[row.version:end]], state)
            turns += len(seen)
    return turns


def games_said(log: str, what: str, game_ids) -> int:
    """How many lines of ``log`` say ``what`` of one of these games."""
    return sum(game_id in game_ids
               for game_id in re.findall(rf"game (\w+): [^\n]*{re.escape(what)}", log))


def absent_games(api, db, count: int) -> dict:
    """2-player games whose both seats are absent before the start: the server plays them."""
    games = {}
    for number in range(count):
        first, second = api.register(f"away{number}a"), api.register(f"away{number}b")
        # The easy stand-in (it spends no item): no turn of one seat asks the other to decide, so
        # each turn the server plays is one log line and one (turn, seat) in the log.
        game = api.ok("POST", "/games", first, {"seats": 2, "stand_in": "easy"})
        api.ok("POST", "/games/join", second, {"code": game["join_code"], "stand_in": "easy"})
        with session_scope(db) as session:
            for seat in session.exec(select(Seat).where(Seat.game_id == game["id"])):
                seat.absent = True
                session.add(seat)
        api.ok("POST", f"/games/{game['id']}/start", first)
        games[game["id"]] = first
    return games
