"""Finding a game and playing again: `rematch`."""

from __future__ import annotations

import click

from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.lobby import game_lines
from client.dice_words import random_word

WORD_OPTION = click.option(
    "--word", metavar="WORD",
    help="Your word for the dice, mixed with the server's seed at the start so no one alone "
         "chooses the dice. [default: a random word made here]")


@click.command()
@game_argument
@WORD_OPTION
@json_option
@pass_app
@example("""
iridescia rematch g7Kq2
iridescia rematch g7Kq2 --word tolami-veruko
""")
def rematch(app: App, game: str, word: str | None, as_json: bool) -> None:
    """Play finished GAME again with the same players and settings (a new seed).

    The first player to ask makes the new game and the others are invited; asking for the same
    rematch accepts it. It starts by itself once every player has accepted.
    """
    data = app.api().post(f"/games/{game}/rematch", {"contribution": word or random_word()})
    if as_json:
        emit_json(data)
        return
    click.echo(f"Rematch of game {game}:")
    for line in game_lines(data):
        click.echo(line)
    if data.get("status") == "open":
        taken = len([p for p in data.get("players", []) if p.get("kind") != "rhom"])
        waiting = (data.get("seats") or 0) - taken
        click.echo(f"Waiting for {waiting} more player{'s' if waiting != 1 else ''} to accept: "
                   "it starts by itself when they have.")


COMMANDS = [rematch]
