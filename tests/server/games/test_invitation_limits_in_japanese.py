"""The invitation limits' refusals and notes (server/games/invitation_limits.py) in the
inviter's language (issue 30): the API's, and the lobby page's."""

from __future__ import annotations

import math
from datetime import datetime

from tests.server.games.test_invitation_limits import app, invite, new_game, player  # noqa: F401
from tests.server.helpers import assert_error
from tests.server.web.conftest import csrf_token, signed_in


def _choose(client, who, language: str) -> None:
    assert client.patch("/api/v1/users/me/preferences", json={"language": language},
                        headers=who.headers).status_code == 200


def _when(body: dict) -> tuple[str, int]:
    """(the time one may invite again as the message writes it, the minutes to it)."""
    details = body["details"]
    again = datetime.fromisoformat(details["retry_at"])
    return f"{again:%Y-%m-%d %H:%M}", max(1, math.ceil(details["retry_after"] / 60))


def test_the_hourly_limit_is_said_in_the_inviters_language(client, player):  # noqa: F811
    ada, bob = player("ada"), player("bob")
    _choose(client, ada, "ja")
    for who in (ada, bob):
        game_id = new_game(client, who)
        for n in range(5):
            assert invite(client, who, game_id, f"{who.name}{n}@example.org").status_code == 201
    body = assert_error(invite(client, ada, new_game(client, ada), "late@example.org"), 429)
    at, minutes = _when(body)
    assert body["message"] == (f"この1時間で5件の招待を送りました。これが上限です。次に招待できるのは"
                               f"{at} UTC（{minutes}分後）です")
    body = assert_error(invite(client, bob, new_game(client, bob), "late@example.org"), 429)
    at, minutes = _when(body)
    assert body["message"] == (f"you have sent 5 invitations in the past hour, the most allowed: "
                               f"you may invite again at {at} UTC (in {minutes} minute"
                               f"{'s' if minutes != 1 else ''})")


def test_an_invitation_not_mailed_is_noted_in_the_inviters_language(app, client, player):  # noqa: F811
    ada, bob = player("ada"), player("bob")
    _choose(client, ada, "ja")
    game_id = new_game(client, ada)
    first = invite(client, ada, game_id, "stranger@example.org").json
    assert first["message"] == "stranger@example.org に参加コードをメールしました"
    again = invite(client, ada, new_game(client, ada), "stranger@example.org").json
    assert again["mailed"] is False
    assert again["message"] == (
        "stranger@example.org にはメールしませんでした。持ち主がイリデシアで確認していないアドレス"
        "には招待を1通送り、その後14日間は送りません。参加コードはご自身で伝えてください。")
    english = invite(client, bob, new_game(client, bob), "stranger@example.org").json
    assert english["message"] == (
        "stranger@example.org is not mailed: an address whose owner has not confirmed it to "
        "Iridescia is mailed one invitation, then none for 14 days. Give them the join code "
        "yourself.")
    # The lobby page's note, in the page's language.
    browser = signed_in(app, ada)
    token = csrf_token(browser.get("/").get_data(as_text=True))
    for game in (game_id, new_game(client, ada)):
        page = browser.post(f"/games/{game}/invite",
                            data={"csrf_token": token, "email": "other@example.org"})
    assert ("other@example.org にはメールしませんでした。持ち主がイリデシアで確認していないアドレス"
            "には招待を1通送り、その後14日間は送りません。参加コードはご自身で伝えてください。"
            "参加リンクを共有することもできます：") in page.get_data(as_text=True)
