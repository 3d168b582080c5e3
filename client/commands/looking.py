"""Looking at a game: the board (`show`) and what I may do now (`legal`)."""

from __future__ import annotations

import shlex
import sys

import click

from client import games as game_helpers
from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.acting import cli_argv, notation_line
from client.commands.lobby import describe_turn, game_lines, short_time
from client.i18n import _
from client.render import render_view


def color_wanted(no_color: bool) -> bool:
    return not no_color and sys.stdout.isatty()


@click.command()
@game_argument
@click.option("--version", "at_version", type=click.IntRange(min=0),
              help="Show the board as it was at this version.")
@click.option("--no-color", is_flag=True, help="Plain text, no colour.")
@json_option
@pass_app
@example("""
iridescia show g7Kq2
iridescia show g7Kq2 --version 40 --no-color
""")
def show(app: App, game: str, at_version: int | None, no_color: bool, as_json: bool) -> None:
    """Draw the board, the markets, every player and whose turn it is."""
    api = app.api()
    info = game_helpers.fetch_game(api, game)
    if info.get("status") == "open" and not as_json:
        for line in game_lines(info):
            click.echo(line)
        click.echo(_("The game has not started: {value}.").format(value=describe_turn(info)))
        return
    view = game_helpers.fetch_view(api, game, at_version)
    if as_json:
        emit_json(view)
        return
    if at_version is None:
        game_helpers.remember_version(api, game, view.get("version"))
    click.echo(render_view(view, info, color=color_wanted(no_color)))
    if at_version is None and info.get("is_my_turn"):
        click.echo(_("\nYour move: `iridescia legal {game}` lists what you can type.").format(game=game))


@click.command()
@game_argument
@json_option
@pass_app
@example("""
iridescia legal g7Kq2
iridescia move g7Kq2 4b      # the line `move 4b`, with the game after its first word
""")
def legal(app: App, game: str, as_json: bool) -> None:
    """List what you may do now, one command notation line each (as you would mail it)."""
    api = app.api()
    data = api.get(f"/games/{game}/legal")
    if as_json:
        emit_json(data)
        return
    game_helpers.remember_version(api, game, data.get("version"))
    commands = data.get("commands") or []
    # When the server plays the decision itself if you have not (a deadline, a removal grace).
    decides = data.get("server_decides_at")
    decides_line = (_("The server will decide at {moment}.").format(moment=short_time(decides))
                    if decides else None)
    if not commands:
        info = game_helpers.fetch_game(api, game)
        click.echo(_("Nothing to do now. {value}").format(value=game_helpers.whose_turn(info)))
        if decides_line:
            click.echo(decides_line)
        return
    lines = list(dict.fromkeys(filter(None, (notation_line(c) for c in commands))))
    for line in lines:
        click.echo(line)
    steps = data.get("undo_steps") or 0
    if steps:
        click.echo(_("(undo takes back {steps} step{value} of this turn)").format(steps=steps, value='' if steps == 1 else 's'))
    if lines:
        example_line = "iridescia " + shlex.join(cli_argv(lines[-1], game))
        click.echo(_("To play one here, put the game after its first word: {example_line}").format(example_line=example_line))
    if decides_line:
        click.echo(decides_line)


COMMANDS = [show, legal]
