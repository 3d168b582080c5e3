"""Every 201 says where what it made is (Location), and the place answers."""

from __future__ import annotations

import re

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Outbox
from tests.server.play import create_started_game, seat_map

CHECKED = {("post", "/api/v1/users/recover/confirm"),
           ("post", "/api/v1/users/me/token"), ("post", "/api/v1/games"),
           ("post", "/api/v1/games/{game_id}/invitations"),
           ("post", "/api/v1/games/{game_id}/commands"),
           ("post", "/api/v1/games/{game_id}/messages"),
           ("post", "/api/v1/games/{game_id}/rematch"), ("post", "/api/v1/seeks")}


def test_every_201_of_the_spec_documents_location_and_is_checked_here(client):
    spec = client.get("/openapi.json").json
    created = {(method, path) for path, item in spec["paths"].items()
               for method, operation in item.items()
               if method != "parameters" and "201" in operation["responses"]}
    assert created == CHECKED
    for method, path in created:
        assert "Location" in spec["paths"][path][method]["responses"]["201"]["headers"], path


def test_a_new_token_points_at_the_account(client, ada):
    response = client.post("/api/v1/users/me/token", headers=ada.headers)
    assert response.status_code == 201
    assert response.headers["Location"] == "/api/v1/users/me"
    me = client.get(response.headers["Location"],
                    headers={"Authorization": f"Bearer {response.json['token']}"})
    assert me.json["id"] == ada.id


def test_a_recovered_token_points_at_the_account(app, client, ada):
    assert client.post("/api/v1/users/recover", json={"email": ada.email}).status_code == 202
    with session_scope(app_engine(app)) as session:
        mail = session.exec(select(Outbox).where(Outbox.kind == "recover_token")).one()
        code = re.search(r"code=([^\s&]+)", mail.text_body).group(1)
    response = client.post("/api/v1/users/recover/confirm", json={"code": code})
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == "/api/v1/users/me"
    me = client.get(response.headers["Location"],
                    headers={"Authorization": f"Bearer {response.json['token']}"})
    assert me.json["id"] == ada.id


def test_a_new_game_points_at_itself(client, ada):
    response = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers)
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/v1/games/{response.json['id']}"
    assert client.get(response.headers["Location"], headers=ada.headers).json == response.json


def test_an_invitation_points_at_its_game(client, ada):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    response = client.post(f"/api/v1/games/{game['id']}/invitations",
                           json={"email": "bob@example.org"}, headers=ada.headers)
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}"


def test_a_command_points_at_the_events_it_caused_and_so_does_its_retry(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    mover = seat_map(client, game["id"], [ada, bob])[0]
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=mover.headers).json
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    headers = {**mover.headers, "Idempotency-Key": "k-1"}
    response = client.post(f"/api/v1/games/{game['id']}/commands", json=body, headers=headers)
    assert response.status_code == 201, response.json
    location = response.headers["Location"]
    assert location == f"/api/v1/games/{game['id']}/events?after={legal['version']}"
    assert client.get(location, headers=mover.headers).json["events"] == response.json["events"]
    retry = client.post(f"/api/v1/games/{game['id']}/commands", json=body, headers=headers)
    assert retry.status_code == 201 and retry.headers["Location"] == location


def test_a_message_points_at_the_table_talk_from_it_on(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    response = client.post(f"/api/v1/games/{game['id']}/messages", json={"text": "good luck"},
                           headers=bob.headers)
    assert response.status_code == 201, response.json
    listed = client.get(response.headers["Location"], headers=ada.headers).json
    assert [m["text"] for m in listed["messages"]] == ["good luck"]
    assert listed["messages"][0]["id"] == response.json["id"]


def test_a_rematch_points_at_the_new_game(app, client, ada, bob):
    game = create_started_game(client, [ada, bob])
    with session_scope(app_engine(app)) as session:
        session.get(Game, game["id"]).status = "finished"
        session.commit()
    response = client.post(f"/api/v1/games/{game['id']}/rematch", json={}, headers=ada.headers)
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == f"/api/v1/games/{response.json['id']}"
    assert client.get(response.headers["Location"], headers=ada.headers).json == response.json


def test_a_seek_points_at_itself(client, ada):
    response = client.post("/api/v1/seeks", json={"seats": 2}, headers=ada.headers)
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == f"/api/v1/seeks/{response.json['id']}"
    assert client.get(response.headers["Location"], headers=ada.headers).json == response.json
