"""Request and response bodies of /users."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.api.bot_levels import LEVEL_HELP, BotLevel
from server.http.plain_text import NAME_PATTERN, PlainEmail, PlainString
from server.i18n import LANGUAGES
from server.users.mail_choices import parse_quiet, valid_zone

EMAIL_PREFERENCES = ("every_turn", "digest", "reminders", "none")


class UserCreateSchema(ma.Schema):
    name = PlainString(required=True, validate=validate.Length(min=1, max=80),
                         metadata={"example": "Ada", "pattern": NAME_PATTERN,
                                   "description": "The name other players see: 1 to 80 "
                                                  "characters, not only spaces (it is "
                                                  "stripped), no control or bidirectional "
                                                  "formatting characters (422 naming the one "
                                                  "found)"})
    email = PlainEmail(required=True, validate=validate.Length(max=254),
                       metadata={"example": "ada@example.org"})

    @ma.post_load
    def _strip(self, data: dict, **_kwargs) -> dict:
        data["name"] = data["name"].strip()
        if not data["name"]:
            raise ma.ValidationError("the name must not be blank", "name")
        data["email"] = data["email"].strip().lower()
        return data


REMOVAL_PREFERENCES = ("automatic", "choose")
TILE_SORTS = ("gem", "region")  # engine/view.py orders the tiles and relics by them
RELIC_SORTS = ("gem", "category")


class PreferencesSchema(ma.Schema):
    email = fields.String(
        validate=validate.OneOf(EMAIL_PREFERENCES),
        metadata={"description": "every_turn: a mail when it is your turn (and reminders); "
                                 "digest: one mail a day at digest_hour listing the games "
                                 "where it is your turn; reminders: only reminders near the "
                                 "deadline; none: no mail"},
    )
    digest_hour = fields.Integer(
        strict=True, validate=validate.Range(0, 23),
        metadata={"description": "The hour of the daily digest in your time zone (0-23; "
                                 "default 8)", "example": 8})
    quiet_hours = fields.String(
        allow_none=True, validate=validate.Length(max=5),
        metadata={"description": "No mail from the first hour to the second, in your time "
                                 "zone: \"22-7\"; it waits for their end. null: none",
                  "example": "22-7"})
    time_zone = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "Your time zone (IANA name), for the digest and the quiet "
                                 "hours", "example": "Europe/Paris"})
    language = fields.String(
        allow_none=True, validate=validate.OneOf(LANGUAGES),
        metadata={"description": "The language of your pages, mails and answers: en or ja. "
                                 "Until you choose, a page follows your browser and mail is "
                                 "in English (null: not chosen)", "example": "ja"})
    tile_sort = fields.String(
        validate=validate.OneOf(TILE_SORTS),
        metadata={"description": "Your collected tiles, on your pages, mails and views: by the "
                                 "gem shown on them (gem) or by region (region)"})
    relic_sort = fields.String(
        validate=validate.OneOf(RELIC_SORTS),
        metadata={"description": "Your relics: by gem type (gem) or by category (category: "
                                 "jewelry, tech, lore, Iridia)"})
    removals = fields.String(
        validate=validate.OneOf(REMOVAL_PREFERENCES),
        metadata={"description": "Your removal turns once you have finished: automatic (the "
                                 "server removes a tile after the game's removal grace, at once "
                                 "by default) or choose (you choose; the server decides only at "
                                 "your turn deadline)"},
    )
    stand_in = BotLevel(
        metadata={"description": "Who plays your turn when its deadline passes, in every game "
                                 f"where you chose no other: {LEVEL_HELP}"})

    @ma.validates_schema
    def _something(self, data: dict, **_kwargs) -> None:

        if not data:
            raise ma.ValidationError("give email, removals, stand_in, digest_hour, quiet_hours, "
                                     "time_zone, language, tile_sort or relic_sort")
        quiet = data.get("quiet_hours")
        if quiet and parse_quiet(quiet) is None:
            raise ma.ValidationError(f"quiet hours are two whole hours, from-to, such as 22-7 "
                                     f"(not {quiet!r})", "quiet_hours")
        if "time_zone" in data and not valid_zone(data["time_zone"]):
            raise ma.ValidationError(f"{data['time_zone']!r} is not a time zone: give an IANA "
                                     "name such as Europe/Paris or America/New_York (or UTC)",
                                     "time_zone")


class GameChoiceSchema(ma.Schema):
    email = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(EMAIL_PREFERENCES),
        metadata={"description": "Your mail for this game: every_turn, digest, reminders or "
                                 "none; null: as your account's preference"})


class UserSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    verified = fields.Boolean(required=True, metadata={
        "description": "Whether the address is confirmed; until it is, it gets no mail but "
                       "the confirmation link"})
    email_status = fields.String(
        required=True, validate=validate.OneOf(["ok", "unconfirmed", "bouncing"]),
        metadata={"description": "bouncing: mail to the address comes back, so no game mail "
                                 "goes to it until you confirm it again (POST "
                                 "/users/me/verification mails a new link); unconfirmed: "
                                 "not confirmed yet; ok"})
    preferences = fields.Nested(PreferencesSchema, required=True)


class NewUserSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once; keep it secret"})
    verified = fields.Boolean(required=True)
    message = fields.String(required=True)


class ConfirmedSchema(UserSchema):
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "The account's API token, new (shown once; keep it secret): confirming "
                       "a new account gives it, and any token made before stops working. null "
                       "for an address confirmed before (confirmed again after its mail "
                       "bounced): the token is unchanged"})
    message = fields.String(required=True)


class CodeSchema(ma.Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=500),
                         metadata={"description": "The code of the link in the mail"})


class RecoverSchema(ma.Schema):
    email = fields.Email(required=True, validate=validate.Length(max=254),
                         metadata={"example": "ada@example.org"})

    @ma.post_load
    def _lower(self, data: dict, **_kwargs) -> dict:
        data["email"] = data["email"].strip().lower()
        return data


class AcceptedSchema(ma.Schema):
    message = fields.String(required=True)


class TokenSchema(ma.Schema):
    token = fields.String(required=True, metadata={"description": "The new token; the old one "
                                                                  "stops working"})
