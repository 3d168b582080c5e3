"""Bodies of the community operations."""

from __future__ import annotations

import marshmallow as ma

from server.api.games.schemas import contribution_field


class RematchRequestSchema(ma.Schema):
    contribution = contribution_field()
