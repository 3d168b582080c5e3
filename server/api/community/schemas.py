"""Bodies of the community operations."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

import engine
from server.api.games.schemas import contribution_field
from server.games.pace import DEFAULT_PACE, PACES


class RematchRequestSchema(ma.Schema):
    contribution = contribution_field()


class OpenGamesQuerySchema(ma.Schema):
    seats = fields.Integer(strict=False, validate=validate.Range(1, 4),
                           metadata={"description": "Only games of this many seats"})
    pace = fields.String(validate=validate.OneOf(PACES),
                         metadata={"description": "Only games at this pace: 1d, 3d, 7d or none"})
    rules_version = fields.String(validate=validate.OneOf(engine.SUPPORTED_VERSIONS),
                                  metadata={"description": "Only games under this rules version"})


class SeekRequestSchema(ma.Schema):
    seats = fields.Integer(required=True, strict=True, validate=validate.Range(2, 4),
                           metadata={"description": "Players in the game you want, you included "
                                                    "(2-4)"})
    pace = fields.String(load_default=DEFAULT_PACE, validate=validate.OneOf(PACES),
                         metadata={"description": "The pace you want: 1d, 3d (default), 7d or "
                                                  "none", "example": "3d"})
    contribution = contribution_field()


class SeekSchema(ma.Schema):
    id = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    pace = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    game_id = fields.String(required=True, allow_none=True, metadata={
        "description": "The game the seek made once enough seeks fitted it (null: waiting)"})
