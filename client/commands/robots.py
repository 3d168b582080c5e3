"""Bots: `autoplay` plays my turns with an engine policy; `simulate` wraps the engine's simulator."""

from __future__ import annotations

import random

import click

import engine
from client import games as game_helpers
from client import server_words
from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.acting import notation_line
from client.http import Stale
from client.i18n import _, refusal
from engine import bots
from engine.simulate import simulate as run_simulation
from engine.text.wording import printable

# The levels, and the engine's own names (random is the simulator's uniform player).
POLICY_NAMES = ("easy", "medium", "hard", "greedy", "random", "strong")
WAIT_SECONDS = 20


def choose(policy: str, view: dict, commands: list[dict], rng: random.Random) -> dict:
    """Run the engine's `policy` on the server's view and my legal commands; return command JSON.

    The engine's policies decide from what one seat may see, so the client needs no hidden state.
    """

    parsed = [engine.command_from_dict(c) for c in commands]
    return engine.command_to_dict(bots.choose(policy, view, parsed, rng))


@click.command()
@game_argument
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="greedy", show_default=True,
              help="How to choose: a bot level (easy, medium, hard), or a uniform random pick "
                   "(greedy and strong are medium and hard's old names).")
@click.option("--until-end", is_flag=True,
              help="Keep playing (and waiting for the others) until the game is over.")
@click.option("--seed", default=None, help="Seed for the policy's choices (for repeatable runs).")
@click.option("--max-commands", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Stop after sending this many commands.")
@click.option("--quiet", is_flag=True, help="Do not print each command sent.")
@pass_app
@example("""
iridescia autoplay g7Kq2 --policy greedy
iridescia autoplay g7Kq2 --policy random --until-end --seed 7
iridescia autoplay g7Kq2 --policy hard --until-end
""")
def autoplay(app: App, game: str, policy: str, until_end: bool, seed: str | None,
             max_commands: int, quiet: bool) -> None:
    """Play my turns with a bot: while it is my turn, or with --until-end to the end."""
    api = app.api()
    rng = random.Random(seed)
    sent = 0
    info = game_helpers.fetch_game(api, game)
    if info.get("status") == "open":
        raise click.ClickException(_("game {game} has not started yet").format(game=game))
    legal_now = None  # my legal commands, when the last answer listed them
    while sent < max_commands:
        if legal_now is None:
            legal_now = api.get(f"/games/{game}/legal")
        commands = legal_now.get("commands") or []
        if not commands:
            if not until_end:
                break
            if game_helpers.fetch_game(api, game).get("status") == "finished":
                break
            game_helpers.fetch_events(
                api, game, after=int(legal_now.get("version") or 0), wait=WAIT_SECONDS
            )
            legal_now = None
            continue
        view = game_helpers.fetch_view(api, game)
        command = choose(policy, view, commands, rng)
        command.pop("seat", None)  # the server fills in my seat
        try:
            result = api.send_command(game, command, legal_now["version"])
        except Stale:
            legal_now = None
            continue  # somebody (the Rhom, a deadline) acted first: look again
        # The answer lists what I may do next (nothing once the turn has passed): no re-read.
        legal_now = ({"version": result["version"], "commands": result["legal"]}
                     if result.get("legal") else None)
        sent += 1
        game_helpers.remember_version(api, game, result.get("version"))
        if not quiet:
            click.echo(notation_line(command) or "(a command the server plays)")
    info = game_helpers.fetch_game(api, game)
    click.echo(_("Sent {sent} command{value}. {value2}").format(sent=sent, value='s' if sent != 1 else '', value2=game_helpers.whose_turn(info)))


@click.command()
@click.option("--players", type=click.IntRange(1, 4), required=True, help="Human seats, 1-4.")
@click.option("--rhom", is_flag=True, help="Add the Rhom (forced on for 1 player).")
@click.option("--games", "game_count", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many games to play.")
@click.option("--seed", default="0", show_default=True, help="Seed of the first game.")
@click.option("--policy", type=click.Choice(("random", "greedy", "cautious", "strong")), default="random",
              show_default=True, help="The bot every human seat uses.")
@click.option("--mining-cost", type=click.Choice(["1", "3"]), default="1", show_default=True,
              help="Coins per mining attempt.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@example("iridescia simulate --players 2 --rhom --games 20 --seed 1 --policy greedy")
def simulate(players, rhom, game_count, seed, policy, mining_cost, as_json) -> None:
    """Play whole games offline with bots (the engine's simulator) and print statistics."""

    try:
        report = run_simulation(players, game_count, seed, rhom, policy,
                                mining_cost=int(mining_cost))
    except (engine.RuleError, ValueError) as exc:
        raise click.ClickException(refusal(exc)) from None
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(report.to_text())
    if report.completed != report.games:
        raise click.ClickException(
            _("only {completed} of {games} games reached their end").format(completed=report.completed, games=report.games)
        )




@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia hint g7Kq2")
def hint(app: App, game: str, as_json: bool) -> None:
    """What would the bot do? The command the hard bot would play for you now in GAME, worked
    out from what you see only."""
    answer = app.api().get(f"/games/{game}/hint")
    if as_json:
        emit_json(answer)
        return
    line = answer.get("line") or answer["command"]["type"]
    click.echo(_("The {level} bot would play: {value}").format(level=server_words.bot_level(answer['level']), value=printable(line)))


COMMANDS = [autoplay, simulate, hint]
