"""Rules across a body's fields, stated in the spec: a marshmallow schema's ``OPENAPI_RULES``
(JSON Schema keywords such as ``oneOf``, ``not``, ``description``) added to its component.

Marshmallow checks them in ``@validates_schema``; apispec cannot see those, so a generated
client and a fuzzer learned of them only from a 422 (issue 32).
"""

from __future__ import annotations

import copy
from typing import Any

from apispec import BasePlugin


class SchemaRules(BasePlugin):
    """Registered after the marshmallow plugin: adds the schema's ``OPENAPI_RULES``."""

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict | None:
        schema = kwargs.get("schema")
        rules = getattr(schema, "OPENAPI_RULES", None)
        return copy.deepcopy(rules) if rules else None
