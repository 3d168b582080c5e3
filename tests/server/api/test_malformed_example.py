"""The spec's 400 example is what the server answers for a malformed JSON body (issue 32: it
quoted a column the server never said)."""

from __future__ import annotations

from pathlib import Path

import yaml

from server.http.errors import MALFORMED_SAMPLE

ROOT = Path(__file__).resolve().parents[3]


def _examples_400() -> dict[tuple[str, str], dict]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    found = {}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            answer = operation.get("responses", {}).get("400") if isinstance(operation, dict) else None
            if answer:
                found[(method, path)] = answer["content"]["application/json"]["example"]
    return found


def test_the_400_example_is_what_a_malformed_body_gets(client, ada):
    examples = _examples_400()
    assert ("post", "/api/v1/games") in examples
    said = client.post("/api/v1/games", data=MALFORMED_SAMPLE,
                       headers={**ada.headers, "Content-Type": "application/json"})
    assert said.status_code == 400
    assert said.json == examples[("post", "/api/v1/games")]
    assert all(example == said.json for example in examples.values())
