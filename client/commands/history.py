"""The log: `log` exports it, `replay` shows any point of it, `verify` re-decides it offline.

A log file is JSON lines: first a `game` record (id, rules version, options, seed and its
published hash, players, outcome), then one `command` record per applied command (the version it
was applied at, who sent it, the command) and one `event` record per event (seq, type, payload,
actor, time). A finished game's log holds the seed, so anyone can check every die with `verify`.
"""

from __future__ import annotations

import collections
import json

import click

import engine
from client import games as game_helpers
from client.app import App, emit_json, example, json_option, pass_app
from client.commands.looking import color_wanted
from client.games import engine_event
from client.http import Stale
from client.i18n import _, refusal
from client.render import render_view
from client.terminal_text import printable_data
from engine import audit
from engine.text.narrate import score_lines

HEADER_FIELDS = ("game_id", "rules_version", "options", "seed", "seed_hash", "seed_rule",
                 "seed_contributions", "players", "outcome")


def export_records(export: dict) -> list[dict]:
    records = [{"record": "game", **{k: export.get(k) for k in HEADER_FIELDS}}]
    records += [{"record": "command", **c} for c in export.get("commands") or []]
    records += [{"record": "event", **e} for e in export.get("events") or []]
    return records


def read_log(path: str) -> dict:
    """A log file (JSON lines, or one export JSON object) as an export dict."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise click.ClickException(_("cannot read {path}: {strerror}").format(path=path, strerror=exc.strerror)) from None
    try:
        return audit.parse_log(text)
    except audit.NotALog as exc:
        raise click.ClickException(f"{path} is {exc}") from None


def fetch_log(api, game_id: str) -> tuple[dict, bool]:
    """The export of a finished game, or (before the end) the events I may see, without seed."""
    try:
        return api.get(f"/games/{game_id}/export"), True
    except Stale:
        game = game_helpers.fetch_game(api, game_id)
        events = game_helpers.fetch_events(api, game_id, after=0).get("events") or []
        partial = {
            "game_id": game_id, "rules_version": None, "options": game.get("variants"),
            "seed": None, "seed_hash": game.get("seed_hash"), "players": game.get("players"),
            "outcome": None, "commands": [], "events": events,
        }
        return partial, False


@click.command()
@click.argument("game", metavar="GAME")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the log to this file instead of the standard output.")
@click.option("--text", "as_text", is_flag=True,
              help="Tell the game turn by turn, in sentences, instead of JSON lines.")
@pass_app
@example("""
iridescia log g7Kq2 -o g7Kq2.jsonl
iridescia verify --file g7Kq2.jsonl
iridescia log g7Kq2 --text | less
""")
def log(app: App, game: str, output: str | None, as_text: bool) -> None:
    """Export GAME's log as JSON lines (with the seed and commands once it is over)."""
    api = app.api()
    export, complete = fetch_log(api, game)
    if as_text:
        text = "".join(line + "\n" for line in told_log(export, game_helpers.fetch_game(api, game)))
    else:
        text = "".join(
            json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n"
            for r in export_records(export)
        )
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
        click.echo(
            _("Wrote {value} events and {value2} commands of game {game} to {output}.").format(value=len(export.get('events') or []), value2=len(export.get('commands') or []), game=game, output=output),
            err=True,
        )
    else:
        click.echo(text, nl=False)
    if not complete and not as_text:
        click.echo(
            _("The game is not over: the log has the events you may see, but no seed and no commands, so it cannot be verified yet."), err=True
        )


def told_log(export: dict, game: dict) -> list[str]:
    """The whole log in sentences, from my seat's side, then the final scores if it is over."""

    lines = game_helpers.tell(export.get("events") or [], game, continued_heading=True)
    if export.get("outcome"):
        names = {s: n for s, n in game_helpers.seat_names(game).items() if isinstance(s, int)}
        lines += ["", "Final scores:"] + ["  " + line for line in
                                          score_lines(export["outcome"], names)]
    return lines


