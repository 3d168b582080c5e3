"""/api/v1/health: is the database answering, when did the scheduler last tick."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import select

from server.api.docs import document_errors
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.storage.db import db_session
from server.storage.models import SchedulerTick, utcnow

blp = Blueprint("health", __name__, description="Service health")


class SchedulerHealthSchema(ma.Schema):
    last_tick_at = fields.DateTime(required=True, allow_none=True)
    age_seconds = fields.Float(required=True, allow_none=True)
    status = fields.String(required=True, metadata={"enum": ["ok", "stale", "never_ran"],
                                                    "description": "ok, stale or never_ran"})


class HealthSchema(ma.Schema):
    database = fields.String(required=True, metadata={"example": "ok"})
    scheduler = fields.Nested(SchedulerHealthSchema, required=True)


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @document_errors(429, 503)
    def get(self):
        """Is the service up: the database answers; when the scheduler last ticked."""
        session = db_session()
        try:
            session.exec(text("SELECT 1"))  # type: ignore[call-overload]
            ticks = session.exec(select(SchedulerTick)).all()
            session.commit()
        except SQLAlchemyError as error:
            session.rollback()
            current_app.logger.error("health check: database error: %s", error)
            fail(503, "the database is not answering", database="unreachable")
        last = max((tick.last_tick_at for tick in ticks), default=None)
        age = None if last is None else (utcnow() - last).total_seconds()
        if last is None:
            status = "never_ran"
        elif age > current_app.config["SCHEDULER_STALE_SECONDS"]:
            status = "stale"
        else:
            status = "ok"
        return {"database": "ok",
                "scheduler": {"last_tick_at": last, "age_seconds": age, "status": status}}
