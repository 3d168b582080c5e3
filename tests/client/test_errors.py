"""Failures a player meets: a clear message, exit status 1 (or 2 for usage), never a traceback.
Here against a scripted stand-in server; test_end_to_end repeats them against the real one."""

from __future__ import annotations

import socket

import requests

from client import http

GAME = {"id": "g1", "status": "active", "version": 11, "seats": 2, "players": [
    {"seat": 0, "user_id": "u1", "name": "Ada", "kind": "human"},
    {"seat": 1, "user_id": "u2", "name": "Bob", "kind": "human"}],
    "is_my_turn": True, "my_seat": 0, "current_seat": 0, "pending_kind": "turn"}


def env(server):
    return {"IRIDESCIA_SERVER": server.url, "IRIDESCIA_TOKEN": "tok"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_server(run):
    url = f"http://127.0.0.1:{free_port()}"
    result = run("games", env={"IRIDESCIA_SERVER": url, "IRIDESCIA_TOKEN": "tok"})
    assert result.exit_code == 1
    assert result.output == (
        f"Error: cannot reach the server at {url} (ConnectionError). Is it running? Check the "
        "address with `iridescia config` or set IRIDESCIA_SERVER.\n"
    )


def test_bad_token(run, standin):
    standin.answer("GET", "/games", 401, {"code": 401, "status": "Unauthorized",
                                          "message": "unknown or revoked token"})
    result = run("games", env=env(standin))
    assert result.exit_code == 1
    assert result.output == (
        "Error: the server did not accept your token (unknown or revoked token). Run "
        "`iridescia register`, or set IRIDESCIA_TOKEN to a valid token.\n"
    )


def test_illegal_move_prints_the_engines_reason(run, standin):
    standin.answer("GET", "/games/g1", 200, GAME)
    standin.answer("POST", "/games/g1/commands", 422, {
        "code": 422, "status": "Unprocessable Entity",
        "message": "hex 5c is not ahead of or beside your explorer at 3b"})
    result = run("move", "g1", "5c", env=env(standin))
    assert result.exit_code == 1
    assert result.output == "Error: rejected: hex 5c is not ahead of or beside your explorer at 3b\n"
    sent = standin.requests[-1]
    assert sent["json"] == {"command": {"type": "move", "hex": "5c"}, "expected_version": 11}
    assert sent["headers"]["Idempotency-Key"]


def test_stale_version_says_what_changed(run, standin):
    standin.answer("GET", "/games/g1", 200, dict(GAME, version=13))
    standin.answer("POST", "/games/g1/commands", 409, {
        "code": 409, "status": "Conflict",
        "message": "the game is at version 13, you sent 11: refresh and retry",
        "details": {"current_version": 13}})
    standin.answer("GET", "/games/g1/events", 200, {"version": 13, "events": [
        {"seq": 12, "type": "explorer_moved", "payload": {"seat": 1, "hex": "3c", "via": "move"},
         "actor": "u2", "at": "2026-01-01T00:00:00Z"},
        {"seq": 13, "type": "gems_gained", "payload": {"seat": 1, "gem": "emerald", "count": 1,
                                                       "source": "tile"},
         "actor": "u2", "at": "2026-01-01T00:00:01Z"}]})
    result = run("end", "g1", "--expect-version", "11", env=env(standin))
    assert result.exit_code == 1
    assert result.output == (
        "The game moved on since you last looked; your command was not sent. What changed:\n"
        "  Continued\n"
        "    Bob moved to 3c: an emerald.\n"
        "Your turn. Look again with `iridescia show g1` and retry.\n"
        "Error: the game moved on before your command arrived: nothing was sent\n"
    )
    assert standin.requests[-1]["args"] == {"after": "11"}


def test_the_version_last_seen_is_the_one_sent(run, standin):
    standin.answer("GET", "/games/g1/legal", 200, {"version": 9, "seat": 0, "commands": []})
    standin.answer("GET", "/games/g1", 200, dict(GAME, version=9, is_my_turn=False,
                                                 current_seat=1))
    assert run("legal", "g1", env=env(standin)).exit_code == 0
    standin.answer("POST", "/games/g1/commands", 201, {"version": 10, "events": [
        {"seq": 10, "type": "turn_ended", "payload": {"seat": 0}, "actor": "u1", "at": "x"}]})
    result = run("end", "g1", env=env(standin))
    assert result.exit_code == 0, result.output
    posted = [r for r in standin.requests if r["method"] == "POST"][-1]
    assert posted["json"]["expected_version"] == 9


def test_a_server_error_page_is_a_message_not_a_traceback(run, standin):
    standin.answer("GET", "/games", 500, raw="<h1>Internal Server Error</h1>\n<p>boom</p>")
    result = run("games", env=env(standin))
    assert result.exit_code == 1
    assert result.output == "Error: the server answered 500: <h1>Internal Server Error</h1>\n"


class FlakyAdapter(requests.adapters.HTTPAdapter):
    """Drops the first `failures` requests as a broken network would, remembering each."""

    def __init__(self, failures: int):
        super().__init__()
        self.failures = failures
        self.seen = []

    def send(self, request, **kwargs):
        self.seen.append(dict(request.headers))
        if len(self.seen) <= self.failures:
            raise requests.ConnectionError("connection reset by peer")
        return super().send(request, **kwargs)


def test_a_command_is_retried_with_the_same_idempotency_key(standin):
    standin.answer("POST", "/games/g1/commands", 201, {"version": 12, "events": []})
    session = requests.Session()
    adapter = FlakyAdapter(failures=2)
    session.mount("http://", adapter)
    api = http.ApiClient(standin.url, "tok", session=session)
    assert api.send_command("g1", {"type": "end_turn"}, 11) == {"version": 12, "events": []}
    keys = {headers["Idempotency-Key"] for headers in adapter.seen}
    assert len(adapter.seen) == 3 and len(keys) == 1
    assert len([r for r in standin.requests if r["method"] == "POST"]) == 1


def test_registration_is_not_retried_blindly(standin):
    session = requests.Session()
    adapter = FlakyAdapter(failures=1)
    session.mount("http://", adapter)
    api = http.ApiClient(standin.url, None, session=session)
    try:
        api.post("/users", {"name": "Ada", "email": "a@x"}, auth=False)
    except http.Unreachable as error:
        assert "cannot reach the server" in error.message
    else:
        raise AssertionError("a failed registration must not be silently repeated")
    assert len(adapter.seen) == 1


def test_a_gateway_error_is_retried_under_the_same_key(run, standin):
    standin.answer("GET", "/games/g1", 200, GAME)
    standin.answer("POST", "/games/g1/commands", 503, raw="<h1>503 Service Unavailable</h1>")
    standin.answer("POST", "/games/g1/commands", 201, {"version": 12, "events": [
        {"seq": 12, "type": "tile_collected",
         "payload": {"seat": 0, "hex": "1b", "tile": "desert_rainbow"}, "actor": "u1", "at": "x"}]})
    result = run("end", "g1", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "You collected the Desert Rainbow tile from 1b."
    posts = [r for r in standin.requests if r["method"] == "POST"]
    assert len(posts) == 2
    assert posts[0]["headers"]["Idempotency-Key"] == posts[1]["headers"]["Idempotency-Key"]


def test_the_answer_to_a_command_tells_the_rhoms_turn_that_followed(run, standin):
    solo = {"id": "g1", "status": "active", "version": 11, "seats": 1, "players": [
        {"seat": 0, "user_id": None, "name": "Rhom", "kind": "rhom"},
        {"seat": 1, "user_id": "u1", "name": "Ada", "kind": "human"}],
        "is_my_turn": False, "my_seat": 1, "current_seat": 0, "pending_kind": "rhom"}
    standin.answer("GET", "/games/g1", 200, solo)
    standin.answer("POST", "/games/g1/commands", 201, {"version": 14, "events": [
        {"seq": 12, "type": "tile_collected", "actor": "u1", "at": "x",
         "payload": {"seat": 1, "hex": "2c", "tile": "desert_rainbow"}},
        {"seq": 13, "type": "turn_started", "actor": "u1", "at": "x",
         "payload": {"seat": 0, "kind": "rhom", "number": 8, "extra": False}},
        {"seq": 14, "type": "rhom_card_drawn", "actor": "u1", "at": "x", "payload": {"card": 6}}]})
    result = run("end", "g1", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "You collected the Desert Rainbow tile from 2c.\n"
        "Turn 8: the Rhom\n"
        "  The Rhom drew card 6 (double).\n"
        "Waiting for the Rhom.\n"
    )
