"""A command post's body: the schema's quick path for well-formed bodies reads exactly what
marshmallow reads, and leaves every other body (and its 422 message) to marshmallow."""

from __future__ import annotations

import random

import marshmallow as ma
import pytest

from server.api.games.play_schemas import CommandRequestSchema
from server.api.games.schemas import MAX_VERSION


def _through_marshmallow(body):
    try:
        return ma.Schema.load(CommandRequestSchema(), body)
    except ma.ValidationError as error:
        return ("refused", error.messages)


def _through_the_schema(body):
    try:
        return CommandRequestSchema().load(body)
    except ma.ValidationError as error:
        return ("refused", error.messages)


BODIES = [
    {"command": {"type": "end_turn"}},
    {"command": {"type": "end_turn", "seat": 1}, "expected_version": 0},
    {"command": {"type": "mine", "hex": "C4"}, "expected_version": MAX_VERSION},
    {"command": {"type": "end_turn"}, "expected_version": MAX_VERSION + 1},
    {"command": {"type": "end_turn"}, "expected_version": -1},
    {"command": {"type": "end_turn"}, "expected_version": True},
    {"command": {"type": "end_turn"}, "expected_version": 3.0},
    {"command": {"type": "end_turn"}, "expected_version": "3"},
    {"command": {"type": "end_turn"}, "expected_version": None},
    {"command": {"type": "end_turn"}, "expected_version": 3, "extra": 1},
    {"command": {"type": "end_turn"}, "extra": 1},
    {"command": ["end_turn"], "expected_version": 3},
    {"command": None},
    {"expected_version": 3},
    {},
    [],
    "end_turn",
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_schema_reads_a_body_as_marshmallow_does(body):
    assert _through_the_schema(body) == _through_marshmallow(body)


def test_random_bodies_read_as_marshmallow_reads_them():
    rng = random.Random(7)
    values = [0, 1, -5, MAX_VERSION, 2**40, True, False, 1.5, "2", None, [], {}, {"type": "x"}]
    keys = ["command", "expected_version", "seat", "Command"]
    for _ in range(2000):
        body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randrange(4))}
        assert _through_the_schema(body) == _through_marshmallow(body), body


def test_the_command_read_is_a_copy():
    command = {"type": "end_turn"}
    loaded = CommandRequestSchema().load({"command": command, "expected_version": 2})
    loaded["command"]["seat"] = 0
    assert command == {"type": "end_turn"}
