"""Table talk: `say` posts a message to a game, `messages` reads them. Every string in an
answer reaches the terminal with its control characters shown, not obeyed (client/http.py)."""

from __future__ import annotations

from datetime import datetime

import click

from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.i18n import _


def message_line(message: dict) -> str:
    """`[players] Bob, 2026-12-01 12:04 UTC: nice move` (a watcher's name says so)."""
    who = message.get("name") or "?"
    if not message.get("player"):
        who += " (watching)"
    try:
        at = datetime.fromisoformat(str(message.get("at"))).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        at = str(message.get("at"))
    return f"[{message.get('channel')}] {who}, {at}: {message.get('text')}"


@click.command()
@game_argument
@click.argument("text", nargs=-1, required=True, metavar="TEXT")
@click.option("--spectators", is_flag=True,
              help="Post on a public game's spectators' channel (the default for a "
                   "non-player).")
@json_option
@pass_app
@example("""
iridescia say g7Kq2 Nice move, Bob!
iridescia say g7Kq2 "Who's winning?" --spectators
""")
def say(app: App, game: str, text: tuple[str, ...], spectators: bool, as_json: bool) -> None:
    """Post a message to a game: its players read it (and, with --spectators on a public game,
    everyone watching). It is in their next email too. At most 1,000 characters."""
    body = {"text": " ".join(text)}
    if spectators:
        body["channel"] = "spectators"
    message = app.api().post(f"/games/{game}/messages", body)
    if as_json:
        emit_json(message)
        return
    to = _("the players") if message.get("channel") == "players" else _("the spectators")
    click.echo(_("Said to {to} of game {game}: {text}").format(to=to, game=game, text=message.get('text')))


@click.command()
@game_argument
@click.option("--since", type=click.IntRange(min=0), help="Only messages after this id.")
@click.option("--limit", type=click.IntRange(1, 200), default=50, show_default=True,
              help="How many (the newest, or the first after --since).")
@json_option
@pass_app
@example("""
iridescia messages g7Kq2
iridescia messages g7Kq2 --since 41 --json
""")
def messages(app: App, game: str, since: int | None, limit: int, as_json: bool) -> None:
    """Read a game's messages, oldest first, each marked with its channel: a player reads the
    players' and the spectators' channels, anyone else a public game's spectators' channel."""
    params: dict = {"limit": limit}
    if since is not None:
        params["since"] = since
    api = app.api()
    data = api.request("GET", f"/games/{game}/messages", params=params, auth=bool(api.token))
    if as_json:
        emit_json(data)
        return
    told = data.get("messages") or []
    if not told:
        click.echo(_("No messages in game {game}{value}. `iridescia say {game} TEXT` posts one.").format(game=game, value=' since ' + str(since) if since else ''))
        return
    for message in told:
        click.echo(message_line(message))


COMMANDS = [say, messages]
