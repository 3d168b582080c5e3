"""Input taken as the spec says, not more loosely: booleans are JSON booleans, the token is sent
as exactly 'Bearer <token>', ?wait is at most the cap the spec states, catapult_4th needs 4
seats."""

from __future__ import annotations

import pytest
import requests

from server import create_app
from server.config import LONG_POLL_LIMIT_SECONDS, Settings
from tests.accounts import sign_up
from tests.server.front import served_front
from tests.server.helpers import assert_error
from tests.server.play import create_started_game

NOT_BOOLEANS = [0, 1, "yes", "on", "true", "false", "1", None]


@pytest.mark.parametrize("value", NOT_BOOLEANS, ids=repr)
@pytest.mark.parametrize("field", ["public", "rhom", "catapult_4th"])
def test_a_boolean_is_true_or_false_only(client, ada, field, value):
    body = {"seats": 4 if field == "catapult_4th" else 2}
    if field == "catapult_4th":
        body["variants"] = {field: value}
    else:
        body[field] = value
    response = client.post("/api/v1/games", json=body, headers=ada.headers)
    expected = "Field may not be null." if value is None else "must be true or false"
    assert_error(response, 422, field, expected)
    assert client.get("/api/v1/games", headers=ada.headers).json == []


@pytest.mark.parametrize("value", [True, False])
def test_true_and_false_are_booleans(client, ada, value):
    response = client.post("/api/v1/games", json={"seats": 2, "public": value, "rhom": value},
                           headers=ada.headers)
    assert response.status_code == 201, response.json
    assert response.json["public"] is value and response.json["rhom"] is value


def test_catapult_4th_needs_four_seats_and_the_spec_says_so(client, ada):
    refused = client.post("/api/v1/games", json={"seats": 3, "variants": {"catapult_4th": True}},
                          headers=ada.headers)
    assert_error(refused, 422, "catapult_4th needs 4 players")
    taken = client.post("/api/v1/games", json={"seats": 4, "variants": {"catapult_4th": True}},
                        headers=ada.headers)
    assert taken.status_code == 201 and taken.json["variants"]["catapult_4th"] is True
    variants = client.get("/openapi.json").json["components"]["schemas"]["Variants"]
    assert "only in a game of 4 seats" in variants["properties"]["catapult_4th"]["description"]


@pytest.mark.parametrize("header", ["Bearer  {token}", "Bearer {token} ", " Bearer {token}",
                                    "Bearer\t{token}", "Bearer {token}  ", "Bearer", "Bearer ",
                                    "Token {token}", "{token}", ""])
def test_an_authorization_of_any_other_form_is_401_saying_the_form(client, ada, header):
    response = client.get("/api/v1/users/me",
                          headers={"Authorization": header.format(token=ada.token)})
    assert_error(response, 401, "exactly 'Authorization: Bearer <token>'", "one space")
    assert response.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER"])
def test_the_scheme_is_any_case(client, ada, scheme):
    """RFC 9110 11.1: the scheme is case-insensitive; the form is not."""
    response = client.get("/api/v1/users/me", headers={"Authorization": f"{scheme} {ada.token}"})
    assert response.status_code == 200 and response.json["id"] == ada.id


def test_a_malformed_authorization_is_refused_on_the_command_post_too(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    response = client.post(f"/api/v1/games/{game['id']}/commands",
                           json={"command": {"type": "end_turn"}, "expected_version": 1},
                           headers={"Authorization": f"Bearer {ada.token} "})
    assert_error(response, 401, "exactly 'Authorization: Bearer <token>'")


def test_wait_beyond_the_cap_is_422_and_the_spec_states_the_same_cap(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    url = f"/api/v1/games/{game['id']}/events"
    assert_error(client.get(f"{url}?wait={LONG_POLL_LIMIT_SECONDS + 1}", headers=ada.headers),
                 422, "wait", f"less than or equal to {LONG_POLL_LIMIT_SECONDS}")
    at_cap = client.get(f"{url}?wait={LONG_POLL_LIMIT_SECONDS}&after=0", headers=ada.headers)
    assert at_cap.status_code == 200 and at_cap.json["events"]
    spec = client.get("/openapi.json").json
    wait = next(p for p in spec["paths"]["/api/v1/games/{game_id}/events"]["get"]["parameters"]
                if p["name"] == "wait")
    assert wait["schema"]["maximum"] == LONG_POLL_LIMIT_SECONDS
    assert Settings().LONG_POLL_MAX_SECONDS == LONG_POLL_LIMIT_SECONDS


def test_the_cap_may_be_lowered_not_raised():
    assert Settings.load({"LONG_POLL_MAX_SECONDS": 5}).LONG_POLL_MAX_SECONDS == 5
    with pytest.raises(ValueError, match="LONG_POLL_MAX_SECONDS must be 0 to 30"):
        Settings.load({"LONG_POLL_MAX_SECONDS": LONG_POLL_LIMIT_SECONDS + 1})


def test_the_front_refuses_a_wait_beyond_the_cap_at_once(database_url):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0})
    client = app.test_client()
    token = sign_up(client, "ada", "ada@example.org")["token"]
    game = client.post("/api/v1/games", json={"seats": 1},
                       headers={"Authorization": f"Bearer {token}"}).json
    with served_front(app) as base:
        response = requests.get(f"{base}/api/v1/games/{game['id']}/events",
                                params={"after": 10_000, "wait": 3600},
                                headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert response.status_code == 422, response.text
    assert "wait" in response.json()["message"]
