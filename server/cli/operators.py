"""`iridescia-server users`, `games` and `audit`: what operators otherwise did by hand in SQL.
Every change is recorded in the audit log (`iridescia-server audit` lists it). Registered by
server.cli; a thin adapter over server/operators.py."""

from __future__ import annotations

import getpass
from collections.abc import Callable
from datetime import datetime
from typing import Any

import click

# The app and what it needs (about a second to import) load inside each command, so that
# `iridescia-server --help` and a command's own --help answer at once.


def _actor() -> str:
    try:
        return f"operator:{getpass.getuser()}"
    except (KeyError, OSError):  # no login name (a container): still an operator
        return "operator:unknown"


def _run(work: Callable[[Any, datetime], Any]) -> Any:
    """Run ``work(session, now)`` in one transaction; an OperatorError is the command's error."""
    from server import create_app
    from server.operators import OperatorError
    from server.storage.db import app_engine, session_scope
    from server.storage.models import utcnow

    app = create_app()
    try:
        with app.app_context(), session_scope(app_engine(app)) as session:
            return work(session, utcnow())
    except OperatorError as error:
        raise click.ClickException(str(error)) from None


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else f"{moment:%Y-%m-%d %H:%M} UTC"


@click.group()
def users() -> None:
    """List accounts with whether their mail arrives; disable or enable one."""


@users.command("list")
@click.option("--bouncing", is_flag=True, help="Only the accounts whose address bounces.")
def list_users(bouncing: bool) -> None:
    """List the accounts: id, address, name, and the address's mail status (ok, unconfirmed,
    or bouncing since when: no game mail goes to it until its owner confirms it again).

    \b
    Example:
        iridescia-server users list --bouncing
    """
    from server.http.plain_text import printable
    from server.users.mail_status import accounts, email_status

    rows = _run(lambda session, _now: [
        (user.id, user.email, user.name, email_status(user), user.email_bouncing_at,
         user.disabled_at) for user in accounts(session, bouncing)])
    if not rows:
        click.echo("no account bounces" if bouncing else "no accounts")
    for user_id, email, name, status, since, disabled in rows:
        if status == "bouncing":
            status = f"bouncing since {_when(since)}"
        click.echo(f"{user_id:>6}  {printable(email)}  {printable(name)}  {status}"
                   + ("  disabled" if disabled else ""))


@users.command("disable")
@click.argument("email")
@click.option("--why", default=None, help="The reason, kept in the audit log.")
def disable(email: str, why: str | None) -> None:
    """Disable the account with this EMAIL: its token is refused (403) and it is sent no more
    mail (mail waiting for it is parked). Undo with `users enable`.

    \b
    Example:
        iridescia-server users disable eve@example.org --why "abusive invitations"
    """
    from server.http.plain_text import printable
    from server.operators import disable_user

    user, parked = _run(lambda session, now: disable_user(session, email, why, _actor(), now))
    click.echo(f"disabled {printable(user.email)} (user {user.id}); "
               f"{parked} waiting mail(s) parked")


@users.command("enable")
@click.argument("email")
@click.option("--why", default=None, help="The reason, kept in the audit log.")
def enable(email: str, why: str | None) -> None:
    """Enable a disabled account again; the mail parked when it was disabled is queued again.

    \b
    Example:
        iridescia-server users enable eve@example.org
    """
    from server.http.plain_text import printable
    from server.operators import enable_user

    user = _run(lambda session, now: enable_user(session, email, why, _actor(), now))
    click.echo(f"enabled {printable(user.email)} (user {user.id})")


@click.group()
def games() -> None:
    """Look at a game or abort it."""


@games.command("abort")
@click.argument("game_id")
@click.option("--why", required=True, help="The reason: mailed to the players, kept in the log.")
def abort(game_id: str, why: str) -> None:
    """End GAME_ID as aborted: it takes no more commands, and its players are mailed the reason.

    \b
    Example:
        iridescia-server games abort k3x9q2ab --why "a player used a bug; replay it"
    """
    from server.operators import abort_game

    mailed = _run(lambda session, now: abort_game(session, game_id, why, _actor(), now))
    click.echo(f"aborted game {game_id}; {len(mailed)} player(s) will be mailed")


@games.command("show")
@click.argument("game_id")
@click.option("--events", default=10, show_default=True, type=click.IntRange(min=0),
              help="How many of the latest events to list.")
def show(game_id: str, events: int) -> None:
    """Print GAME_ID's status, players, version, due times, latest events (types only) and audit
    records. Nothing secret: no seed, join code or event payload.

    \b
    Example:
        iridescia-server games show k3x9q2ab --events 20
    """
    from server.operators import game_report

    report = _run(lambda session, _now: game_report(session, game_id, events))
    for line in report_lines(report):
        click.echo(line)


def report_lines(report: dict) -> list[str]:
    from server.http.plain_text import printable

    game, creator = report["game"], report["creator"]
    lines = [
        f"game {game.id}: {game.status}, version {game.version}, {game.seats} seat(s)"
        f"{' + the Rhom' if game.rhom else ''}, {'public' if game.public else 'private'}",
        f"created {_when(game.created_at)} by user {game.created_by}"
        + (f" ({printable(creator.name)} <{printable(creator.email)}>)" if creator else ""),
        f"turn: seat {'-' if game.current_seat is None else game.current_seat}"
        f" ({game.pending_kind or '-'}), started {_when(game.turn_started_at)}",
        f"due: deadline {_when(game.deadline_at)}, reminder {_when(game.next_reminder_at)}, "
        f"automatic turn {_when(game.automatic_due_at)}",
        "players:",
    ]
    for seat, user in report["players"]:
        who = "the Rhom" if user is None else (
            f"user {user.id} {printable(user.name)} <{printable(user.email)}>"
            + (" (disabled)" if user.disabled_at else ""))
        flags = ", absent" if seat.absent else ""
        lines.append(f"  seat {'-' if seat.seat is None else seat.seat}: {who}"
                     f" ({seat.kind}{flags}, {seat.missed_turns} missed)")
    lines.append(f"latest events ({len(report['events'])}):")
    lines += [f"  #{e.seq} {_when(e.at)} {e.actor} {e.type}" for e in report["events"]]
    lines.append(f"audit ({len(report['audit'])}):")
    lines += [f"  {_when(a.at)} {a.actor} {a.action}: {printable(a.reason or '-')}"
              for a in report["audit"]]
    return lines


@click.command()
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1),
              help="How many of the latest records to list.")
def audit(limit: int) -> None:
    """List what operators did (disable, enable, abort), oldest first, with who and why.

    \b
    Example:
        iridescia-server audit --limit 20
    """
    from server.http.plain_text import printable
    from server.operators import audit_trail

    rows = _run(lambda session, _now: audit_trail(session, limit))
    if not rows:
        click.echo("no operator actions recorded")
    for row in rows:
        click.echo(f"{row.id}\t{_when(row.at)}\t{row.actor}\t{row.action}\t"
                   f"{printable(row.target)}\t{printable(row.reason or '-')}")


def register(group: click.Group) -> None:
    group.add_command(users)
    group.add_command(games)
    group.add_command(audit)
