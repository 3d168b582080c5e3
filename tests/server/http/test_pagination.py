"""GET /games a page at a time (20 by default, at most 100; X-Pagination and Link), and the
feed's limit."""

from __future__ import annotations

import json

import pytest

from tests.server.helpers import assert_error
from tests.server.play import create_started_game


@pytest.fixture
def many_games(client, ada):
    """23 games of Ada's (solo games: they start at once, past the open-games limit)."""
    return [client.post("/api/v1/games", json={"seats": 1}, headers=ada.headers).json["id"]
            for _ in range(23)]


def _page(client, player, query=""):
    response = client.get(f"/api/v1/games{query}", headers=player.headers)
    assert response.status_code == 200, response.json
    return response, json.loads(response.headers["X-Pagination"])


def test_the_default_page_is_20_and_the_next_one_has_the_rest(client, ada, many_games):
    first, metadata = _page(client, ada)
    assert len(first.json) == 20
    assert metadata == {"total": 23, "total_pages": 2, "first_page": 1, "last_page": 2,
                        "page": 1, "next_page": 2}
    assert ('</api/v1/games?page=2&page_size=20>; rel="next"' in first.headers["Link"])
    second, metadata = _page(client, ada, "?page=2")
    assert len(second.json) == 3 and metadata["previous_page"] == 1
    assert 'rel="prev"' in second.headers["Link"] and 'rel="next"' not in second.headers["Link"]
    listed = [game["id"] for game in first.json + second.json]
    assert sorted(listed) == sorted(many_games) and len(set(listed)) == 23


def test_a_page_of_100_holds_them_all_in_the_usual_order(client, ada, many_games):
    whole, metadata = _page(client, ada, "?page_size=100")
    assert len(whole.json) == 23 and metadata["total_pages"] == 1
    pages = [game["id"] for page in (1, 2, 3)
             for game in _page(client, ada, f"?page={page}&page_size=10")[0].json]
    assert pages == [game["id"] for game in whole.json]


def test_a_page_past_the_last_is_empty(client, ada, many_games):
    beyond, metadata = _page(client, ada, "?page=9")
    assert beyond.json == [] and metadata["total"] == 23 and "page" not in metadata


def test_a_page_beyond_any_database_number_is_past_the_last_too(client, ada, many_games):
    # schemathesis sent this one: the database refused it as an OFFSET (a 500, before).
    beyond, metadata = _page(client, ada, "?page=8098586397882819424894844928&page_size=66")
    assert beyond.json == [] and metadata["total"] == 23 and "page" not in metadata


def test_no_games_is_an_empty_page(client, ada):
    response, metadata = _page(client, ada)
    assert response.json == [] and metadata == {"total": 0, "total_pages": 0}


@pytest.mark.parametrize("query, words", [
    ("?page_size=101", "page_size: Must be greater than or equal to 1 and less than or equal "
                       "to 100"),
    ("?page_size=0", "page_size: Must be greater than or equal to 1"),
    ("?page=0", "page: Must be greater than or equal to 1"),
    ("?page=two", "page: Not a valid integer"),
    ("?page_size=-5", "page_size"),
])
def test_bad_page_parameters_are_422(client, ada, query, words):
    assert_error(client.get(f"/api/v1/games{query}", headers=ada.headers), 422, words)


def test_the_spec_documents_the_pages(client):
    spec = client.get("/openapi.json").json
    operation = spec["paths"]["/api/v1/games"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert parameters["page_size"]["schema"]["default"] == 20
    assert parameters["page_size"]["schema"]["maximum"] == 100
    assert set(operation["responses"]["200"]["headers"]) >= {"X-Pagination", "Link"}
    assert "PaginationMetadata" in spec["components"]["schemas"]


def test_the_feed_gives_at_most_limit_events_oldest_first(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    url = f"/api/v1/games/{game['id']}/events"
    whole = client.get(url, headers=ada.headers).json
    assert len(whole["events"]) == whole["version"] >= 2
    first = client.get(f"{url}?limit=1", headers=ada.headers).json
    assert first == {"version": whole["version"], "events": whole["events"][:1]}
    rest = client.get(f"{url}?limit=500&after={first['events'][0]['seq']}",
                      headers=ada.headers).json
    assert first["events"] + rest["events"] == whole["events"]


@pytest.mark.parametrize("limit", ["0", "5001", "-1", "many"])
def test_a_bad_feed_limit_is_422(client, ada, bob, limit):
    game = create_started_game(client, [ada, bob])
    assert_error(client.get(f"/api/v1/games/{game['id']}/events?limit={limit}",
                            headers=ada.headers), 422, "limit")
