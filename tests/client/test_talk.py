"""`iridescia say` and `iridescia messages` against the real server (issue 21): exact output,
the channels marked, and another person's control characters shown, never obeyed."""

from __future__ import annotations

import json

import sqlalchemy as sa

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b2Jhi\u202e"
SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b2Jhi\\u202e"


def test_say_and_read_messages_on_both_channels(run, live):
    def cli(profile, *args, code=0):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": live.url})
        assert result.exit_code == code, result.output
        return result.output

    for profile in ("ada", "bob", "eve"):
        cli(profile, "register", "--name", profile.capitalize(),
            "--email", f"{profile}@example.org")
        cli(profile, "confirm", "--code", live.mailed_code(f"{profile}@example.org"))
    game = json.loads(cli("ada", "new", "--seats", "2", "--public", "--json"))
    gid = game["id"]
    cli("bob", "join", game["join_code"])
    cli("ada", "start", gid)

    assert cli("ada", "messages", gid) == (
        f"No messages in game {gid}. `iridescia say {gid} TEXT` posts one.\n")
    assert cli("ada", "say", gid, "Good", "luck,", "Bob!") == (
        f"Said to the players of game {gid}: Good luck, Bob!\n")
    assert cli("eve", "say", gid, "Go Ada") == f"Said to the spectators of game {gid}: Go Ada\n"
    assert cli("bob", "say", gid, "Thanks, watchers", "--spectators") == (
        f"Said to the spectators of game {gid}: Thanks, watchers\n")
    with live.db.begin() as connection:  # fixed times, for the exact output below
        connection.execute(sa.text("UPDATE messages SET created_at = '2026-12-01 12:0' || id"))
    assert cli("bob", "messages", gid) == (
        "[players] Ada, 2026-12-01 12:01 UTC: Good luck, Bob!\n"
        "[spectators] Eve (watching), 2026-12-01 12:02 UTC: Go Ada\n"
        "[spectators] Bob, 2026-12-01 12:03 UTC: Thanks, watchers\n")
    assert cli("eve", "messages", gid, "--since", "2") == (
        "[spectators] Bob, 2026-12-01 12:03 UTC: Thanks, watchers\n")
    too_long = cli("ada", "say", gid, "x" * 1001, code=1)
    assert "a message has at most 1,000 characters; yours has 1,001" in too_long
    assert json.loads(cli("eve", "messages", gid, "--json"))["channels"] == ["spectators"]


def test_another_persons_control_characters_are_shown_escaped(run, live):
    def cli(profile, *args):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": live.url})
        assert result.exit_code == 0, result.output
        return result.output

    for profile in ("ada", "bob"):
        cli(profile, "register", "--name", profile.capitalize(),
            "--email", f"{profile}@example.org")
        cli(profile, "confirm", "--code", live.mailed_code(f"{profile}@example.org"))
    game = json.loads(cli("ada", "new", "--seats", "2", "--json"))
    cli("bob", "join", game["join_code"])
    cli("bob", "say", game["id"], "placeholder")
    with live.db.begin() as connection:
        # Written straight into the database: the API strips these, the terminal must too.
        connection.execute(sa.text("UPDATE messages SET text = :text"), {"text": HOSTILE})
        connection.execute(sa.text("UPDATE users SET name = :name WHERE email = 'bob@example.org'"),
                           {"name": HOSTILE})
    output = cli("ada", "messages", game["id"])
    assert not any(c in output for c in ("\x1b", "\x07", "\x9b", "\u202e")), repr(output)
    # The text shown escaped; the name (which the server sends without control characters).
    assert output.startswith("[players] ]0;pwned[2J2Jhi, ") and output.endswith(f": {SHOWN}\n")
