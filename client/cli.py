"""The `iridescia` command: the root group, its global options, and the entry point."""

from __future__ import annotations

import click

from client.app import App, example
from client.commands import (
    account,
    acting,
    away,
    cards,
    community,
    following,
    history,
    lobby,
    looking,
    planning,
    robots,
    talk,
    webhooks,
)
from client.help_text import TranslatedGroup

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=TranslatedGroup, context_settings=CONTEXT_SETTINGS)
@click.option("--profile", metavar="NAME", help="Which saved profile to use (default: the default one).")
@click.option("--server", metavar="URL", help="Talk to this server instead of the profile's.")
@click.version_option(package_name="iridescia", prog_name="iridescia")
@click.pass_context
@example("""
iridescia register --name Ada --email ada@example.com
iridescia new --seats 1
iridescia show g7Kq2
""")
def cli(ctx: click.Context, profile: str | None, server: str | None) -> None:
    """Play Gems of Iridescia by email from the terminal.

    The server address and your token come from the profile in
    $XDG_CONFIG_HOME/iridescia/config.toml; IRIDESCIA_SERVER and IRIDESCIA_TOKEN override them.
    """
    ctx.obj = App(profile_name=profile, server_override=server)


for module in (account, lobby, looking, cards, talk, following, acting, planning, robots, history,
               away, webhooks, community):
    for command in module.COMMANDS:
        cli.add_command(command)


def main() -> None:
    cli(prog_name="iridescia")


if __name__ == "__main__":
    main()
