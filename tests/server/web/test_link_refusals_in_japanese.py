"""A refused link's page in the page's language (issue 30): a sign-in link used already or too
old (server/users/sign_in.py), an address-confirmation link that is not valid
(server/users/links.py); Japanese for a browser that asks for it, English otherwise."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from server.http.auth import hash_token
from server.users.sign_in import magic_link
from tests.server.web.conftest import follow, link_for

JA = {"Accept-Language": "ja,en;q=0.5"}
EN = {"Accept-Language": "en"}


def test_a_used_sign_in_link_is_refused_in_the_pages_language(app, ada):
    link = link_for(app, ada)
    assert follow(app.test_client(), link).status_code == 303
    japanese = app.test_client().get(link, headers=JA)
    assert japanese.status_code == 403
    assert ("このログインリンクはすでに使われています（1つのリンクでログインできるのは1回だけです）。"
            "ホームページで新しいリンクを求めてください") in japanese.get_data(as_text=True)
    assert "used already" not in japanese.get_data(as_text=True)
    english = app.test_client().get(link, headers=EN)
    assert english.status_code == 403
    assert ("this sign-in link was used already (each link signs in once): ask for a new one "
            "on the home page") in english.get_data(as_text=True)


def test_an_old_sign_in_link_is_refused_in_the_pages_language(app, ada):
    hours = app.config["MAGIC_LINK_HOURS"]
    with app.app_context():
        old = magic_link(ada.id, hash_token(ada.token), "/",
                         issued_at=datetime.now(UTC) - timedelta(hours=hours, seconds=60))
    old = old.removeprefix(app.config["BASE_URL"])
    japanese = app.test_client().get(old, headers=JA).get_data(as_text=True)
    assert (f"このログインリンクは{hours}時間以上前のものです。ホームページで新しいリンクを求めて"
            "ください") in japanese
    english = app.test_client().get(old, headers=EN).get_data(as_text=True)
    assert f"this sign-in link is more than {hours} hours old: ask for a new one" in english


def test_a_mangled_confirmation_link_is_refused_in_the_pages_language(client):
    japanese = client.get("/verify?code=abc.def", headers=JA)
    assert japanese.status_code == 422
    assert ("このリンクは無効です。メールからリンク全体をコピーしてください。または新しいリンクを"
            "求めてください：`iridescia confirm --resend`") in japanese.get_data(as_text=True)
    english = client.get("/verify?code=abc.def", headers=EN).get_data(as_text=True)
    assert ("this link is not valid: copy the whole link from the mail, or ask for a new one: "
            "`iridescia confirm --resend`") in english
