"""The lobby, following and the four failures of the issue, against the real server over real
HTTP: clear messages, exit status 1, never a traceback."""

from __future__ import annotations

import json

import pytest

from client import config


@pytest.fixture
def table(run, live):
    """Ada and Bob registered in two profiles and a started 2-player game; returns helpers."""

    def cli(profile, *args, env=None):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": live.url, **(env or {})})
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        return result

    for profile, name in (("ada", "Ada"), ("bob", "Bob")):
        assert cli(profile, "register", "--name", name,
                   "--email", f"{profile}@example.org").exit_code == 0
        assert cli(profile, "confirm", "--code",
                   live.mailed_code(f"{profile}@example.org")).exit_code == 0
    created = json.loads(cli("ada", "new", "--seats", "2", "--deadline-hours", "48",
                             "--json").output)
    assert cli("bob", "join", created["join_code"]).exit_code == 0
    assert cli("bob", "start", created["id"]).exit_code == 0
    games = {p: json.loads(cli(p, "games", "--json").output)[0] for p in ("ada", "bob")}
    first = next(p for p in games if games[p]["is_my_turn"])
    second = "bob" if first == "ada" else "ada"
    return cli, created["id"], first, second, games[first]["my_seat"]


def test_lobby_commands(table):
    cli, game, first, second, seat = table
    listed = cli(first, "games")
    assert listed.exit_code == 0
    header, row = listed.output.splitlines()
    assert header.split() == ["GAME", "STATUS", "SEATS", "PACE", "TURN", "WITH", "DEADLINE"]
    assert row.split()[:6] == [game, "active", "2", "48h", "YOUR", "TURN"]
    # 48 hours a turn, just started: the deadline and the time left (a minute may have gone).
    assert row.endswith(("UTC (1 day 23 hours left)", "UTC (2 days left)"))
    waiting = cli(second, "games").output.splitlines()[1]
    assert f"{first.capitalize()} to play" in waiting and "seat" not in waiting

    assert cli("ada", "prefs", "--email", "none").output == (
        "email: none\nremovals: automatic\nstand-in at the deadline: hard\n")
    assert cli("ada", "prefs", "--removals", "choose").output == (
        "email: none\nremovals: choose\nstand-in at the deadline: hard\n")
    assert json.loads(cli("ada", "prefs", "--json").output) == {
        "email": "none", "removals": "choose", "stand_in": "hard", "digest_hour": 8, "quiet_hours": None,
        "time_zone": "UTC", "language": None, "tile_sort": "gem", "relic_sort": "gem"}
    assert cli("ada", "prefs", "--language", "ja", "--tile-sort", "region", "--relic-sort",
               "category").output == ("email: none\nremovals: choose\nstand-in at the deadline: hard\n"
                                      "language: ja\n"
                                      "tiles sorted by: region\nrelics sorted by: category\n")
    assert cli("ada", "whoami").output.startswith("Ada <ada@example.org>\n")  # no user id

    other = json.loads(cli("ada", "new", "--seats", "2", "--rhom", "--mining-cost", "3",
                           "--leftover-gems", "same_type", "--public", "--reminder-hours", "6",
                           "--deadline-hours", "12", "--absent-after", "3", "--rhom-delay", "2",
                           "--removal-grace-hours", "1", "--json").output)
    assert other["variants"] == {"mining_cost": 3, "leftover_gems": "same_type",
                                 "catapult_4th": False}
    assert other["rhom"] is True and other["public"] is True
    assert other["settings"] == {"reminder_interval_hours": 6, "turn_deadline_hours": 12,
                                 "absent_after_missed": 3, "rhom_delay_seconds": 2,
                                 "removal_grace_hours": 1}
    refused = cli("ada", "new", "--seats", "3", "--rhom")
    assert refused.exit_code == 1 and refused.output.startswith("Error: ")
    shown = cli("ada", "show", other["id"])
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-1] == "The game has not started: waiting for players (1/2)."
    assert cli("bob", "join", other["join_code"]).exit_code == 0
    assert cli("bob", "leave", other["id"]).output == f"You left game {other['id']}.\n"


def test_back_clears_an_absent_seat(table, live):
    import sqlalchemy as sa

    cli, game, _first, second, _seat = table
    with live.db.begin() as connection:  # what the scheduler does after missed deadlines
        connection.execute(sa.text(
            "UPDATE seats SET absent = :yes, missed_turns = 2 WHERE game_id = :game "
            "AND seat IS NOT NULL AND user_id = (SELECT id FROM users WHERE email = :email)"),
            {"yes": True, "game": game, "email": f"{second}@example.org"})
    came_back = cli(second, "back", game)
    assert came_back.exit_code == 0, came_back.output
    lines = came_back.output.splitlines()
    assert lines[0] == f"Welcome back to game {game}: the server waits for your turns again."
    assert lines[1].startswith(f"Game {game}: active, 2 seat(s)")
    with live.db.connect() as connection:
        rows = connection.execute(sa.text("SELECT absent, missed_turns FROM seats "
                                          "WHERE game_id = :game"), {"game": game}).all()
    assert sorted(tuple(row) for row in rows) == [(False, 0), (False, 0)]
    unknown = cli(second, "back", "nosuchgame")
    assert unknown.exit_code == 1 and "nosuchgame" in unknown.output


