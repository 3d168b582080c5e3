"""Response bodies of /rules: every card of the engine's data with its words."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

GEMS = ("amethyst", "citrine", "emerald", "sapphire")


class CardsQuerySchema(ma.Schema):
    rules_version = fields.String(
        validate=validate.Length(max=20),
        metadata={"description": "The rules version whose words you want (default: the current "
                                 "one); a game's is in GET /games/{id}", "example": "2"})


class GemCountsSchema(ma.Schema):
    amethyst = fields.Integer(required=True)
    citrine = fields.Integer(required=True)
    emerald = fields.Integer(required=True)
    sapphire = fields.Integer(required=True)


class BonusSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["coins", "points", "stone_die"]))
    amount = fields.Integer(required=True)


class ItemCardSchema(ma.Schema):
    kind = fields.Constant("item", required=True)
    id = fields.String(required=True, metadata={"example": "jolty_jackhammer"})
    name = fields.String(required=True, metadata={"example": "Jolty Jackhammer"})
    cost = fields.Integer(required=True, metadata={"description": "Coins"})
    copies = fields.Integer(required=True, metadata={"description": "Copies in the Merchant deck"})
    start_of_turn = fields.Boolean(required=True,
                                   metadata={"description": "Green flag: only before Reveal"})
    timing = fields.String(required=True, metadata={"description": "When it may be played"})
    effect = fields.String(required=True)


class ObjectiveCardSchema(ma.Schema):
    kind = fields.Constant("objective", required=True)
    id = fields.String(required=True, metadata={"example": "glimmering_gold"})
    name = fields.String(required=True)
    points = fields.Integer(required=True, metadata={"description": "Scored at the end if met"})
    condition = fields.String(required=True)


class RelicCardSchema(ma.Schema):
    kind = fields.Constant("relic", required=True)
    id = fields.String(required=True, metadata={"example": "sapphire_spyglass"})
    name = fields.String(required=True)
    category = fields.String(required=True,
                             validate=validate.OneOf(["jewelry", "tech", "lore", "iridia"]))
    lead_gem = fields.String(required=True, allow_none=True, validate=validate.OneOf(GEMS),
                             metadata={"description": "null for Iridia relics (wild)"})
    gems = fields.Nested(GemCountsSchema, required=True,
                         metadata={"description": "The gems it takes to restore"})
    points = fields.Integer(required=True)
    text = fields.String(required=True)


class TileCardSchema(ma.Schema):
    kind = fields.Constant("tile", required=True)
    id = fields.String(required=True, metadata={"example": "canyon_emerald_coins"})
    name = fields.String(required=True)
    region = fields.String(required=True,
                           validate=validate.OneOf(["desert", "canyon", "forest", "ruins",
                                                    "castle"]))
    gem = fields.String(required=True, allow_none=True, validate=validate.OneOf(GEMS),
                        metadata={"description": "null for rainbow and Iridia Stone tiles"})
    rainbow = fields.Boolean(required=True)
    iridia = fields.Boolean(required=True)
    bonus = fields.Nested(BonusSchema, required=True, allow_none=True)
    text = fields.String(required=True, metadata={"description": "Its gem and bonus in words"})


class CardsSchema(ma.Schema):
    rules_version = fields.String(required=True)
    items = fields.List(fields.Nested(ItemCardSchema), required=True)
    objectives = fields.List(fields.Nested(ObjectiveCardSchema), required=True)
    relics = fields.List(fields.Nested(RelicCardSchema), required=True)
    tiles = fields.List(fields.Nested(TileCardSchema), required=True)
