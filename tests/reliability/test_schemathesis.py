"""Schemathesis over every operation of the served OpenAPI spec, in-process (WSGI), with and
without a token, positive and negative data: never a 500, every error is the one error body, and
no game's log changes except by a command the server accepted (201)."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from server import create_app
from tests.reliability.helpers import Api, event_log, verify_log

EXAMPLES = 8  # per operation, mode and caller: bounded so the whole run stays near 20 s


@pytest.fixture
def fuzz_app(database_url, tmp_path):
    # No long poll (a generated wait would hold each request), no rate limit.
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                       "LONG_POLL_MAX_SECONDS": 0, "OUTBOX_DIR": str(tmp_path / "outbox")})


def _checker(label: str, headers: dict, statuses: Counter, problems: list):
    def check(case) -> None:
        response = case.call(headers=headers)
        statuses[response.status_code] += 1
        if label == "POST /api/v1/users/me/token" and response.status_code == 201:
            headers["Authorization"] = f"Bearer {response.json()['token']}"  # rotated
        if response.status_code >= 500:
            problems.append(f"{label}: {response.status_code} for {case.as_curl_command()}")
        elif response.status_code >= 400:
            body = response.json()
            if set(body) != {"code", "status", "message", "details"} or not body["message"]:
                problems.append(f"{label}: error body {body!r}")
        if response.status_code == 201 and label.endswith("/commands"):
            statuses["accepted commands"] += 1

    return check


def _fuzz(schema, headers: dict, game_id: str | None, modes: tuple, statuses: Counter,
          problems: list) -> None:
    for result in schema.get_all_operations():
        operation = result.ok()
        label = f"{operation.method.upper()} {operation.path}"
        for mode in modes:
            path_parameters = ({"game_id": game_id}
                               if game_id is not None and "{game_id}" in operation.path else None)
            strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)

            run = given(case=strategy)(_checker(label, headers, statuses, problems))
            try:
                settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                         phases=[Phase.explicit, Phase.generate],
                         suppress_health_check=list(HealthCheck))(run)()
            except Unsatisfiable:
                statuses["operations with nothing to negate"] += 1  # e.g. GET /health


def test_schemathesis_every_operation_with_and_without_a_token(fuzz_app, database_url):
    api = Api(fuzz_app.test_client())
    ada, bob = api.register("ada"), api.register("bob")
    game_id = api.new_game(ada, [bob], public=True)
    db = fuzz_app.extensions["iridescia_db"]
    before = event_log(db, game_id)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)
    statuses: Counter = Counter()
    problems: list[str] = []
    both = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    positive = (GenerationMode.POSITIVE,)
    for headers, game, modes in [({}, game_id, positive),  # no token, the real game
                                 (dict(ada.headers), game_id, both),  # a seated player
                                 (dict(ada.headers), None, positive)]:  # generated game ids
        _fuzz(schema, headers, game, modes, statuses, problems)
    assert not problems, "\n".join(sorted(set(problems))[:20])
    if statuses["accepted commands"] == 0:
        assert event_log(db, game_id) == before
    verify_log(db, game_id)
    total = sum(n for code, n in statuses.items() if isinstance(code, int))
    print(f"schemathesis: {total} requests, statuses {dict(sorted(statuses.items(), key=str))}")
