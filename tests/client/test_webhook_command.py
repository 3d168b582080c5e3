"""`iridescia new --webhook` and `iridescia webhook` against the real server over HTTP."""

from __future__ import annotations

import re


def _as(run, live):
    def cli(*args):
        return run("--profile", "ada", *args, env={"IRIDESCIA_SERVER": live.url})

    return cli


def test_a_webhook_set_at_creation_shown_replaced_and_removed(run, live):
    live.app.config["WEBHOOK_ALLOW_PRIVATE"] = 1  # the receiver would be on loopback
    cli = _as(run, live)
    assert cli("register", "--name", "Ada", "--email", "ada@example.org").exit_code == 0
    assert cli("confirm", "--code", live.mailed_code("ada@example.org")).exit_code == 0
    created = cli("new", "--seats", "2", "--webhook", "http://127.0.0.1:9/hook?format=slack")
    assert created.exit_code == 0, created.output
    game = re.match(r"Game (\w+):", created.output).group(1)
    *_, webhook_line, secret_line, keep_line, invite_line = created.output.splitlines()
    tail = [webhook_line, secret_line, keep_line]
    assert invite_line == f"Invite players with `iridescia invite {game} EMAIL`."
    assert tail[0] == f"Webhook on game {game}: http://127.0.0.1:9/hook (slack)"
    assert re.fullmatch(r"  secret: [0-9a-f]{64}", tail[1])
    assert tail[2] == ("  Keep it: it signs every delivery (X-Iridescia-Signature) and is not "
                       "shown again.")

    shown = cli("webhook", game)
    assert shown.output == f"Webhook on game {game}: http://127.0.0.1:9/hook (slack)\n"
    replaced = cli("webhook", game, "http://127.0.0.1:9/other", "--format", "discord")
    assert replaced.output.splitlines()[0] == (
        f"Webhook on game {game}: http://127.0.0.1:9/other (discord)")
    assert "secret: " in replaced.output
    removed = cli("webhook", game, "--remove")
    assert removed.output == f"Removed your webhook on game {game}.\n"
    missing = cli("webhook", game)
    assert missing.exit_code == 1
    assert f"you have no webhook on game {game}: set one with PUT" in missing.output


def test_a_private_address_is_refused_with_the_servers_reason(run, live):
    cli = _as(run, live)
    cli("register", "--name", "Ada", "--email", "ada@example.org")
    cli("confirm", "--code", live.mailed_code("ada@example.org"))
    refused = cli("new", "--seats", "2", "--webhook", "http://169.254.169.254/latest")
    assert refused.exit_code == 1
    assert ("webhook URL refused: the host '169.254.169.254' resolves to 169.254.169.254, a "
            "link-local address: a webhook must be reachable on the public internet"
            in refused.output)
    assert cli("games").output.startswith("No games yet.")
    misuse = cli("webhook", "g7Kq2", "--remove", "--format", "slack")
    assert misuse.exit_code == 2 and "--remove takes no URL or --format" in misuse.output
