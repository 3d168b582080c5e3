"""Schemathesis over every operation of the served OpenAPI spec, in-process (WSGI), with and
without a token, positive and negative data: never a 500, every error is the one error body, and
no game's log changes except by a command the server accepted (201). Then the stateful phase:
scenarios that follow the spec's links from a created or joined game to its reads and posts,
every answer checked against the spec. The token rotation runs in its own case: it ends the
token every other case uses."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from server import create_app
from server.http.auth import hash_token
from server.http.rate_limits import KNOWN_TOKENS
from tests.conftest import empty_every_table
from tests.reliability.helpers import Api, event_log, verify_log

ADA_TOKEN = "stateful-scenarios-ada-0123456789abcdefghijklmnop"
EXAMPLES = 8  # per operation, mode and caller: bounded so the whole run stays near 20 s
ROTATION = "POST /api/v1/users/me/token"
# Scenarios of the stateful phase, and steps in each (a create or join, then linked calls).
SCENARIOS, STEPS = 100, 10
# Schema-valid bodies may still break a rule between fields (the Rhom with 3 players) or a game
# rule (a legal-looking command that is not legal now): a documented 422, not a defect.
RULES_THE_SPEC_CANNOT_EXPRESS = [schemathesis.checks.positive_data_acceptance]


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
          problems: list, only: str | None = None) -> None:
    for result in schema.get_all_operations():
        operation = result.ok()
        label = f"{operation.method.upper()} {operation.path}"
        if (label == ROTATION) != (only == ROTATION):
            continue  # the rotation alone, or everything but it
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


def test_schemathesis_token_rotation_in_its_own_case(fuzz_app):
    """Rotating ends the token the fuzzer holds: each 201 hands the checker the new one, the old
    one is refused from then on, and nothing else runs on a token that may have gone."""
    api = Api(fuzz_app.test_client())
    ada = api.register("ada")
    schema = schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)
    statuses: Counter = Counter()
    problems: list[str] = []
    headers = dict(ada.headers)
    for caller, modes in [({}, (GenerationMode.POSITIVE,)),
                          (headers, (GenerationMode.POSITIVE, GenerationMode.NEGATIVE))]:
        _fuzz(schema, caller, None, modes, statuses, problems, only=ROTATION)
    assert not problems, "\n".join(sorted(set(problems))[:20])
    assert statuses[201] >= 1 and statuses[401] >= 1, statuses
    assert headers != ada.headers  # rotated at least once
    client = fuzz_app.test_client()
    assert client.get("/api/v1/users/me", headers=ada.headers).status_code == 401
    assert client.get("/api/v1/users/me", headers=headers).status_code == 200
    print(f"schemathesis rotation: {sum(statuses.values())} requests, statuses {dict(statuses)}")


def test_schemathesis_stateful_phase_follows_the_links(fuzz_app, database_url):
    """Scenarios start at createGame or joinGame and follow the links to the game's reads and
    posts with its real id, as a seated player; every answer must match the spec (status,
    headers, body), never a 500, and every game a scenario made must replay. Each scenario
    starts from the same tables (two players, one game), so that Hypothesis sees the same
    answers for the same choices."""
    api = Api(fuzz_app.test_client())
    db = fuzz_app.extensions["iridescia_db"]
    # Making or joining a game and playing it (every operation is fuzzed above): among all 90
    # operations the few linked from a new game were seldom drawn, so whether GET
    # /games/{game_id} and /view were reached through a link at all hung on the spec's size.
    schema = schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app).include(
        path_regex=r"^/api/v1/games(/join|/\{game_id\}(/(view|legal|commands|events|start"
                   r"|messages))?)?$")
    calls: Counter = Counter()
    replayed: list[str] = []

    def fresh_tables() -> None:
        for game_id in sorted({row[1] for row in event_log(db) if row[0] == "event"}):
            verify_log(db, game_id)
            replayed.append(game_id)
        empty_every_table(database_url)
        ada, bob = api.register("ada"), api.register("bob")
        api.new_game(ada, [bob], public=True)  # something for the lists to list
        # Ada's token is the same in every scenario: a token schemathesis fetched before a
        # scenario's setup emptied the tables still works (a token of the last scenario's Ada
        # answered POST /games 401, and its links then led to made-up ids: 404s).
        with db.begin() as connection:
            connection.execute(sa.text("UPDATE users SET token_hash = :hash WHERE id = :id"),
                               {"hash": hash_token(ADA_TOKEN), "id": ada.id})
        KNOWN_TOKENS.forget(hash_token(ada.token))

    @schema.auth(refresh_interval=None)
    class SeatedPlayersToken:  # the auth checks then know it is a real token, and probe without
        def get(self, case, context):
            return ADA_TOKEN

        def set(self, case, token, context):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}

    class Scenarios(schema.as_state_machine()):
        def setup(self):
            fresh_tables()

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            calls[(case.operation.label, response.status_code)] += 1
            assert response.status_code < 500, case.as_curl_command()
            case.validate_response(response, excluded_checks=RULES_THE_SPEC_CANNOT_EXPRESS,
                                   transport_kwargs=kwargs)

    Scenarios.run(settings=settings(max_examples=SCENARIOS, stateful_step_count=STEPS,
                                    deadline=None, database=None, derandomize=True,
                                    suppress_health_check=list(HealthCheck)))
    fresh_tables()  # the last scenario's games replay too
    operations = {label for label, _status in calls}
    linked = {label for label, status in calls if "{game_id}" in label and status < 400}
    assert calls[("POST /api/v1/games", 201)] >= 1, calls  # scenarios make games, and
    assert {"GET /api/v1/games/{game_id}", "GET /api/v1/games/{game_id}/view"} <= linked, calls
    assert replayed
    total = sum(calls.values())
    print(f"schemathesis stateful: {total} requests over {len(operations)} operations, "
          f"{len(linked)} reached through a link; {len(replayed)} games replayed; "
          f"{dict(sorted(calls.items()))}")
