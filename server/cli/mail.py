"""`iridescia-server mail ingest` (one message on standard input, for an MTA's pipe) and
`iridescia-server mail log` (what came of the mail that came in). Registered by server.cli."""

from __future__ import annotations

import sys

import click

# The app and what it needs (about a second to import) load inside each command, so that
# `iridescia-server --help` and a command's own --help answer at once.


@click.group()
def mail() -> None:
    """Mail coming in: hand one message to the server, or see what came of each."""


@mail.command("ingest")
@click.option("--recipient", "recipients", multiple=True, metavar="ADDRESS",
              help="The envelope recipient (Postfix: ${recipient}); repeatable. Without it the "
                   "Delivered-To, To and Cc headers say.")
@click.option("--sender", "mail_from", default=None, metavar="ADDRESS",
              help="The envelope sender (Postfix: ${sender}; the null sender <> of a bounce, "
                   "empty or Postfix's MAILER-DAEMON, is never answered). Without it the "
                   "Return-Path header says.")
def ingest_command(recipients: tuple[str, ...], mail_from: str | None) -> None:
    """Read one message on standard input and act on it, as a mail server's pipe does. Exits
    0 when handled, 67 when it is not addressed to this server (the mail server bounces it),
    75 on a temporary failure such as the database being down (the mail server retries).

    \b
    Example (Postfix master.cf, see deploy/):
        iridescia unix - n n - - pipe
          user=iridescia argv=/srv/iridescia/.venv/bin/iridescia-server mail ingest --recipient ${recipient} --sender ${sender}
    """
    from server import create_app
    from server.inbound.ingest import ingest
    from server.inbound.record import EX_TEMPFAIL

    raw = sys.stdin.buffer.read()
    try:
        app = create_app()
    except Exception as error:  # a bad setting: the mail server keeps the message and retries
        click.echo(f"iridescia-server mail ingest: {error}", err=True)
        sys.exit(EX_TEMPFAIL)
    if mail_from is not None:  # Postfix writes the null sender <> as MAILER-DAEMON
        mail_from = mail_from.strip().strip("<>")
        mail_from = "" if mail_from.lower() == "mailer-daemon" else mail_from
    outcome = ingest(raw, app=app, recipients=recipients, way_in="pipe", mail_from=mail_from)
    click.echo(f"{outcome.status}: {outcome.detail}", err=True)
    sys.exit(outcome.exit_code)


@mail.command("log")
@click.option("--limit", default=50, show_default=True, help="How many of the latest to show.")
@click.option("--sender", default=None, help="Only the mail from this address.")
def log_command(limit: int, sender: str | None) -> None:
    """List the latest incoming mail: when, by which way, from whom, to which game, what came
    of it and the commands applied.

    \b
    Example:
        iridescia-server mail log --sender bo@example.org
    """
    from server import create_app
    from server.inbound.letter import clean
    from server.inbound.record import log_rows
    from server.storage.db import app_engine

    app = create_app()
    rows = log_rows(app_engine(app), limit, sender)
    if not rows:
        click.echo("no incoming mail recorded")
        return
    for row in rows:
        click.echo("\t".join([
            f"{row.received_at:%Y-%m-%d %H:%M:%S}", row.way_in, clean(row.sender) or "-",
            row.game_id or "-", row.outcome, clean(row.detail)]))
        if row.applied:
            click.echo("\tapplied: " + "; ".join(clean(line) for line in row.applied))


def register(group: click.Group) -> None:
    group.add_command(mail)
