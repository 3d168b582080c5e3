"""`iridescia-server scheduler` and `iridescia-server outbox` (registered by server.cli)."""

import logging

import click

# The app and what it needs (about a second to import) load inside each command, so that
# `iridescia-server --help` and a command's own --help answer at once.


def _app():
    from server import create_app

    return create_app()


@click.command()
@click.option("--once", is_flag=True, help="Run one tick, print what it did, and exit.")
def scheduler(once: bool) -> None:
    """Run the scheduler in its own process: mail, the Rhom's and removal turns, reminders,
    deadlines. On PostgreSQL several may run at once; on SQLite run one (see docs/scheduler.md).

    \b
    Example:
        IRIDESCIA_DATABASE_URL=postgresql+psycopg://me@127.0.0.1/iridescia iridescia-server scheduler
    """
    from server.mail import SmtpUrlError
    from server.mail.transport import announce
    from server.scheduler import run_standalone
    from server.scheduler.tick import Ticker

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = _app()
    try:
        ticker = Ticker(app)
    except (SmtpUrlError, ValueError) as error:  # a bad SMTP URL or budget
        raise click.ClickException(str(error)) from None
    if once:
        announce(ticker.mail_settings)
        report = ticker.tick()
        click.echo(
            f"{len(report.automatic)} automatic turn(s), {len(report.nudges)} reminder(s), "
            f"{report.sent} mail(s) sent"
            + ("; out of time, more is due (run again)" if report.out_of_time else "")
        )
        return
    try:
        run_standalone(app)
    except ValueError as error:  # a bad IRIDESCIA_SCHEDULER_INTERVAL_SECONDS
        raise click.ClickException(str(error)) from None


@click.command()
@click.option(
    "--status",
    type=click.Choice(["parked", "pending", "sent", "withheld", "all"]),
    default="parked",
    show_default=True,
    help="Which messages to list.",
)
@click.option(
    "--retry",
    "retry_ids",
    type=int,
    multiple=True,
    metavar="ID",
    help="Queue this parked message again (repeatable).",
)
@click.option(
    "--retry-webhook",
    "retry_webhook_ids",
    type=int,
    multiple=True,
    metavar="ID",
    help="Queue this parked webhook delivery again (repeatable).",
)
@click.option("--retry-all", is_flag=True,
              help="Queue every parked message and webhook delivery again.")
def outbox(status: str, retry_ids: tuple[int, ...], retry_webhook_ids: tuple[int, ...],
           retry_all: bool) -> None:
    """List outgoing mail and webhook deliveries (by default the parked ones: permanently
    refused or failing too long, needing a look) and queue parked ones again once the cause is
    fixed.

    \b
    Example:
        iridescia-server outbox && iridescia-server outbox --retry 12 --retry-webhook 3
    """
    from server.mail.outbox import list_messages, retry_parked
    from server.storage.db import app_engine, session_scope
    from server.storage.models import utcnow
    from server.webhooks import delivery

    app = _app()
    with app.app_context(), session_scope(app_engine(app)) as session:
        if retry_ids or retry_webhook_ids or retry_all:
            missing = []
            if retry_ids or retry_all:
                rows = retry_parked(session, utcnow(), list(retry_ids) or None)
                _requeued(rows, retry_ids, "message", lambda row: f"{row.kind} to {row.to_email}",
                          missing)
            if retry_webhook_ids or retry_all:
                rows = delivery.retry_parked(session, utcnow(), list(retry_webhook_ids) or None)
                _requeued(rows, retry_webhook_ids, "webhook delivery",
                          lambda row: f"webhook {row.event} of game {row.game_id}", missing)
            if missing:
                raise click.ClickException(
                    f"no parked {' or '.join(missing)}: see `iridescia-server outbox` for the "
                    "parked ones")
            return
        _list_mail(list_messages(session, None if status == "all" else status), status)
        if status != "withheld":
            _list_webhooks(session, delivery.list_deliveries(
                session, None if status == "all" else status))


def _requeued(rows, asked: tuple[int, ...], what: str, describe, missing: list[str]) -> None:
    from server.http.plain_text import printable

    found = {row.id for row in rows}
    for row in rows:
        click.echo(f"queued again: {row.id} {printable(describe(row))}")
    absent = [i for i in asked if i not in found]
    if absent:
        missing.append(f"{what} with id {', '.join(map(str, absent))}")


def _list_mail(rows, status: str) -> None:
    from server.http.plain_text import printable

    if not rows:
        click.echo(f"no {'' if status == 'all' else status + ' '}messages")
        return
    for row in rows:
        # A game notice gets its words when it is first sent; until then, say what it is about.
        subject = row.subject or f"(not rendered yet: game {row.game_id} at version {row.version})"
        click.echo(
            f"{row.id}\t{row.status}\t{row.attempts} attempt(s)\t{row.created_at:%Y-%m-%d %H:%M}"
            f"\t{row.kind}\t{printable(row.to_email)}\t{printable(subject)}"
        )
        if row.last_error and row.status != "sent":
            click.echo(f"\tlast error: {printable(row.last_error)}")


def _list_webhooks(session, rows) -> None:
    """Webhook deliveries, after the mail, each line beginning `webhook` (its URL's host only:
    a URL's path or query may hold the receiver's own token)."""
    from urllib.parse import urlsplit

    from server.http.plain_text import printable
    from server.storage.models import Webhook

    hosts = {hook.id: urlsplit(hook.url).hostname or "?" for hook in
             session.exec(_webhooks_of(Webhook, {row.webhook_id for row in rows}))} if rows else {}
    for row in rows:
        click.echo(
            f"webhook {row.id}\t{row.status}\t{row.attempts} attempt(s)"
            f"\t{row.created_at:%Y-%m-%d %H:%M}\t{row.event}\tgame {row.game_id} v{row.version}"
            f"\t{printable(hosts.get(row.webhook_id, '?'))}")
        if row.last_error and row.status != "sent":
            click.echo(f"\tlast error: {printable(row.last_error)}")


def _webhooks_of(model, ids):
    from sqlmodel import select

    return select(model).where(model.id.in_(ids))


def register(group: click.Group) -> None:
    group.add_command(scheduler)
    group.add_command(outbox)
