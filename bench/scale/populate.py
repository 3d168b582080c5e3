"""Fill a database with many games in mixed states, fast.

A few *template* games are played for real through the app (in-process test client: the server's
own code writes every row: game, seats, events, commands, snapshots, due times). Then each stored
game is a copy of a template's rows under a new game id, with its seats given to other users, so
10,000 games cost seconds instead of an hour. Player ids inside event payloads, commands and
snapshots are rewritten to the copy's users, so every copy replays and reads like a real game.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

API = "/api/v1"
PLAYER_ID_KEYS = ("player_id", "player_ids")
ID_ALPHABET = string.ascii_lowercase + string.digits


@dataclass
class Template:
    game_id: str
    status: str
    players: int
    user_ids: list[int]  # the template's users, in joining order
    tokens: list[str]  # their API tokens, in the same order
    events: int = 0


def _client_call(client, method: str, path: str, token: str | None = None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.open(path, method=method, json=body, headers=headers)
    return response.status_code, response.get_json()


def register(client, name: str, rng: random.Random) -> dict:
    status, user = _client_call(client, "POST", f"{API}/users", body={
        "name": name, "email": f"{name}-{rng.randrange(1 << 40):x}@bench.example"})
    assert status == 201, user
    return user


def open_template(client, rng: random.Random, seats: int, tag: str) -> Template:
    """A game waiting for players: created, nobody else joined."""
    user = register(client, tag, rng)
    status, game = _client_call(client, "POST", f"{API}/games", user["token"], {"seats": seats})
    assert status == 201, game
    return Template(game["id"], "open", seats, [user["id"]], [user["token"]])


def play_template(client, rng: random.Random, players: int, commands: int, tag: str) -> Template:
    """Register ``players`` users, create, join and start a game, then post up to ``commands``
    random legal commands (fewer if the game ends)."""
    tokens, ids = [], []
    for i in range(players):
        user = register(client, f"{tag}{i}", rng)
        tokens.append(user["token"])
        ids.append(user["id"])
    status, game = _client_call(client, "POST", f"{API}/games", tokens[0],
                                {"seats": players, "rhom": players == 1})
    assert status == 201, game
    for token in tokens[1:]:
        status, body = _client_call(client, "POST", f"{API}/games/join", token,
                                    {"code": game["join_code"]})
        assert status == 200, body
    if players > 1:
        status, game = _client_call(client, "POST", f"{API}/games/{game['id']}/start", tokens[0])
        assert status == 200, game
    token_by_user = dict(zip(ids, tokens, strict=True))
    posted = 0
    while posted < commands:
        status, game = _client_call(client, "GET", f"{API}/games/{game['id']}", tokens[0])
        if game["status"] != "active":
            break
        seat = game["current_seat"]
        actor = next((p["user_id"] for p in game["players"] if p["seat"] == seat), None)
        if actor is None:  # the Rhom's turn: the scheduler plays it; stop here
            break
        token = token_by_user[actor]
        status, legal = _client_call(client, "GET", f"{API}/games/{game['id']}/legal", token)
        if not legal["commands"]:
            break
        status, body = _client_call(client, "POST", f"{API}/games/{game['id']}/commands", token, {
            "command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert status == 201, body
        posted += 1
    status, game = _client_call(client, "GET", f"{API}/games/{game['id']}", tokens[0])
    return Template(game["id"], game["status"], players, ids, tokens, game["version"])


def _rewrite_ids(value: Any, mapping: dict[str, str]) -> Any:
    """``value`` with every player id under a ``player_id(s)`` key mapped to a copy's user."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in PLAYER_ID_KEYS:
                if isinstance(item, list):
                    out[key] = [mapping.get(str(v), v) if isinstance(v, str) else v for v in item]
                elif isinstance(item, str):
                    out[key] = mapping.get(item, item)
                else:
                    out[key] = item
            else:
                out[key] = _rewrite_ids(item, mapping)
        return out
    if isinstance(value, list):
        return [_rewrite_ids(item, mapping) for item in value]
    return value


