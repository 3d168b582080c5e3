"""Time away: a vacation (your turns wait for you), and pausing a game with the whole table."""

from __future__ import annotations

import click

from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.lobby import short_time
from client.i18n import _, listed


@click.command()
@click.option("--until", "until", type=click.DateTime(formats=["%Y-%m-%d"]),
              help="The day you are back (YYYY-MM-DD): away until 00:00 UTC that day.")
@click.option("--end", is_flag=True, help="Back early: your turns' clocks run again.")
@json_option
@pass_app
@example("""
iridescia vacation --until 2026-12-24
iridescia vacation --end
iridescia vacation
""")
def vacation(app: App, until, end: bool, as_json: bool) -> None:
    """Go on vacation, come back, or see your vacation days left this year.

    While you are away your turns wait for you (no deadline, no reminder, no automatic turn)
    and the other players see "away until"; back, each turn has the time it had left.
    """
    if until is not None and end:
        raise click.UsageError(_("give --until DATE or --end, not both"))
    api = app.api()
    if until is not None:
        answer = api.post("/users/me/vacation", {"until": until.date().isoformat()})
    elif end:
        answer = api.delete("/users/me/vacation")
    else:
        answer = api.get("/users/me/vacation")
    if as_json:
        emit_json(answer)
        return
    if answer.get("away_until"):
        click.echo(_("Away until {value}: your turns wait for you.").format(value=short_time(answer['away_until'])))
    else:
        click.echo(_("You are not away."))
    click.echo(_("Vacation days left in {year}: {days_left} of {days_per_year}.").format(year=answer['year'], days_left=answer['days_left'], days_per_year=answer['days_per_year']))


def _pause_line(game: dict) -> str:
    if game.get("paused"):
        return _("Game {game} is paused: no deadline runs until a player resumes it.").format(
            game=game["id"])
    waiting = [p.get("name", "?") for p in game.get("players", [])
               if p.get("kind") == "human" and not p.get("wants_pause")]
    if len(waiting) < len([p for p in game.get("players", []) if p.get("kind") == "human"]):
        return _("Game {game}: pause asked; waiting for {names}.").format(
            game=game["id"], names=listed(waiting))
    return _("Game {game} runs: its clocks run again.").format(game=game["id"])


@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia pause k3x9q2ab")
def pause(app: App, game: str, as_json: bool) -> None:
    """Ask to pause GAME; it pauses when every player has asked."""
    answer = app.api().post(f"/games/{game}/pause")
    if as_json:
        emit_json(answer)
        return
    click.echo(_pause_line(answer))


@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia resume k3x9q2ab")
def resume(app: App, game: str, as_json: bool) -> None:
    """Resume GAME (any one player may), or withdraw the requests to pause it."""
    answer = app.api().post(f"/games/{game}/resume")
    if as_json:
        emit_json(answer)
        return
    click.echo(_pause_line(answer))


COMMANDS = [vacation, pause, resume]
