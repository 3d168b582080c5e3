"""One subcommand per kind of action, named as the rulebook names things.

Each builds one engine command (docs/engine-api.md, "Commands") and sends it with the version
the player last saw. The words are the command notation's (engine/text/notation.py): `move 4b` in a
mail or in `legal` is `iridescia move GAME 4b` here, and `to_argv` turns one into the other.
"""

from __future__ import annotations

import shlex

import click

from client import games as game_helpers
from client.app import App, emit_json, example, pass_app
from client.http import Stale
from client.i18n import _
from client.params import GEM, HEX, IdType, RecipientType, parse_delta, parse_die
from engine import command_from_dict
from engine.text import notation

DICE_ITEMS = ("jolty_jackhammer", "dazzling_dynamite")
PLAY_FIELDS = {
    "cauldron_of_fortune": ("give", "take"),
    "marvelous_mine_cart": (),
    "epic_elixir": (),
    "axe_of_awesomeness": ("gem",),
    "wishing_well": (),
    "regal_reference_book": ("relic",),
    "prosperous_pickaxe": ("hex",),
    "swapping_stones": ("target",),
    "clever_catapult": ("hex",),
}
OWN_COMMAND = {
    "jolty_jackhammer": "modify",
    "dazzling_dynamite": "modify",
    "lucky_libation": "reroll or roll-market",
}


def action_options(func):
    """GAME, --expect-version and --dry-run, shared by every action."""
    func = click.option(
        "--dry-run", is_flag=True, help="Print the command as JSON instead of sending it."
    )(func)
    func = click.option(
        "--expect-version", type=int, metavar="N",
        help="The game version you decided on (default: the one you last looked at).",
    )(func)
    return click.argument("game", metavar="GAME")(func)


def submit(app: App, game_id: str, command: dict, expect_version: int | None,
           dry_run: bool) -> None:
    if dry_run:
        emit_json(command)
        return
    api = app.api()
    expected = expect_version
    if expected is None:
        expected = game_helpers.seen_version(api, game_id)
    if expected is None:
        expected = game_helpers.fetch_game(api, game_id).get("version", 0)
    try:
        result = api.send_command(game_id, command, expected)
    except Stale as stale:
        if stale.current_version is not None and stale.current_version != expected:
            explain_stale(app, game_id, expected, stale)
        raise
    game = game_helpers.fetch_game(api, game_id)
    for line in game_helpers.tell(_with_undone_steps(api, game_id, result), game):
        click.echo(line)
    # What I have seen is my own command's result; whatever others did since is news for the
    # next command to report (a 409) rather than something I silently decided against.
    game_helpers.remember_version(api, game_id, result.get("version"))
    click.echo(game_helpers.whose_turn(game))


def _with_undone_steps(api, game_id: str, result: dict) -> list[dict]:
    """The answer's events, and before an undo the steps it took back: the narration then names
    them ("You took back 2 steps: moved to 3c and ...") instead of only counting them."""
    events = result.get("events") or []
    undo = next((e for e in events if e.get("type") == "steps_undone"), None)
    if undo is None:
        return events
    first = int(undo["seq"]) - int((undo.get("payload") or {}).get("events") or 0)
    earlier = game_helpers.fetch_events(api, game_id, after=first - 1).get("events") or []
    return [e for e in earlier if int(e["seq"]) < int(undo["seq"])] + events


def explain_stale(app: App, game_id: str, expected: int, stale: Stale) -> None:
    """On a 409: show what happened since the version the player decided on."""
    api = app.api()
    game = game_helpers.fetch_game(api, game_id)
    current = stale.current_version if stale.current_version is not None else game.get("version")
    click.echo(_("The game moved on since you last looked; your command was not sent. "
                 "What changed:"), err=True)
    events = game_helpers.fetch_events(api, game_id, after=expected).get("events") or []
    for line in game_helpers.tell(events, game, continued_heading=True):
        click.echo("  " + line, err=True)
    game_helpers.remember_version(api, game_id, current)
    click.echo(_("{value} Look again with `iridescia show {game_id}` and retry.").format(value=game_helpers.whose_turn(game), game_id=game_id), err=True)


def my_player(app: App, game_id: str) -> dict:
    view = game_helpers.fetch_view(app.api(), game_id)
    viewer = view.get("viewer")
    for player in view.get("players") or []:
        if player["seat"] == viewer:
            return player
    raise click.ClickException(_("you have no seat in game {game_id}").format(game_id=game_id))


