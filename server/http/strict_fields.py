"""Booleans that are booleans.

marshmallow's Boolean takes 1, "1", "yes", "on", "t" and a dozen other spellings as true: a client
sending ``"public": "on"`` got a public game, and one sending ``1`` never learnt that the spec says
boolean. In a JSON body only ``true`` and ``false`` are booleans; anything else is a 422 saying
so. A query string's boolean is spelled ``true`` or ``false``, nothing else.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields


class StrictBoolean(fields.Boolean):
    """A JSON body's boolean: ``true`` or ``false``."""

    truthy = {True}
    falsy = {False}
    default_error_messages = {"invalid": "must be true or false (a JSON boolean), not {input!r}"}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        # `1 in {True}` holds in Python (1 == True): compare types, not values.
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class StrictQueryBoolean(fields.Boolean):
    """A query string's boolean: ``true`` or ``false``, as the spec spells it."""

    default_error_messages = {"invalid": "must be true or false, not {input!r}"}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if value not in ("true", "false"):
            raise self.make_error("invalid", input=value)
        return value == "true"