def test_rotate_token_saves_the_new_one(table, isolated):
    cli, *_ = table
    path = isolated / "config" / "iridescia" / "config.toml"
    old = config.load(path).profile("ada").token
    assert cli("ada", "rotate-token").output == (
        "New token saved in profile 'ada'; the old one no longer works.\n")
    assert config.load(path).profile("ada").token not in (None, old)
    assert cli("ada", "whoami").exit_code == 0
    stale = cli("ada", "whoami", env={"IRIDESCIA_TOKEN": old})
    assert stale.exit_code == 1
    assert stale.output.startswith("Error: the server did not accept your token")


def test_bad_token(table):
    cli, *_ = table
    result = cli("ada", "games", env={"IRIDESCIA_TOKEN": "not-a-token"})
    assert result.exit_code == 1
    assert result.output.startswith("Error: the server did not accept your token (")
    assert result.output.endswith(
        "Run `iridescia register`, or set IRIDESCIA_TOKEN to a valid token.\n"
    )


def test_illegal_move_and_not_your_turn(table):
    cli, game, first, second, seat = table
    illegal = cli(first, "move", game, "9a")
    assert illegal.exit_code == 1
    assert illegal.output.startswith("Error: rejected: ")
    assert "9a" in illegal.output
    not_yours = cli(second, "reveal", game, "1b")
    assert not_yours.exit_code == 1
    # Players by name, never by seat number.
    names = {"ada": "Ada", "bob": "Bob"}
    assert not_yours.output == (
        f"Error: rejected: it is {names[first]}'s turn, not {names[second]}'s\n"
    )


def test_stale_version_shows_what_changed(table):
    cli, game, first, _second, seat = table
    result = cli(first, "reveal", game, "1b", "--expect-version", "1")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == ("The game moved on since you last looked; your command was not sent. "
                        "What changed:")
    assert lines[1] == f"  Turn 1: {first.capitalize()} (you)"
    assert lines[-1] == "Error: the game moved on before your command arrived: nothing was sent"
    # Nothing was played: the reveal is still open.
    assert "reveal 1b" in cli(first, "legal", game).output.splitlines()


def test_unknown_game(table):
    cli, *_ = table
    result = cli("ada", "show", "nosuchgame")
    assert result.exit_code == 1
    assert result.output == "Error: not found: there is no game 'nosuchgame' you can see\n"


def test_watch_wait_and_an_unfinished_log(table, tmp_path):
    cli, game, first, second, seat = table
    played = cli(first, "reveal", game, "1b", "1c")
    assert played.exit_code == 0, played.output
    assert played.output.splitlines() == ["You revealed 1b and 1c.", "Your turn."]

    watched = cli(second, "watch", game, "--after", "1", "--limit", "2")
    assert watched.exit_code == 0
    name = first.capitalize()
    assert watched.output == f"Turn 1: {name}\n  {name} revealed 1b and 1c.\n"
    started_by = cli(second, "watch", game, "--limit", "1").output
    order = " and ".join(sorted(["Ada", "Bob"], key=lambda n: n != name))
    setup = started_by.splitlines()
    assert setup[:2] == ["Setup", f"  The game began; the order of play is {order}."]
    assert setup[2].startswith("  You were dealt the secret objectives ")  # mine, not theirs
    assert len(setup) == 3
    told = cli(second, "log", game, "--text")
    assert told.exit_code == 0, told.output
    assert told.output == started_by + watched.output
    as_json = cli(second, "watch", game, "--limit", "1", "--json")
    assert json.loads(as_json.output)["type"] == "game_started"

    assert cli(first, "wait", game).output == "Your turn.\n"
    timed_out = cli(second, "wait", game, "--timeout", "1")
    assert timed_out.exit_code == 1
    assert timed_out.output == "Error: still not your turn after 1 seconds\n"

    log_file = tmp_path / "partial.jsonl"
    logged = cli(second, "log", game, "-o", str(log_file))
    assert logged.exit_code == 0
    assert "The game is not over" in logged.output
    verified = cli(second, "verify", "--file", str(log_file))
    assert verified.exit_code == 1
    assert verified.output == ("Error: DIVERGES: the log has no seed (only a finished game's log "
                               "can be verified)\n")


