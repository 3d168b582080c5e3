"""The typed parts of the OpenAPI spec: commands, events, the view, generated from the engine.

The engine's commands and events are frozen dataclasses (engine/commands.py, engine/events/);
their JSON schemas are built from those classes here, so a new command, event or field shows
up in the spec without anyone writing it down twice. The view is a dict built by engine/view.py:
its schema is written out (server/api/engine_schemas/view.py) with ``additionalProperties: false``
everywhere, and tests validate real views against it, so a key the engine adds fails a test.

Marshmallow schemas point at these components with ``Typed("Name")`` fields.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from server.api.engine_schemas import commands, events, values, view
from server.api.engine_schemas.operations import OperationIds

__all__ = ["OperationIds", "Typed", "TypedObject", "components", "init_api", "ref"]


def components() -> dict[str, dict]:
    """Every component this package adds, by name."""
    return {**values.IDENTIFIERS, **view.components(), **commands.components(), **events.components()}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


class _Documented:
    component = ""

    def __init__(self, component: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component


class Typed(_Documented, fields.Raw):
    """A value dumped as it is and documented as the component ``component`` of this package."""


class TypedObject(_Documented, fields.Dict):
    """A request object (a 422 unless it is one) documented as the component ``component``."""


def _typed_properties(self, field, ret: dict, **_kwargs) -> dict:  # noqa: ANN001
    # apispec calls this for every marshmallow field it documents (bound to its converter).
    if not isinstance(field, _Documented):
        return {}
    ret.pop("type", None)  # the component says it
    if field.allow_none:
        return {"anyOf": [ref(field.component), {"type": "null"}]}
    return ref(field.component)


def init_api(api) -> None:  # noqa: ANN001 - a flask_smorest.Api
    """Register the components and the Typed field with the app's spec (before any blueprint)."""
    for name, schema in components().items():
        api.spec.components.schema(name, component=schema)
    api.ma_plugin.converter.add_attribute_function(_typed_properties)
