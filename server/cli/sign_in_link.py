"""``iridescia-server sign-in-link``: the magic link an email would carry, for the operator (or
the README's tour) to open a player's page without reading an .eml file."""

from __future__ import annotations

import click

# The app and what it needs (about a second to import) load inside each command, so that
# `iridescia-server --help` and a command's own --help answer at once.


def register(group: click.Group) -> None:
    group.add_command(sign_in_link)


@click.command("sign-in-link")
@click.argument("email")
@click.option("--game", "game_id", help="Open this game's page (default: the home page).")
def sign_in_link(email: str, game_id: str | None) -> None:
    """Print a sign-in link for a registered player (valid IRIDESCIA_MAGIC_LINK_HOURS hours).

    \b
    Example:
        iridescia-server sign-in-link ada@example.org --game lsy8r8ku
    """
    from sqlmodel import select

    from server.config import Settings
    from server.storage.db import get_engine, session_scope
    from server.storage.models import User
    from server.users.sign_in import magic_link

    settings = Settings.load()
    with session_scope(get_engine(settings.DATABASE_URL)) as session:
        user = session.exec(select(User).where(User.email == email.strip().lower())).first()
        if user is None:
            raise click.ClickException(f"no player is registered as {email!r}")
        click.echo(magic_link(user.id, user.token_hash, f"/games/{game_id}" if game_id else "/"))
