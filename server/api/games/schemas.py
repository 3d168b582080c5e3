"""Request and response bodies of /games."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

import engine
from engine import seeds
from engine.bots import LEVELS
from server.api.bot_levels import LEVEL_HELP, BotLevel
from server.api.engine_schemas import Typed
from server.api.engine_schemas.view import PLAYER_KINDS
from server.api.webhooks.schemas import WebhookCreatedSchema, WebhookRequestSchema
from server.games.pace import DEFAULT_PACE, PACES
from server.http.plain_text import PlainEmail
from server.http.strict_fields import StrictBoolean

GEMS = ("amethyst", "citrine", "emerald", "sapphire")
GAME_STATUSES = ("open", "active", "finished", "closed", "aborted")
# Versions and sequence numbers are 32-bit integers in the database: larger ones are refused here.
MAX_VERSION = 2**31 - 1
# Events one feed answer holds: by default, and at most (a whole game is about 2,000).
FEED_DEFAULT_LIMIT = 500
FEED_MAX_LIMIT = 5000


class VariantsSchema(ma.Schema):
    mining_cost = fields.Integer(load_default=1, validate=validate.OneOf([1, 3]),
                                 metadata={"description": "Coins per mining die: 1 or 3"})
    leftover_gems = fields.String(load_default="any", validate=validate.OneOf(["any", "same_type"]))
    catapult_4th = StrictBoolean(load_default=False,
                                 metadata={"description": "Clever Catapult 4th-player rule: "
                                                          "true only in a game of 4 seats "
                                                          "(otherwise 422)"})


class GameSettingsSchema(ma.Schema):
    reminder_interval_hours = fields.Integer(required=True)
    turn_deadline_hours = fields.Integer(required=True)
    absent_after_missed = fields.Integer(required=True)
    rhom_delay_seconds = fields.Integer(required=True)
    removal_grace_hours = fields.Integer(required=True)


# The levels a bot seat may play at, as a page offers them (old names are accepted too).
BOT_POLICIES = LEVELS


def _playable_rules_version(version: str) -> None:

    if version not in engine.SUPPORTED_VERSIONS:
        raise ma.ValidationError(
            f"this server cannot play rules version {version!r}: it plays "
            f"{', '.join(engine.SUPPORTED_VERSIONS)}; leave rules_version out for the current one "
            f"({engine.RULES_VERSION})")


def contribution_field() -> fields.String:
    return fields.String(
        validate=validate.Regexp(seeds.CONTRIBUTION.pattern + r"\Z",
                                 error=f"give {seeds.CONTRIBUTION_HINT}, or leave it out"),
        metadata={"description": "Your word for the dice: mixed with the server's seed (whose "
                                 "sha256 is published now) and the other players' words when "
                                 "the game starts, so no one alone can choose the dice. Make it "
                                 "at random; the export shows it at the end.",
                  "example": "tolami-veruko"})


class GameCreateSchema(ma.Schema):
    OPENAPI_RULES = {
        "description": "A new game. `pace` and `turn_deadline_hours` exclude each other (422 "
                       "for both): the pace sets the deadline.",
        "not": {"required": ["pace", "turn_deadline_hours"],
                "description": "pace and turn_deadline_hours together"},
    }
    contribution = contribution_field()
    rules_version = fields.String(
        validate=_playable_rules_version,
        metadata={"description": "The rules version the game is played under for its whole life "
                                 "(default: the server's current one)", "example": "2",
                  "enum": list(engine.SUPPORTED_VERSIONS)})
    seats = fields.Integer(required=True, validate=validate.Range(1, 4),
                           metadata={"description": "Number of human players (1-4)"})
    rhom = StrictBoolean(load_default=False,
                          metadata={"description": "Play with the Rhom (forced for 1 player, "
                                                   "allowed for 2, refused for 3-4)"})
    variants = fields.Nested(VariantsSchema, load_default=lambda: VariantsSchema().load({}))
    public = StrictBoolean(load_default=False,
                            metadata={"description": "Anyone may watch without a token"})
    # strict: a fraction would be truncated, and 0.5 hours would silently mean "off".
    pace = fields.String(
        validate=validate.OneOf(PACES),
        metadata={"description": "The time control: 1d, 3d or 7d a turn (reminders every 12, 24 "
                                 "or 48 hours), or none (no deadline; a reminder every 3 days). "
                                 "Default 3d. Give this or turn_deadline_hours.",
                  "example": "3d"})
    reminder_interval_hours = fields.Integer(
        strict=True, validate=validate.Range(0, 24 * 30),
        metadata={"description": "Hours between reminders while it is your turn; 0: none "
                                 "(default: the pace's)"})
    turn_deadline_hours = fields.Integer(
        strict=True, validate=validate.Range(0, 24 * 90),
        metadata={"description": "Hours a player has per turn before the server plays it; "
                                 "0: no deadline (default: the pace's, 72)"})
    absent_after_missed = fields.Integer(
        load_default=2, strict=True, validate=validate.Range(0, 50),
        metadata={"description": "Missed deadlines in a row after which the seat is absent and "
                                 "the server plays its turns at once; 0: never"})
    rhom_delay_seconds = fields.Integer(
        load_default=0, strict=True, validate=validate.Range(0, 24 * 3600),
        metadata={"description": "Seconds the Rhom waits before playing, so humans can follow; "
                                 "0: at once"})
    bots = fields.Integer(
        load_default=0, strict=True, validate=validate.Range(0, 3),
        metadata={"description": "How many of the seats the server fills with bots (0-3); you "
                                 "take one seat yourself, so at most seats - 1"})
    bot_policy = BotLevel(
        load_default="hard",
        metadata={"description": f"The bots' level: {LEVEL_HELP}. Default hard."})
    stand_in = BotLevel(
        metadata={"description": "Who plays your turns when their deadline passes in this game: "
                                 f"{LEVEL_HELP}. Default: your account's stand-in preference."})
    removal_grace_hours = fields.Integer(
        load_default=0, strict=True, validate=validate.Range(0, 24 * 30),
        metadata={"description": "Hours a finished player has to choose a castle-row tile to "
                                 "remove before the server removes one; 0: the server removes "
                                 "it at once"})

    webhook = fields.Nested(
        WebhookRequestSchema,
        metadata={"description": "Your webhook on the game (docs/webhooks.md): its turns and end "
                                 "POSTed there, signed; the answer shows its secret once"})

    @ma.validates_schema
    def _check_players(self, data: dict, **_kwargs) -> None:
        seats, rhom = data.get("seats"), data.get("rhom", False)
        if seats in (3, 4) and rhom:
            raise ma.ValidationError("the Rhom plays only with 1 or 2 players", "rhom")
        bots = data.get("bots", 0)
        if seats is not None and bots >= seats:
            raise ma.ValidationError(
                f"a game of {seats} seat{'s' if seats > 1 else ''} has room for at most "
                f"{seats - 1} bot{'s' if seats != 2 else ''}: you take a seat yourself "
                f"(ask for more seats or fewer bots)", "bots")
        variants = data.get("variants") or {}
        if variants.get("catapult_4th") and seats != 4:
            raise ma.ValidationError("catapult_4th needs 4 players", "variants")

    @ma.post_load
    def _solo_has_rhom(self, data: dict, **_kwargs) -> dict:
        if data["seats"] == 1:
            data["rhom"] = True
        return data

    @ma.post_load
    def _hours_of_the_pace(self, data: dict, **_kwargs) -> dict:
        if "pace" in data and "turn_deadline_hours" in data:
            raise ma.ValidationError(
                "give the pace (1d, 3d, 7d or none) or turn_deadline_hours, not both", "pace")
        deadline, reminders = PACES[data.pop("pace", DEFAULT_PACE)]
        data.setdefault("turn_deadline_hours", deadline)
        data.setdefault("reminder_interval_hours", reminders)
        return data


class PlayerSchema(ma.Schema):
    seat = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "Engine seat (turn order); null before start"})
    user_id = fields.Integer(required=True, allow_none=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, metadata={
        "enum": list(PLAYER_KINDS),
        "description": "human, rhom or bot (a seat the server plays with bot_policy)"})
    absent = fields.Boolean(required=True)
    bot_policy = fields.String(required=True, allow_none=True,
                               metadata={"enum": ["easy", "medium", "hard", None],
                                         "description": "The level of a bot seat (easy, medium "
                                                        "or hard); null for the others"})
    away_until = fields.DateTime(required=True, allow_none=True, metadata={
        "description": "The player is on vacation until then (their turns wait); null: here"})
    wants_pause = fields.Boolean(required=True, metadata={
        "description": "The player asked to pause the game (it pauses when every player has)"})
    rating = fields.Integer(metadata={
        "description": "In GET /games (yours), GET /games/open and GET /games/{id}: the "
                       "person's rating on the game's track now, or the Rhom's on the solo "
                       "track (1000 for a newcomer; docs/community.md). Absent for bots and in "
                       "the answers of the lobby's posts."})
    rating_provisional = fields.Boolean(metadata={
        "description": "With rating: it counts fewer than 5 games"})


class GameSchema(ma.Schema):
    id = fields.String(required=True, metadata={"example": "k3x9q2ab"})
    status = fields.String(required=True, metadata={
        "enum": list(GAME_STATUSES),
        "description": "open, active, finished, closed (every player left before the start) "
                       "or aborted (by an operator)"})
    public = fields.Boolean(required=True)
    join_code = fields.String(required=True, allow_none=True,
                              metadata={"description": "Shown to seated players only"})
    seats = fields.Integer(required=True)
    rhom = fields.Boolean(required=True)
    variants = fields.Nested(VariantsSchema, required=True)
    settings = fields.Nested(GameSettingsSchema, required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    version = fields.Integer(required=True)
    rules_version = fields.String(required=True, allow_none=True, metadata={
        "description": "The rules version the game is played under, for its whole life"})
    seed_hash = fields.String(required=True, metadata={"description": "sha256 of the secret seed"})
    is_my_turn = fields.Boolean(required=True)
    my_seat = fields.Integer(required=True, allow_none=True)
    my_stand_in = fields.String(required=True, allow_none=True, metadata={
        "enum": ["easy", "medium", "hard", None],
        "description": "The bot level that plays your turn if its deadline passes (your choice "
                       "for this game, else your account's, else the server's default); null "
                       "when you do not play in the game"})
    current_seat = fields.Integer(required=True, allow_none=True)
    pending_kind = Typed("GamePendingKind", required=True, allow_none=True, metadata={
        "description": "null when the game is not running"})
    deadline_at = fields.DateTime(required=True, allow_none=True)
    pace = fields.String(required=True, metadata={
        "description": "The time control: 1d, 3d, 7d, none, or the hours a turn (e.g. 48h)",
        "example": "3d"})
    time_left = fields.String(required=True, allow_none=True, metadata={
        "description": "Until the deadline, in words, when the server answered (\"2 days 4 "
                       "hours left\"); null without a deadline", "example": "2 days 4 hours left"})
    paused = fields.Boolean(required=True, metadata={
        "description": "Paused by all its players: no deadline, reminder or automatic turn "
                       "until one of them resumes it"})
    created_at = fields.DateTime(required=True)


class GameCreatedSchema(GameSchema):
    webhook = fields.Nested(WebhookCreatedSchema, metadata={
        "description": "The webhook asked for, with its secret (shown only now)"})


class InvitationCreateSchema(ma.Schema):
    email = PlainEmail(required=True, validate=validate.Length(max=254))


class InvitationSchema(ma.Schema):
    email = fields.String(required=True)
    join_code = fields.String(required=True)
    mailed = fields.Boolean(required=True, metadata={
        "description": "Whether the join code was mailed; when not, pass it on yourself"})
    message = fields.String(required=True, metadata={"description": "Why not, when it was not"})


class JoinSchema(ma.Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=32))
    contribution = contribution_field()
    stand_in = BotLevel(
        metadata={"description": "Who plays your turns when their deadline passes in this game: "
                                 f"{LEVEL_HELP}. Default: your account's stand-in preference."})
