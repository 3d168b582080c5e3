"""Request and response bodies of playing a game: a command and its answer, the view, the legal
commands, the feed and the export (server/api/games/play_routes.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from engine import seeds
from server.api.engine_schemas import Typed, TypedObject
from server.api.engine_schemas.events import ACTOR
from server.api.games.schemas import FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, MAX_VERSION, PlayerSchema
from server.api.messages.schemas import MessageSchema
from server.config import LONG_POLL_LIMIT_SECONDS
from server.http.strict_fields import StrictQueryBoolean


class CommandRequestSchema(ma.Schema):
    OPENAPI_RULES = {
        "description": "One command, as `command` (an object) or as `notation` (a line), never "
                       "both (422); played against the version you name, by `expected_version` "
                       "here or an If-Match header (neither: 428).",
        # Exactly one of the two: not both, and not neither. As `not` (which generated
        # clients leave to the server) rather than a oneOf, which openapi-python-client turns
        # into a union with no CommandRequest model.
        "not": {"anyOf": [{"required": ["command", "notation"]},
                          {"not": {"anyOf": [{"required": ["command"]},
                                             {"required": ["notation"]}]}}],
                "description": "both command and notation, or neither"},
    }
    command = TypedObject("Command", metadata={
        "description": "One engine command: {type, seat?, ...fields} (docs/engine-api.md); "
                       "seat defaults to yours. Give this or `notation`.",
        "example": {"type": "end_turn"}})
    notation = fields.String(validate=validate.Length(min=1, max=500), metadata={
        "description": "The same command as one line of the command notation, as `legal` "
                       "prints it and a mail reply carries it (docs/engine-api.md, "
                       "\"Notation\"): played by your seat. A line that does not parse is a "
                       "422 quoting it and saying what is accepted. Give this or `command`.",
        "example": "reveal 3c 3d"})
    expected_version = fields.Integer(strict=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "The game version you decided against. Give this or an "
                                 "If-Match header: without either the answer is 428; a "
                                 "different version, 409 (412 for If-Match)"})

    def load(self, data, *, many=None, partial=None, unknown=None):  # noqa: ANN001, ANN201
        # Every command post reads this body, and marshmallow's load was 4 % of a post: a body
        # that is plainly well formed is taken as marshmallow would return it; anything else
        # goes through marshmallow, which decides and words the 422 as before.
        if many is None and partial is None and unknown is None and _plain_command_body(data):
            return {key: dict(value) if key == "command" else value for key, value in data.items()}
        return super().load(data, many=many, partial=partial, unknown=unknown)

    @ma.validates_schema
    def _one_command(self, data: dict, **_kwargs) -> None:
        if ("command" in data) == ("notation" in data):
            raise ma.ValidationError("give the command either as `command` (an object) or as "
                                     "`notation` (a line such as \"move 4b\"), not both",
                                     "command")


def _plain_command_body(data: object) -> bool:
    if type(data) is not dict or type(data.get("command")) is not dict:
        return False
    if len(data) == 1:
        return True
    version = data.get("expected_version")
    return len(data) == 2 and type(version) is int and 0 <= version <= MAX_VERSION


SERVER_DECIDES_AT = ("When the server plays your pending decision itself if you have not (a turn "
                     "deadline, the end of a removal grace); null when it never will. A removal "
                     "the server is about to play is not listed.")


UNDO_STEPS = ("How many of your steps of this turn the listed `undo` command takes "
              "back (docs/undo.md); 0 when no undo is listed.")


class CommandResultSchema(ma.Schema):
    version = fields.Integer(required=True)
    events = fields.List(Typed("Event"), required=True)
    notes = fields.List(fields.String(), required=True, metadata={
        "description": "What the command did that it does not name, e.g. a pending roll kept "
                       "first"})
    # Kept as text, like an event's `at`: stored idempotent responses hold it already formatted.
    server_decides_at = fields.String(required=True, allow_none=True, metadata={
        "format": "date-time", "description": SERVER_DECIDES_AT})
    legal = fields.List(Typed("Command"), required=True, metadata={
        "description": "Your legal commands at `version`, as GET /games/{id}/legal lists them: "
                       "play the next one without reading them again. Empty when the decision "
                       "is no longer yours (or the game is over)."})
    undo_steps = fields.Integer(metadata={"description": UNDO_STEPS})


class FeedSchema(ma.Schema):
    version = fields.Integer(required=True)
    events = fields.List(Typed("Event"), required=True)


class FeedQuerySchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION),
                           metadata={"description": "Only events with a greater seq"})
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=LONG_POLL_LIMIT_SECONDS),
                        metadata={"description": "Seconds to wait for a new event (long poll), "
                                                 f"at most {LONG_POLL_LIMIT_SECONDS} (a server "
                                                 "may be set to wait less)"})
    limit = fields.Integer(load_default=FEED_DEFAULT_LIMIT,
                           validate=validate.Range(min=1, max=FEED_MAX_LIMIT),
                           metadata={"description": "At most this many events, the oldest "
                                                    "first: ask again with `after` set to the "
                                                    "last one's seq for the next ones "
                                                    "(`version` is the game's version then)"})


class ViewQuerySchema(ma.Schema):
    version = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION),
                             metadata={"description": "The view as it was at this version"})


class ViewSchema(ma.Schema):
    """The engine's view for the caller (docs/engine-api.md, "The view") plus the version."""

    version = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    options = Typed("Options", required=True)
    viewer = fields.Integer(required=True, allow_none=True)
    over = fields.Boolean(required=True)
    turn = Typed("ViewTurn", required=True, allow_none=True)
    board = fields.List(Typed("BoardRow"), required=True)
    market = Typed("Market", required=True)
    players = fields.List(Typed("ViewPlayer"), required=True)
    pending = Typed("Pending", required=True, allow_none=True)
    roll = Typed("Roll", required=True, allow_none=True)
    rhom = Typed("RhomView", required=True, allow_none=True)
    outcome = Typed("Outcome", required=True, allow_none=True)

    @ma.post_dump(pass_original=True)
    def _keep_every_key(self, data: dict, original: dict, **_kwargs) -> dict:
        # The engine owns the view's shape; the fields above only document it.
        return {**original, **data}


