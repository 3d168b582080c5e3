"""The Rematch button of a finished game's page (server/web/community_pages.py)."""

from __future__ import annotations

from server.storage.db import app_engine, session_scope
from server.storage.models import Game
from tests.server.web.conftest import csrf_token, signed_in


def test_a_player_of_a_finished_game_asks_for_a_rematch_from_its_page(app, client, ada, bob,
                                                                      game, register_eve):
    running = signed_in(app, ada).get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'action="/games/' + game["id"] + '/rematch"' not in running
    with session_scope(app_engine(app)) as session:
        session.get(Game, game["id"]).status = "finished"
        session.commit()

    browser = signed_in(app, ada)
    page = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'<form method="post" action="/games/{game["id"]}/rematch" class="rematch">' in page
    assert '<a href="/verify">' in page
    asked = browser.post(f"/games/{game['id']}/rematch",
                         data={"csrf_token": csrf_token(page), "word": "kesora"})
    assert asked.status_code == 303
    new_id = asked.headers["Location"].rsplit("/", 1)[1]
    assert new_id != game["id"]
    assert client.get(f"/api/v1/games/{new_id}", headers=ada.headers).json["status"] == "open"

    # A spectator sees no button, and a forged post from them is refused with the reason.
    watcher = signed_in(app, register_eve)
    seen = watcher.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "/rematch" not in seen
    refused = watcher.post(f"/games/{game['id']}/rematch", data={"csrf_token": csrf_token(seen)},
                           headers={"Accept": "text/html"})
    assert refused.status_code == 403
    assert ("you did not play in game " + game["id"] + ": only its players may ask for a "
            "rematch") in refused.get_data(as_text=True)
