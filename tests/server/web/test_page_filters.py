"""The pages' filters (server/web/page_filters.py): a game's status in the page's language on
the home page's list of games (issue 30)."""

from __future__ import annotations

from server.storage.db import app_engine, session_scope
from server.storage.models import Game
from tests.server.web.conftest import signed_in


def test_a_games_status_is_named_in_the_pages_language(app, client, ada, bob, game):
    with session_scope(app_engine(app)) as session:
        session.get(Game, game["id"]).status = "aborted"
        session.commit()
    client.patch("/api/v1/users/me/preferences", json={"language": "ja"}, headers=ada.headers)
    japanese = signed_in(app, ada).get("/").get_data(as_text=True)
    assert f'<a class="open-game" href="/games/{game["id"]}">中止：ゲーム {game["id"]}</a>' in japanese
    english = signed_in(app, bob).get("/").get_data(as_text=True)
    assert (f'<a class="open-game" href="/games/{game["id"]}">Aborted: game {game["id"]}</a>'
            in english)