def test_watch_and_wait_block_until_the_other_player_acts(table, isolated, live):
    """`wait` (as the second player) and `watch` return only once the first player has acted,
    which another thread does one second later, straight over HTTP."""
    import threading
    import time

    import requests

    cli, game, first, second, seat = table
    token = config.load(isolated / "config" / "iridescia" / "config.toml").profile(first).token

    def first_player_acts_later():
        time.sleep(1.0)
        requests.post(f"{live.url}/api/v1/games/{game}/commands",
                      json={"command": {"type": "reveal", "hexes": ["1b", "1c"]},
                            "expected_version": 2},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)

    actor = threading.Thread(target=first_player_acts_later)
    started = time.monotonic()
    actor.start()
    watched = cli(second, "watch", game, "--after", "2", "--limit", "1")
    actor.join()
    assert time.monotonic() - started >= 1.0
    assert watched.exit_code == 0, watched.output
    assert watched.output == f"Continued\n  {first.capitalize()} revealed 1b and 1c.\n"

    # Now the first player moves and ends the turn a second later; `wait` sees it become mine.
    headers = {"Authorization": f"Bearer {token}"}

    def first_player_finishes_later():
        time.sleep(1.0)
        while True:
            legal = requests.get(f"{live.url}/api/v1/games/{game}/legal", headers=headers,
                                 timeout=10).json()
            if not legal["commands"]:
                return  # the turn has passed
            by_kind = {c["type"]: c for c in legal["commands"]}
            command = by_kind.get("move") or by_kind.get("end_turn") or legal["commands"][0]
            requests.post(f"{live.url}/api/v1/games/{game}/commands", headers=headers,
                          json={"command": command, "expected_version": legal["version"]},
                          timeout=10)

    actor = threading.Thread(target=first_player_finishes_later)
    started = time.monotonic()
    actor.start()
    waited = cli(second, "wait", game, "--timeout", "60")
    actor.join()
    assert waited.exit_code == 0, waited.output
    assert waited.output == "Your turn.\n"
    assert time.monotonic() - started >= 1.0


def test_vacation_pause_and_resume(table):
    from datetime import UTC, datetime, timedelta

    cli, game, first, second, _seat = table
    until = (datetime.now(UTC).date() + timedelta(days=3)).isoformat()
    away = cli(first, "vacation", "--until", until)
    assert away.exit_code == 0, away.output
    year = datetime.now(UTC).year
    assert away.output == (f"Away until {until} 00:00 UTC: your turns wait for you.\n"
                           f"Vacation days left in {year}: 18 of 21.\n")
    row = cli(second, "games").output.splitlines()[1]
    assert row.endswith(f"away until {until} 00:00 UTC")  # it is the one away's turn
    back = cli(first, "vacation", "--end")
    assert back.output.startswith("You are not away.\n")
    again = cli(first, "vacation", "--end")
    assert again.exit_code == 1 and "you are not on vacation" in again.output
    past = cli(first, "vacation", "--until", "2020-01-01")
    assert past.exit_code == 1 and "2020-01-01 is not after today" in past.output

    assert cli(first, "pause", game).output == (
        f"Game {game}: pause asked; waiting for {second.capitalize()}.\n")
    assert cli(second, "pause", game).output == (
        f"Game {game} is paused: no deadline runs until a player resumes it.\n")
    assert cli(first, "games").output.splitlines()[1].endswith("paused")
    assert cli(first, "resume", game).output == f"Game {game} runs: its clocks run again.\n"


def test_prefs_choose_the_digest_quiet_hours_and_a_game_of_its_own(table):
    cli, game, first, _second, _seat = table
    chosen = cli(first, "prefs", "--notify", "digest", "--digest-hour", "7", "--quiet", "22-7",
                 "--timezone", "Europe/Paris")
    assert chosen.exit_code == 0, chosen.output
    assert chosen.output == ("email: digest\nremovals: automatic\nstand-in at the deadline: hard\n"
                             "digest at: 7:00\n"
                             "quiet hours: 22-7\ntime zone: Europe/Paris\n")
    here = cli(first, "prefs", "--game", game, "--notify", "every")
    assert here.output == f"game {game}: email: every_turn\n"
    assert cli(first, "prefs", "--game", game).output == f"game {game}: email: every_turn\n"
    back = cli(first, "prefs", "--game", game, "--notify", "account")
    assert back.output == f"game {game}: email: as your account\n"
    bad = cli(first, "prefs", "--timezone", "Mars/Olympus")
    assert bad.exit_code == 1 and "'Mars/Olympus' is not a time zone" in bad.output
    bad = cli(first, "prefs", "--quiet", "late")
    assert bad.exit_code == 1 and "quiet hours are two whole hours" in bad.output
    assert cli(first, "prefs", "--quiet", "off").output.count("quiet hours") == 0
