"""Request and response bodies of the vacation and pause endpoints."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class VacationRequestSchema(ma.Schema):
    until = fields.Date(required=True, metadata={
        "description": "The day you are back (YYYY-MM-DD): away until 00:00 UTC that day. "
                       "Already away: your vacation ends then instead",
        "example": "2026-12-24"})


class VacationSchema(ma.Schema):
    away_until = fields.DateTime(required=True, allow_none=True, metadata={
        "description": "When you are back; null: you are not away"})
    year = fields.Integer(required=True, metadata={"description": "The calendar year counted"})
    days_per_year = fields.Integer(required=True)
    days_used = fields.Integer(required=True, metadata={
        "description": "Vacation days of this year used or planned (each UTC day touched)"})
    days_left = fields.Integer(required=True)
    message = fields.String(required=True)
