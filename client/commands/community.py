"""Finding a game and playing again: `open`, `seek`, `seeks`, `unseek`, `rematch`, `player`,
`leaderboard`."""

from __future__ import annotations

import click

from client import server_words
from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.commands.lobby import game_lines, rated_name
from client.dice_words import random_word
from client.i18n import _, listed
from client.table import cut, left, right

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
    click.echo(_("Rematch of game {game}:").format(game=game))
    for line in game_lines(data):
        click.echo(line)
    if data.get("status") == "open":
        taken = len([p for p in data.get("players", []) if p.get("kind") != "rhom"])
        waiting = (data.get("seats") or 0) - taken
        click.echo(_("Waiting for {waiting} more player{value} to accept: it starts by itself when they have.").format(waiting=waiting, value='s' if waiting != 1 else ''))


def open_line(game: dict) -> str:
    players = [rated_name(p) for p in game.get("players", []) if p.get("kind") != "rhom"]
    seats = f"{len(players)}/{game.get('seats')}{'+R' if game.get('rhom') else ''}"
    return " ".join([left(game["id"], 10), left(seats, 6), left(game.get("pace", ""), 5),
                     left(cut(listed(players), 40), 40), game.get("join_code") or "-"])


@click.command("open")
@click.option("--seats", type=click.IntRange(1, 4), help="Only games of this many seats.")
@click.option("--pace", type=click.Choice(["1d", "3d", "7d", "none"]),
              help="Only games at this pace.")
@click.option("--rules-version", metavar="VERSION", help="Only games under this rules version.")
@json_option
@pass_app
@example("""
iridescia open
iridescia open --seats 2 --pace 1d
""")
def open_games(app: App, seats: int | None, pace: str | None, rules_version: str | None,
               as_json: bool) -> None:
    """List the public games waiting for players, newest first; join one with its code."""
    query = {"seats": seats, "pace": pace, "rules_version": rules_version}
    rows = app.api().get_every_page(
        "/games/open?" + "&".join(f"{k}={v}" for k, v in query.items() if v is not None))
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(_("No open game waits for players. Seek one with `iridescia seek --seats 2`, or create one with `iridescia new --public`."))
        return
    click.echo(" ".join([left(_("GAME"), 10), left(_("SEATS"), 6), left(_("PACE"), 5),
                         left(_("PLAYERS (RATING)"), 40), _("JOIN CODE")]))
    for game in rows:
        click.echo(open_line(game))
    click.echo(_("Join one with `iridescia join CODE`."))


@click.command()
@click.option("--seats", type=click.IntRange(2, 4), required=True,
              help="Players in the game you want, you included.")
@click.option("--pace", type=click.Choice(["1d", "3d", "7d", "none"]), default="3d",
              show_default=True, help="The time a turn may take.")
@WORD_OPTION
@json_option
@pass_app
@example("""
iridescia seek --seats 2
iridescia seek --seats 3 --pace 1d
""")
def seek(app: App, seats: int, pace: str, word: str | None, as_json: bool) -> None:
    """Seek a game: when enough players seek the same seats and pace, a public game is made for
    you all and starts by itself (its first mail tells you)."""
    data = app.api().post("/seeks", {"seats": seats, "pace": pace,
                                     "contribution": word or random_word()})
    if as_json:
        emit_json(data)
        return
    if data.get("game_id"):
        click.echo(_("Seek {id} fitted: game {game_id} has started. `iridescia show {game_id}` shows it.").format(id=data['id'], game_id=data['game_id']))
    else:
        click.echo(_("Seek {id}: waiting for {value} other player{value2} to seek {seats} seats at pace {pace}. `iridescia unseek {id}` cancels it.").format(id=data['id'], value=seats - 1, value2='s' if seats > 2 else '', seats=seats, pace=pace))


