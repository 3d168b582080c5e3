"""Your plan for your next turn: `iridescia plan GAME LINE...`, shown without LINE, dropped with
--clear (PUT, GET and DELETE /api/v1/games/{id}/plan; docs/plans.md)."""

from __future__ import annotations

import click

from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.i18n import _


def plan_lines(plan: dict) -> list[str]:
    lines = [f"Your plan for your next turn in game {plan['game_id']}:"]
    lines += [f"  {line}" for line in plan["lines"]]
    lines.append("It is played as soon as your turn comes, each line while it is legal.")
    return lines


@click.command()
@game_argument
@click.argument("lines", nargs=-1, metavar="[LINE]...")
@click.option("--clear", is_flag=True, help="Drop your plan: your next turn is yours to play.")
@json_option
@pass_app
@example("""
iridescia plan g7Kq2 "move 3c or move 3d" "choose emerald" mine keep end
iridescia plan g7Kq2
iridescia plan g7Kq2 --clear
""")
def plan(app: App, game: str, lines: tuple[str, ...], clear: bool, as_json: bool) -> None:
    """Leave the lines of your next turn in GAME while it is not your turn (replacing any plan
    you had). When your turn comes the server plays them at once, each while it is legal, and
    stops at the first that is not; your turn's mail says what was played and what is left.

    Each LINE is a command as `iridescia legal` lists them; `A or B` tries A, then B;
    `choose GEM` and `give N GEM to NAME` are used when the game asks for them. Without LINE,
    show your plan; only you can see it. Playing any command clears it.
    """
    path = f"/games/{game}/plan"
    if clear:
        if lines:
            raise click.UsageError(_("--clear takes no LINE"))
        app.api().delete(path)
        click.echo(_("Dropped your plan in game {game}.").format(game=game))
        return
    kept = app.api().put(path, {"lines": list(lines)}) if lines else app.api().get(path)
    if as_json:
        emit_json(kept)
        return
    for line in plan_lines(kept):
        click.echo(line)


COMMANDS = [plan]
