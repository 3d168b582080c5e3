"""Addresses are confirmed by a signed link before they get any other mail, registration does
not tell who is registered (the token travels by mail: confirming gives it, a new one), and a
lost token comes back by mail (issue 16, finding 7; issue 32)."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlparse

import pytest
from sqlmodel import select

from server.mail import MailSettings
from server.mail.outbox import flush_outbox
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, User, utcnow
from server.users.verification import mark_verified
from tests.accounts import sign_up
from tests.server.helpers import assert_error
from tests.server.play import create_started_game

BASE = "https://iridescia.example"


@pytest.fixture
def app(database_url):
    from server import create_app

    return create_app({"DATABASE_URL": database_url, "TESTING": True, "BASE_URL": BASE,
                       "SECRET_KEY": "test-secret", "RATE_LIMIT": 0})


class Recorder:
    def __init__(self):
        self.sent = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def send(self, message):
        self.sent.append((message["To"], message["X-Iridescia-Key"],
                          message.get_body(("plain",)).get_content()))


def deliver(app) -> Recorder:
    recorder = Recorder()
    flush_outbox(app_engine(app), recorder, MailSettings(base_url=BASE), utcnow)
    return recorder


def mails(app, kind=None, to=None) -> list[Outbox]:
    with session_scope(app_engine(app)) as session:
        statement = select(Outbox).order_by(Outbox.id)
        if kind:
            statement = statement.where(Outbox.kind == kind)
        if to:
            statement = statement.where(Outbox.to_email == to)
        return list(session.exec(statement))


def link_in(text: str, path: str) -> str:
    found = re.search(rf"{re.escape(BASE)}{path}\?code=\S+", text)
    assert found, text
    return found.group(0)


def code_of(url: str) -> str:
    return parse_qs(urlparse(url).query)["code"][0]


def register(client, name, email=None):
    """A player who registered and confirmed the address (the token comes with confirming)."""
    return sign_up(client, name, email or f"{name}@example.org")


def unconfirm(app, body) -> None:
    """Make ``body``'s account unconfirmed, as accounts registered before tokens travelled by
    mail may still be (their registrant was given the token at once)."""
    with session_scope(app_engine(app)) as session:
        session.get(User, body["id"]).verified_at = None


def headers(body):
    return {"Authorization": f"Bearer {body['token']}"}


def test_a_taken_address_is_answered_exactly_like_a_new_one_and_its_owner_is_told(client, app):
    ada = register(client, "ada")
    new = client.post("/api/v1/users", json={"name": "Bob", "email": "bob@example.org"})
    taken = client.post("/api/v1/users", json={"name": "Mallory", "email": "ADA@example.org"})
    print(f"verification: registering a new / a taken address: {new.status_code} "
          f"{sorted(new.json)} / {taken.status_code} {sorted(taken.json)}")
    assert new.status_code == taken.status_code == 202
    assert set(new.headers.keys()) == set(taken.headers.keys())
    assert taken.json == {key: value.replace("bob@", "ada@") for key, value in new.json.items()}
    assert set(new.json) == {"message"}  # no id, no token: the token travels by mail only
    (told,) = mails(app, kind="registered_again")
    assert told.to_email == "ada@example.org" and told.user_id == ada["id"]
    assert "someone tried to register ada@example.org" in told.text_body
    assert ada["token"] not in told.text_body
    link_in(told.text_body, "/recover")
    # The account is unchanged: Ada's token still works, under her own name.
    me = client.get("/api/v1/users/me", headers=headers(ada)).json
    assert (me["name"], me["verified"]) == ("ada", True)


def test_a_new_address_is_confirmed_by_the_link_mailed_to_it_which_gives_the_token(client, app):
    answer = client.post("/api/v1/users", json={"name": "ada", "email": "ada@example.org"})
    assert answer.status_code == 202 and "token" not in answer.json
    (mail,) = mails(app, kind="verify_email")
    assert mail.to_email == "ada@example.org"
    url = link_in(mail.text_body, "/verify")
    assert f"iridescia confirm --code {code_of(url)}" in mail.text_body
    # Opening the link shows a button; it confirms nothing by itself (mail scanners open links).
    browser = app.test_client()
    page = browser.get(url.removeprefix(BASE))
    assert page.status_code == 200
    assert "ada@example.org" in page.get_data(as_text=True)
    assert 'method="post"' in page.get_data(as_text=True)
    assert "Signed in as" not in browser.get("/").get_data(as_text=True)
    done = browser.post("/verify", data={"code": code_of(url)})
    html = done.get_data(as_text=True)
    assert done.status_code == 200 and done.headers["Cache-Control"] == "no-store"
    assert "ada@example.org is confirmed" in html
    token = re.search(r'<pre class="token">([^<]+)</pre>', html).group(1)
    me = client.get("/api/v1/users/me", headers={"Authorization": f"Bearer {token}"}).json
    assert me["verified"] is True and me["name"] == "ada"
    assert 'Signed in as <strong class="me">ada</strong>' in browser.get("/").get_data(
        as_text=True)
    again = browser.post("/verify", data={"code": code_of(url)})  # the same link: no new token
    assert "confirmed" in again.get_data(as_text=True) and token not in again.get_data(
        as_text=True) and '<pre class="token">' not in again.get_data(as_text=True)

    # The API takes the same codes (Bob's link, confirmed without the page).
    client.post("/api/v1/users", json={"name": "bob", "email": "bob@example.org"})
    (mail,) = mails(app, kind="verify_email", to="bob@example.org")
    confirmed = client.post("/api/v1/users/verify",
                            json={"code": code_of(link_in(mail.text_body, "/verify"))})
    assert confirmed.status_code == 200 and confirmed.json["verified"] is True
    assert client.get("/api/v1/users/me", headers=headers(confirmed.json)).json["id"] == \
        confirmed.json["id"]


def test_confirming_an_address_rotates_a_token_made_before_it_was_proved(client, app):
    """A pre-hijack: someone registered the victim's address and kept the token (as registering
    answered it before tokens travelled by mail). When the victim confirms the address, that
    token, its page sessions and its sign-in links stop working; the victim gets a new one."""
    squatter = register(client, "Friend", "victim@example.org")
    unconfirm(app, squatter)
    assert client.post("/api/v1/users/me/verification",
                       headers=headers(squatter)).status_code == 202
    (mail,) = mails(app, kind="verify_email", to="victim@example.org")
    code = code_of(link_in(mail.text_body, "/verify"))
    confirmed = client.post("/api/v1/users/verify", json={"code": code})
    assert confirmed.status_code == 200, confirmed.json
    assert confirmed.json["token"] and confirmed.json["token"] != squatter["token"]
    print(f"verification: the squatter's token after the victim confirms: "
          f"{client.get('/api/v1/users/me', headers=headers(squatter)).status_code}")
    assert_error(client.get("/api/v1/users/me", headers=headers(squatter)), 401)
    me = client.get("/api/v1/users/me", headers=headers(confirmed.json))
    assert me.status_code == 200 and me.json["verified"] is True
    # The same code again gives nobody another token.
    again = client.post("/api/v1/users/verify", json={"code": code})
    assert again.status_code == 200 and again.json["token"] is None
    assert client.get("/api/v1/users/me", headers=headers(confirmed.json)).status_code == 200


def test_until_it_is_confirmed_an_address_gets_only_the_confirmation(client, app):
    ada, bob = register(client, "ada"), register(client, "bob")
    unconfirm(app, ada)  # Bob opened his link; Ada's account is from before, never confirmed
    assert client.post("/api/v1/users/me/verification", headers=headers(ada)).status_code == 202
    players = [type("P", (), {"headers": headers(p)})() for p in (ada, bob)]
    create_started_game(client, players)

    sent = deliver(app).sent
    to_ada = sorted(key.split(":")[0] if ":" in key else key for to, key, _ in sent
                    if to == "ada@example.org")
    to_bob = [key for to, key, _ in sent if to == "bob@example.org"]
    withheld = [row for row in mails(app, to="ada@example.org") if row.status == "withheld"]
    print(f"verification: unconfirmed Ada got {len(to_ada)} mail(s) ({to_ada}), "
          f"{len(withheld)} withheld; confirmed Bob got {len(to_bob)}")
    assert to_ada == ["verify_email"]
    assert withheld and all("has not been confirmed" in row.last_error for row in withheld)
    assert any("game_started" in key for key in to_bob)
    assert not any(key.startswith("verify_email") for key in to_bob)  # already confirmed


def test_a_user_marked_verified_by_another_way_in_is_mailed(client, app):
    """mark_verified is what play by email calls for a user who wrote from the address."""
    ada = register(client, "ada")
    unconfirm(app, ada)
    with session_scope(app_engine(app)) as session:
        user = session.get(User, ada["id"])
        assert mark_verified(user) is True
        assert mark_verified(user) is False  # once
    bob = register(client, "bob")
    players = [type("P", (), {"headers": headers(p)})() for p in (ada, bob)]
    create_started_game(client, players)
    assert any(to == "ada@example.org" and "game_started" in key
               for to, key, _ in deliver(app).sent)


def test_forged_and_expired_links_are_refused(client, app, monkeypatch):
    client.post("/api/v1/users", json={"name": "ada", "email": "ada@example.org"})
    (mail,) = mails(app, kind="verify_email")
    code = code_of(link_in(mail.text_body, "/verify"))
    forged = code[:-3] + ("AAA" if not code.endswith("AAA") else "BBB")
    assert_error(client.post("/api/v1/users/verify", json={"code": forged}), 422,
                 "this link is not valid")
    page = client.get(f"/verify?code={forged}")
    assert page.status_code == 422 and "this link is not valid" in page.get_data(as_text=True)
    later = time.time() + 49 * 3600
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    assert_error(client.post("/api/v1/users/verify", json={"code": code}), 422,
                 "this link has expired (links are good for 48 hours)",
                 "iridescia confirm --resend")


def test_a_lost_token_comes_back_by_a_signed_link_that_works_once(client, app):
    ada = register(client, "ada")
    unknown = client.post("/api/v1/users/recover", json={"email": "nobody@example.org"})
    known = client.post("/api/v1/users/recover", json={"email": "Ada@example.org"})
    assert (unknown.status_code, known.status_code) == (202, 202)
    assert unknown.json["message"].replace("nobody", "ada") == known.json["message"]
    (mail,) = mails(app, kind="recover_token")
    assert mail.to_email == "ada@example.org" and ada["token"] not in mail.text_body
    code = code_of(link_in(mail.text_body, "/recover"))
    assert f"iridescia recover --code {code}" in mail.text_body

    page = client.get(f"/recover?code={code}")
    assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    assert client.get("/api/v1/users/me", headers=headers(ada)).status_code == 200  # unused yet

    answer = client.post("/api/v1/users/recover/confirm", json={"code": code})
    assert answer.status_code == 201, answer.json
    assert answer.json["id"] == ada["id"] and answer.json["verified"] is True
    assert client.get("/api/v1/users/me", headers=headers(ada)).status_code == 401
    me = client.get("/api/v1/users/me", headers=headers(answer.json))
    assert me.status_code == 200 and me.json["verified"] is True
    assert_error(client.post("/api/v1/users/recover/confirm", json={"code": code}), 422,
                 "this link was used already")
    page = client.post("/recover", data={"code": code})
    assert page.status_code == 422 and "used already" in page.get_data(as_text=True)


def test_the_recovery_page_shows_the_new_token_once_and_uncached(client, app):
    register(client, "ada")
    client.post("/api/v1/users/recover", json={"email": "ada@example.org"})
    (mail,) = mails(app, kind="recover_token")
    code = code_of(link_in(mail.text_body, "/recover"))
    page = client.post("/recover", data={"code": code})
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    token = re.search(r"<pre>([A-Za-z0-9_-]{40,})</pre>", page.get_data(as_text=True)).group(1)
    assert client.get("/api/v1/users/me",
                      headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_an_address_gets_a_few_account_mails_a_day_whoever_asks(client, app):
    client.post("/api/v1/users", json={"name": "ada", "email": "ada@example.org"})
    for n in range(4):
        client.post("/api/v1/users", json={"name": f"m{n}", "email": "ada@example.org"})
    for _ in range(4):
        assert client.post("/api/v1/users/recover",
                           json={"email": "ada@example.org"}).status_code == 202
    kinds = [row.kind for row in mails(app, to="ada@example.org")]
    print(f"verification: 1 registration, 4 re-registrations, 4 recoveries of one address: "
          f"{len(kinds)} account mails queued")
    assert kinds == ["verify_email"] + ["registered_again"] * 4


def test_a_new_confirmation_link_on_request(client, app):
    ada = register(client, "ada")
    unconfirm(app, ada)
    assert client.post("/api/v1/users/me/verification", headers=headers(ada)).status_code == 202
    assert client.post("/api/v1/users/me/verification", headers=headers(ada)).status_code == 202
    (first, second) = mails(app, kind="verify_email")
    confirmed = client.post("/api/v1/users/verify", json={
        "code": code_of(link_in(first.text_body, "/verify"))}).json
    assert_error(client.post("/api/v1/users/me/verification", headers=headers(confirmed)), 409,
                 "ada@example.org is confirmed already")
