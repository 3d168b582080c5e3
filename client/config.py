"""Where the client keeps its server address and token: one file, several named profiles.

The file lives in the XDG config directory (``$XDG_CONFIG_HOME/iridescia/config.toml``, or
``config.json`` when that is what the user keeps) and is written with mode 0600 because it holds
bearer tokens. ``IRIDESCIA_SERVER`` and ``IRIDESCIA_TOKEN`` override the chosen profile, so a
script or a test can run without touching the file.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import click

DEFAULT_SERVER = "http://127.0.0.1:5000"
DEFAULT_PROFILE = "default"
SERVER_ENV = "IRIDESCIA_SERVER"
TOKEN_ENV = "IRIDESCIA_TOKEN"


class ConfigError(click.ClickException):
    """The config file exists but cannot be read; the message names the file."""


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / "iridescia"


def config_path() -> Path:
    """The TOML file, unless only a JSON one exists (then that one is read and rewritten)."""
    directory = config_dir()
    toml_file = directory / "config.toml"
    json_file = directory / "config.json"
    if not toml_file.exists() and json_file.exists():
        return json_file
    return toml_file


@dataclass
class Profile:
    name: str
    server: str = DEFAULT_SERVER
    token: str | None = None
    user: str | None = None

    def to_dict(self) -> dict:
        data = {"server": self.server}
        if self.token:
            data["token"] = self.token
        if self.user:
            data["user"] = self.user
        return data


@dataclass
class Config:
    path: Path
    default_profile: str = DEFAULT_PROFILE
    profiles: dict[str, Profile] = field(default_factory=dict)

    def profile(self, name: str | None) -> Profile:
        name = name or self.default_profile
        return self.profiles.get(name) or Profile(name=name)

    def put(self, profile: Profile) -> None:
        self.profiles[profile.name] = profile

    def to_dict(self) -> dict:
        return {
            "default_profile": self.default_profile,
            "profiles": {name: p.to_dict() for name, p in sorted(self.profiles.items())},
        }


def load(path: Path | None = None) -> Config:
    path = path or config_path()
    if not path.exists():
        return Config(path=path)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc}") from exc
    profiles = {}
    for name, values in (data.get("profiles") or {}).items():
        if not isinstance(values, dict):
            raise ConfigError(f"cannot read the config file {path}: profile {name!r} is not a table")
        profiles[name] = Profile(
            name=name,
            server=str(values.get("server") or DEFAULT_SERVER),
            token=values.get("token"),
            user=values.get("user"),
        )
    return Config(
        path=path,
        default_profile=str(data.get("default_profile") or DEFAULT_PROFILE),
        profiles=profiles,
    )


def save(config: Config) -> None:
    """Write the file atomically with mode 0600 (it holds tokens)."""
    path = config.path
    data = config.to_dict()
    text = json.dumps(data, indent=2) + "\n" if path.suffix == ".json" else _to_toml(data)
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"cannot write the config file {path}: {exc.strerror or exc}") from exc


def _toml_string(value: str) -> str:
    # json.dumps escapes exactly what a TOML basic string needs (quotes, backslashes, controls).
    return json.dumps(value, ensure_ascii=False)


def _to_toml(data: dict) -> str:
    lines = [f"default_profile = {_toml_string(data['default_profile'])}"]
    for name, values in data["profiles"].items():
        lines.append("")
        lines.append(f"[profiles.{_toml_string(name)}]")
        for key, value in values.items():
            lines.append(f"{key} = {_toml_string(value)}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Settings:
    """What one invocation uses: the profile with the environment's overrides applied."""

    profile: str
    server: str
    token: str | None


def resolve(config: Config, profile_name: str | None) -> Settings:
    profile = config.profile(profile_name)
    server = os.environ.get(SERVER_ENV) or profile.server
    token = os.environ.get(TOKEN_ENV) or profile.token
    return Settings(profile=profile.name, server=server.rstrip("/"), token=token)
