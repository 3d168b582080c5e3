"""The typed spec: named operations, a schema per engine command and event, and real views,
events, legal lists, command answers and exports that validate against it (on both databases)."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine import commands as engine_commands
from engine import events as engine_events
from engine import simulate
from server import create_app
from server.api.engine_schemas import commands as command_schemas
from server.api.engine_schemas import events as event_schemas
from server.api.engine_schemas.operations import OPERATION_IDS
from server.storage.models import utcnow
from tests.server.play import create_started_game, play_one, seat_map
from tests.server.spec_validation import assert_valid, spec

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def app(database_url):
    """Whole games read every answer after every step: on a fast machine that passed the 1,200
    requests a minute of one address (a 429 where a Game was due). These tests check shapes;
    tests/reliability/test_rate_limit.py checks the limit."""
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0})


def _operations():
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_every_operation_has_its_own_camel_case_operation_id():
    ids = {key: operation.get("operationId") for key, operation in _operations()}
    assert len(ids) >= 27
    assert all(ids.values()), [key for key, value in ids.items() if not value]
    assert len(set(ids.values())) == len(ids), "operationIds must be unique"
    for key, operation_id in ids.items():
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", operation_id), (key, operation_id)
    # Named on purpose, not made up from the path: every operation is in the table.
    assert ids == {key: OPERATION_IDS[key] for key in ids}
    assert ids["POST /api/v1/games"] == "createGame"
    assert ids["POST /api/v1/games/{game_id}/commands"] == "postCommand"


def test_create_and_join_link_to_every_operation_on_the_game():
    operations = dict(_operations())
    on_a_game = {operation["operationId"] for key, operation in operations.items()
                 if "/games/{game_id}" in key}
    assert {"getGame", "getView", "getLegal", "postCommand", "listEvents"} <= on_a_game
    for key, status in (("POST /api/v1/games", "201"), ("POST /api/v1/games/join", "200")):
        links = operations[key]["responses"][status]["links"]
        assert {link["operationId"] for link in links.values()} == on_a_game
        assert all(link["parameters"] == {"game_id": "$response.body#/id"}
                   for link in links.values())


def test_every_engine_command_and_event_has_its_schema():
    schemas = spec()["components"]["schemas"]
    mapping = schemas["LoggedCommand"]["discriminator"]["mapping"]
    assert set(mapping) == set(engine_commands.COMMAND_TYPES)
    for command_type, cls in engine_commands.COMMAND_TYPES.items():
        schema = schemas[command_schemas.schema_name(command_type)]
        assert schema["properties"]["type"]["enum"] == [command_type]
        fields = {f.name for f in engine_commands.fields(cls)} | {"type"}
        assert set(schema["properties"]) == fields, command_type
    assert len(schemas["LoggedCommand"]["oneOf"]) == len(engine_commands.COMMAND_TYPES) == 20  # undo (issue 21) is the 20th
    # What a player posts: every command but the two the server plays itself (issue 32).
    postable = set(schemas["Command"]["discriminator"]["mapping"])
    assert postable == set(engine_commands.COMMAND_TYPES) - {"start_game", "rhom_turn"}
    assert len(schemas["Command"]["oneOf"]) == 18
    mapping = schemas["Event"]["discriminator"]["mapping"]
    assert set(mapping) == set(engine_events.EVENT_TYPES)
    for event_type, cls in engine_events.EVENT_TYPES.items():
        payload = schemas[event_schemas.payload_name(event_type)]
        assert set(payload["properties"]) == {"type", "v", *engine_events.FIELD_NAMES[cls]}
        record = schemas[event_schemas.record_name(event_type)]
        assert record["properties"]["type"]["enum"] == [event_type]
    assert len(schemas["Event"]["oneOf"]) == len(engine_events.EVENT_TYPES)


@pytest.mark.parametrize("players,rhom", [(1, True), (2, True), (2, False), (3, False), (4, False)])
def test_every_command_and_event_of_simulated_games_validates(players, rhom):
    """Whole random games in the engine: each command, each event as stored (the export) and
    as every seat and a spectator see it (the feed) fit their schemas."""
    commands, events = set(), set()
    for seed in range(3):
        options = simulate.make_options(players, rhom=rhom)
        for step, _state in simulate.steps(options, f"types-{players}-{rhom}-{seed}"):
            command = engine.command_to_dict(step.command)
            assert_valid(command, command_schemas.schema_name(command["type"]))
            commands.add(command["type"])
            for event in step.events:
                payload = engine.event_to_dict(event)
                name = event_schemas.payload_name(payload["type"])
                assert_valid(payload, name)
                for seat in (None, *range(players)):
                    assert_valid(engine.redact_event(payload, seat), name)
                events.add(payload["type"])
    assert {"start_game", "reveal", "move", "end_turn"} <= commands
    assert {"game_started", "turn_started", "game_ended"} <= events


def test_a_command_the_engine_refuses_does_not_fit_the_schema():
    for wrong in ({"type": "move", "hex": "0z"}, {"type": "end_turn", "colour": "red"},
                  {"type": "sell", "gem": "ruby", "count": 1}, {"type": "teleport"},
                  {"type": "reveal"}):
        with pytest.raises(AssertionError):
            assert_valid(wrong, "Command")
    assert_valid({"type": "reveal", "hexes": ["1a", "1b"]}, "Command")


@pytest.mark.parametrize("players,rhom", [(1, True), (3, False)])
def test_the_score_detail_of_finished_games_is_typed(players, rhom):
    """SeatScore.detail says what the engine fills in (issue 32: it was any object)."""
    seen = set()
    for seed in range(4):
        *_, (_step, state) = simulate.steps(simulate.make_options(players, rhom=rhom),
                                            f"detail-{players}-{seed}")
        outcome = engine.outcome(state).to_dict()
        assert_valid(outcome, "Outcome")
        for score in outcome["seats"]:
            seen |= {key for key, value in score["detail"].items() if value}
    assert {"tile_sets", "relic_sets", "objective"} <= seen
    a_score = dict(outcome["seats"][0])
    for wrong in ({"tile_sets": "many"}, {"objective": {"id": "luck"}}, {"bonus": 3}):
        with pytest.raises(AssertionError):
            assert_valid({**a_score, "detail": wrong}, "SeatScore")


def test_the_commands_the_server_plays_are_not_offered_to_clients():
    with pytest.raises(AssertionError):
        assert_valid({"type": "rhom_turn"}, "Command")
    with pytest.raises(AssertionError):
        assert_valid({"type": "start_game", "options": {}}, "Command")
    assert_valid({"type": "rhom_turn"}, "LoggedCommand")  # in an export's log


def _check_game(client, game_id: str, players, rng) -> dict:
    """Play the game to its end, validating every answer a player or a spectator gets."""
    seats = seat_map(client, game_id, players)
    path = f"/api/v1/games/{game_id}"
    posts = 0
    while True:
        for player in (*players, None):
            headers = player.headers if player else {}
            view = client.get(f"{path}/view", headers=headers)
            assert view.status_code == 200, view.json
            assert_valid(view.json, "View")
            game = client.get(path, headers=headers)
            assert_valid(game.json, "Game")
            if player is not None:
                assert_valid(client.get(f"{path}/legal", headers=headers).json, "Legal")
        posted = play_one(client, game_id, seats, rng)
        if posted is None:
            if client.get(path).json["status"] == "finished":
                break
            _play_the_servers_turn(client.application, game_id)
            continue
        assert_valid(posted[1], "CommandResult")
        posts += 1
        assert posts < 3000
    for player in (*players, None):
        feed = client.get(f"{path}/events", headers=player.headers if player else {})
        assert_valid(feed.json, "Feed")
    export = client.get(f"{path}/export")
    assert export.status_code == 200, export.json
    assert_valid(export.json, "Export")
    return export.json


def _play_the_servers_turn(app, game_id: str) -> None:
    from server.scheduler.automatic import play_due_turns

    play_due_turns(app.extensions["iridescia_db"], utcnow())


def test_real_two_player_games_validate_against_the_spec(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    export = _check_game(client, game["id"], [ada, bob], random.Random(11))
    kinds = {e["type"] for e in export["events"]}
    assert {"game_started", "turn_started", "game_ended"} <= kinds


def test_a_solo_game_and_a_bot_seat_validate_and_the_bot_is_a_bot(client, ada):
    solo = client.post("/api/v1/games", json={"seats": 1, "public": True}, headers=ada.headers)
    assert solo.status_code == 201, solo.json
    export = _check_game(client, solo.json["id"], [ada], random.Random(12))
    assert "rhom_card_drawn" in {e["type"] for e in export["events"]}
    with_bot = client.post("/api/v1/games", json={"seats": 2, "bots": 1, "bot_policy": "random"},
                           headers=ada.headers).json
    view = client.get(f"/api/v1/games/{with_bot['id']}/view", headers=ada.headers).json
    assert_valid(view, "View")
    kinds = sorted(p["kind"] for p in view["players"])
    assert kinds == ["bot", "human"]
    game = client.get(f"/api/v1/games/{with_bot['id']}", headers=ada.headers).json
    assert {p["seat"]: p["kind"] for p in game["players"]} == {
        p["seat"]: p["kind"] for p in view["players"]}
