"""Bodies of /mail."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class UnsubscribedSchema(ma.Schema):
    email = fields.String(required=True, metadata={
        "description": "The mail preference now: none (no more email)", "example": "none"})
    message = fields.String(required=True)
