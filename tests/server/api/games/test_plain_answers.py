"""The view, the legal commands and the command post answer JSON built without marshmallow
(server.api.games.routes.plain_json): their schemas would not change a thing in them. (The game
list's entries are held equal to GET /games/{id}'s answers in test_lobby.py.)"""

from __future__ import annotations

import random

from server.api.games.play_schemas import CommandResultSchema, LegalSchema, ViewSchema
from tests.server.play import create_started_game, seat_map


def test_the_fast_answers_are_what_their_schemas_make_of_them(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    seats = seat_map(client, game["id"], [ada, bob])
    path = f"/api/v1/games/{game['id']}"
    rng = random.Random(5)
    posts = 0
    for _ in range(40):
        for player in (ada, bob, None):
            headers = player.headers if player else {}
            view = client.get(f"{path}/view", headers=headers)
            # The tag is the version, with the order when it is not the default (a spectator's)
            assert view.status_code == 200 and view.headers["ETag"] == (
                f'"{view.json["version"]}"' if player else f'"{view.json["version"]}.dealt.dealt"')
            assert ViewSchema().dump(view.json) == view.json
        if view.json["over"]:
            break
        acting = seats.get(view.json["turn"]["seat"]) if view.json["turn"] else None
        if acting is None:
            continue
        legal = client.get(f"{path}/legal", headers=acting.headers)
        assert legal.status_code == 200
        assert LegalSchema().dump(legal.json) == legal.json
        if not legal.json["commands"]:
            continue
        posted = client.post(f"{path}/commands", headers=acting.headers,
                             json={"command": rng.choice(legal.json["commands"]),
                                   "expected_version": legal.json["version"]})
        assert posted.status_code == 201, posted.json
        assert posted.json["events"] and CommandResultSchema().dump(posted.json) == posted.json
        posts += 1
    assert posts >= 10
