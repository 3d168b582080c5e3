"""A command retried with the same Idempotency-Key answers the first response and appends nothing,
however late the retry comes; the same key with another body is refused with 422; keys belong to
one user; concurrent retries of one key append the command once."""

from __future__ import annotations

import random
import threading

import requests

from tests.reliability.helpers import event_log, verify_log

RETRIES = 8


def _to_act(api, game_id, seats):
    info = api.ok("GET", f"/games/{game_id}", seats[0])
    player = seats[info["current_seat"]]
    return player, api.ok("GET", f"/games/{game_id}/legal", player)


def test_a_retry_answers_the_first_response_and_appends_nothing(api, db, ada, bob):
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    player, legal = _to_act(api, game_id, seats)
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    key = {"Idempotency-Key": "turn-1-first-command"}

    status, first, _ = api.call("POST", f"/games/{game_id}/commands", player, body, headers=key)
    assert status == 201, first
    after_first = event_log(db, game_id)

    for _ in range(3):
        status, again, _ = api.call("POST", f"/games/{game_id}/commands", player, body,
                                    headers=key)
        assert (status, again) == (201, first)
    assert event_log(db, game_id) == after_first

    # Another body under the same key: refused, nothing appended.
    other = dict(body, expected_version=first["version"])
    status, refused, _ = api.call("POST", f"/games/{game_id}/commands", player, other, headers=key)
    assert status == 422, refused
    assert "turn-1-first-command" in refused["message"] and "new key" in refused["message"]
    assert event_log(db, game_id) == after_first

    # The game moves on; a late retry still answers the first response, not a 409.
    api.play(game_id, seats, 3, random.Random(1))
    moved_on = event_log(db, game_id)
    assert moved_on != after_first
    status, late, _ = api.call("POST", f"/games/{game_id}/commands", player, body, headers=key)
    assert (status, late) == (201, first)
    assert event_log(db, game_id) == moved_on
    verify_log(db, game_id)


def test_keys_belong_to_one_user(api, db, ada, bob):
    """Bob reusing Ada's key gets his own command applied, never Ada's stored response."""
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    key = {"Idempotency-Key": "same-key"}
    first_player, legal = _to_act(api, game_id, seats)
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    status, first, _ = api.call("POST", f"/games/{game_id}/commands", first_player, body,
                                headers=key)
    assert status == 201, first
    rng = random.Random(2)
    for _ in range(60):  # a turn takes a handful of commands
        player, legal = _to_act(api, game_id, seats)
        if player.id != first_player.id:
            break
        api.play(game_id, seats, 1, rng)
    assert player.id != first_player.id, "the turn never passed to the other player"
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    status, second, _ = api.call("POST", f"/games/{game_id}/commands", player, body, headers=key)
    assert status == 201, second
    assert second["version"] > first["version"] and second != first
    verify_log(db, game_id)


def test_concurrent_retries_of_one_key_append_the_command_once(api, served, db, ada, bob):
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    player, legal = _to_act(api, game_id, seats)
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    barrier = threading.Barrier(RETRIES)
    results: list = [None] * RETRIES

    def client(index: int) -> None:
        with requests.Session() as session:
            session.get(f"{served}/api/v1/health", timeout=30)
            barrier.wait(timeout=30)
            response = session.post(
                f"{served}/api/v1/games/{game_id}/commands", json=body, timeout=60,
                headers={**player.headers, "Idempotency-Key": "retry-storm"})
            results[index] = (response.status_code, response.json())

    threads = [threading.Thread(target=client, args=(i,)) for i in range(RETRIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    created = [answer for status, answer in results if status == 201]
    others = [status for status, _ in results if status != 201]
    # A retry that raced its own first attempt gets the stored answer too, not a 409.
    assert others == [] and all(answer == created[0] for answer in created), results
    commands = [row for row in event_log(db, game_id) if row[0] == "command"]
    assert len(commands) == 2  # start_game and this one command, once
    status, again, _ = api.call("POST", f"/games/{game_id}/commands", player, body,
                                headers={"Idempotency-Key": "retry-storm"})
    assert (status, again) == (201, created[0])
    verify_log(db, game_id)
    print(f"idempotency: {RETRIES} concurrent retries -> {len(created)} x 201 (same body), "
          f"{len(others)} x 409, 1 command appended")
