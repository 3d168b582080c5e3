"""Request and response bodies of a game's webhook."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.webhooks.addresses import FORMATS, MAX_URL_LENGTH


class WebhookRequestSchema(ma.Schema):
    url = fields.String(
        required=True, validate=validate.Length(1, MAX_URL_LENGTH),
        metadata={"description": "An http(s) URL on the public internet, without credentials. "
                                 "?format=discord|slack on it chooses the format too.",
                  "example": "https://discord.com/api/webhooks/123/abc"})
    format = fields.String(
        validate=validate.OneOf(FORMATS),
        metadata={"description": "json (the default: the whole payload), discord "
                                 "({\"content\": ...}) or slack ({\"text\": ...})"})


class WebhookSchema(ma.Schema):
    game_id = fields.String(required=True, metadata={"example": "k3x9q2ab"})
    url = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    created_at = fields.DateTime(required=True)


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={"description": "Signs every delivery (X-Iridescia-Signature, docs/webhooks.md). "
                                 "Shown only now: keep it; setting the webhook again makes a new one"})
