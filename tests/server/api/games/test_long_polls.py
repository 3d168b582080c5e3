"""Long-polls (`GET /games/{id}/events?wait=`) under the production server: gunicorn with
deploy/gunicorn.conf.py (2 uvicorn workers, the ASGI front of server/asgi.py).

Waiting clients hold no thread: with 64 waits open, another player's requests are answered at
once. A command committed in another process (this test's own, through the Flask app on the same
database) wakes every waiter long before its wait is over, through each wake-up channel: the
SQLite file watcher, PostgreSQL's LISTEN/NOTIFY, Redis pub/sub.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from server import create_app
from tests.accounts import sign_up
from tests.server.cli.test_server_process import free_port
from tests.server.helpers import Player
from tests.server.play import create_started_game, play_one, seat_map

ROOT = Path(__file__).resolve().parents[4]
REDIS_URL = os.environ.get("IRIDESCIA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
WAIT_SECONDS = 25  # each waiter's wait: a wake-up must end it long before
WAKE_BOUND_SECONDS = 5  # from the commit to every waiter's answer
WAITERS = 64


@pytest.fixture(params=["database", "redis"])
def channel(request) -> str:
    """"database": the database's own channel (SQLite watcher, PostgreSQL NOTIFY)."""
    if request.param == "redis":
        import redis

        try:
            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        except redis.ConnectionError as error:
            pytest.fail(f"Redis is not reachable at {REDIS_URL}: {error}", pytrace=False)
    return request.param


@pytest.fixture
def local(database_url, channel):
    """This process's own app on the server's database and channel: the "other process" that
    commits."""
    config = {"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
              "ACCOUNT_REQUESTS_PER_HOUR": 100_000}
    if channel == "redis":
        config["WAKEUP_URL"] = REDIS_URL
    app = create_app(config)
    return app.test_client()


@pytest.fixture
def served(database_url, channel, tmp_path):
    """The base URL of gunicorn serving the app as deploy/ does, with 2 workers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("IRIDESCIA_")}
    env.update(IRIDESCIA_DATABASE_URL=database_url, IRIDESCIA_BIND=f"127.0.0.1:{port}",
               WEB_CONCURRENCY="2", IRIDESCIA_RATE_LIMIT="0", IRIDESCIA_LOG_LEVEL="warning",
               PYTHONPATH=str(ROOT))
    if channel == "redis":
        env["IRIDESCIA_WAKEUP_URL"] = REDIS_URL
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "--access-logfile", "/dev/null", "server.asgi:create_asgi_app()"],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail("gunicorn exited:\n" + (tmp_path / "gunicorn.log").read_text())
            try:
                if requests.get(f"{base}/api/v1/health", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            time.sleep(0.2)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def _register(client, name: str) -> Player:
    body = sign_up(client, name, f"{name}@example.org")
    return Player(body["id"], body["name"], body["email"], body["token"])


class Waits:
    """Long-polls opened in threads of this test (the client side), each one's answer kept."""

    def __init__(self, base: str, game_id: str, after: int, seconds: float = WAIT_SECONDS):
        self.url = f"{base}/api/v1/games/{game_id}/events"
        self.after, self.seconds = after, seconds
        self.answers: list[tuple[float, int, dict]] = []  # (when, status, body)
        self.threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def open(self, token: str | None) -> None:
        thread = threading.Thread(target=self._wait, args=(token,), daemon=True)
        thread.start()
        self.threads.append(thread)

    def _wait(self, token: str | None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.get(self.url, params={"after": self.after, "wait": self.seconds},
                                headers=headers, timeout=WAIT_SECONDS + 30)
        with self._lock:
            self.answers.append((time.monotonic(), response.status_code, response.json()))

    def join(self) -> None:
        for thread in self.threads:
            thread.join(WAIT_SECONDS + 30)


def test_open_waits_hold_no_thread_and_a_commit_elsewhere_wakes_them_all(served, local):
    players = [_register(local, f"player{i}") for i in range(2)]
    game = create_started_game(local, players, public=True)
    seats = seat_map(local, game["id"], players)
    version = local.get(f"/api/v1/games/{game['id']}", headers=players[0].headers).json["version"]
    watchers = [_register(local, f"watcher{i}") for i in range(WAITERS)]
    waits = Waits(served, game["id"], version)
    for watcher in watchers:
        waits.open(watcher.token)
    time.sleep(2)  # every wait has reached the server and found nothing new
    assert waits.answers == []

    # Another player is answered at once, though 64 waits are open on two workers.
    started = time.monotonic()
    answer = requests.get(f"{served}/api/v1/games/{game['id']}", headers=players[0].headers,
                          timeout=WAIT_SECONDS)
    assert answer.status_code == 200 and answer.json()["version"] == version
    assert time.monotonic() - started < 2, "a player's request waited behind the long-polls"

    # A command committed by another process wakes every waiter, on both workers.
    played = play_one(local, game["id"], seats, random.Random(7))
    assert played is not None
    committed = time.monotonic()
    waits.join()
    assert len(waits.answers) == WAITERS
    assert all(status == 200 for _when, status, _body in waits.answers)
    assert all(body["events"] and body["events"][0]["seq"] == version + 1
               for _when, _status, body in waits.answers)
    slowest = max(when for when, _status, _body in waits.answers) - committed
    assert slowest < WAKE_BOUND_SECONDS, f"the last waiter woke {slowest:.1f} s after the commit"


@pytest.mark.parametrize("channel", ["database"], indirect=True)
def test_a_client_has_a_few_open_waits_at_most(served, local):
    players = [_register(local, f"player{i}") for i in range(2)]
    game = create_started_game(local, players, public=True)
    version = local.get(f"/api/v1/games/{game['id']}", headers=players[0].headers).json["version"]
    waits = Waits(served, game["id"], version, seconds=3)
    # Four per client in each of the two workers: of nine, at least one is refused.
    for _ in range(9):
        waits.open(players[1].token)
    waits.join()
    refused = [body for _when, status, body in waits.answers if status == 429]
    assert refused, "nine open waits of one client were all accepted"
    assert "open waits" in refused[0]["message"] and "ask without wait" in refused[0]["message"]
    # The refusal is at once; the accepted ones waited (nothing happened in the game).
    assert len(refused) <= 5 and len(waits.answers) == 9
