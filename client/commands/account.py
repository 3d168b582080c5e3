"""Account commands: register, whoami, prefs, and the local profile settings (config)."""

from __future__ import annotations

import click

from client import config, server_words
from client.app import App, emit_json, example, json_option, pass_app
from client.i18n import _
from engine.bots.levels import NAMES as LEVEL_NAMES

EMAIL_PREFERENCES = ("every_turn", "digest", "reminders", "none")


def _save_token(app: App, api, token: str, user_id: int | None):
    cfg = app.config()
    profile = cfg.profile(app.profile_name)
    profile.server = api.server
    profile.token = token
    profile.user = user_id
    cfg.put(profile)
    if not cfg.profiles or len(cfg.profiles) == 1:
        cfg.default_profile = profile.name
    config.save(cfg)
    return cfg, profile


@click.command()
@click.option("--name", required=True, help="Your name as other players see it.")
@click.option("--email", required=True, help="Where the server mails your turns.")
@json_option
@pass_app
@example("iridescia --server http://127.0.0.1:5000 register --name Ada --email ada@example.com")
def register(app: App, name: str, email: str, as_json: bool) -> None:
    """Create an account; its token comes by mail.

    The server mails EMAIL a link to confirm it (until it is opened, the address gets no other
    mail); `iridescia confirm --code CODE` with the mail's code then saves the account's token
    in the current profile. If EMAIL already has an account, the mail has a link to a new token
    instead (`iridescia recover --code CODE`). The answer is the same either way."""
    api = app.api()
    answer = api.post("/users", {"name": name, "email": email}, auth=False)
    if as_json:
        emit_json(answer)
        return
    click.echo(_("A mail is on its way to {email}. Run the `iridescia confirm --code CODE` it shows (or open its link) to confirm the address and save your token in this profile. If the address already had an account, the mail shows how to get a new token instead (`iridescia recover --code CODE`).").format(email=email))


@click.command()
@click.option("--email", help="Ask for a link to a new token, mailed to this address.")
@click.option("--code", help="The code of that link: get the new token and save it here.")
@pass_app
@example("iridescia recover --email ada@example.com")
def recover(app: App, email: str | None, code: str | None) -> None:
    """Lost your token? `--email` mails the account's address a link; `--code` (from that mail)
    gets a new token, saves it in the current profile, and stops the old one.

    Example, once the mail has come: iridescia recover --code 'eyJ1Ijo...'"""
    if bool(email) == bool(code):
        raise click.UsageError(_("give --email (to be mailed a link) or --code (from the mail)"))
    api = app.api()
    if email:
        click.echo(api.post("/users/recover", {"email": email}, auth=False)["message"])
        return
    user = api.post("/users/recover/confirm", {"code": code}, auth=False)
    cfg, profile = _save_token(app, api, user["token"], user.get("id"))
    click.echo(_("New token for {name} <{email}> saved in profile {name2!r} of {path}; the old one no longer works.").format(name=user['name'], email=user['email'], name2=profile.name, path=cfg.path))


@click.command()
@click.option("--code", help="The code of the link mailed to you.")
@click.option("--resend", is_flag=True, help="Mail a new confirmation link.")
@pass_app
@example("iridescia confirm --resend")
def confirm(app: App, code: str | None, resend: bool) -> None:
    """Confirm your address (`--code` from the mailed link, or open the link), or have a new
    link mailed (`--resend`). Until it is confirmed, the server mails it nothing else.
    Confirming a new account saves its API token in the current profile."""
    if bool(code) == resend:
        raise click.UsageError(_("give --code (from the mail) or --resend"))
    api = app.api()
    if resend:
        click.echo(api.post("/users/me/verification")["message"])
        return
    user = api.post("/users/verify", {"code": code}, auth=False)
    if not user.get("token"):
        click.echo(_("{email} is confirmed: the server mails it your turns from now on.").format(email=user['email']))
        return
    cfg, profile = _save_token(app, api, user["token"], user.get("id"))
    click.echo(_("{email} is confirmed: the server mails it your turns from now on.").format(email=user['email']))
    click.echo(_("Token of {name} saved in profile {profile!r} of {path}.").format(name=user['name'], profile=profile.name, path=cfg.path))


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
    click.echo(f"{user['name']} <{user['email']}>")
    click.echo(_("server {server}, profile {profile}, email {prefs}").format(server=api.server, profile=app.settings().profile, prefs=prefs))


NOTIFY = {"every": "every_turn", "digest": "digest", "reminders": "reminders", "none": "none",
          "account": "account"}


@click.command()
@click.option(
    "--email",
    "email_pref",
    type=click.Choice(EMAIL_PREFERENCES),
    help="every_turn: a mail each turn; digest: one a day; reminders: only reminders; none.",
)
@click.option("--notify", type=click.Choice(tuple(NOTIFY)),
              help="The same, by its short name: every, digest, reminders or none (with "
                   "--game, account: as your account's).")
@click.option("--digest-hour", type=click.IntRange(0, 23),
              help="The hour of the daily digest, in your time zone. [default: 8]")
@click.option("--quiet", metavar="FROM-TO",
              help="No mail between these hours in your time zone, e.g. 22-7 (`off`: none).")
@click.option("--timezone", "time_zone", metavar="ZONE",
              help="Your time zone, e.g. Europe/Paris (for the digest and quiet hours).")
@click.option("--game", metavar="GAME",
              help="Set --notify (or --email) for this game only (`account`: as the account's).")
