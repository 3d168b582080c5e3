"""A game's webhook: `iridescia webhook GAME URL`, its removal, and what `new --webhook` prints."""

from __future__ import annotations

import click

from client.app import App, emit_json, example, game_argument, json_option, pass_app
from client.i18n import _

FORMATS = ("json", "discord", "slack")


def webhook_lines(hook: dict) -> list[str]:
    """A webhook the server just set, with its secret (which it shows only now)."""
    lines = [f"Webhook on game {hook['game_id']}: {hook['url']} ({hook['format']})"]
    if hook.get("secret"):
        lines.append(f"  secret: {hook['secret']}")
        lines.append("  Keep it: it signs every delivery (X-Iridescia-Signature) and is not shown "
                     "again.")
    return lines


@click.command()
@game_argument
@click.argument("url", required=False)
@click.option("--format", "format_", type=click.Choice(FORMATS),
              help="Body of each POST: json (all of it, the default), or what Discord or Slack "
                   "incoming webhooks take.")
@click.option("--remove", is_flag=True, help="Remove your webhook on GAME.")
@json_option
@pass_app
@example("""
iridescia webhook g7Kq2 https://discord.com/api/webhooks/123/abc --format discord
iridescia webhook g7Kq2
iridescia webhook g7Kq2 --remove
""")
def webhook(app: App, game: str, url: str | None, format_: str | None, remove: bool,
            as_json: bool) -> None:
    """Have GAME's turn changes and its end POSTed to URL, signed (see docs/webhooks.md).

    Without URL, show your webhook on GAME; with --remove, remove it.
    """
    path = f"/games/{game}/webhook"
    if remove:
        if url or format_:
            raise click.UsageError(_("--remove takes no URL or --format"))
        app.api().delete(path)
        click.echo(_("Removed your webhook on game {game}.").format(game=game))
        return
    if url is None:
        if format_:
            raise click.UsageError(_("--format goes with a URL: iridescia webhook GAME URL --format F"))
        hook = app.api().get(path)
    else:
        body = {"url": url, **({"format": format_} if format_ else {})}
        hook = app.api().put(path, body)
    if as_json:
        emit_json(hook)
        return
    for line in webhook_lines(hook):
        click.echo(line)


COMMANDS = [webhook]