@click.command()
@json_option
@pass_app
@example("iridescia seeks")
def seeks(app: App, as_json: bool) -> None:
    """List my seeks: those waiting, then those that made a game."""
    rows = app.api().get("/seeks")
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(_("No seeks. `iridescia seek --seats 2` seeks a game."))
        return
    for row in rows:
        made = (_("made game {game}").format(game=row["game_id"]) if row.get("game_id")
                else _("waiting"))
        click.echo(_("{id:>5}  {seats} seats, pace {pace}: {made}").format(
            id=row["id"], seats=row["seats"], pace=row["pace"], made=made))


@click.command()
@click.argument("seek_id", metavar="SEEK", type=int)
@pass_app
@example("iridescia unseek 7")
def unseek(app: App, seek_id: int) -> None:
    """Cancel my seek SEEK, still waiting."""
    app.api().delete(f"/seeks/{seek_id}")
    click.echo(_("Seek {seek_id} cancelled.").format(seek_id=seek_id))


@click.command()
@click.argument("user_id", metavar="PLAYER", type=int)
@json_option
@pass_app
@example("iridescia player 7")
def player(app: App, user_id: int, as_json: bool) -> None:
    """Show PLAYER (their id, as `games --json` and the leaderboard give it): ratings, win rate
    per player count, games under way and finished games you may see."""
    data = app.api().get(f"/users/{user_id}", auth=bool(app.api().token))
    if as_json:
        emit_json(data)
        return
    click.echo(data["name"])
    for rating in data.get("ratings") or []:
        status = (_("provisional, {games} of 5 games") if rating["provisional"]
                  else _("{games} games")).format(games=rating["games"])
        click.echo(_("  {track_name}: {rating} ({status}, {wins} won)").format(track_name=rating['track_name'], rating=rating['rating'], status=status, wins=rating['wins']))
    if not data.get("ratings"):
        click.echo(_("  no rating yet"))
    for rate in data.get("win_rates") or []:
        count = _("solo") if rate["players"] == 1 else _("{count} players").format(
            count=rate["players"])
        click.echo(_("  {count}: won {wins} of {games} ({value}%)").format(count=count, wins=rate['wins'], games=rate['games'], value=round(rate['rate'] * 100)))
    for game in data.get("running_games") or []:
        click.echo(_("  playing {id} ({value}, {status})").format(id=game['id'], value=table_of(game), status=server_words.status(game['status'])))
    for game in (data.get("finished_games") or [])[:10]:
        result = game.get("result")
        told = (_("won") if result["won"] else _("place {rank} of {of}").format(
            rank=result["rank"], of=result["of"])) if result else "-"
        click.echo(_("  finished {id} ({value}): {told}").format(id=game['id'], value=table_of(game), told=told))


def table_of(game: dict) -> str:
    """"solo against the Rhom", "2 players + the Rhom", "3 players"."""
    if game.get("players") == 1:
        return _("solo against the Rhom")
    if game.get("rhom"):
        return _("{count} players + the Rhom").format(count=game.get("players"))
    return _("{count} players").format(count=game.get("players"))


@click.command()
@click.option("--track", type=click.Choice(["2", "3", "4", "solo"]), default="2",
              show_default=True, help="Games of 2, 3 or 4 people, or solo against the Rhom.")
@json_option
@pass_app
@example("""
iridescia leaderboard
iridescia leaderboard --track solo
""")
def leaderboard(app: App, track: str, as_json: bool) -> None:
    """The best rated players of a track (? marks a provisional rating)."""
    rows = app.api().get("/leaderboard", params={"track": track}, auth=bool(app.api().token))
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(_("Nobody is rated on this track yet."))
        return
    click.echo(f"{'#':>3}  " + " ".join([left(_("PLAYER"), 24), right(_("RATING"), 7),
                                          right(_("GAMES"), 5), right(_("WON"), 4)]))
    for row in rows:
        mark = "?" if row["provisional"] else " "
        click.echo(f"{row['rank']:>3}  {left(cut(row['name'], 24), 24)} {row['rating']:>6}{mark} "
                   f"{row['games']:>5} {row['wins']:>4}")


COMMANDS = [open_games, seek, seeks, unseek, rematch, player, leaderboard]