class LegalSchema(ma.Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    commands = fields.List(Typed("Command"), required=True)
    undo_steps = fields.Integer(required=True, metadata={"description": UNDO_STEPS})
    # Kept as text, like an event's `at`: stored idempotent responses hold it already formatted.
    server_decides_at = fields.String(required=True, allow_none=True, metadata={
        "format": "date-time", "description": SERVER_DECIDES_AT})


class ExportCommandSchema(ma.Schema):
    version = fields.Integer(required=True)
    actor = fields.String(required=True, metadata={
        "pattern": ACTOR["pattern"], "description": ACTOR["description"]})
    command = Typed("LoggedCommand", required=True)


class ExportSchema(ma.Schema):
    game_id = fields.String(required=True)
    rules_version = fields.String(required=True)
    options = Typed("Options", required=True)
    seed = fields.String(required=True)
    seed_hash = fields.String(required=True)
    seed_rule = fields.String(
        required=True, validate=validate.OneOf(seeds.SEED_RULES),
        metadata={"description": "How the dice seed was made: 'server' (the seed alone, games "
                                 "made before the players' words) or 'mixed-1' (sha256 of the "
                                 "seed and the players' words in table order, engine/seeds.py)"})
    seed_contributions = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True,
        metadata={"description": "Each player's word by the player id of the start command "
                                 "(\"\" for none)", "example": {"7": "tolami-veruko", "9": ""}})
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    commands = fields.List(fields.Nested(ExportCommandSchema), required=True)
    events = fields.List(Typed("Event"), required=True)
    outcome = Typed("Outcome", required=True)
    messages = fields.List(fields.Nested(MessageSchema),
                           metadata={"description": "With ?messages=true: the table talk you may "
                                                    "read (a player: both channels), oldest "
                                                    "first"})


class ExportQuerySchema(ma.Schema):
    messages = StrictQueryBoolean(load_default=False,
                              metadata={"description": "Add the game's table talk (off by "
                                                       "default: the log is the game)"})
