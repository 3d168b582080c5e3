"""What the server POSTs to a webhook, as OpenAPI 3.1 ``webhooks`` (issue 32: the payload and
the X-Iridescia-* headers were in docs/webhooks.md only).

The body is server/webhooks/payload.py's ``document`` (``format: json``), or the one chat
message it makes for Discord and Slack; the headers are server/webhooks/delivery.py's and
signing.py's. tests/server/webhooks/ validates real deliveries against this.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.api.engine_schemas.view import PENDING_KINDS
from server.webhooks.http import USER_AGENT
from server.webhooks.payload import DISCORD_LIMIT
from server.webhooks.signing import SIGNATURE_HEADER, TIMESTAMP_HEADER

EVENTS = {"turn": "The turn passed to someone (the game's first turn too)",
          "game_over": "The game ended: `scores` is filled in and `turn` is null"}


class _Closed(ma.Schema):
    class Meta:
        ordered = True


class WebhookGameSchema(_Closed):
    id = fields.String(required=True, metadata={"example": "k3x9q2ab"})
    url = fields.Url(required=True, metadata={
        "description": "The game page's plain address (never a sign-in link)",
        "example": "https://iridescia.example/games/k3x9q2ab"})
    version = fields.Integer(required=True, metadata={
        "description": "The game version the delivery tells; orders deliveries that arrive out "
                       "of order after a retry", "example": 57})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))


class WebhookTurnSchema(_Closed):
    number = fields.Integer(required=True, metadata={"example": 12})
    seat = fields.Integer(required=True, validate=validate.Range(min=0))
    player = fields.String(required=True, metadata={
        "description": "Their name: someone else's text, escape it before showing it as HTML",
        "example": "Bob"})
    decision = fields.String(required=True, validate=validate.OneOf(PENDING_KINDS), metadata={
        "description": "What is awaited: a turn, the Rhom's turn, a removal, or a choice inside "
                       "a turn"})
    your_turn = fields.Boolean(required=True, metadata={
        "description": "Whether the one to act is the webhook's owner"})
    deadline = fields.DateTime(required=True, allow_none=True, metadata={
        "description": "The turn's deadline while that turn is still on when the delivery is "
                       "first rendered, else null"})


class WebhookScoreSchema(_Closed):
    seat = fields.Integer(required=True, validate=validate.Range(min=0))
    player = fields.String(required=True)
    total = fields.Integer(required=True)
    rank = fields.Integer(required=True, validate=validate.Range(min=1))
    winner = fields.Boolean(required=True)


class WebhookDeliverySchema(_Closed):
    """The body of a delivery with ``format: json``: only what anyone watching the game may
    know."""

    event = fields.String(required=True, validate=validate.OneOf(list(EVENTS)))
    delivery_id = fields.Integer(required=True, metadata={
        "description": "The same as X-Iridescia-Delivery: the same on every retry"})
    game = fields.Nested(WebhookGameSchema, required=True)
    turn = fields.Nested(WebhookTurnSchema, required=True, allow_none=True, metadata={
        "description": "Who is to act now; null once the game is over"})
    happened = fields.List(fields.String(), required=True, metadata={
        "description": "The turn just ended, as a spectator is told it: its heading, then one "
                       "sentence per line",
        "example": ["Turn 11: Ada", "Ada revealed 7c and 7d and moved to 7c."]})
    scores = fields.List(fields.Nested(WebhookScoreSchema), required=True, allow_none=True,
                         metadata={"description": "null until `event` is game_over; then every "
                                                  "seat, best first"})


class WebhookAllowedMentionsSchema(_Closed):
    parse = fields.List(fields.String(), required=True, validate=validate.Length(max=0))


class WebhookDiscordBodySchema(_Closed):
    """The body with ``format: discord``: the same words as one message, markdown escaped."""

    content = fields.String(required=True, validate=validate.Length(max=DISCORD_LIMIT))
    allowed_mentions = fields.Nested(WebhookAllowedMentionsSchema, required=True, metadata={
        "description": "Always {\"parse\": []}: no name can ping @everyone"})


class WebhookSlackBodySchema(_Closed):
    """The body with ``format: slack``: the same words as one message, & < > escaped."""

    text = fields.String(required=True)


def _header(name: str, description: str, schema: dict) -> dict:
    return {"in": "header", "name": name, "required": True, "description": description,
            "schema": schema}


def _headers(event: str) -> list[dict]:
    return [_header("X-Iridescia-Event", "What happened (the body's `event`)",
                    {"type": "string", "enum": [event]}), *HEADERS]


HEADERS = [
    _header("X-Iridescia-Delivery", "The delivery's id, the same on every retry: drop one you "
            "already handled (delivery is at least once)",
            {"type": "string", "pattern": "^[0-9]+$"}),
    _header(TIMESTAMP_HEADER, "Unix seconds when this attempt was signed; refuse one more "
            "than five minutes from your clock", {"type": "string", "pattern": "^[0-9]+$"}),
    _header(SIGNATURE_HEADER, "sha256= and the lowercase hex HMAC-SHA256, keyed with the "
            "webhook's secret, of the timestamp header, a full stop and the raw body bytes "
            "(docs/webhooks.md, \"Verifying\")", {"type": "string",
                                                  "pattern": "^sha256=[0-9a-f]{64}$"}),
    _header("User-Agent", "The server's webhook client", {"type": "string",
                                                          "enum": [USER_AGENT]}),
]
BODIES = {"WebhookDelivery": WebhookDeliverySchema, "WebhookDiscordBody": WebhookDiscordBodySchema,
          "WebhookSlackBody": WebhookSlackBodySchema}


def _operation(event: str, description: str) -> dict:
    refs = [{"$ref": f"#/components/schemas/{name}"} for name in BODIES]
    return {"post": {
        "operationId": {"turn": "turnWebhook", "game_over": "gameOverWebhook"}[event],
        "summary": description,
        "description": "POSTed to the URL a player set on a game (PUT /games/{id}/webhook), "
                       "signed; retried with backoff on no answer, a 5xx, 408, 425 or 429, "
                       "parked on any other non-2xx (docs/webhooks.md). The body is "
                       "WebhookDelivery with `format: json`, WebhookDiscordBody with discord, "
                       "WebhookSlackBody with slack.",
        "parameters": _headers(event),
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"oneOf": refs}}}},
        "responses": {"2XX": {"description": "Delivered: nothing more is sent for it"},
                      "default": {"description": "Retried, or parked (docs/webhooks.md)"}},
    }}


def document(api) -> None:  # noqa: ANN001 - a flask_smorest.Api
    """Add the delivery bodies to the components and the deliveries as top-level webhooks."""
    for name, schema in BODIES.items():
        api.spec.components.schema(name, schema=schema)
    api.spec.options["webhooks"] = {event: _operation(event, description)
                                    for event, description in EVENTS.items()}
