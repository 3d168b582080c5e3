"""16 clients post a command to one game at the same expected version at the same moment, over
real HTTP to a threaded server: exactly one is accepted, the 15 others get 409 with the version
to refresh to; the log stays whole (no gap, no duplicate) and the served state is the replay."""

from __future__ import annotations

import random
import threading
import time

import requests

import engine
from tests.reliability.helpers import verify_log

CLIENTS = 16
ROUNDS = 3


def _race(base: str, game_id: str, player, commands: list[dict], version: int,
          if_match: bool = False) -> list:
    """Every client posts its command once the barrier opens; returns (status, body) each.
    ``if_match``: the version goes in an If-Match header rather than the body."""
    barrier = threading.Barrier(CLIENTS)
    results: list = [None] * CLIENTS

    def client(index: int) -> None:
        with requests.Session() as session:
            session.get(f"{base}/api/v1/health", timeout=30)  # connect before the start line
            barrier.wait(timeout=30)
            command = {"command": commands[index % len(commands)]}
            if if_match:
                headers = {**player.headers, "If-Match": f'"{version}"'}
            else:
                headers, command["expected_version"] = player.headers, version
            response = session.post(f"{base}/api/v1/games/{game_id}/commands", headers=headers,
                                    timeout=60, json=command)
            results[index] = (response.status_code, response.json())

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(result is not None for result in results), "a client never got its answer"
    return results


def test_sixteen_clients_at_one_version_one_wins_the_rest_get_409(api, served, db, ada, bob):
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    rng = random.Random(8)
    started = time.monotonic()
    for round_number in range(ROUNDS):
        info = api.ok("GET", f"/games/{game_id}", ada)
        player = seats[info["current_seat"]]
        legal = api.ok("GET", f"/games/{game_id}/legal", player)
        commands = legal["commands"]
        rng.shuffle(commands)
        version = legal["version"]

        results = _race(served, game_id, player, commands, version)

        statuses = sorted(status for status, _ in results)
        assert statuses == [201] + [409] * (CLIENTS - 1), (round_number, statuses)
        [winner] = [body for status, body in results if status == 201]
        for status, body in results:
            if status == 409:
                assert body["details"]["current_version"] == winner["version"], body
                assert "refresh and retry" in body["message"], body
        assert [event["seq"] for event in winner["events"]] == list(
            range(version + 1, winner["version"] + 1))
    elapsed = time.monotonic() - started

    state = verify_log(db, game_id)
    final = api.ok("GET", f"/games/{game_id}", ada)["version"]
    for seat, player in seats.items():
        served_view = api.ok("GET", f"/games/{game_id}/view", player)
        assert served_view.pop("version") == final
        assert served_view == engine.view(state, seat)
    print(f"race: {ROUNDS} rounds x {CLIENTS} clients, {ROUNDS} accepted, "
          f"{ROUNDS * (CLIENTS - 1)} refused with 409, log at version {final}, {elapsed:.2f} s")


def test_racing_stale_if_match_posts_answer_412(api, served, db, ada, bob):
    """Issue 32: some of the racing posts that named their version by If-Match answered 409
    (they passed the check, then lost at the commit); the contract says 412 for all of them."""
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    info = api.ok("GET", f"/games/{game_id}", ada)
    player = seats[info["current_seat"]]
    legal = api.ok("GET", f"/games/{game_id}/legal", player)
    results = _race(served, game_id, player, legal["commands"], legal["version"], if_match=True)
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [412] * (CLIENTS - 1), statuses
    [winner] = [body for status, body in results if status == 201]
    assert all(body["details"]["current_version"] == winner["version"]
               for status, body in results if status == 412)
    verify_log(db, game_id)
    print(f"race with If-Match: 1 accepted, {CLIENTS - 1} refused with 412")
