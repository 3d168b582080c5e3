"""JSON through orjson (server/storage/json_codec.py) reads and writes what the standard library did,
and what orjson refuses still gets the answers it got before."""

from __future__ import annotations

import json
import math
import random
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlmodel import select

from server.storage import json_codec
from server.storage.db import get_engine, session_scope
from server.storage.models import Event
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


def _random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rng.randrange(-(1 << 62), 1 << 62)
    if kind == 1:
        return rng.uniform(-1e9, 1e9)
    if kind == 2:
        return "".join(rng.choice("aZ é€\"\\\n\t😀") for _ in range(rng.randrange(8)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return rng.randrange(100)
    if kind in (5, 6):
        return {str(rng.randrange(50)): _random_value(rng, depth + 1) for _ in range(4)}
    return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_random_values_read_back_as_the_standard_library_reads_them():
    rng = random.Random(7)
    for _ in range(2000):
        value = _random_value(rng)
        written = json_codec.dumps(value)
        assert json.loads(written) == value
        assert json_codec.loads(written) == value
        assert json_codec.loads(json.dumps(value)) == value
        assert json_codec.loads(written.encode()) == value


def test_what_orjson_refuses_goes_to_the_standard_library():
    huge = {"n": 2**70, "m": -(2**80)}
    assert json_codec.dumps(huge) == '{"n":1180591620717411303424,"m":-1208925819614629174706176}'
    assert json_codec.loads(json_codec.dumps(huge)) == huge
    assert math.isnan(json_codec.loads('{"x": NaN}')["x"])
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):
        json_codec.loads('{"x": }')


def test_keys_that_are_not_strings_are_written_as_the_standard_library_writes_them():
    value = {1: "a", False: "b", None: "c", 2.5: "d"}
    assert json.loads(json_codec.dumps(value)) == json.loads(json.dumps(value))


def test_dates_go_to_the_callers_default_and_without_one_are_refused():
    at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert json_codec.dumps({"at": at}, default=lambda value: value.isoformat()) == (
        '{"at":"2026-11-30T12:00:00+00:00"}')
    with pytest.raises(TypeError):
        json_codec.dumps({"at": at})  # a JSON column refuses a date, as before


def _raw_post(client, game_id, player, text: str):
    return client.post(f"/api/v1/games/{game_id}/commands", data=text,
                       headers={**player.headers, "Content-Type": "application/json"})


def test_a_command_with_a_huge_integer_is_quoted_back_in_its_422(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    seats = seat_map(client, game["id"], [ada, bob])
    player = seats[game["current_seat"]]
    version = client.get(f"/api/v1/games/{game['id']}/legal", headers=player.headers).json[
        "version"]
    text = '{"command": {"type": "move", "hex": 1180591620717411303424}, "expected_version": %d}'
    body = assert_error(_raw_post(client, game["id"], player, text % version), 422)
    assert body["details"]["command"]["hex"] == 2**70
    nan = '{"command": {"type": "move", "hex": NaN}, "expected_version": %d}'
    assert_error(_raw_post(client, game["id"], player, nan % version), 422)
    assert client.get(f"/api/v1/games/{game['id']}/legal",
                      headers=player.headers).json["version"] == version


def test_the_log_is_plain_json_that_the_standard_library_reads(database_url, client, ada, bob):
    game = create_started_game(client, [ada, bob])
    with session_scope(get_engine(database_url)) as session:
        events = session.exec(select(Event).where(Event.game_id == game["id"])).all()
        raw = session.connection().execute(
            sa.text("SELECT CAST(payload AS TEXT) FROM events WHERE game_id = :game ORDER BY seq"),
            {"game": game["id"]}).scalars().all()
    assert events and [event.payload for event in events] == [json.loads(text) for text in raw]


def test_schema_answers_carry_names_beyond_ascii(client, register):
    # Answers dumped by a response schema go through Flask's jsonify (compact JSON): orjson too.
    player = register("Zoë 😀", "zoe@example.org")
    me = client.get("/api/v1/users/me", headers=player.headers)
    assert json.loads(me.get_data())["name"] == "Zoë 😀"
    game = create_started_game(client, [player, register("Ådne", "adne@example.org")])
    answer = client.get(f"/api/v1/games/{game['id']}", headers=player.headers)
    assert {p["name"] for p in json.loads(answer.get_data())["players"]} == {"Zoë 😀", "Ådne"}
