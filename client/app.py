"""What every command shares: the chosen profile, the API client, and the ``--json`` switch."""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field

import click

from client import config
from client.http import ApiClient


@dataclass
class App:
    profile_name: str | None = None
    server_override: str | None = None
    _config: config.Config | None = field(default=None, repr=False)
    _api: ApiClient | None = field(default=None, repr=False)

    def config(self) -> config.Config:
        if self._config is None:
            self._config = config.load()
        return self._config

    def settings(self) -> config.Settings:
        settings = config.resolve(self.config(), self.profile_name)
        if self.server_override:
            settings = config.Settings(
                settings.profile, self.server_override.rstrip("/"), settings.token
            )
        return settings

    def api(self) -> ApiClient:
        if self._api is None:
            settings = self.settings()
            self._api = ApiClient(settings.server, settings.token, profile=settings.profile)
        return self._api


pass_app = click.make_pass_decorator(App, ensure=True)


def json_option(func):
    """``--json``: print the server's data as JSON instead of text (for scripts)."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON instead of text, for scripts."
    )(func)


def emit_json(data) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def example(text: str):
    """Append an ``Example:`` block to a command's help (every command has one)."""

    def decorate(func):
        lines = [line.strip() for line in text.strip().splitlines()]
        block = "\n\b\nExample:\n" + "\n".join(f"  {line}" for line in lines)
        func.__doc__ = inspect.cleandoc(func.__doc__ or "") + "\n" + block
        return func

    return decorate


def game_argument(func):
    return click.argument("game", metavar="GAME")(func)

