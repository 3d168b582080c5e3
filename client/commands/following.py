"""Following a game: `watch` prints events as they happen, `wait` returns on my turn."""

from __future__ import annotations

import json
import time

import click

from client import games as game_helpers
from client.app import App, emit_json, example, game_argument, pass_app
from client.i18n import _

POLL_SECONDS = 25


@click.command()
@game_argument
@click.option("--after", type=click.IntRange(min=0), default=None,
              help="Start after this event number (default: from the beginning).")
@click.option("--until-end/--forever", default=True, show_default=True,
              help="Stop when the game is over.")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after printing this many events.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per event, for scripts.")
@pass_app
@example("""
iridescia watch g7Kq2
iridescia watch g7Kq2 --after 120 --limit 10 --json
""")
def watch(app: App, game: str, after: int | None, until_end: bool, limit: int | None,
          as_json: bool) -> None:
    """Tell the game's events as they happen, turn by turn (long-polling the server)."""
    api = app.api()
    info = game_helpers.fetch_game(api, game)
    position = after or 0
    printed = 0
    while True:
        data = game_helpers.fetch_events(api, game, after=position, wait=POLL_SECONDS)
        events = data.get("events") or []
        if limit is not None:
            events = events[: limit - printed]
        for event in events:
            position = max(position, int(event.get("seq", position)))
            if as_json:
                click.echo(_compact(event))
        if not as_json:
            # Told as sentences; a batch that continues a turn shown before has no heading.
            for line in game_helpers.tell(events, info, continued_heading=printed == 0):
                click.echo(line)
        printed += len(events)
        if limit is not None and printed >= limit:
            return
        position = max(position, int(data.get("version") or 0))
        if until_end and game_helpers.fetch_game(api, game).get("status") == "finished":
            if not as_json:
                click.echo(_("The game is over."))
            return


def _compact(event: dict) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


@click.command()
@game_argument
@click.option("--timeout", type=click.FloatRange(min=0), default=None,
              help="Give up after this many seconds (exit status 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the game as JSON when it returns.")
@pass_app
@example("iridescia wait g7Kq2 --timeout 3600 && iridescia show g7Kq2")
def wait(app: App, game: str, timeout: float | None, as_json: bool) -> None:
    """Return when it is your turn (exit 0); exit 1 if the game ends or on --timeout."""
    api = app.api()
    started = time.monotonic()
    while True:
        info = game_helpers.fetch_game(api, game)
        if info.get("is_my_turn"):
            if as_json:
                emit_json(info)
            else:
                click.echo(game_helpers.whose_turn(info))
            return
        if info.get("status") == "finished":
            raise click.ClickException(_("the game is over: it will never be your turn again"))
        remaining = None if timeout is None else timeout - (time.monotonic() - started)
        if remaining is not None and remaining <= 0:
            raise click.ClickException(_("still not your turn after {timeout:g} seconds").format(timeout=timeout))
        poll = POLL_SECONDS if remaining is None else max(1, min(POLL_SECONDS, int(remaining)))
        game_helpers.fetch_events(api, game, after=int(info.get("version") or 0), wait=poll)


COMMANDS = [watch, wait]