@click.command()
@action_options
@click.argument("hexes", nargs=-1, required=True, type=HEX, metavar="HEX [HEX]")
@pass_app
@example("iridescia reveal g7Kq2 3c 3d")
def reveal(app, game, expect_version, dry_run, hexes):
    """Step 1: reveal up to two face-down tiles ahead of or beside your explorer."""
    if len(hexes) > 2:
        raise click.UsageError(_("reveal takes at most two hexes"))
    submit(app, game, {"type": "reveal", "hexes": list(hexes)}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("hex_", metavar="HEX", type=HEX)
@pass_app
@example("iridescia move g7Kq2 3c")
def move(app, game, expect_version, dry_run, hex_):
    """Step 2: move your explorer onto a revealed tile ahead or beside it."""
    submit(app, game, {"type": "move", "hex": hex_}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("hex_", metavar="HEX", type=HEX)
@click.option("--discard-tile", type=IdType("TILE"),
              help="The tile of your victory pile to discard (when you have any).")
@pass_app
@example("iridescia relocate g7Kq2 4a --discard-tile desert_emerald_2")
def relocate(app, game, expect_version, dry_run, hex_, discard_tile):
    """Step 2, no tile reachable: discard a tile and stand on the nearest empty hex."""
    submit(app, game, {"type": "relocate", "hex": hex_, "discard_tile": discard_tile},
           expect_version, dry_run)


@click.command()
@action_options
@click.argument("gem", type=GEM)
@pass_app
@example("iridescia choose g7Kq2 sapphire")
def choose(app, game, expect_version, dry_run, gem):
    """Choose the gem of the rainbow (or Iridia Stone) tile you entered."""
    submit(app, game, {"type": "choose_gem", "gem": gem}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("gem", type=GEM)
@click.option("--to", "to", type=RecipientType(), required=True,
              help="The seat receiving the gem, or 'supply' when nobody has room.")
@pass_app
@example("iridescia give g7Kq2 citrine --to 2")
def give(app, game, expect_version, dry_run, gem, to):
    """Your hold is over 7 gems: give one gem away to another player."""
    submit(app, game, {"type": "give_gem", "gem": gem, "to": to}, expect_version, dry_run)


@click.command(name="discard-objective")
@action_options
@click.argument("objective", type=IdType("OBJECTIVE"))
@pass_app
@example("iridescia discard-objective g7Kq2 glimmering_gold")
def discard_objective(app, game, expect_version, dry_run, objective):
    """Entering the Forest: discard one of your two secret objectives."""
    submit(app, game, {"type": "discard_objective", "objective": objective}, expect_version,
           dry_run)


@click.command()
@action_options
@click.option("--stone-dice", type=click.IntRange(0, 4), default=0, show_default=True,
              help="How many of your stone dice to activate for this roll.")
@pass_app
@example("iridescia mine g7Kq2 --stone-dice 1")
def mine(app, game, expect_version, dry_run, stone_dice):
    """Step 3a: pay the mining cost and roll your mining dice for the gem of your tile."""
    submit(app, game, {"type": "mine", "stone_dice": stone_dice}, expect_version, dry_run)


@click.command()
@action_options
@click.option("--gem", type=GEM, help="Wishing Well: the gem you take.")
@pass_app
@example("""
iridescia keep g7Kq2
iridescia keep g7Kq2 --gem amethyst
""")
def keep(app, game, expect_version, dry_run, gem):
    """Accept the pending roll (and, for a Wishing Well, name the gem)."""
    submit(app, game, {"type": "keep_roll", "gem": gem}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("dice", nargs=-1, required=True, type=click.IntRange(min=0), metavar="DIE...")
@pass_app
@example("iridescia reroll g7Kq2 0 2")
def reroll(app, game, expect_version, dry_run, dice):
    """Lucky Libation: re-roll some of the pending dice (numbered from 0)."""
    submit(app, game, {"type": "reroll", "dice": list(dice)}, expect_version, dry_run)


@click.command(context_settings={"ignore_unknown_options": True})
@action_options
@click.argument("die")
@click.argument("delta")
@click.option("--item", type=click.Choice(DICE_ITEMS),
              help="Which item to spend (default: the one you hold that can do it).")
@pass_app
@example("""
iridescia modify g7Kq2 roll:1 +1
iridescia modify g7Kq2 emerald -2 --item dazzling_dynamite
""")
def modify(app, game, expect_version, dry_run, die, delta, item):
    """Jolty Jackhammer (±1) or Dazzling Dynamite (±2): change a pending die or a market die."""
    try:
        die_id = parse_die(die)
        change = parse_delta(delta)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if item is None:
        if abs(change) == 2:
            item = "dazzling_dynamite"
        elif dry_run:
            item = "jolty_jackhammer"
        else:
            held = [i for i in DICE_ITEMS if i in (my_player(app, game).get("items") or [])]
            item = held[0] if held else "jolty_jackhammer"
    submit(app, game, {"type": "modify_die", "item": item, "die": die_id, "delta": change},
           expect_version, dry_run)


@click.command(name="roll-market")
@action_options
@click.argument("gems", nargs=-1, required=True, type=GEM, metavar="GEM...")
@pass_app
@example("iridescia roll-market g7Kq2 emerald sapphire")
def roll_market(app, game, expect_version, dry_run, gems):
    """Lucky Libation: roll some of the gem market dice."""
    submit(app, game, {"type": "roll_market", "gems": list(gems)}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("item", type=IdType("ITEM"))
@pass_app
@example("iridescia buy g7Kq2 epic_elixir")
def buy(app, game, expect_version, dry_run, item):
    """Step 3b: buy an item card from the market (once a turn)."""
    submit(app, game, {"type": "buy", "item": item}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("gem", type=GEM)
@click.argument("count", type=click.IntRange(min=1), required=False)
@pass_app
@example("""
iridescia sell g7Kq2 emerald 2
iridescia sell g7Kq2 emerald      # all your emeralds
""")
def sell(app, game, expect_version, dry_run, gem, count):
    """Step 3d: sell gems of one type at the market value (once a turn)."""
    if count is None:
        if dry_run:
            raise click.UsageError(_("give COUNT with --dry-run"))
        count = (my_player(app, game).get("hold") or {}).get(gem, 0)
        if not count:
            raise click.ClickException(_("you hold no {gem} to sell").format(gem=gem))
    submit(app, game, {"type": "sell", "gem": gem, "count": count}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("item", type=IdType("ITEM"))
@click.option("--give", "give_gems", type=GEM, multiple=True,
              help="Cauldron of Fortune: a gem to trade in (twice).")
@click.option("--take", type=GEM, help="Cauldron of Fortune: the gem you take.")
@click.option("--gem", type=GEM, help="Axe of Awesomeness: the gem to split.")
@click.option("--relic", type=IdType("RELIC"), help="Regal Reference Book: the relic to reserve.")
@click.option("--hex", "hex_", type=HEX,
              help="Prosperous Pickaxe: the adjacent tile; Clever Catapult: where you land.")
@click.option("--target", type=int, help="Swapping Stones: the seat you swap places with.")
@pass_app
@example("""
iridescia play g7Kq2 epic_elixir
iridescia play g7Kq2 cauldron_of_fortune --give emerald --give citrine --take sapphire
iridescia play g7Kq2 prosperous_pickaxe --hex 4d
""")
def play(app, game, expect_version, dry_run, item, give_gems, take, gem, relic, hex_, target):
    """Step 3c: play an item card from your hand."""
    if item in OWN_COMMAND:
        raise click.UsageError(_("{item} is played with `iridescia {value}`").format(item=item, value=OWN_COMMAND[item]))
    if item not in PLAY_FIELDS:
        raise click.UsageError(_("{item!r} is not an item card you can play").format(item=item))
    given = {"give": list(give_gems), "take": take, "gem": gem, "relic": relic, "hex": hex_,
             "target": target}
    needed = PLAY_FIELDS[item]
    command = {"type": "play_item", "item": item}
    for field_name in needed:
        value = given[field_name]
        if value in (None, []):
            raise click.UsageError(_("{item} needs --{field_name}").format(item=item, field_name=field_name))
        command[field_name] = value
    extra = [f"--{k}" for k, v in given.items() if v not in (None, []) and k not in needed]
    if extra:
        raise click.UsageError(_("{item} does not take {value}").format(item=item, value=', '.join(extra)))
    if item == "cauldron_of_fortune" and len(give_gems) != 2:
        raise click.UsageError(_("cauldron_of_fortune needs --give twice (two gems)"))
    submit(app, game, command, expect_version, dry_run)


@click.command()
@action_options
@click.argument("relic", type=IdType("RELIC"))
@pass_app
@example("iridescia restore g7Kq2 sapphire_spyglass")
def restore(app, game, expect_version, dry_run, relic):
    """Step 4: restore a relic from the relic row (or one you reserved) with your gems."""
    submit(app, game, {"type": "restore", "relic": relic}, expect_version, dry_run)


@click.command()
@action_options
@pass_app
@example("iridescia end g7Kq2")
def end(app, game, expect_version, dry_run):
    """Steps 5-6: collect your tile and end your turn."""
    submit(app, game, {"type": "end_turn"}, expect_version, dry_run)


@click.command()
@action_options
@click.argument("hex_", metavar="HEX", type=HEX)
@pass_app
@example("iridescia remove g7Kq2 6b")
def remove(app, game, expect_version, dry_run, hex_):
    """A removal turn (after the Castle): remove one tile below the Castle row."""
    submit(app, game, {"type": "remove_tile", "hex": hex_}, expect_version, dry_run)


@click.command()
@action_options
@pass_app
@example("iridescia undo g7Kq2")
def undo(app, game, expect_version, dry_run):
    """Take back your steps of this turn since the last one that revealed something or drew
    chance (a reveal, a roll, a drawn card, a shuffle, a gem given to another player)."""
    submit(app, game, {"type": "undo"}, expect_version, dry_run)


def notation_line(command: dict) -> str | None:
    """The notation line of a command as the API lists it (None for what nobody types)."""

    engine_command = command_from_dict(dict(command, seat=command.get("seat") or 0))
    return notation.format(engine_command) if notation.has_notation(engine_command) else None


def cli_argv(line: str, game_id: str) -> list[str]:
    """`move 4b` as the arguments of `iridescia move GAME 4b`."""
    word, *rest = shlex.split(line)
    return [word, game_id, *rest]


def to_argv(command: dict, game_id: str) -> list[str] | None:
    """The command line that plays `command` (None for commands no human types)."""
    line = notation_line(command)
    return None if line is None else cli_argv(line, game_id)


COMMANDS = [reveal, move, relocate, choose, give, discard_objective, mine, keep, reroll, modify,
            roll_market, buy, sell, play, restore, end, remove, undo]
