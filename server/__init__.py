"""The Iridescia REST server (Flask + flask-smorest + SQLModel). ``create_app`` builds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application factory (see server.app); imported lazily so that ``server.db`` and
    ``server.models`` stay usable without building an app."""
    from server.app import create_app as _create_app

    return _create_app(config)
