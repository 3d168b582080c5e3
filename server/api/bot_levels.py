"""The bot level field of the API: easy, medium or hard (engine/bots/levels.py), the names the
levels replaced (strong, greedy, cautious, random) accepted too and read as their level."""

from __future__ import annotations

from marshmallow import ValidationError, fields

from engine.bots import LEVELS, NAMES, level_of

LEVEL_HELP = ("easy (plays safe, never spends a coin or an item), medium (a one-step heuristic) "
              "or hard (a heuristic checked by a short search); the old names strong, greedy, "
              "cautious and random are read as hard, medium, easy and easy")


class BotLevel(fields.String):
    """A bot level; loads as the level itself whatever name it was given by."""

    def __init__(self, **kwargs):
        metadata = kwargs.pop("metadata", {})
        super().__init__(metadata={"enum": list(LEVELS), **metadata}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return level_of(text)
        except ValueError as error:
            raise ValidationError(f"{error} (or an old name: {', '.join(NAMES[len(LEVELS):])})") \
                from error