def names_from_export(export: dict) -> dict:
    return {"id": export.get("game_id"), "players": export.get("players") or []}


def views_from_file(export: dict, to_version: int | None):
    """Yield (version, spectator view) after each event up to `to_version`."""

    state = None
    events = export.get("events") or []
    last = len(events) if to_version is None else min(to_version, len(events))
    for index, stored in enumerate(events[:last], start=1):
        try:
            state = engine.evolve(state, engine.event_from_dict(engine_event(stored)))
        except (KeyError, TypeError, ValueError, engine.RuleError) as exc:
            raise click.ClickException(
                _("event #{seq} ({type}) cannot be replayed: {exc}").format(seq=stored.get('seq', index), type=stored.get('type'), exc=refusal(exc))
            ) from None
        yield index, state


@click.command()
@click.argument("game", metavar="[GAME]", required=False)
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False),
              help="Replay a log file written by `iridescia log` instead of asking the server.")
@click.option("--to", "to_version", type=click.IntRange(min=1),
              help="Stop at this version (default: the end).")
@click.option("--step", is_flag=True, help="Show every version up to --to, a key press apart.")
@click.option("--no-color", is_flag=True, help="Plain text, no colour.")
@json_option
@pass_app
@example("""
iridescia replay g7Kq2 --to 40
iridescia replay --file g7Kq2.jsonl --to 12 --step
""")
def replay(app: App, game: str | None, path: str | None, to_version: int | None, step: bool,
           no_color: bool, as_json: bool) -> None:
    """Show the board at any point of a game: from the server (GAME) or a log (--file)."""

    if bool(game) == bool(path):
        raise click.UsageError(_("give either GAME or --file FILE"))
    color = color_wanted(no_color)
    if path:

        export = read_log(path)
        game_info = names_from_export(export)
        frames = views_from_file(export, to_version)
        pictures = (
            (version, engine.view(state, None)) for version, state in frames
        )
        if not step:
            last = collections.deque(pictures, maxlen=1)
            if not last:
                raise click.ClickException(_("{path} holds no events").format(path=path))
            pictures = iter(last)
    else:
        api = app.api()
        game_info = game_helpers.fetch_game(api, game)
        end = to_version or int(game_info.get("version") or 0)
        versions = range(1, end + 1) if step else [end]
        pictures = ((v, game_helpers.fetch_view(api, game, v)) for v in versions)
    for version, view in pictures:
        if as_json:
            click.echo(json.dumps(dict(view, version=version), sort_keys=True))
        else:
            click.echo(render_view(view, game_info, color=color))
        if step:
            click.echo(_("-- any key: next step, q: quit --"), err=True)
            if click.getchar() in ("q", "Q"):
                return


class Divergence(click.ClickException):
    def __init__(self, message: str):
        super().__init__(f"DIVERGES: {message}")


def verify_export(export: dict) -> list[str]:
    """Check the seed, the players' words and every command (engine/audit.py); the OK lines,
    or Divergence."""
    try:
        return audit.verify_export(export)
    except audit.Diverges as diverges:
        raise Divergence(diverges.message) from None


@click.command()
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False), required=True,
              help="A finished game's log, written by `iridescia log`.")
@json_option
@pass_app
@example("iridescia verify --file g7Kq2.jsonl")
def verify(app: App, path: str, as_json: bool) -> None:
    """Check the seed against its published hash, mix in the players' words and re-decide
    every command offline."""
    try:
        # A log file may come from anyone: what it quotes is printed escaped (terminal_text).
        lines = verify_export(printable_data(read_log(path)))
    except Divergence as divergence:
        if as_json:
            emit_json({"ok": False, "problem": divergence.message})
        raise
    if as_json:
        emit_json({"ok": True, "checks": lines})
        return
    for line in lines:
        click.echo(line)
    click.echo("OK")


COMMANDS = [log, replay, verify]
