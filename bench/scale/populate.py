"""Fill a database with many games in mixed states, fast.

A few *template* games are played for real through the app (in-process test client: the server's
own code writes every row: game, seats, events, commands, snapshots, due times). Then each stored
game is a copy of a template's rows under a new game id, with its seats given to other users, so
10,000 games cost seconds instead of an hour. Player ids inside event payloads, commands and
snapshots are rewritten to the copy's users, so every copy replays and reads like a real game.
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from bench.accounts import client_signed_up

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
    return client_signed_up(client, name, f"{name}-{rng.randrange(1 << 40):x}@bench.example")


def open_template(client, rng: random.Random, seats: int, tag: str) -> Template:
    """A game waiting for players: created, nobody else joined."""
    user = register(client, tag, rng)
    status, game = _client_call(client, "POST", f"{API}/games", user["token"], {"seats": seats})
    assert status == 201, game
    return Template(game["id"], "open", seats, [user["id"]], [user["token"]])


def play_template(client, rng: random.Random, players: int, commands: int, tag: str,
                  until_events: int | None = None) -> Template:
    """Register ``players`` users, create, join and start a game, then post up to ``commands``
    random legal commands (fewer if the game ends, or once it has ``until_events`` events)."""
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
        if game["status"] != "active" or (until_events and game["version"] >= until_events):
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


TABLES = {  # the columns copied, read and written untyped: values go to the driver as stored
    "games": None, "seats": None, "events": "payload", "commands": "command", "snapshots": "state",
}


def _untyped(connection, name: str) -> sa.TableClause:
    columns = [c["name"] for c in sa.inspect(connection).get_columns(name)]
    return sa.table(name, *[sa.column(c) for c in columns])


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def clone_games(engine: sa.Engine, templates: list[Template], counts: dict[str, int],
                user_ids: list[int], rng: random.Random, heavy_user: int,
                heavy_games: int, batch: int = 200,
                heavy: dict[int, int] | None = None) -> dict[str, list[str]]:
    """Insert copies of the templates: ``counts`` per status. Returns new ids per status.

    Rows are read and written through untyped columns, so each value reaches the database in the
    form it was stored in; JSON is parsed only where a player id must be rewritten."""
    with engine.connect() as connection:
        tables = {name: _untyped(connection, name) for name in TABLES}
        source: dict[str, dict[str, list[dict]]] = {}
        for template in templates:
            source[template.game_id] = {}
            for name, table in tables.items():
                rows = [dict(r._mapping) for r in connection.execute(
                    sa.select(table).where(table.c["id" if name == "games" else "game_id"]
                                           == template.game_id))]
                json_column = TABLES[name]
                for row in rows:
                    if json_column:
                        text = _as_text(row[json_column])
                        row[json_column] = text
                        row["_rewrite"] = any(key in text for key in PLAYER_ID_KEYS)
                    if name == "games":
                        row["variants"] = _as_text(row["variants"])
                    if name == "seats":
                        del row["id"]
                source[template.game_id][name] = rows

    by_status: dict[str, list[Template]] = {}
    for template in templates:
        by_status.setdefault(template.status, []).append(template)
    created: dict[str, list[str]] = {status: [] for status in counts}
    pending: dict[str, list[dict]] = {name: [] for name in TABLES}
    # Users who play in many games: user id -> games still to give them.
    heavy_left = dict(heavy or {})
    if heavy_games > 0:
        heavy_left[heavy_user] = heavy_games

    def flush() -> None:
        with engine.begin() as connection:
            for name, table in tables.items():
                if pending[name]:
                    connection.execute(table.insert(), pending[name])
                    pending[name].clear()

    for status, count in counts.items():
        for _ in range(count):
            template = rng.choice(by_status[status])
            rows = source[template.game_id]
            new_id = _random_id(rng, 8)
            users = rng.sample(user_ids, len(template.user_ids))
            for index, (user, left) in enumerate(
                    (u, n) for u, n in heavy_left.items() if n > 0):
                if index >= len(users):
                    break
                if user not in users:
                    users[index] = user
                    heavy_left[user] = left - 1
            user_map = dict(zip(template.user_ids, users, strict=True))
            id_map = {str(old): str(new) for old, new in user_map.items()}
            for row in rows["games"]:
                pending["games"].append(row | {"id": new_id, "join_code": _random_id(rng, 10),
                                               "created_by": user_map[row["created_by"]]})
            for row in rows["seats"]:
                user = row["user_id"]
                pending["seats"].append(row | {"game_id": new_id,
                                               "user_id": user_map[user] if user else None})
            for name in ("events", "commands", "snapshots"):
                column = TABLES[name]
                for row in rows[name]:
                    copy = {k: v for k, v in row.items() if k != "_rewrite"}
                    copy["game_id"] = new_id
                    if row["_rewrite"]:
                        copy[column] = json.dumps(_rewrite_ids(json.loads(row[column]), id_map))
                    pending[name].append(copy)
            created[status].append(new_id)
            if len(pending["games"]) >= batch:
                flush()
    flush()
    return created


def count_rows(engine: sa.Engine, table: str) -> int:
    with engine.connect() as connection:
        return connection.execute(sa.text(f'SELECT count(*) FROM "{table}"')).scalar_one()
