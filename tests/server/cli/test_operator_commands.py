"""`iridescia-server users disable|enable`, `games abort`, `games show` and `audit` (issue 16,
"Also"): what each prints, what players notice, and the audit trail, on both databases."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from server.cli import main as server_cli
from server.storage.db import get_engine
from tests.server.helpers import assert_error


@pytest.fixture
def operator(database_url, monkeypatch):
    monkeypatch.setattr("server.cli.operators.getpass.getuser", lambda: "alice")

    def run(*args: str):
        return CliRunner().invoke(server_cli, list(args),
                                  env={"IRIDESCIA_DATABASE_URL": database_url})

    return run


def _rows(database_url: str, query: str, **params):
    with get_engine(database_url).connect() as connection:
        return connection.execute(sa.text(query), params).all()


def _started(client, creator, other) -> dict:
    game = client.post("/api/v1/games", json={"seats": 2}, headers=creator.headers).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=other.headers)
    return client.post(f"/api/v1/games/{game['id']}/start", headers=creator.headers).json


def test_a_disabled_user_is_refused_and_mailed_nothing_until_enabled(client, database_url,
                                                                      operator, ada, eve):
    game = _started(client, ada, eve)
    waiting = len(_rows(database_url, "SELECT id FROM outbox WHERE to_email = :e "
                                      "AND status = 'pending'", e=eve.email))
    assert waiting >= 1

    disabled = operator("users", "disable", "Eve@Example.org", "--why", "abusive invitations")

    assert disabled.exit_code == 0, disabled.output
    assert disabled.output == f"disabled eve@example.org (user {eve.id}); {waiting} waiting mail(s) parked\n"
    assert_error(client.get("/api/v1/users/me", headers=eve.headers), 403,
                 "this account was disabled by the server's operator: ask them to enable it")
    assert_error(client.get(f"/api/v1/games/{game['id']}", headers=eve.headers), 403, "disabled")
    command = {"command": {"type": "end_turn"}, "expected_version": game["version"]}
    assert_error(client.post(f"/api/v1/games/{game['id']}/commands", json=command,
                             headers=eve.headers), 403, "disabled")
    assert _rows(database_url, "SELECT status FROM outbox WHERE to_email = :e "
                               "AND status = 'pending'", e=eve.email) == []
    other = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post(f"/api/v1/games/{other['id']}/invitations", json={"email": eve.email},
                headers=ada.headers)
    assert _rows(database_url, "SELECT id FROM outbox WHERE kind = 'invitation'") == []
    again = operator("users", "disable", "eve@example.org")
    assert again.exit_code == 1 and "Error: eve@example.org is already disabled" in again.output

    enabled = operator("users", "enable", "eve@example.org")

    assert enabled.output == f"enabled eve@example.org (user {eve.id})\n"
    assert client.get("/api/v1/users/me", headers=eve.headers).status_code == 200
    assert len(_rows(database_url, "SELECT id FROM outbox WHERE to_email = :e "
                                   "AND status = 'pending'", e=eve.email)) == waiting
    trail = operator("audit").output.splitlines()
    assert [line.split("\t")[2:] for line in trail] == [
        ["operator:alice", "users.disable", "user:eve@example.org", "abusive invitations"],
        ["operator:alice", "users.enable", "user:eve@example.org", "-"],
    ]
    unknown = operator("users", "disable", "nobody@example.org")
    assert (unknown.exit_code, unknown.output) == (
        1, "Error: no user has the email 'nobody@example.org'\n")


def test_an_aborted_game_takes_no_commands_and_its_players_are_told(client, database_url,
                                                                     operator, ada, bob):
    game = _started(client, ada, bob)
    why = "a bug let seat 0 buy twice; start a new game"

    aborted = operator("games", "abort", game["id"], "--why", why)

    assert aborted.exit_code == 0, aborted.output
    assert aborted.output == f"aborted game {game['id']}; 2 player(s) will be mailed\n"
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["status"] == "aborted"
    seat = next(p["seat"] for p in game["players"] if p["user_id"] == ada.id)
    player = ada if game["current_seat"] == seat else bob
    command = {"command": {"type": "end_turn"}, "expected_version": game["version"]}
    assert_error(client.post(f"/api/v1/games/{game['id']}/commands", json=command,
                             headers=player.headers), 409,
                 f"game {game['id']} was aborted: it takes no more commands")
    mails = _rows(database_url, "SELECT to_email, subject, text_body FROM outbox "
                                "WHERE kind = 'game_aborted' ORDER BY to_email")
    assert [m.to_email for m in mails] == ["ada@example.org", "bob@example.org"]
    assert all(m.subject == f"Gems of Iridescia {game['id']}: the game was aborted"
               and f"The reason given: {why}" in m.text_body for m in mails)
    assert _rows(database_url, "SELECT deadline_at, next_reminder_at, automatic_due_at "
                               "FROM games") == [(None, None, None)]
    twice = operator("games", "abort", game["id"], "--why", "again")
    assert (twice.exit_code, twice.output) == (
        1, f"Error: game {game['id']} is aborted already: there is nothing to abort\n")
    missing = operator("games", "abort", "nope", "--why", "x")
    assert missing.output == "Error: there is no game 'nope'\n"
    assert "Missing option '--why'" in operator("games", "abort", game["id"]).output


def test_games_show_prints_the_game_without_its_secrets(client, database_url, operator, ada, bob):
    game = _started(client, ada, bob)
    operator("games", "abort", game["id"], "--why", "testing")
    [secrets] = _rows(database_url, "SELECT seed, join_code FROM games")
    events = _rows(database_url, "SELECT seq, type FROM events ORDER BY seq")

    assert len(events) == 2  # the start's
    shown = operator("games", "show", game["id"], "--events", "1")

    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == f"game {game['id']}: aborted, version {game['version']}, 2 seat(s), private"
    assert lines[1].startswith("created ") and lines[1].endswith(
        f"by user {ada.id} (ada <ada@example.org>)")
    assert lines[2].startswith("turn: seat - (-), started ")
    assert lines[3] == "due: deadline -, reminder -, automatic turn -"
    assert lines[4] == "players:"
    assert sorted(lines[5:7]) == sorted(
        f"  seat {p['seat']}: user {p['user_id']} {p['name']} <{p['name']}@example.org> "
        "(human, 0 missed)" for p in game["players"])
    assert lines[7] == "latest events (1):"
    seq, kind = events[-1]
    assert lines[8].startswith(f"  #{seq} ") and lines[8].endswith(f" UTC user:{ada.id} {kind}")
    assert lines[9] == "audit (1):"
    assert lines[10].endswith(" UTC operator:alice games.abort: testing")
    assert len(lines) == 11
    assert secrets.seed not in shown.output and secrets.join_code not in shown.output
    assert operator("games", "show", "nope").output == "Error: there is no game 'nope'\n"
