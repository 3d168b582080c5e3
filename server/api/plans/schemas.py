"""Request and response bodies of /games/{id}/plan."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.plans.store import LONGEST_LINE, MOST_LINES

LINE_HELP = ("A command line as `legal` lists them (`move 3c`); alternatives taken in order "
             "(`move 3c or move 3d`); an interruption's answer is played when the game asks for "
             "it (`choose emerald`, `give 2 amethyst to Ben`); players and cards by name")


class PlanRequestSchema(ma.Schema):
    lines = fields.List(
        fields.String(validate=validate.Length(max=4 * LONGEST_LINE)), required=True,
        validate=validate.Length(min=1, max=4 * MOST_LINES),
        metadata={"description": f"At most {MOST_LINES} lines. " + LINE_HELP,
                  "example": ["move 3c or move 3d", "choose emerald", "mine", "keep", "end"]})


class PlanSchema(ma.Schema):
    game_id = fields.String(required=True)
    lines = fields.List(fields.String(), required=True, metadata={"description": LINE_HELP})
    source = fields.String(required=True, validate=validate.OneOf(("mail", "page", "api")),
                           metadata={"description": "Where the plan was made"})
    made_at = fields.DateTime(required=True)
