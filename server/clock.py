"""The time a request acts at: `utcnow()`, or the app's ``CLOCK`` (a callable returning an aware
UTC datetime) when a test passes one to `create_app`, so that the requests and the scheduler's
injected clock agree (vacations, pauses, mail choices)."""

from __future__ import annotations

from datetime import datetime

from flask import current_app, has_app_context

from server.storage.models import utcnow


def now() -> datetime:
    clock = current_app.config.get("CLOCK") if has_app_context() else None
    return clock() if clock is not None else utcnow()
