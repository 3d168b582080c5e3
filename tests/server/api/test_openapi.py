"""The OpenAPI spec: valid, served, documented errors with examples, openapi.yaml up to date."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner
from openapi_spec_validator import validate

from server.cli import main, spec_yaml

ROOT = Path(__file__).resolve().parents[3]


def test_the_spec_is_valid_openapi_3():
    validate(yaml.safe_load(spec_yaml()))


def test_openapi_yaml_at_the_root_is_up_to_date():
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == spec_yaml(), "openapi.yaml is stale: run `make openapi` and commit it"


def test_the_cli_prints_the_spec():
    result = CliRunner().invoke(main, ["openapi"])
    assert result.exit_code == 0
    assert result.output == spec_yaml()


def test_the_spec_and_docs_are_served(client):
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    assert spec.json["openapi"].startswith("3.")
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert b"swagger" in docs.data.lower()


def test_every_error_a_view_returns_is_documented_with_an_example():
    spec = yaml.safe_load(spec_yaml())
    paths = spec["paths"]
    expected = {
        ("/api/v1/games/{game_id}/commands", "post"): {"401", "403", "404", "409", "412", "422",
                                                      "428", "429"},
        ("/api/v1/games/{game_id}/view", "get"): {"304", "401", "404", "409", "422", "429"},
        ("/api/v1/games/{game_id}/export", "get"): {"401", "404", "409", "429"},
        ("/api/v1/health", "get"): {"429", "503"},
        ("/api/v1/users", "post"): {"422", "429"},  # a taken address is answered 202 too
    }
    for (path, method), codes in expected.items():
        responses = paths[path][method]["responses"]
        assert codes <= set(responses), (path, method, codes - set(responses))
    for path, operations in paths.items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for code, response in operation["responses"].items():
                if code.startswith(("4", "5")) and "$ref" not in response:
                    example = response["content"]["application/json"]["example"]
                    assert example["code"] == int(code), (path, method, code)
                    assert example["message"]


def test_every_query_argument_a_view_reads_is_in_the_spec(client):
    """A view's own header parameters must not hide the query arguments it reads."""
    spec = client.get("/openapi.json").json
    app = client.application
    checked = 0
    for rule in app.url_map.iter_rules():
        view_class = getattr(app.view_functions[rule.endpoint], "view_class", None)
        for method in ("get", "post", "put", "patch", "delete"):
            view = getattr(view_class, method, None)
            for argument in getattr(view, "_apidoc", {}).get("arguments", {}).get(
                    "parameters", []):
                if argument["in"] != "query":
                    continue
                path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
                listed = {p["name"] for p in spec["paths"][path][method].get("parameters", [])
                          if p["in"] == "query"}
                assert set(argument["schema"].fields) <= listed, (path, method, listed)
                checked += 1
    assert checked >= 2  # the view's ?version= and the feed's ?after=&wait=


def _examples(spec: dict) -> dict[tuple[str, str, str], str]:
    """(method, path, status) -> the documented error example's message."""
    found = {}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for status, answer in operation["responses"].items():
                example = answer.get("content", {}).get("application/json", {}).get("example")
                if status >= "400" and example:
                    found[(method, path, status)] = example["message"]
    return found


def test_each_operation_shows_its_own_error_examples():
    """An operation-specific error example belongs to its operation: "you already sold gems
    this turn" is the 422 of the command post only, POST /users' 422 is about its body."""
    examples = _examples(spec_yaml_as_dict())
    gems = [key for key, message in examples.items() if "sold gems" in message]
    assert gems == [("post", "/api/v1/games/{game_id}/commands", "422")]
    assert "email" in examples[("post", "/api/v1/users", "422")]
    assert "code" in examples[("post", "/api/v1/games/join", "422")]
    assert "page_size" in examples[("get", "/api/v1/games", "422")]
    assert "wait" in examples[("get", "/api/v1/games/{game_id}/events", "422")]
    assert examples[("post", "/api/v1/games/{game_id}/start", "403")].startswith(
        "you do not play in game")
    assert "If-Match" in examples[("post", "/api/v1/games/{game_id}/commands", "412")]
    assert "expected_version" in examples[("post", "/api/v1/games/{game_id}/commands", "428")]


def test_an_operation_specific_status_needs_its_own_example():
    import pytest

    from server.api.docs import document_errors

    with pytest.raises(ValueError, match="example message of this operation for 409"):
        document_errors(401, 409)
    document_errors(401, 409, e409="game k3x9q2ab has already started")  # accepted


def spec_yaml_as_dict() -> dict:
    return yaml.safe_load(spec_yaml())


def _error_details_the_server_sends() -> set[str]:
    """Every keyword given to fail(...) across server/ (the particulars of an error's details),
    and the validation errors' `fields`."""
    import ast

    found = {"fields"}
    for path in (ROOT / "server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fail":
                found |= {k.arg for k in node.keywords if k.arg not in (None, "headers")}
    return found


def test_error_details_are_typed_with_every_particular_the_server_sends():
    schemas = yaml.safe_load(spec_yaml())["components"]["schemas"]
    details = schemas["Error"]["properties"]["details"]
    assert details.get("$ref") == "#/components/schemas/ErrorDetails"
    typed = schemas["ErrorDetails"]
    assert typed["additionalProperties"] is False
    sent = _error_details_the_server_sends()
    assert {"current_version", "game_id", "retry_after"} <= sent
    assert sent <= set(typed["properties"]), sent - set(typed["properties"])
    assert typed["properties"]["current_version"]["type"] == ["integer", "null"]