@click.option(
    "--removals",
    type=click.Choice(("automatic", "choose")),
    help="Once you have finished: automatic (the server removes a tile after the game's "
         "removal grace) or choose (you choose; the server decides at your turn deadline).",
)
@click.option("--stand-in", "stand_in", type=click.Choice(LEVEL_NAMES, case_sensitive=False),
              help="Who plays your turn when its deadline passes, in every game where you chose "
                   "no other: the bot level easy (spends nothing), medium or hard.")
@click.option("--language", type=click.Choice(("en", "ja")),
              help="The language of your pages, mails and answers: en or ja (日本語).")
@click.option("--tile-sort", type=click.Choice(("gem", "region")),
              help="Your collected tiles: by the gem shown on them or by region.")
@click.option("--relic-sort", type=click.Choice(("gem", "category")),
              help="Your relics: by gem type or by category (jewelry, tech, lore, Iridia).")
@json_option
@pass_app
@example("""
iridescia prefs --language ja --tile-sort region --relic-sort category
iridescia prefs --email reminders --removals choose
iridescia prefs --stand-in medium
iridescia prefs --notify digest --digest-hour 8 --quiet 22-7 --timezone Europe/Paris
iridescia prefs --game k3x9q2ab --notify every
""")
def prefs(app: App, email_pref: str | None, notify: str | None, digest_hour: int | None,
          quiet: str | None, time_zone: str | None, game: str | None, removals: str | None,
          stand_in: str | None, language: str | None, tile_sort: str | None,
          relic_sort: str | None, as_json: bool) -> None:
    """Show or change your preferences: which mail, when, who chooses your removal turns, who
    plays your turn when its deadline passes, your language and how your tiles and relics are
    sorted."""
    api = app.api()
    if email_pref and notify:
        raise click.UsageError(_("give --email or --notify, not both"))
    choice = email_pref or (NOTIFY[notify] if notify else None)
    if choice == "account" and game is None:
        raise click.UsageError(_("--notify account goes with --game GAME"))
    if game is not None:
        if choice is None:
            shown = api.get(f"/games/{game}/notifications")
        else:
            shown = api.put(f"/games/{game}/notifications",
                            {"email": None if choice == "account" else choice})
        if as_json:
            emit_json(shown)
            return
        click.echo(_("game {game}: email: {value}").format(game=game, value=server_words.preference(shown.get('email')) if shown.get('email') else _('as your account')))
        if digest_hour is None and not (quiet or time_zone or removals or stand_in or language
                                        or tile_sort or relic_sort):
            return
        choice = None
    changes = {k: v for k, v in (("email", choice), ("removals", removals), ("stand_in", stand_in),
                                 ("digest_hour", digest_hour), ("time_zone", time_zone),
                                 ("language", language), ("tile_sort", tile_sort),
                                 ("relic_sort", relic_sort))
               if v is not None}
    if quiet is not None:
        changes["quiet_hours"] = None if quiet.lower() in ("off", "none", "") else quiet
    if changes:
        user = api.patch("/users/me/preferences", changes)
    else:
        user = api.get("/users/me")
    if as_json:
        emit_json(user.get("preferences") or {})
        return
    preferences = user.get("preferences") or {}
    click.echo(_("email: {choice}").format(choice=server_words.preference(preferences.get("email", "?"))))
    if "removals" in preferences:
        click.echo(_("removals: {choice}").format(choice=server_words.preference(preferences["removals"])))
    if "stand_in" in preferences:
        click.echo(_("stand-in at the deadline: {level}").format(level=server_words.preference(preferences["stand_in"])))
    if preferences.get("email") == "digest":
        click.echo(_("digest at: {hour}:00").format(hour=preferences.get("digest_hour")))
    if preferences.get("quiet_hours"):
        click.echo(_("quiet hours: {hours}").format(hours=preferences["quiet_hours"]))
    if preferences.get("time_zone", "UTC") != "UTC":
        click.echo(_("time zone: {zone}").format(zone=preferences["time_zone"]))
    if preferences.get("language"):
        click.echo(_("language: {language}").format(language=server_words.preference(preferences["language"])))
    if preferences.get("tile_sort", "gem") != "gem":
        click.echo(_("tiles sorted by: {sort}").format(sort=server_words.preference(preferences["tile_sort"])))
    if preferences.get("relic_sort", "gem") != "gem":
        click.echo(_("relics sorted by: {sort}").format(sort=server_words.preference(preferences["relic_sort"])))


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
    click.echo(_("New token saved in profile {name!r}; the old one no longer works.").format(name=profile.name))


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
    click.echo(_("profiles: {value}").format(value=', '.join(data['profiles']) or '(none)'))


@config_group.command(name="set")
@click.option("--server", help="The server's base URL.")
@click.option("--token", help="A token the server gave you.")
@click.option("--default", "make_default", is_flag=True, help="Use this profile by default.")
@pass_app
@example("iridescia --profile home config set --server http://127.0.0.1:5000 --default")
def config_set(app: App, server: str | None, token: str | None, make_default: bool) -> None:
    """Change the current profile (chosen with --profile) and save it."""
    if not (server or token or make_default):
        raise click.UsageError(_("give --server, --token or --default"))
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
    click.echo(_("Saved profile {name!r} in {path}.").format(name=profile.name, path=cfg.path))


COMMANDS = [register, recover, confirm, whoami, prefs, rotate_token, config_group]
