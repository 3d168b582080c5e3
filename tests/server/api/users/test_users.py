"""Accounts: registration, tokens (hashed, rotated), preferences."""

from __future__ import annotations

import hashlib

import sqlalchemy as sa

from server.storage.db import get_engine
from tests.server.helpers import assert_error

# The digest hour, quiet hours and time zone every account starts with (docs/vacations.md).
DEFAULT_TIMES = {"digest_hour": 8, "quiet_hours": None, "time_zone": "UTC",
                 "language": None, "tile_sort": "gem", "relic_sort": "gem"}


def test_the_token_confirming_gives_authenticates(client, ada):
    me = client.get("/api/v1/users/me", headers=ada.headers)
    assert me.status_code == 200
    assert me.json == {"id": ada.id, "name": "ada", "email": "ada@example.org",
                       "verified": True, "email_status": "ok",
                       "preferences": {"email": "every_turn", "removals": "automatic",
                                       "stand_in": "hard",
                                       **DEFAULT_TIMES}}


def test_tokens_are_stored_hashed(database_url, ada):
    with get_engine(database_url).connect() as connection:
        stored = connection.execute(sa.text("SELECT token_hash FROM users")).scalar_one()
    assert stored != ada.token
    assert stored == hashlib.sha256(ada.token.encode()).hexdigest()


def test_the_same_email_cannot_register_twice(client, ada):
    """... and the answer does not say it was taken (tests/server/users/test_verification.py)."""
    response = client.post("/api/v1/users", json={"name": "Ada 2", "email": "ADA@example.org"})
    assert response.status_code == 202 and set(response.json) == {"message"}
    me = client.get("/api/v1/users/me", headers=ada.headers).json
    assert me["name"] == "ada"


def test_registration_validates_the_fields(client):
    body = assert_error(client.post("/api/v1/users", json={"name": "", "email": "nope"}), 422)
    assert set(body["details"]["fields"]["json"]) == {"name", "email"}
    assert "email" in body["message"]
    assert_error(client.post("/api/v1/users", json={"name": "   ", "email": "a@b.org"}), 422,
                 "blank")
    assert_error(client.post("/api/v1/users", data="not json",
                             content_type="application/json"), 400)


def test_requests_without_or_with_a_bad_token_answer_401(client):
    response = client.get("/api/v1/users/me")
    assert_error(response, 401, "Authorization: Bearer")
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert_error(client.get("/api/v1/users/me", headers={"Authorization": "Bearer nope"}), 401,
                 "not valid")
    assert_error(client.get("/api/v1/users/me", headers={"Authorization": "Basic eDp5"}), 401)


def test_rotating_the_token_retires_the_old_one(client, ada):
    response = client.post("/api/v1/users/me/token", headers=ada.headers)
    assert response.status_code == 201
    new_token = response.json["token"]
    assert new_token != ada.token
    assert_error(client.get("/api/v1/users/me", headers=ada.headers), 401)
    me = client.get("/api/v1/users/me", headers={"Authorization": f"Bearer {new_token}"})
    assert me.json["id"] == ada.id


def test_preferences_can_be_set(client, ada):
    response = client.patch("/api/v1/users/me/preferences", json={"email": "reminders"},
                            headers=ada.headers)
    assert response.status_code == 200
    assert response.json["preferences"] == {"email": "reminders", "removals": "automatic", "stand_in": "hard", **DEFAULT_TIMES}
    assert client.get("/api/v1/users/me", headers=ada.headers).json["preferences"] == {
        "email": "reminders", "removals": "automatic", "stand_in": "hard", **DEFAULT_TIMES}
    body = assert_error(client.patch("/api/v1/users/me/preferences", json={"email": "daily"},
                                     headers=ada.headers), 422, "email")
    assert "every_turn" in str(body["details"])
    assert_error(client.patch("/api/v1/users/me/preferences", json={"email": "none"}), 401)


def test_a_player_may_choose_their_own_removals(client, ada):
    response = client.patch("/api/v1/users/me/preferences", json={"removals": "choose"},
                            headers=ada.headers)
    assert response.status_code == 200
    assert response.json["preferences"] == {"email": "every_turn", "removals": "choose", "stand_in": "hard",
                                            **DEFAULT_TIMES}
    body = assert_error(client.patch("/api/v1/users/me/preferences", json={"removals": "mine"},
                                     headers=ada.headers), 422, "removals")
    assert "automatic" in str(body["details"])
    assert_error(client.patch("/api/v1/users/me/preferences", json={}, headers=ada.headers),
                 422, "give email, removals, stand_in, digest_hour, quiet_hours, time_zone, "
                      "language, "
                      "tile_sort or relic_sort")


def test_a_player_chooses_japanese_and_how_tiles_and_relics_are_sorted(client, ada):
    response = client.patch("/api/v1/users/me/preferences",
                            json={"language": "ja", "tile_sort": "region",
                                  "relic_sort": "category"}, headers=ada.headers)
    assert response.status_code == 200
    chosen = client.get("/api/v1/users/me", headers=ada.headers).json["preferences"]
    assert (chosen["language"], chosen["tile_sort"], chosen["relic_sort"]) == (
        "ja", "region", "category")
    for field, wrong, said in (("language", "fr", "en, ja"), ("tile_sort", "colour", "gem, region"),
                               ("relic_sort", "points", "gem, category")):
        body = assert_error(client.patch("/api/v1/users/me/preferences", json={field: wrong},
                                         headers=ada.headers), 422, field)
        assert said in str(body["details"])
