"""The Iridescia REST server (Flask + flask-smorest + SQLModel). ``create_app`` builds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.app import create_app as _create_app

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application factory (see server.app); imported lazily so that ``server.storage.db`` and
    ``server.storage.models`` stay usable without building an app."""

    return _create_app(config)
