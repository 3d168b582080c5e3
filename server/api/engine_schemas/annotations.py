"""A JSON schema from a field's Python annotation, as the engine's dataclasses write them."""

from __future__ import annotations

import types
import typing

from server.api.engine_schemas.values import STRING_FIELDS, nullable

_SCALARS = {int: "integer", str: "string", bool: "boolean"}


class UnsupportedAnnotation(TypeError):
    """An engine field whose type this generator cannot write as JSON schema: teach it."""


def field_schema(annotation: object, name: str, *, strings: dict | None = None,
                 objects: dict | None = None) -> dict:
    """The schema of a field ``name`` annotated ``annotation``. A string takes its identifier
    from ``strings`` (default: values.STRING_FIELDS) by field name; a ``dict`` field takes its
    schema from ``objects`` by field name."""
    strings = STRING_FIELDS if strings is None else strings
    objects = objects or {}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) != 1 or len(args) != 2:
            raise UnsupportedAnnotation(f"{name}: {annotation!r}")
        return nullable(field_schema(kinds[0], name, strings=strings, objects=objects))
    if origin is tuple:
        if len(args) != 2 or args[1] is not Ellipsis:
            raise UnsupportedAnnotation(f"{name}: only tuple[X, ...] is supported, not {annotation!r}")
        return {"type": "array", "items": field_schema(args[0], name, strings=strings,
                                                       objects=objects)}
    if annotation is str:
        return dict(strings.get(name, {"type": "string"}))
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if annotation is dict:
        if name not in objects:
            raise UnsupportedAnnotation(f"{name}: a dict field needs its schema in `objects`")
        return objects[name]
    if isinstance(annotation, type) and annotation.__name__ in objects:
        return objects[annotation.__name__]
    raise UnsupportedAnnotation(f"{name}: {annotation!r}")
