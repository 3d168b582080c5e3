"""The game page shows the game's pace and the time left to play."""

from __future__ import annotations

import re

from tests.server.play import create_started_game
from tests.server.web.conftest import midnight, page_time


def test_the_page_shows_the_pace_and_the_time_left(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True, pace="1d")
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Time for a turn: a day." in html
    assert re.search(r"Deadline: \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d\W(AM|PM) UTC "
                     r"\((23 hours 59 minutes|1 day) left\)\.", html)
    untimed = create_started_game(client, [ada, bob], public=True, pace="none")
    html = client.get(f"/games/{untimed['id']}").get_data(as_text=True)
    assert "Time for a turn: no deadline." in html and "Deadline:" not in html


def test_the_page_shows_who_is_away_and_a_pause(app, client, ada, bob):
    from datetime import UTC, datetime, timedelta

    game = create_started_game(client, [ada, bob], public=True)
    until = (datetime.now(UTC).date() + timedelta(days=2)).isoformat()
    assert client.post("/api/v1/users/me/vacation", json={"until": until},
                       headers=bob.headers).status_code == 200
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f"Away until {page_time(app, midnight(until))}." in html and "(seat" not in html
    client.post(f"/api/v1/games/{game['id']}/pause", headers=ada.headers)
    assert "Asks to pause the game." in client.get(f"/games/{game['id']}").get_data(as_text=True)
    client.post(f"/api/v1/games/{game['id']}/pause", headers=bob.headers)
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "The game is paused" in html and "Deadline:" not in html
