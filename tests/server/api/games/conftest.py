"""The game most command tests play: two people, started."""

from __future__ import annotations

import pytest

from tests.server.play import create_started_game, seat_map


@pytest.fixture
def game(client, ada, bob):
    """A started 2-player game: (game id, {seat: player})."""
    game = create_started_game(client, [ada, bob])
    return game["id"], seat_map(client, game["id"], [ada, bob])
