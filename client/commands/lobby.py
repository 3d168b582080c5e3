"""The lobby: my games, creating one, invitations, joining, starting and leaving."""

from __future__ import annotations

from datetime import UTC, datetime

import click

from client import server_words
from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.webhooks import webhook_lines
from client.dice_words import random_word
from client.i18n import _, listed
from client.table import cut, left
from engine.bots.levels import NAMES as LEVEL_NAMES
from engine.text.columns import columns


def describe_turn(game: dict) -> str:
    if game.get("status") == "open":
        taken = len([p for p in game.get("players", []) if p.get("kind") != "rhom"])
        return _("waiting for players ({taken}/{seats})").format(taken=taken,
                                                                  seats=game.get("seats"))
    if game.get("status") in ("finished", "closed", "aborted"):
        return server_words.status(game["status"])
    if game.get("is_my_turn"):
        return _("YOUR TURN")
    seat = game.get("current_seat")
    names = {p.get("seat"): _("the Rhom") if p.get("kind") == "rhom" else p.get("name")
             for p in game.get("players", [])}
    if seat is None:
        return "-"
    return _("{name} to play").format(name=names.get(seat) or "?")


def rated_name(player: dict) -> str:
    """"Ada (1087)", "Bob (1000?)" (? provisional), or the name alone when unrated."""
    name = _("the Rhom") if player.get("kind") == "rhom" else player.get("name") or "?"
    if player.get("rating") is None:
        return name
    return f"{name} ({player['rating']}{'?' if player.get('rating_provisional') else ''})"


def others(game: dict, me: int | None) -> str:
    """The other players of a game, each with their rating on its track."""
    return listed(rated_name(p) for p in game.get("players", [])
                     if p.get("user_id") is None or p.get("user_id") != me) or "-"


def short_time(value: str | None) -> str:
    """`2026-12-03T04:03:42.749+00:00` -> `2026-12-03 04:03 UTC`."""
    if not value:
        return "-"
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def rules_words(variants: dict) -> str:
    """A game's variants in words, as `new`'s options name them: "mining cost 1, leftover gems
    of any type" (the API's keys are for programs)."""
    words = []
    if "mining_cost" in variants:
        words.append(_("mining cost {cost}").format(cost=variants["mining_cost"]))
    if "leftover_gems" in variants:
        words.append(_("leftover gems of one type") if variants["leftover_gems"] == "same_type"
                     else _("leftover gems of any type"))
    if variants.get("catapult_4th"):
        words.append(_("the 4th player starts with a Clever Catapult"))
    known = {"mining_cost", "leftover_gems", "catapult_4th"}
    words += [f"{key.replace('_', ' ')} {value}" for key, value in sorted(variants.items())
              if key not in known]
    return listed(words)


def game_lines(game: dict) -> list[str]:
    """A game object in a few lines (what `new`, `join`, `start` and `leave` print)."""
    variants = game.get("variants") or {}
    rhom = _(" + the Rhom") if game.get("rhom") else ""
    lines = [_("Game {game}: {status}, {seats} seat(s){rhom}").format(
        game=game["id"], status=server_words.status(game.get("status")), seats=game.get("seats"), rhom=rhom)]
    if variants:
        lines.append(_("  rules: {rules}").format(rules=rules_words(variants)))
    if game.get("join_code"):
        lines.append(_("  join code: {code}").format(code=game["join_code"]))
    for player in game.get("players", []):  # in table order once started; never a seat number
        away = (_(", away until {moment}").format(moment=short_time(player["away_until"]))
                if player.get("away_until") else "")
        lines.append(_("  player: {name} ({kind}){away}").format(
            name=player.get("name"), kind=server_words.player_kind(player.get("kind")),
            away=away))
    if game.get("status") == "active":
        lines.append(_("  turn: {turn}").format(turn=describe_turn(game))
                     + (_(" (the game is paused)") if game.get("paused") else ""))
    return lines


@click.command()
@json_option
@pass_app
@example("iridescia games")
def games(app: App, as_json: bool) -> None:
    """List my games: my turn first, then by nearest deadline."""
    rows = app.api().get_every_page("/games")
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(_("No games yet. Create one with `iridescia new` or join with `iridescia join CODE`."))
        return
    account = app.api().get("/users/me")
    me = account.get("id")
    with_width = max(columns(_("WITH")), *(columns(others(game, me)) for game in rows))
    click.echo(" ".join([left(_("GAME"), 12), left(_("STATUS"), 9), left(_("SEATS"), 7),
                         left(_("PACE"), 5), left(_("TURN"), 28), left(_("WITH"), with_width),
                         _("DEADLINE")]))
    for game in rows:
        seats = f"{game.get('seats')}{'+R' if game.get('rhom') else ''}"
        deadline = short_time(game.get("deadline_at"))
        if game.get("time_left"):
            deadline += f" ({server_words.time_left(game['time_left'])})"
        elif game.get("paused"):
            deadline = _("paused")
        else:
            away = next((p.get("away_until") for p in game.get("players", [])
                         if p.get("seat") == game.get("current_seat") and p.get("away_until")),
                        None)
            if away and game.get("status") == "active":
                deadline = _("away until {moment}").format(moment=short_time(away))
        click.echo(" ".join([
            left(game["id"], 12), left(server_words.status(game.get("status", "")), 9),
            left(seats, 7), left(game.get("pace", ""), 5), left(cut(describe_turn(game), 28), 28),
            left(others(game, me), with_width), deadline,
        ]))
    bouncing_warning(app, account)


