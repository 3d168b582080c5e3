"""`iridescia games` tells a player whose address bounces that no game mail reaches them, and
how to mend it (issue 26); nothing is said while mail arrives."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from server.storage.db import app_engine, session_scope
from server.storage.models import User


def test_games_warns_when_mail_to_my_address_bounces(run, live):
    env = {"IRIDESCIA_SERVER": live.url}
    assert run("--profile", "ada", "register", "--name", "Ada", "--email", "ada@example.org",
               env=env).exit_code == 0
    assert run("--profile", "ada", "confirm", "--code", live.mailed_code("ada@example.org"),
               env=env).exit_code == 0
    game_id = json.loads(run("--profile", "ada", "new", "--seats", "1", "--json",
                             env=env).output)["id"]
    quiet = run("--profile", "ada", "games", env=env)
    assert quiet.exit_code == 0 and "bounces" not in quiet.output

    with session_scope(app_engine(live.app)) as session:
        user = session.query(User).filter(User.email == "ada@example.org").one()
        user.email_bouncing_at = datetime.now(UTC)
        session.add(user)
    warned = run("--profile", "ada", "games", env=env)
    assert warned.exit_code == 0 and game_id in warned.output
    assert warned.output.endswith(
        "\nMail to ada@example.org bounces: the server sends you no game mail. Fix the address "
        "or mailbox, then confirm it again with `iridescia confirm --resend`.\n")
