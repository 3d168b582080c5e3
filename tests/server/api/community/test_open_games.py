"""GET /api/v1/games/open (server/seeking/open_games.py): the public games waiting for players,
filtered and paged; anyone signed in gets the join codes and may join from the list."""

from __future__ import annotations

import json

import pytest

from server import create_app
from tests.server.scheduler.helpers import Table


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def listed(table, query="", player=None):
    headers = {"Authorization": f"Bearer {player.token}"} if player else {}
    return table.client.get(f"/api/v1/games/open{query}", headers=headers)


def test_only_public_games_with_a_free_seat_are_listed_newest_first(table):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    two = table._call("post", "/games", ada, seats=2, public=True)
    three = table._call("post", "/games", bob, seats=3, public=True, pace="7d")
    table._call("post", "/games", ada, seats=2)  # private
    full = table._call("post", "/games", cy, seats=2, public=True)
    table._call("post", "/games/join", ada, code=full["join_code"])  # full, waiting for its start
    table._call("post", "/games", ada, seats=2, public=True, bots=1)  # started at once

    answer = listed(table)
    assert answer.status_code == 200
    assert [g["id"] for g in answer.get_json()] == [three["id"], two["id"]]
    assert all(g["join_code"] is None for g in answer.get_json())  # nobody signed in
    assert json.loads(answer.headers["X-Pagination"])["total"] == 2

    signed_in = {g["id"]: g["join_code"] for g in listed(table, player=cy).get_json()}
    assert signed_in == {three["id"]: three["join_code"], two["id"]: two["join_code"]}
    joined = table._call("post", "/games/join", cy, code=signed_in[two["id"]])
    assert sorted(p["name"] for p in joined["players"]) == ["Ada", "Cy"]
    assert [g["id"] for g in listed(table).get_json()] == [three["id"]]


def test_the_list_is_filtered_by_seats_pace_and_rules_version(table):
    ada = table.register("Ada")
    two = table._call("post", "/games", ada, seats=2, public=True, pace="1d")
    three = table._call("post", "/games", ada, seats=3, public=True, rules_version="1")
    assert [g["id"] for g in listed(table, "?seats=2").get_json()] == [two["id"]]
    assert [g["id"] for g in listed(table, "?pace=1d").get_json()] == [two["id"]]
    assert [g["id"] for g in listed(table, "?pace=3d").get_json()] == [three["id"]]
    assert [g["id"] for g in listed(table, "?rules_version=1").get_json()] == [three["id"]]
    assert listed(table, "?seats=4").get_json() == []
    bad = listed(table, "?pace=2d")
    assert bad.status_code == 422
    assert bad.get_json()["message"] == "invalid request: pace: Must be one of: 1d, 3d, 7d, none."


def test_the_list_comes_a_page_at_a_time(table):
    ada = table.register("Ada")
    made = [table._call("post", "/games", ada, seats=2, public=True)["id"] for _ in range(3)]
    first = listed(table, "?page_size=2")
    second = listed(table, "?page_size=2&page=2")
    assert [g["id"] for g in first.get_json() + second.get_json()] == made[::-1]
    assert json.loads(first.headers["X-Pagination"])["next_page"] == 2


def test_a_page_far_past_the_last_is_empty(table):
    """A page number whose offset no database takes (it was a 500) is simply past the last."""
    ada = table.register("Ada")
    table._call("post", "/games", ada, seats=2, public=True)
    far = listed(table, "?page_size=97&page=1421676779060129024")
    assert far.status_code == 200 and far.get_json() == []
    assert json.loads(far.headers["X-Pagination"])["total"] == 1
