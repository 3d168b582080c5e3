"""Invitations are no open mail relay (issue 16, finding 3): per user and per address, per hour
and per day; an address without a confirmed account is mailed once, then left alone for a
while; an unconfirmed inviter mails nobody; a user has a bounded number of open games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Invitation, Outbox, User
from tests.accounts import sign_up
from tests.server.helpers import Player, assert_error

SETTINGS = {"INVITATIONS_PER_USER_HOUR": 5, "INVITATIONS_PER_USER_DAY": 8,
            "INVITATIONS_PER_ADDRESS_HOUR": 2, "INVITATIONS_PER_ADDRESS_DAY": 3,
            "INVITATION_QUIET_DAYS": 14, "OPEN_GAMES_PER_USER": 3}


@pytest.fixture
def app(database_url):
    from server import create_app

    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                       **SETTINGS})


@pytest.fixture
def player(client, app):
    def make(name: str, confirmed: bool = True) -> Player:
        body = sign_up(client, name, f"{name}@example.org")
        if not confirmed:  # an account from before tokens travelled by mail, never confirmed
            with session_scope(app_engine(app)) as session:
                session.get(User, body["id"]).verified_at = None
        return Player(body["id"], body["name"], body["email"], body["token"])

    return make


def new_game(client, who):
    response = client.post("/api/v1/games", json={"seats": 4}, headers=who.headers)
    assert response.status_code == 201, response.json
    return response.json["id"]


def invite(client, who, game_id, email):
    return client.post(f"/api/v1/games/{game_id}/invitations", json={"email": email},
                       headers=who.headers)


def invitation_mails(app, to=None):
    with session_scope(app_engine(app)) as session:
        statement = select(Outbox.to_email).where(Outbox.kind == "invitation")
        if to:
            statement = statement.where(Outbox.to_email == to)
        return list(session.exec(statement))


def age_invitations(app, **delta):
    """Move every invitation (and its mail) back in time, as if sent that long ago."""
    with session_scope(app_engine(app)) as session:
        for row in session.exec(select(Invitation)):
            row.created_at -= timedelta(**delta)
            session.add(row)
        for row in session.exec(select(Outbox).where(Outbox.kind == "invitation")):
            row.created_at -= timedelta(**delta)
            session.add(row)


def test_one_user_sends_a_bounded_number_of_invitations(client, app, player):
    """The attack: one account, one game after another, 30 invitations each."""
    ada = player("ada")
    statuses, games = [], [new_game(client, ada) for _ in range(3)]
    for n in range(30):
        response = invite(client, ada, games[n // 10], f"target{n}@example.net")
        statuses.append(response.status_code)
    print(f"invitation limits: 30 invitations asked by one user, 5 an hour allowed: "
          f"{statuses.count(201)} answered 201, {statuses.count(429)} × 429, "
          f"{len(invitation_mails(app))} mailed")
    assert statuses == [201] * 5 + [429] * 25
    assert len(invitation_mails(app)) == 5
    body = assert_error(response, 429, "you have sent 5 invitations in the past hour, the most "
                                       "allowed: you may invite again at ")
    assert "UTC (in 60 minutes)" in body["message"]
    assert 3500 <= int(response.headers["Retry-After"]) <= 3600

    age_invitations(app, minutes=61)  # an hour later: 3 more today (8 a day)
    statuses = [invite(client, ada, games[0], f"later{n}@example.net").status_code
                for n in range(4)]
    assert statuses == [201] * 3 + [429]
    assert_error(invite(client, ada, games[0], "x@example.net"), 429,
                 "you have sent 8 invitations in the past day")


def test_one_address_gets_a_bounded_number_of_invitations_from_everyone(client, app, player):
    zoe = player("zoe")  # a confirmed player: invitations may reach her
    inviters = [player(name) for name in ("ada", "bob", "cyd", "dan")]
    answers = [invite(client, who, new_game(client, who), "zoe@example.org") for who in inviters]
    assert [a.status_code for a in answers] == [201, 201, 429, 429]
    assert_error(answers[2], 429, "zoe@example.org has been sent 2 invitations in the past "
                                  "hour, the most allowed: it may be invited again at ")
    assert len(invitation_mails(app, "zoe@example.org")) == 2
    assert zoe.id  # her account is untouched


def test_an_address_without_a_confirmed_account_is_mailed_once_then_left_alone(
        client, app, player):
    ada, bob = player("ada"), player("bob")
    first = invite(client, ada, new_game(client, ada), "stranger@example.net")
    assert first.status_code == 201 and first.json["mailed"] is True
    again = invite(client, bob, game_b := new_game(client, bob), "stranger@example.net")
    assert again.status_code == 201
    assert again.json["mailed"] is False
    assert again.json["join_code"]  # Bob can pass it on himself
    assert again.json["message"] == (
        "stranger@example.net is not mailed: an address whose owner has not confirmed it to "
        "Iridescia is mailed one invitation, then none for 14 days. Give them the join code "
        "yourself.")
    assert invitation_mails(app, "stranger@example.net") == ["stranger@example.net"]

    # An address someone registered but never confirmed is answered the same way.
    player("mallory", confirmed=False)
    unconfirmed = invite(client, bob, game_b, "mallory@example.org")
    assert unconfirmed.json["mailed"] is False
    assert unconfirmed.json["message"] == again.json["message"].replace(
        "stranger@example.net", "mallory@example.org")

    age_invitations(app, days=15)
    later = invite(client, bob, game_b, "stranger@example.net")
    assert later.json["mailed"] is True


def test_an_unconfirmed_inviter_mails_nobody(client, app, player):
    eve = player("eve", confirmed=False)
    answer = invite(client, eve, new_game(client, eve), "target@example.net")
    assert answer.status_code == 201 and answer.json["mailed"] is False
    assert "confirm your own address first" in answer.json["message"]
    assert invitation_mails(app) == []


def test_a_user_has_a_bounded_number_of_open_games(client, app, player):
    ada = player("ada")
    for _ in range(3):
        new_game(client, ada)
    assert_error(client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers), 422,
                 "you have 3 open games, the most one player may have: start or leave one")
    # A solo game starts at once, so it is never open.
    assert client.post("/api/v1/games", json={"seats": 1}, headers=ada.headers).status_code == 201


def test_inviting_the_same_address_to_the_same_game_mails_once(client, app, player):
    ada, _pal = player("ada"), player("pal")
    game_id = new_game(client, ada)
    assert invite(client, ada, game_id, "pal@example.org").json["mailed"] is True
    second = invite(client, ada, game_id, "pal@example.org").json
    assert second["mailed"] is False
    assert second["message"] == "pal@example.org was mailed this game's join code already"
    assert invitation_mails(app) == ["pal@example.org"]
