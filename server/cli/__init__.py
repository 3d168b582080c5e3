"""``iridescia-server``: serve the API, migrate the database, print the OpenAPI spec."""

from __future__ import annotations

import click
import yaml

from server.cli import mail as mail_commands
from server.cli import operators as operator_commands
from server.cli import scheduler as scheduler_commands
from server.cli import sign_in_link as sign_in_link_command
from server.config import Settings

# The app and what it needs (about a second to import) load inside each command, so that
# `iridescia-server --help` and a command's own --help answer at once.


@click.group()
def main() -> None:
    """The Iridescia play-by-email server.

    \b
    Example:
        iridescia-server db upgrade && iridescia-server serve --port 8000
    """


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--no-scheduler", is_flag=True, help="Do not run the embedded scheduler.")
def serve(host: str, port: int, no_scheduler: bool) -> None:
    """Serve the API in one process (uvicorn). A SQLite database is migrated first; the
    scheduler (reminders, deadlines, automatic turns, mail) runs in the same process.

    \b
    Example:
        IRIDESCIA_DATABASE_URL=sqlite:///var/game.db iridescia-server serve --port 8000
    """
    import sqlalchemy as sa
    import uvicorn

    from server.asgi import create_asgi_app, uvicorn_options
    from server.scheduler import start_embedded
    from server.storage.db import check_writable, default_sqlite_path
    from server.storage.migrate import upgrade

    settings = Settings.load()
    url = settings.DATABASE_URL
    try:
        if default_sqlite_path(url) is not None:
            upgrade(url)
        check_writable(url)
    except (OSError, sa.exc.SQLAlchemyError) as error:  # one line saying why, no traceback
        cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise click.ClickException(
            f"cannot write the database {_safe_url(url)}: {cause}") from None
    front = create_asgi_app()
    app = front.app
    warn_about_the_secret_key(app.config)
    if not no_scheduler:
        start_embedded(app)
    _start_the_smtp_receiver(app)
    click.echo(f"Open http://{host}:{port}/ in a browser: the game pages, and the API's docs at "
               "/docs")
    # One process, the same front as under gunicorn: a long-poll waits without a thread.
    uvicorn.run(front, host=host, port=port, log_level="info", lifespan="on",
                **uvicorn_options(settings.TRUSTED_PROXIES))


def warn_about_the_secret_key(config) -> bool:
    """Loudly, on standard error: the development key signs every reply address, so anyone who
    reads this source could play for anyone on a public server. True when it warned."""
    from urllib.parse import urlsplit

    host = urlsplit(config["BASE_URL"]).hostname or ""
    local = host in ("localhost", "127.0.0.1", "::1") or host.endswith(".localhost")
    if config["SECRET_KEY"] != Settings.SECRET_KEY or local:
        return False
    click.secho(
        f"WARNING: IRIDESCIA_SECRET_KEY is the development default, and IRIDESCIA_BASE_URL "
        f"({config['BASE_URL']}) is not on localhost: anyone can forge reply addresses and play "
        "for your players. Set IRIDESCIA_SECRET_KEY to a long random value.",
        fg="red", bold=True, err=True)
    return True


def _start_the_smtp_receiver(app) -> None:
    from server.inbound.smtp import listen_address, start_receiver

    try:
        address = listen_address(app.config["INBOUND_SMTP"])
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if address is None:
        return
    try:
        start_receiver(app, address)
    except OSError as error:  # the port is taken: say so rather than serve without mail
        raise click.ClickException(
            f"cannot receive mail on {address[0]}:{address[1]} ({error}): set "
            "IRIDESCIA_INBOUND_SMTP to a free host:port, or to off") from None
    except ValueError as error:  # IRIDESCIA_INBOUND_TLS_CERT/_KEY cannot be used
        raise click.ClickException(str(error)) from None


@main.group()
def db() -> None:
    """Database schema commands."""


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True, help="Target revision.")
def db_upgrade(revision: str) -> None:
    """Migrate the database named by IRIDESCIA_DATABASE_URL to the latest schema.

    \b
    Example:
        IRIDESCIA_DATABASE_URL=postgresql+psycopg://me@127.0.0.1/iridescia iridescia-server db upgrade
    """
    from server.storage.migrate import upgrade

    url = Settings.load().DATABASE_URL
    try:
        upgrade(url, revision)
    except Exception as error:  # the URL or the server is wrong: say so, no traceback
        raise click.ClickException(f"could not migrate {_safe_url(url)}: {error}") from error
    click.echo(f"database {_safe_url(url)} is at revision {revision}")


@main.command()
def openapi() -> None:
    """Print the OpenAPI spec as YAML (openapi.yaml at the repository root is this output).

    \b
    Example:
        iridescia-server openapi > openapi.yaml
    """
    click.echo(spec_yaml(), nl=False)


def spec_yaml() -> str:
    from server import create_app

    app = create_app({"DATABASE_URL": "sqlite://"})
    spec = app.extensions["iridescia_api"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True)


def _safe_url(url: str) -> str:
    import sqlalchemy as sa

    return sa.engine.make_url(url).render_as_string(hide_password=True)


# Each command group lives beside this one, a thin adapter over its package; their imports of
# the app wait inside the commands, so that `iridescia-server --help` starts fast.
for _group in (scheduler_commands, operator_commands, mail_commands, sign_in_link_command):
    _group.register(main)
