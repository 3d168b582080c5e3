"""Issue 16, finding 2: a name another person chose reaches nobody's terminal raw. Bob's and
Ada's names (accounts from before the API refused control characters, written straight into the
database) would retitle the terminal (OSC 0 ... BEL), clear it (CSI 2J, also as the 8-bit C1 CSI) and
reverse the text that follows (U+202E). Every command that prints it shows it escaped."""

from __future__ import annotations

import json

import sqlalchemy as sa

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b2JBob\u202e"
SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b2JBob\\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _raw_in(text: str) -> list[str]:
    return [repr(c) for c in RAW if c in text]


def test_no_command_prints_another_players_control_characters(run, live):
    def cli(profile, *args):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": live.url})
        assert result.exit_code == 0, result.output
        return result.output

    for profile in ("ada", "bob", "eve"):
        cli(profile, "register", "--name", profile.capitalize(),
            "--email", f"{profile}@example.org")
        cli(profile, "confirm", "--code", live.mailed_code(f"{profile}@example.org"))
    game = json.loads(cli("ada", "new", "--seats", "2", "--public", "--json"))
    cli("bob", "join", game["join_code"])
    with live.db.begin() as connection:
        # Both players: the games list names only the player whose turn it is.
        connection.execute(sa.text("UPDATE users SET name = :name WHERE email <> 'eve@example.org'"),
                           {"name": HOSTILE})

    outputs = {"show (open game)": cli("ada", "show", game["id"])}
    cli("ada", "start", game["id"])
    outputs.update({
        "games (ada)": cli("ada", "games"),
        "games (bob)": cli("bob", "games"),
        "show (player)": cli("ada", "show", game["id"], "--no-color"),
        "show (spectator)": cli("eve", "show", game["id"]),
        "watch (spectator)": cli("eve", "watch", game["id"], "--limit", "2"),
        "log": cli("ada", "log", game["id"]),
        "whoami (bob)": cli("bob", "whoami"),
    })

    for command, output in outputs.items():
        assert _raw_in(output) == [], (command, output)
    assert SHOWN in outputs["show (open game)"]
    assert SHOWN in outputs["whoami (bob)"]
    # The board's header and the games list shorten long names; the escapes show as they begin.
    for command in ("show (player)", "show (spectator)"):
        assert SHOWN[:11] in outputs[command], outputs[command]
    assert SHOWN[:11] in outputs["games (ada)"] + outputs["games (bob)"]
