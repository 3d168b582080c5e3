"""A command the rules refuse, played from the game page, is refused in the page's language
(issue 30): the player's choice, else the browser's Accept-Language."""

from __future__ import annotations

import json
import re

from tests.server.web.conftest import csrf_token, forms, signed_in, whose_turn


def _end_turn_too_soon(app, client, game, players, **headers) -> str:
    """The player to act ends their turn before moving, from their page: the refusal's text."""
    first, _ = whose_turn(client, game["id"], players)
    browser = signed_in(app, first)
    html = browser.get(f"/games/{game['id']}", headers=headers).get_data(as_text=True)
    _words, command, version = forms(html)[0]
    end = json.dumps({"type": "end_turn", "seat": json.loads(command)["seat"]})
    refused = browser.post(f"/games/{game['id']}/play", headers=headers, data={
        "csrf_token": csrf_token(html), "command": end, "expected_version": version})
    assert refused.status_code == 422
    return " ".join(re.sub(r"<[^>]*>", " ", refused.get_data(as_text=True)).split())


def test_a_refusal_on_the_page_is_in_japanese_for_a_player_who_chose_it(app, client, game, ada,
                                                                         bob):
    for player in (ada, bob):
        client.patch("/api/v1/users/me/preferences", json={"language": "ja"},
                     headers=player.headers)
    text = _end_turn_too_soon(app, client, game, [ada, bob])
    assert "手番を終える前に、探検家をタイルに移動してください" in text, text
    assert "move your explorer" not in text


def test_a_refusal_on_the_page_follows_the_browser_before_a_choice(app, client, game, ada, bob):
    text = _end_turn_too_soon(app, client, game, [ada, bob], **{"Accept-Language": "ja"})
    assert "手番を終える前に、探検家をタイルに移動してください" in text, text
    english = _end_turn_too_soon(app, client, game, [ada, bob])
    assert "move your explorer onto a tile before ending your turn: choose again from the game " \
           "page" in english, english
