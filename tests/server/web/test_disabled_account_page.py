"""Issue 32, M1: a player signed in on the pages kept playing and talking after an operator
disabled the account. The page session now ends with the account."""

from sqlmodel import select

from server.operators import disable_user
from server.storage.db import app_engine, session_scope
from server.storage.models import Message, utcnow
from tests.server.web.conftest import csrf_token, signed_in, whose_turn


def test_a_disabled_account_is_signed_out_of_the_pages(app, client, game, ada, bob):
    first, second = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, first)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    with session_scope(app_engine(app)) as session:
        disable_user(session, first.email, "abuse", "test", utcnow())
        session.commit()
    version = client.get(f"/api/v1/games/{game['id']}", headers=second.headers).json["version"]

    talked = browser.post(f"/games/{game['id']}/messages",
                          data={"csrf_token": csrf_token(html), "text": "still here"})
    assert talked.status_code == 401 and "sign in first" in talked.get_data(as_text=True)
    page = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'action="/games/' + game["id"] + '/play"' not in page
    with session_scope(app_engine(app)) as session:
        assert session.exec(select(Message).where(Message.game_id == game["id"])).all() == []
    assert client.get(f"/api/v1/games/{game['id']}", headers=second.headers
                      ).json["version"] == version