def bouncing_warning(app: App, me: dict | None = None) -> None:
    """When mail to my address bounces, the server sends no game mail: say so, and how to mend
    it (the confirmation link clears the mark)."""
    me = me if me is not None else app.api().get("/users/me")
    if me.get("email_status") == "bouncing":
        click.echo(_("\nMail to {email} bounces: the server sends you no game mail. Fix the address or mailbox, then confirm it again with `iridescia confirm --resend`.").format(email=me.get('email')), err=True)


@click.command()
@click.option("--seats", type=click.IntRange(1, 4), default=2, show_default=True,
              help="Number of players, bots included (1 = solo against the Rhom).")
@click.option("--bots", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Seats the server fills with bots (at most seats - 1: you take one).")
@click.option("--bot-policy", "--bot-level", "bot_policy",
              type=click.Choice(LEVEL_NAMES, case_sensitive=False), default="hard",
              show_default=True, help="The bots' level: easy, medium or hard (the old names "
                                      "strong, greedy, random still work).")
@click.option("--stand-in", "stand_in", type=click.Choice(LEVEL_NAMES, case_sensitive=False),
              help="Who plays your turn in this game when its deadline passes: easy (spends "
                   "nothing), medium or hard. [default: your preference, else hard]")
@click.option("--rhom/--no-rhom", default=None,
              help="Add the Rhom (forced for 1 seat, allowed for 2, refused for 3-4).")
@click.option("--mining-cost", type=click.Choice(["1", "3"]), default="1", show_default=True,
              help="Coins per mining attempt (3 is the digital edition's).")
@click.option("--leftover-gems", type=click.Choice(["any", "same_type"]), default="any",
              show_default=True, help="End scoring: 1 point per 2 gems of any types, or of one type.")
@click.option("--catapult-4th", is_flag=True, help="4 players: the 4th starts with a Clever Catapult.")
@click.option("--public", is_flag=True, help="Anyone may look at the game.")
@click.option("--pace", type=click.Choice(["1d", "3d", "7d", "none"]),
              help="Time a turn: 1, 3 or 7 days (reminders every 12, 24, 48 hours), or none "
                   "(no deadline). [server default: 3d]")
@click.option("--reminder-hours", type=click.IntRange(min=0),
              help="Hours between reminders; 0 for none. [server default: 24]")
@click.option("--deadline-hours", type=click.IntRange(min=0),
              help="Hours a player has per turn; 0 for no deadline. [server default: 72]")
@click.option("--absent-after", type=click.IntRange(min=0),
              help="Missed deadlines in a row after which a player counts as absent; 0 for never. [server default: 2]")
@click.option("--rhom-delay", type=click.IntRange(min=0),
              help="Seconds before the Rhom plays, so you can follow. [server default: 0]")
@click.option("--removal-grace-hours", type=click.IntRange(min=0),
              help="Hours a finished player has to choose a removal before the server does. "
                   "[server default: 0, at once]")
@click.option("--webhook", "webhook_url", metavar="URL",
              help="POST the game's turn changes and end to URL, signed (?format=discord or "
                   "slack on it for those chats). See `iridescia webhook --help`.")
@click.option("--word", metavar="WORD",
              help="Your word for the dice, mixed with the server's seed at the start so no one "
                   "alone chooses the dice. [default: a random word made here]")
@json_option
@pass_app
@example("""
iridescia new --seats 1
iridescia new --seats 2 --rhom --mining-cost 3 --deadline-hours 48
iridescia new --seats 3 --pace 7d --word tolami-veruko
iridescia new --seats 3 --bots 1 --bot-level hard
iridescia new --seats 2 --stand-in medium
iridescia new --seats 2 --webhook 'https://discord.com/api/webhooks/123/abc?format=discord'
""")
def new(app: App, seats, bots, bot_policy, stand_in, rhom, mining_cost, leftover_gems, catapult_4th, public,
        pace, reminder_hours, deadline_hours, absent_after, rhom_delay, removal_grace_hours,
        webhook_url, word, as_json) -> None:
    """Create a game; you take its first seat."""
    if rhom is None:
        rhom = seats == 1
    if catapult_4th and seats != 4:
        raise click.UsageError(_("--catapult-4th needs --seats 4"))
    if pace is not None and deadline_hours is not None:
        raise click.UsageError(_("give --pace or --deadline-hours, not both"))
    if bots >= seats:
        raise click.UsageError(_("--bots {bots} leaves you no seat: at most --bots {value} with --seats {seats}").format(bots=bots, value=seats - 1, seats=seats))
    body = {
        "seats": seats,
        "rhom": rhom,
        "variants": {
            "mining_cost": int(mining_cost),
            "leftover_gems": leftover_gems,
            "catapult_4th": catapult_4th,
        },
        "public": public,
        "contribution": word or random_word(),
    }
    if bots:
        body.update({"bots": bots, "bot_policy": bot_policy.lower()})
    if stand_in:
        body["stand_in"] = stand_in.lower()
    optional = {
        "pace": pace,
        "reminder_interval_hours": reminder_hours,
        "turn_deadline_hours": deadline_hours,
        "absent_after_missed": absent_after,
        "rhom_delay_seconds": rhom_delay,
        "removal_grace_hours": removal_grace_hours,
    }
    body.update({key: value for key, value in optional.items() if value is not None})
    if webhook_url:
        body["webhook"] = {"url": webhook_url}
    game = app.api().post("/games", body)
    if as_json:
        emit_json(game)
        return
    for line in game_lines(game):
        click.echo(line)
    if game.get("webhook"):
        for line in webhook_lines(game["webhook"]):
            click.echo(line)
    if game.get("status") == "open":
        click.echo(_("Invite players with `iridescia invite {id} EMAIL`.").format(id=game['id']))


@click.command()
@game_argument
@click.argument("email")
@json_option
@pass_app
@example("iridescia invite g7Kq2 bob@example.com")
def invite(app: App, game: str, email: str, as_json: bool) -> None:
    """Mail a join code for GAME to EMAIL."""
    invitation = app.api().post(f"/games/{game}/invitations", {"email": email})
    if as_json:
        emit_json(invitation)
        return
    click.echo(_("Invited {email}: join code {join_code}").format(email=invitation['email'], join_code=invitation['join_code']))
    if not invitation.get("mailed", True):
        click.echo(invitation.get("message") or "not mailed: pass the join code on yourself")


@click.command()
@click.argument("code")
@click.option("--stand-in", "stand_in", type=click.Choice(LEVEL_NAMES, case_sensitive=False),
              help="Who plays your turn in this game when its deadline passes: easy (spends "
                   "nothing), medium or hard. [default: your preference, else hard]")
@click.option("--word", metavar="WORD",
              help="Your word for the dice, mixed with the server's seed at the start so no one "
                   "alone chooses the dice. [default: a random word made here]")
@json_option
@pass_app
@example("""
iridescia join X7P2QK
iridescia join X7P2QK --stand-in easy
iridescia join X7P2QK --word tolami-veruko
""")
def join(app: App, code: str, stand_in: str | None, word: str | None, as_json: bool) -> None:
    """Take a seat in the game whose join code is CODE."""
    body = {"code": code, "contribution": word or random_word()}
    if stand_in:
        body["stand_in"] = stand_in.lower()
    game = app.api().post("/games/join", body)
    if as_json:
        emit_json(game)
        return
    for line in game_lines(game):
        click.echo(line)


@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia start g7Kq2")
def start(app: App, game: str, as_json: bool) -> None:
    """Start GAME once every seat is taken."""
    data = app.api().post(f"/games/{game}/start")
    if as_json:
        emit_json(data)
        return
    for line in game_lines(data):
        click.echo(line)


@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia leave g7Kq2")
def leave(app: App, game: str, as_json: bool) -> None:
    """Give up your seat in GAME (before it starts)."""
    data = app.api().post(f"/games/{game}/leave")
    if as_json:
        emit_json(data)
        return
    click.echo(_("You left game {id}.").format(id=data.get('id', game)))


@click.command()
@game_argument
@json_option
@pass_app
@example("iridescia back g7Kq2")
def back(app: App, game: str, as_json: bool) -> None:
    """Come back to GAME after missing deadlines.

    After missed deadlines your seat counts as absent and the server plays your turns at once;
    this clears that (and the count of missed turns), so your turns wait for you again.
    """
    data = app.api().post(f"/games/{game}/back")
    if as_json:
        emit_json(data)
        return
    click.echo(_("Welcome back to game {id}: the server waits for your turns again.").format(id=data.get('id', game)))
    for line in game_lines(data):
        click.echo(line)


COMMANDS = [games, new, invite, join, start, leave, back]
