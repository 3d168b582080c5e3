"""Schema migrations (Alembic) run from code: ``upgrade(url)`` brings a database to the latest
revision; ``iridescia-server db upgrade`` and ``serve`` call it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


def alembic_config(url: str) -> Config:
    config = Config(str(ALEMBIC_INI))
    config.attributes["url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)
