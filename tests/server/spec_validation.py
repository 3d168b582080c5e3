"""Validating real answers against the served spec's components (OpenAPI 3.1: JSON Schema)."""

from __future__ import annotations

from functools import cache

import yaml
from openapi_schema_validator import OAS31Validator

from server.cli import spec_yaml


@cache
def spec() -> dict:
    return yaml.safe_load(spec_yaml())


@cache
def _validator(component: str) -> OAS31Validator:
    root = {"$ref": f"#/components/schemas/{component}", "components": spec()["components"]}
    return OAS31Validator(root)


def assert_valid(instance: object, component: str) -> None:
    """The instance is what the spec's component ``component`` says, or the test fails with
    every reason."""
    errors = sorted(_validator(component).iter_errors(instance), key=lambda e: list(e.path))
    assert not errors, f"{component}: " + "; ".join(
        f"{'/'.join(map(str, e.path))}: {e.message[:300]}" for e in errors[:5])
