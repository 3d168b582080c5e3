"""Request and response bodies of /users."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.plain_text import PlainEmail, PlainString

EMAIL_PREFERENCES = ("every_turn", "reminders", "none")


class UserCreateSchema(ma.Schema):
    name = PlainString(required=True, validate=validate.Length(min=1, max=80),
                         metadata={"example": "Ada"})
    email = PlainEmail(required=True, validate=validate.Length(max=254),
                       metadata={"example": "ada@example.org"})

    @ma.post_load
    def _strip(self, data: dict, **_kwargs) -> dict:
        data["name"] = data["name"].strip()
        if not data["name"]:
            raise ma.ValidationError("the name must not be blank", "name")
        data["email"] = data["email"].strip().lower()
        return data


class PreferencesSchema(ma.Schema):
    email = fields.String(
        required=True,
        validate=validate.OneOf(EMAIL_PREFERENCES),
        metadata={"description": "every_turn: a mail when it is your turn (and reminders); "
                                 "reminders: only reminders near the deadline; none: no mail"},
    )


class UserSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    preferences = fields.Nested(PreferencesSchema, required=True)


class NewUserSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once; keep it secret"})


class TokenSchema(ma.Schema):
    token = fields.String(required=True, metadata={"description": "The new token; the old one "
                                                                  "stops working"})
