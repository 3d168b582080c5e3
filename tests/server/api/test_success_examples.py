"""Every success body has an example, recorded from the server's real answers
(tests/server/api/record_examples.py), and every example is what the schema says (issue 32: 2 of
36 had one, then 19 of 46)."""

from __future__ import annotations

from openapi_schema_validator import OAS31Validator

from tests.server.spec_validation import spec

MAIN = [("post", "/api/v1/users/verify", "200"), ("get", "/api/v1/users/me", "200"),
        ("get", "/api/v1/games", "200"), ("post", "/api/v1/games", "201"),
        ("get", "/api/v1/games/{game_id}", "200"), ("get", "/api/v1/games/{game_id}/view", "200"),
        ("get", "/api/v1/games/{game_id}/legal", "200"),
        ("post", "/api/v1/games/{game_id}/commands", "201")]


def _success_examples():
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                media = response.get("content", {}).get("application/json", {})
                if str(status).startswith("2") and "example" in media:
                    yield (method, path, str(status)), media


def test_every_success_body_has_an_example():
    bodies = {(method, path, str(status))
              for path, item in spec()["paths"].items()
              for method, operation in item.items() if isinstance(operation, dict)
              for status, response in operation.get("responses", {}).items()
              if str(status).startswith("2") and "application/json" in response.get("content", {})}
    shown = {key for key, _ in _success_examples()}
    assert set(MAIN) <= shown
    assert bodies - shown == set(), sorted(bodies - shown)
    assert len(bodies) >= 46


def test_every_success_example_fits_its_schema():
    components = spec()["components"]
    checked = 0
    for key, media in _success_examples():
        validator = OAS31Validator({**media["schema"], "components": components})
        errors = [f"{'/'.join(map(str, e.path))}: {e.message[:200]}"
                  for e in validator.iter_errors(media["example"])]
        assert not errors, (key, errors[:3])
        checked += 1
    assert checked >= len(MAIN)
