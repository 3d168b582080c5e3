"""Request and response bodies of /games/{id}/messages."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.messages.service import CHANNELS, LIST_LIMIT, MAX_LENGTH, MAX_LIST_LIMIT

CHANNEL_HELP = ("players: the game's players only; spectators: a public game's watchers (anyone "
                "signed in may post there, everyone who may see the game reads it)")


class MessagePostSchema(ma.Schema):
    # The length is checked after cleaning (server/messages/service.py); this bound only keeps
    # a huge body from being cleaned at all.
    text = fields.String(required=True, validate=validate.Length(max=4 * MAX_LENGTH),
                         metadata={"description": f"At most {MAX_LENGTH} characters; line "
                                                  "breaks become spaces and other control "
                                                  "characters are dropped",
                                   "example": "Nice move!"})
    channel = fields.String(validate=validate.OneOf(CHANNELS),
                            metadata={"description": CHANNEL_HELP + ". Default: players for a "
                                                     "player, spectators for anyone else"})


class MessageQuerySchema(ma.Schema):
    since = fields.Integer(validate=validate.Range(min=0, max=2**31 - 1),
                           metadata={"description": "Only messages with a greater id (the "
                                                    "oldest first); without it, the newest"})
    limit = fields.Integer(load_default=LIST_LIMIT, validate=validate.Range(1, MAX_LIST_LIMIT))
    channel = fields.String(validate=validate.OneOf(CHANNELS),
                            metadata={"description": "One channel only (default: every one you "
                                                     "may read)"})


class MessageSchema(ma.Schema):
    id = fields.Integer(required=True)
    channel = fields.String(required=True, validate=validate.OneOf(CHANNELS),
                            metadata={"description": CHANNEL_HELP})
    user_id = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "The writer's name"})
    player = fields.Boolean(required=True, metadata={"description": "The writer plays the game"})
    seat = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The writer's seat (null: not seated yet, "
                                                   "or not a player)"})
    text = fields.String(required=True)
    at = fields.String(required=True, metadata={"description": "When it was posted (ISO 8601)"})


class MessageListSchema(ma.Schema):
    game_id = fields.String(required=True)
    channels = fields.List(fields.String(), required=True,
                           metadata={"description": "The channels listed: a player reads both"})
    messages = fields.List(fields.Nested(MessageSchema), required=True)
    last_id = fields.Integer(required=True, allow_none=True,
                             metadata={"description": "Pass it as `since` to get only newer ones"})
