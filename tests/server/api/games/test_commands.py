"""Playing commands and reading views: versions, idempotency, authorisation, ETags, the feed."""

from __future__ import annotations

import random
import threading
import time

import pytest

from tests.server.helpers import assert_error
from tests.server.play import create_started_game


def legal_of(client, game_id, player):
    return client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json


def post(client, game_id, player, body, **headers):
    return client.post(f"/api/v1/games/{game_id}/commands", json=body,
                       headers={**player.headers, **headers})


def test_a_legal_command_is_appended(client, game):
    game_id, seats = game
    mover = seats[0]
    legal = legal_of(client, game_id, mover)
    assert legal["seat"] == 0 and legal["commands"]
    assert legal_of(client, game_id, seats[1])["commands"] == []
    command = legal["commands"][0]
    response = post(client, game_id, mover, {"command": command,
                                             "expected_version": legal["version"]})
    assert response.status_code == 201
    body = response.json
    assert body["version"] > legal["version"]
    assert [e["seq"] for e in body["events"]] == list(range(legal["version"] + 1,
                                                             body["version"] + 1))
    assert all(e["actor"] == f"user:{mover.id}" for e in body["events"])
    feed = client.get(f"/api/v1/games/{game_id}/events?after={legal['version']}",
                      headers=mover.headers).json
    assert feed["events"] == body["events"]


