"""`GET /games/ID/board.png` (issue 31): the public hex board, drawn once per game version and
shared by every request and every mail of that version; a new version draws a new one."""

from __future__ import annotations

import random

from server.picture.cache import PICTURES
from tests.server.play import play_one, seat_map
from tests.server.web.conftest import signed_in


def test_the_board_picture_is_drawn_once_per_version_for_everyone(app, game, ada, bob, client):
    PICTURES.clear()
    before = PICTURES.drawn
    pictures = [signed_in(app, player).get(f"/games/{game['id']}/board.png")
                for player in (ada, bob, ada)]
    pictures.append(client.get(f"/games/{game['id']}/board.png"))  # a public game: anyone
    assert {p.status_code for p in pictures} == {200}
    assert {p.mimetype for p in pictures} == {"image/png"}
    assert len({p.data for p in pictures}) == 1  # the same public board for every viewer
    assert pictures[0].data[25] == 3  # a palette PNG
    assert PICTURES.drawn == before + 1

    assert play_one(client, game["id"], seat_map(client, game["id"], [ada, bob]),
                    random.Random(1)) is not None
    moved = client.get(f"/games/{game['id']}/board.png")
    assert moved.status_code == 200 and PICTURES.drawn == before + 2
