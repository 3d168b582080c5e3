"""Account commands: register, whoami, prefs, and the local profile settings (config)."""

from __future__ import annotations

import click

from client import config
from client.app import App, emit_json, example, json_option, pass_app

EMAIL_PREFERENCES = ("every_turn", "reminders", "none")


@click.command()
@click.option("--name", required=True, help="Your name as other players see it.")
@click.option("--email", required=True, help="Where the server mails your turns.")
@json_option
@pass_app
@example("iridescia --server http://127.0.0.1:5000 register --name Ada --email ada@example.com")
def register(app: App, name: str, email: str, as_json: bool) -> None:
    """Create an account and store its token in the current profile."""
    api = app.api()
    user = api.post("/users", {"name": name, "email": email}, auth=False)
    cfg = app.config()
    profile = cfg.profile(app.profile_name)
    profile.server = api.server
    profile.token = user["token"]
    profile.user = user.get("id")
    cfg.put(profile)
    if not cfg.profiles or len(cfg.profiles) == 1:
        cfg.default_profile = profile.name
    config.save(cfg)
    if as_json:
        emit_json({k: v for k, v in user.items() if k != "token"})
        return
    click.echo(f"Registered {user['name']} <{user['email']}> (user {user['id']}) on {api.server}.")
    click.echo(f"Token saved in profile {profile.name!r} of {cfg.path}.")


@click.command()
@json_option
@pass_app
@example("iridescia whoami")
def whoami(app: App, as_json: bool) -> None:
    """Show who the current token belongs to."""
    api = app.api()
    user = api.get("/users/me")
    if as_json:
        emit_json(user)
        return
    prefs = (user.get("preferences") or {}).get("email", "?")
    click.echo(f"{user['name']} <{user['email']}> (user {user['id']})")
    click.echo(f"server {api.server}, profile {app.settings().profile}, email {prefs}")


@click.command()
@click.option(
    "--email",
    "email_pref",
    type=click.Choice(EMAIL_PREFERENCES),
    help="every_turn: a mail each turn; reminders: only reminders; none: no mail.",
)
@click.option(
    "--removals",
    type=click.Choice(("automatic", "choose")),
    help="Once you have finished: automatic (the server removes a tile after the game's "
         "removal grace) or choose (you choose; the server decides at your turn deadline).",
)
@json_option
@pass_app
@example("iridescia prefs --email reminders --removals choose")
def prefs(app: App, email_pref: str | None, removals: str | None, as_json: bool) -> None:
    """Show or change your preferences: email, and who chooses your removal turns."""
    api = app.api()
    changes = {k: v for k, v in (("email", email_pref), ("removals", removals)) if v}
    if changes:
        user = api.patch("/users/me/preferences", changes)
    else:
        user = api.get("/users/me")
    if as_json:
        emit_json(user.get("preferences") or {})
        return
    preferences = user.get("preferences") or {}
    click.echo(f"email: {preferences.get('email', '?')}")
    if "removals" in preferences:
        click.echo(f"removals: {preferences['removals']}")


@click.command(name="rotate-token")
@pass_app
@example("iridescia rotate-token")
def rotate_token(app: App) -> None:
    """Get a new token (the old one stops working) and save it in the current profile."""
    api = app.api()
    token = api.post("/users/me/token")["token"]
    cfg = app.config()
    profile = cfg.profile(app.profile_name)
    profile.token = token
    profile.server = api.server
    cfg.put(profile)
    config.save(cfg)
    click.echo(f"New token saved in profile {profile.name!r}; the old one no longer works.")


@click.group(name="config")
@example("iridescia --profile work config set --server https://iridescia.example.org")
def config_group() -> None:
    """Show or change the local profiles (server address and token)."""


@config_group.command(name="show")
@json_option
@pass_app
@example("iridescia config show")
def config_show(app: App, as_json: bool) -> None:
    """Show the profile in use: its server and whether it has a token."""
    settings = app.settings()
    data = {
        "file": str(app.config().path),
        "profile": settings.profile,
        "server": settings.server,
        "token": "set" if settings.token else "missing",
        "profiles": sorted(app.config().profiles),
    }
    if as_json:
        emit_json(data)
        return
    for key in ("file", "profile", "server", "token"):
        click.echo(f"{key}: {data[key]}")
    click.echo(f"profiles: {', '.join(data['profiles']) or '(none)'}")


@config_group.command(name="set")
@click.option("--server", help="The server's base URL.")
@click.option("--token", help="A token the server gave you.")
@click.option("--default", "make_default", is_flag=True, help="Use this profile by default.")
@pass_app
@example("iridescia --profile home config set --server http://127.0.0.1:5000 --default")
def config_set(app: App, server: str | None, token: str | None, make_default: bool) -> None:
    """Change the current profile (chosen with --profile) and save it."""
    if not (server or token or make_default):
        raise click.UsageError("give --server, --token or --default")
    cfg = app.config()
    profile = cfg.profile(app.profile_name)
    if server:
        profile.server = server.rstrip("/")
    if token:
        profile.token = token
    cfg.put(profile)
    if make_default:
        cfg.default_profile = profile.name
    config.save(cfg)
    click.echo(f"Saved profile {profile.name!r} in {cfg.path}.")


COMMANDS = [register, whoami, prefs, rotate_token, config_group]
