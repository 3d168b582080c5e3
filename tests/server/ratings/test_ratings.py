"""Ratings (server/ratings): folded from the finished public games in the order they ended; a
bot seat or a private game leaves a game unrated; solo games on their own track; provisional
until 5 games; GET /api/v1/users/{id} and GET /api/v1/leaderboard carry them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from server import create_app
from server.ratings import derived
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Seat
from tests.server.scheduler.helpers import Table

START = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def ended(table, game_id: str, ranks: dict[int, int], minutes: int) -> None:
    """The game over with these ranks by user id (the Rhom: key 0), at START + minutes."""
    with session_scope(app_engine(table.app)) as session:
        game = session.get(Game, game_id)
        seats = session.exec(select(Seat).where(Seat.game_id == game_id)).all()
        by_user = {s.user_id or 0: s.seat for s in seats if s.kind in ("human", "rhom")}
        game.status, game.finished_at = "finished", START + timedelta(minutes=minutes)
        game.outcome = {"seats": [{"seat": by_user[user], "rank": rank, "total": 10 - rank}
                                  for user, rank in ranks.items()], "winners": []}
        session.commit()


def rated(table):
    with session_scope(app_engine(table.app)) as session:
        return derived.ratings(session)


def test_the_winner_climbs_and_stays_provisional_until_five_games(table):
    ada, bob = table.register("Ada"), table.register("Bob")
    for number in range(4):
        ended(table, table.new_game(ada, [bob], public=True), {ada.id: 1, bob.id: 2}, number)
    four = rated(table)
    assert four.of(ada.id, "2").games == 4 and four.of(ada.id, "2").provisional
    assert four.of(ada.id, "2").shown > four.of(bob.id, "2").shown
    ended(table, table.new_game(ada, [bob], public=True), {ada.id: 2, bob.id: 1}, 10)
    five = rated(table)
    assert five.of(ada.id, "2").games == 5 and not five.of(ada.id, "2").provisional
    assert (five.of(ada.id, "2").wins, five.of(bob.id, "2").wins) == (4, 1)
    assert [r.player for r in five.board("2")] == [ada.id, bob.id]


def test_private_games_and_games_with_a_bot_are_not_rated_and_solo_has_its_own_track(table):
    ada, bob = table.register("Ada"), table.register("Bob")
    ended(table, table.new_game(ada, [bob]), {ada.id: 1, bob.id: 2}, 1)  # private
    bots = table._call("post", "/games", ada, seats=2, bots=1, public=True)
    ended(table, bots["id"], {ada.id: 1}, 2)
    solo = table._call("post", "/games", ada, seats=1, public=True)
    ended(table, solo["id"], {ada.id: 1, 0: 2}, 3)
    ratings = rated(table)
    assert ratings.of_user(bob.id) == []
    [only] = ratings.of_user(ada.id)
    assert (only.track, only.games, only.wins) == ("solo", 1, 1)
    assert ratings.of(derived.RHOM, "solo").games == 1
    assert [r.player for r in ratings.board("solo")] == [ada.id]  # the Rhom is no entry


def test_the_api_carries_the_ratings_and_the_leaderboard(table):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    ended(table, table.new_game(ada, [bob, cy], public=True),
          {ada.id: 2, bob.id: 1, cy.id: 3}, 1)
    player = table._call("get", f"/users/{bob.id}")
    [rating] = player["ratings"]
    assert (rating["track"], rating["track_name"], rating["games"], rating["wins"],
            rating["provisional"]) == ("3", "3 players", 1, 1, True)
    assert player["win_rates"] == [{"players": 3, "games": 1, "wins": 1, "rate": 1.0}]
    board = table._call("get", "/leaderboard?track=3")
    assert [(row["rank"], row["name"]) for row in board] == [(1, "Bob"), (2, "Ada"), (3, "Cy")]
    assert board[0]["rating"] > board[1]["rating"] > board[2]["rating"]
    assert table._call("get", "/leaderboard?track=2") == []
    bad = table.client.get("/api/v1/leaderboard?track=5")
    assert bad.status_code == 422
    assert bad.get_json()["message"] == "invalid request: track: Must be one of: 2, 3, 4, solo."
    assert table.client.get("/api/v1/users/999999").get_json()["message"] == (
        "there is no player 999999")


def test_a_private_game_shows_on_a_player_page_only_to_those_who_played_it(table):
    ada, bob, eve = table.register("Ada"), table.register("Bob"), table.register("Eve")
    private = table.new_game(ada, [bob])
    public = table.new_game(ada, [eve], public=True)
    ended(table, private, {ada.id: 1, bob.id: 2}, 1)
    seen_by = {who.name: [g["id"] for g in table._call("get", f"/users/{ada.id}", who)
                          ["finished_games"] + table._call("get", f"/users/{ada.id}", who)
                          ["running_games"]] for who in (bob, eve)}
    assert sorted(seen_by["Bob"]) == sorted([private, public])
    assert seen_by["Eve"] == [public]
    assert [g["id"] for g in table._call("get", f"/users/{ada.id}")["running_games"]] == [public]
    result = table._call("get", f"/users/{ada.id}", bob)["finished_games"][0]["result"]
    assert result == {"rank": 1, "points": 9, "of": 2, "won": True}


def test_my_games_carry_each_players_rating_on_the_games_track(table):
    """GET /games: each person with their rating on the game's track (provisional until 5
    games), the Rhom of a solo game with its own, a bot with none."""
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    for number in range(5):
        ended(table, table.new_game(ada, [bob], public=True), {ada.id: 2, bob.id: 1}, number)
    ended(table, table._call("post", "/games", ada, seats=1, public=True)["id"],
          {ada.id: 1, 0: 2}, 10)
    running = table.new_game(ada, [bob])
    three = table.new_game(cy, [ada, bob])
    solo = table._call("post", "/games", ada, seats=1)["id"]
    bots = table._call("post", "/games", ada, seats=2, bots=1)["id"]
    ratings = rated(table)
    listed = {game["id"]: game for game in table._call("get", "/games", ada)}

    def shown(game_id):
        return {p["name"]: (p.get("rating"), p.get("rating_provisional"))
                for p in listed[game_id]["players"]}

    bob_two, ada_two = ratings.of(bob.id, "2"), ratings.of(ada.id, "2")
    assert bob_two.games == 5 and bob_two.shown > 1000
    assert shown(running) == {"Ada": (ada_two.shown, False), "Bob": (bob_two.shown, False)}
    assert shown(three) == {"Ada": (1000, True), "Bob": (1000, True), "Cy": (1000, True)}
    assert shown(solo) == {"Ada": (ratings.of(ada.id, "solo").shown, True),
                           "Rhom": (ratings.of(derived.RHOM, "solo").shown, True)}
    assert ratings.of(derived.RHOM, "solo").shown < 1000 < ratings.of(ada.id, "solo").shown
    [bot] = [p for p in listed[bots]["players"] if p["kind"] == "bot"]
    assert "rating" not in bot
