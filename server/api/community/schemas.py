"""Bodies of the community operations."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

import engine
from server.api.games.schemas import contribution_field
from server.games.pace import DEFAULT_PACE, PACES
from server.ratings.derived import TRACKS


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


class RatingSchema(ma.Schema):
    track = fields.String(required=True, validate=validate.OneOf(TRACKS), metadata={
        "description": "2, 3 or 4 (games of so many people) or solo (against the Rhom)"})
    track_name = fields.String(required=True, metadata={"example": "2 players"})
    rating = fields.Integer(required=True, metadata={
        "description": "1000 + 40 x (mu - 3 sigma): 1000 for a newcomer", "example": 1087})
    provisional = fields.Boolean(required=True, metadata={
        "description": "Fewer than 5 rated games on the track"})
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class ResultSchema(ma.Schema):
    rank = fields.Integer(required=True)
    points = fields.Integer(required=True)
    of = fields.Integer(required=True, metadata={"description": "Seats ranked (the Rhom too)"})
    won = fields.Boolean(required=True)


class PlayerGameSchema(ma.Schema):
    id = fields.String(required=True)
    status = fields.String()
    players = fields.Integer(required=True)
    rhom = fields.Boolean(required=True)
    public = fields.Boolean(required=True)
    finished_at = fields.DateTime(allow_none=True)
    result = fields.Nested(ResultSchema, allow_none=True)


class WinRateSchema(ma.Schema):
    players = fields.Integer(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    rate = fields.Float(required=True)


class PlayerProfileSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    ratings = fields.List(fields.Nested(RatingSchema), required=True)
    finished_games = fields.List(fields.Nested(PlayerGameSchema), required=True, metadata={
        "description": "Newest first; a private game only if you played in it too"})
    running_games = fields.List(fields.Nested(PlayerGameSchema), required=True)
    win_rates = fields.List(fields.Nested(WinRateSchema), required=True, metadata={
        "description": "Per player count, over the finished games shown"})


class LeaderboardQuerySchema(ma.Schema):
    track = fields.String(load_default="2", validate=validate.OneOf(TRACKS), metadata={
        "description": "2, 3, 4 (default 2) or solo"})


class LeaderboardEntrySchema(ma.Schema):
    rank = fields.Integer(required=True)
    user_id = fields.Integer(required=True)
    name = fields.String(required=True)
    rating = fields.Integer(required=True)
    provisional = fields.Boolean(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