def test_the_seat_defaults_to_the_callers(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    command = {k: v for k, v in legal["commands"][0].items() if k != "seat"}
    response = post(client, game_id, seats[0], {"command": command,
                                                "expected_version": legal["version"]})
    assert response.status_code == 201, response.json


def test_a_stale_version_answers_409_with_the_current_one(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = assert_error(post(client, game_id, seats[0], {"command": legal["commands"][0],
                                                         "expected_version": 0}),
                        409, f"at version {legal['version']}, you sent 0")
    assert body["details"]["current_version"] == legal["version"]


def test_if_match_carries_the_version(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = {"command": legal["commands"][0]}
    wrong = assert_error(post(client, game_id, seats[0], body, **{"If-Match": '"1"'}), 412,
                         "If-Match said 1")
    assert wrong["details"]["current_version"] == legal["version"]
    assert_error(post(client, game_id, seats[0], body, **{"If-Match": "soon"}), 422, "If-Match")
    ok = post(client, game_id, seats[0], body, **{"If-Match": f'"{legal["version"]}"'})
    assert ok.status_code == 201


def test_no_version_at_all_answers_428(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    assert_error(post(client, game_id, seats[0], {"command": legal["commands"][0]}), 428,
                 "expected_version")


def test_an_illegal_command_answers_422_with_the_engines_reason(client, game):
    game_id, seats = game
    version = legal_of(client, game_id, seats[0])["version"]
    body = assert_error(post(client, game_id, seats[0], {"command": {"type": "end_turn"},
                                                         "expected_version": version}), 422)
    assert body["message"] and "Internal" not in body["message"]
    assert_error(post(client, game_id, seats[0], {"command": {"type": "fly_away"},
                                                  "expected_version": version}), 422, "fly_away")
    assert_error(post(client, game_id, seats[0], {"command": {"type": "move", "hex": "99z"},
                                                  "expected_version": version}), 422)
    assert_error(post(client, game_id, seats[0], {"command": {"type": "move", "seat": "x"},
                                                  "expected_version": version}), 422, "seat")
    assert_error(post(client, game_id, seats[0], {"expected_version": version}), 422, "command")
    # nothing was appended
    assert legal_of(client, game_id, seats[0])["version"] == version


def test_playing_another_seat_answers_403(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    command = dict(legal["commands"][0], seat=0)
    body = assert_error(post(client, game_id, seats[1], {"command": command,
                                                         "expected_version": legal["version"]}),
                        403, "not yours: you play as")
    assert body["details"] == {"your_seat": 1}
    assert body["message"] == (f"command.seat is {seats[0].name}'s, not yours: you play as "
                               f"{seats[1].name} (leave command.seat out: it is yours by default)")
    assert "seat 0" not in body["message"] and "seat 1" not in body["message"]


def test_outsiders_get_404_before_any_precondition(client, game, eve):
    game_id, seats = game
    # no version, wrong version, someone else's seat: a stranger learns only "not found"
    for body in ({"command": {"type": "end_turn"}},
                 {"command": {"type": "end_turn", "seat": 0}, "expected_version": 99}):
        assert_error(post(client, game_id, eve, body), 404, game_id)
    for path in ("", "/view", "/legal", "/events", "/export"):
        assert_error(client.get(f"/api/v1/games/{game_id}{path}", headers=eve.headers), 404)
    assert_error(client.get(f"/api/v1/games/{game_id}/view"), 404)
    assert_error(client.post(f"/api/v1/games/{game_id}/commands",
                             json={"command": {"type": "end_turn"}}), 401)


def test_spectators_of_public_games_may_watch_but_not_play(client, ada, bob, eve):
    game = create_started_game(client, [ada, bob], public=True)
    view = client.get(f"/api/v1/games/{game['id']}/view")
    assert view.status_code == 200 and view.json["viewer"] is None
    assert all("objectives" not in p for p in view.json["players"])
    assert client.get(f"/api/v1/games/{game['id']}/events").status_code == 200
    assert client.get(f"/api/v1/games/{game['id']}/legal", headers=eve.headers).json[
        "commands"] == []
    assert_error(post(client, game["id"], eve, {"command": {"type": "end_turn"},
                                                "expected_version": 1}), 403, "do not play")


def test_an_idempotency_key_replays_the_stored_answer(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    first = post(client, game_id, seats[0], body, **{"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    again = post(client, game_id, seats[0], body, **{"Idempotency-Key": "k-1"})
    assert again.status_code == 201
    assert again.json == first.json
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert feed["version"] == first.json["version"]  # nothing appended the second time
    other = dict(body, expected_version=first.json["version"])
    assert_error(post(client, game_id, seats[0], other, **{"Idempotency-Key": "k-1"}), 422,
                 "k-1", "another request")


def test_the_view_has_an_etag_and_earlier_versions(client, game):
    game_id, seats = game
    player = seats[0]
    view = client.get(f"/api/v1/games/{game_id}/view", headers=player.headers)
    assert view.status_code == 200
    version = view.json["version"]
    assert view.headers["ETag"] == f'"{version}"'
    assert view.json["viewer"] == 0
    unchanged = client.get(f"/api/v1/games/{game_id}/view",
                           headers={**player.headers, "If-None-Match": f'"{version}"'})
    assert unchanged.status_code == 304 and unchanged.data == b""
    legal = legal_of(client, game_id, player)
    post(client, game_id, player, {"command": legal["commands"][0], "expected_version": version})
    changed = client.get(f"/api/v1/games/{game_id}/view",
                         headers={**player.headers, "If-None-Match": f'"{version}"'})
    assert changed.status_code == 200 and changed.json["version"] > version
    earlier = client.get(f"/api/v1/games/{game_id}/view?version={version}",
                         headers=player.headers)
    assert earlier.json == view.json
    assert_error(client.get(f"/api/v1/games/{game_id}/view?version=9999",
                            headers=player.headers), 422, "no version 9999")
    assert_error(client.get(f"/api/v1/games/{game_id}/view?version=0",
                            headers=player.headers), 422, "version")


def test_the_feed_long_polls(app, client, game):
    game_id, seats = game
    version = legal_of(client, game_id, seats[0])["version"]
    started = time.monotonic()
    empty = client.get(f"/api/v1/games/{game_id}/events?after={version}&wait=0.6",
                       headers=seats[0].headers)
    assert empty.json == {"version": version, "events": []}
    assert time.monotonic() - started >= 0.5

    def play_soon():
        time.sleep(0.4)
        legal = legal_of(app.test_client(), game_id, seats[0])
        post(app.test_client(), game_id, seats[0], {"command": legal["commands"][0],
                                                    "expected_version": legal["version"]})

    thread = threading.Thread(target=play_soon)
    thread.start()
    started = time.monotonic()
    woken = client.get(f"/api/v1/games/{game_id}/events?after={version}&wait=10",
                       headers=seats[0].headers)
    thread.join()
    assert time.monotonic() - started < 8
    assert woken.json["events"] and woken.json["events"][0]["seq"] == version + 1
    assert_error(client.get(f"/api/v1/games/{game_id}/events?after=-1",
                            headers=seats[0].headers), 422, "after")


def test_the_answer_lists_the_callers_next_commands(client, game):
    """A turn of several commands needs no read between them: each answer lists what GET /legal
    would, and nothing once the decision has passed to the other player."""
    game_id, seats = game
    rng = random.Random(3)
    seat, passed, within = 0, 0, 0
    for _ in range(400):
        if passed >= 6 and within >= 10:
            break
        legal = legal_of(client, game_id, seats[seat])
        if not legal["commands"]:
            seat = 1 - seat
            continue
        answer = post(client, game_id, seats[seat], {"command": rng.choice(legal["commands"]),
                                                     "expected_version": legal["version"]})
        assert answer.status_code == 201, answer.json
        now = legal_of(client, game_id, seats[seat])
        assert answer.json["version"] == now["version"]
        assert answer.json["legal"] == now["commands"]
        if answer.json["legal"]:
            within += 1
        else:
            passed += 1
            assert legal_of(client, game_id, seats[1 - seat])["commands"]
    assert within >= 10 and passed >= 6


def test_a_commands_answer_carries_the_etag_for_the_next_if_match(client, game):
    game_id, seats = game
    player = seats[0]
    legal = legal_of(client, game_id, player)
    first = post(client, game_id, player, {"command": legal["commands"][0]},
                 **{"If-Match": f'"{legal["version"]}"'})
    assert first.status_code == 201
    assert first.headers["ETag"] == f'"{first.json["version"]}"'
    view = client.get(f"/api/v1/games/{game_id}/view", headers=player.headers)
    assert view.headers["ETag"] == first.headers["ETag"]  # the same tag for the same version
    follow = legal_of(client, game_id, player)["commands"]
    if follow:  # the next command of the same turn, named by the tag the first one gave
        second = post(client, game_id, player, {"command": follow[0]},
                      **{"If-Match": first.headers["ETag"]})
        assert second.status_code == 201, second.json


def test_an_idempotent_replay_carries_the_same_etag(client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    first = post(client, game_id, seats[0], body, **{"Idempotency-Key": "k-etag"})
    again = post(client, game_id, seats[0], body, **{"Idempotency-Key": "k-etag"})
    assert again.headers["ETag"] == first.headers["ETag"] == f'"{first.json["version"]}"'


def test_if_none_match_answers_304_for_an_earlier_version(client, game):
    game_id, seats = game
    player = seats[0]
    earlier = client.get(f"/api/v1/games/{game_id}/view?version=1", headers=player.headers)
    assert earlier.status_code == 200
    again = client.get(f"/api/v1/games/{game_id}/view?version=1",
                       headers={**player.headers, "If-None-Match": earlier.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == earlier.headers["ETag"]
    other = client.get(f"/api/v1/games/{game_id}/view?version=1",
                       headers={**player.headers, "If-None-Match": '"999"'})
    assert other.status_code == 200


@pytest.mark.parametrize("server_only", ["start_game", "rhom_turn"])
def test_the_commands_the_server_plays_are_refused(client, game, server_only):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    assert_error(post(client, game_id, seats[0], {"command": {"type": server_only},
                                                  "expected_version": legal["version"]}),
                 422, server_only)
    assert legal_of(client, game_id, seats[0])["version"] == legal["version"]