def _random_id(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(ID_ALPHABET) for _ in range(length))


def clone_games(engine: sa.Engine, templates: list[Template], counts: dict[str, int],
                user_ids: list[int], rng: random.Random, heavy_user: int,
                heavy_games: int, batch: int = 500) -> dict[str, list[str]]:
    """Insert copies of the templates: ``counts`` per status. Returns new ids per status."""
    from sqlmodel import SQLModel

    import server.models  # noqa: F401  (registers the tables)

    tables = SQLModel.metadata.tables
    games_t, seats_t, events_t = tables["games"], tables["seats"], tables["events"]
    commands_t, snapshots_t = tables["commands"], tables["snapshots"]

    with engine.connect() as connection:
        rows_of: dict[str, dict[str, list[dict]]] = {}
        for template in templates:
            gid = template.game_id
            rows_of[gid] = {
                "games": [dict(r._mapping) for r in connection.execute(
                    sa.select(games_t).where(games_t.c.id == gid))],
                "seats": [dict(r._mapping) for r in connection.execute(
                    sa.select(seats_t).where(seats_t.c.game_id == gid))],
                "events": [dict(r._mapping) for r in connection.execute(
                    sa.select(events_t).where(events_t.c.game_id == gid))],
                "commands": [dict(r._mapping) for r in connection.execute(
                    sa.select(commands_t).where(commands_t.c.game_id == gid))],
                "snapshots": [dict(r._mapping) for r in connection.execute(
                    sa.select(snapshots_t).where(snapshots_t.c.game_id == gid))],
            }

    by_status: dict[str, list[Template]] = {}
    for template in templates:
        by_status.setdefault(template.status, []).append(template)
    created: dict[str, list[str]] = {status: [] for status in counts}
    pending: dict[str, list[dict]] = {n: [] for n in ("games", "seats", "events", "commands",
                                                       "snapshots")}
    heavy_left = heavy_games

    def flush() -> None:
        with engine.begin() as connection:
            for name, table in (("games", games_t), ("seats", seats_t), ("events", events_t),
                                ("commands", commands_t), ("snapshots", snapshots_t)):
                if pending[name]:
                    connection.execute(table.insert(), pending[name])
                    pending[name].clear()

    for status, count in counts.items():
        choices = by_status[status]
        for _ in range(count):
            template = rng.choice(choices)
            source = rows_of[template.game_id]
            new_id = _random_id(rng, 8)
            users = rng.sample(user_ids, len(template.user_ids))
            if heavy_left > 0 and heavy_user not in users:
                users[0] = heavy_user
                heavy_left -= 1
            user_map = dict(zip(template.user_ids, users, strict=True))
            id_map = {str(old): str(new) for old, new in user_map.items()}
            for row in source["games"]:
                pending["games"].append(row | {
                    "id": new_id, "join_code": _random_id(rng, 10),
                    "created_by": user_map[row["created_by"]]})
            for row in source["seats"]:
                copy = {k: v for k, v in row.items() if k != "id"}
                copy["game_id"] = new_id
                if copy["user_id"] is not None:
                    copy["user_id"] = user_map[copy["user_id"]]
                pending["seats"].append(copy)
            for name, column in (("events", "payload"), ("commands", "command"),
                                 ("snapshots", "state")):
                for row in source[name]:
                    pending[name].append(row | {"game_id": new_id,
                                                column: _rewrite_ids(row[column], id_map)})
            created[status].append(new_id)
            if len(pending["events"]) > batch * 50 or len(pending["games"]) >= batch:
                flush()
    flush()
    return created


def count_rows(engine: sa.Engine, table: str) -> int:
    with engine.connect() as connection:
        return connection.execute(sa.text(f'SELECT count(*) FROM "{table}"')).scalar_one()
