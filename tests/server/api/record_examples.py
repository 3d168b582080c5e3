"""The success bodies' examples of openapi.yaml, recorded from real answers of this server
(issue 32: about 27 of 46 had none). Run ``python -m tests.server.api.record_examples`` after a
body changes, then ``make openapi``: it plays accounts, games, plans, webhooks, vacations, seeks
and the rest on a fresh SQLite database and writes each operation's answer into
``server/api/examples.json`` (under "operations", keyed ``METHOD /path STATUS``), long lists cut
to their first items and the webhook's address made a public one. test_success_examples.py
checks every success body has one and that each fits its schema."""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[3] / "server" / "api" / "examples.json"
API = "/api/v1"
LONGEST_LIST = 2
HOOK = "http://127.0.0.1:9/hook"


def _cut(value: Any) -> Any:
    if isinstance(value, list):
        return [_cut(item) for item in value[:LONGEST_LIST]]
    if isinstance(value, dict):
        return {key: _cut(item) for key, item in value.items()}
    if isinstance(value, str):
        return value.replace(HOOK, "https://hooks.example.org/iridescia")
    return value


def _play_to_the_end(app, client, players, ada, bo) -> str:  # noqa: ANN001
    """A game of Ada and Bo played at random to its end (the server's own turns included)."""
    import random

    from server.scheduler.automatic import play_due_turns
    from server.storage.db import app_engine
    from tests.server.play import create_started_game, play_one, seat_map

    game_id = create_started_game(client, players)["id"]
    seats, rng = seat_map(client, game_id, players), random.Random(32)
    for _ in range(5000):
        if play_one(client, game_id, seats, rng) is None:
            game = client.get(f"{API}/games/{game_id}", headers=players[0].headers).json
            if game["status"] == "finished":
                return game_id
            play_due_turns(app_engine(app), datetime.now(UTC) + timedelta(days=1))
    raise AssertionError(f"game {game_id} did not end")


def record(database_url: str) -> dict[str, Any]:
    from sqlmodel import select

    from server import create_app
    from server.mail.reply_addresses import prefs_token
    from server.storage.db import app_engine, session_scope
    from server.storage.models import User
    from tests.accounts import mailed_code, sign_up
    from tests.server.helpers import Player
    from tests.server.play import create_started_game

    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                      "WEBHOOK_ALLOW_PRIVATE": 1, "BASE_URL": "https://iridescia.example.org"})
    client = app.test_client()
    answers: dict[str, Any] = {}

    def call(method: str, path: str, template: str, token: str | None = None,
             body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.open(API + path, method=method, json=body, headers=headers)
        assert response.status_code < 300, (method, path, response.status_code, response.json)
        answers[f"{method} {API}{template} {response.status_code}"] = _cut(response.json)
        return response.json

    call("POST", "/users", "/users", body={"name": "Ada", "email": "ada@example.org"})

    ada = call("POST", "/users/verify", "/users/verify",
               body={"code": mailed_code(client, "ada@example.org", take=True)})
    bo = sign_up(client, "Bo", "bo@example.org")
    cy = sign_up(client, "Cy", "cy@example.org")
    call("POST", "/users/recover", "/users/recover", body={"email": "ada@example.org"})
    with session_scope(app_engine(app)) as session:  # Cy's address is to be confirmed again
        session.get(User, cy["id"]).verified_at = None
    call("POST", "/users/me/verification", "/users/me/verification", cy["token"])
    rotated = call("POST", "/users/me/token", "/users/me/token", cy["token"])
    call("GET", f"/users/{ada['id']}", "/users/{user_id}")
    call("GET", "/health", "/health")
    call("GET", "/rules/cards", "/rules/cards")
    call("GET", "/leaderboard", "/leaderboard")

    players = [Player(p["id"], p["name"], p["email"], p["token"]) for p in (ada, bo)]
    game = create_started_game(client, players)
    game_id = game["id"]
    first, second = ((ada, bo) if game["players"][game["current_seat"]]["user_id"] == ada["id"]
                     else (bo, ada))
    path = f"/games/{game_id}"
    call("GET", f"{path}/events?after=0", "/games/{game_id}/events", first["token"])
    call("GET", f"{path}/hint", "/games/{game_id}/hint", first["token"])
    call("POST", f"{path}/messages", "/games/{game_id}/messages", first["token"],
         {"text": "Good luck, both of you!"})
    call("GET", f"{path}/messages", "/games/{game_id}/messages", second["token"])
    call("PUT", f"{path}/plan", "/games/{game_id}/plan", second["token"],
         {"lines": ["move 3c or move 3d", "mine", "keep", "end"]})
    call("GET", f"{path}/plan", "/games/{game_id}/plan", second["token"])
    call("PUT", f"{path}/webhook", "/games/{game_id}/webhook", first["token"], {"url": HOOK})
    call("GET", f"{path}/webhook", "/games/{game_id}/webhook", first["token"])
    call("PUT", f"{path}/notifications", "/games/{game_id}/notifications", first["token"],
         {"email": "digest"})
    call("GET", f"{path}/notifications", "/games/{game_id}/notifications", first["token"])

    over = _play_to_the_end(app, client, players, ada, bo)
    call("GET", f"/games/{over}/export", "/games/{game_id}/export", ada["token"])
    waiting = call("POST", "/games", "/games", bo["token"], {"seats": 2})
    call("POST", f"/games/{waiting['id']}/invitations", "/games/{game_id}/invitations",
         bo["token"], {"email": "dee@example.org"})
    seek = call("POST", "/seeks", "/seeks", rotated["token"], {"seats": 3, "pace": "1d"})
    call("GET", "/seeks", "/seeks", rotated["token"])
    call("GET", f"/seeks/{seek['id']}", "/seeks/{seek_id}", rotated["token"])
    back = (datetime.now(UTC) + timedelta(days=7)).date().isoformat()
    call("POST", "/users/me/vacation", "/users/me/vacation", bo["token"], {"until": back})
    call("GET", "/users/me/vacation", "/users/me/vacation", bo["token"])
    call("DELETE", "/users/me/vacation", "/users/me/vacation", bo["token"])
    with session_scope(app_engine(app)) as session:
        user = session.exec(select(User).where(User.email == "ada@example.org")).one()
        unsubscribe = prefs_token(app.config["SECRET_KEY"], user.id, user.token_hash)
    call("GET", f"/mail/unsubscribe/{unsubscribe}", "/mail/unsubscribe/{token}")
    call("POST", f"/mail/unsubscribe/{unsubscribe}", "/mail/unsubscribe/{token}")
    return answers


def main() -> int:
    from server.storage.migrate import upgrade

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/examples.db"
        upgrade(url)
        answers = record(url)
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    examples["operations"] = dict(sorted(answers.items()))
    EXAMPLES.write_text(json.dumps(examples, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    print(f"{len(answers)} answers recorded into {EXAMPLES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
