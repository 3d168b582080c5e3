"""Examples on the success bodies (issue 32: 2 of 36 had one, then 19 of 46).

``examples.json`` holds real answers of this server: by component (a two-player game just
started, its view, legal commands and a command's answer, with the ids, token and times made
plain), and under "operations" each operation's own answer, ``METHOD /path STATUS``, recorded by
``python -m tests.server.api.record_examples``. An operation's own answer wins; otherwise a
response whose schema is one of the components (or a list of one) shows that one. A test
validates every example against its schema, so one the server no longer gives fails.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from apispec import BasePlugin

EXAMPLES: dict[str, Any] = json.loads((Path(__file__).with_name("examples.json"))
                                      .read_text(encoding="utf-8"))
OPERATIONS: dict[str, Any] = EXAMPLES.pop("operations", {})


def _component(schema: Any) -> str | None:
    """The component a response's schema names: a marshmallow schema (``GameSchema`` ->
    ``Game``, ``many=True`` a list of it) or an already resolved ``$ref``."""
    if isinstance(schema, dict):
        ref = schema.get("$ref") or schema.get("items", {}).get("$ref")
        return ref.rsplit("/", 1)[-1] if ref else None
    name = (schema if isinstance(schema, type) else type(schema)).__name__
    return name.removesuffix("Schema")


def _is_list(schema: Any) -> bool:
    if isinstance(schema, dict):
        return schema.get("type") == "array"
    return bool(getattr(schema, "many", False))


class SuccessExamples(BasePlugin):
    """Adds the example of a 2xx response's component to its media type."""

    def operation_helper(self, path=None, operations=None, **_kwargs) -> None:  # noqa: ANN001
        for method, operation in (operations or {}).items():
            for status, response in operation.get("responses", {}).items():
                if not str(status).startswith("2") or not isinstance(response, dict):
                    continue
                answered = OPERATIONS.get(f"{method.upper()} {path} {status}")
                for media in response.get("content", {}).values():
                    name = _component(media.get("schema"))
                    if answered is not None and "example" not in media:
                        media["example"] = copy.deepcopy(answered)
                    elif name in EXAMPLES and "example" not in media:
                        example = copy.deepcopy(EXAMPLES[name])
                        media["example"] = [example] if _is_list(media["schema"]) else example
