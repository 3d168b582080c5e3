"""Games that ended before outcomes were kept on the row (no `games.outcome`, no rating stored
anywhere) are rated all the same: their outcome comes from their log (server/games/outcomes.py),
on the ratings, the player's page and the list of games."""

from __future__ import annotations

import pytest
from sqlalchemy import null, update
from sqlmodel import select

import engine
from server import create_app
from server.games import outcomes
from server.ratings import derived
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Seat
from tests.server.scheduler.helpers import Table


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def as_before_the_ratings(table, game_id):
    """The row as a game that ended before the outcome column was filled: no outcome; and a
    fresh process: nothing derived or folded in memory."""
    with app_engine(table.app).begin() as connection:  # SQL NULL, as the migration left it
        connection.execute(update(Game).where(Game.id == game_id).values(outcome=null()))
    outcomes.forget()
    derived._CACHE.update(key=None, table=None)


def test_a_game_finished_before_the_ratings_is_rated_from_its_log(table):
    ada = table.register("Ada")
    game_id = table._call("post", "/games", ada, seats=1, public=True)["id"]
    table.play_to_the_end(game_id)
    final = engine.outcome(table.state(game_id)).to_dict()
    with session_scope(app_engine(table.app)) as session:
        ada_seat = session.exec(select(Seat.seat).where(Seat.game_id == game_id,
                                                        Seat.kind == "human")).one()
    [mine] = [s for s in final["seats"] if s["seat"] == ada_seat]
    won = mine["rank"] == 1
    as_before_the_ratings(table, game_id)

    profile = table._call("get", f"/users/{ada.id}")
    [rating] = profile["ratings"]
    assert (rating["track"], rating["games"], rating["wins"]) == ("solo", 1, int(won))
    assert rating["rating"] != 1000  # one game moved it, up or down
    [game] = profile["finished_games"]
    assert game["result"] == {"rank": mine["rank"], "points": mine["total"], "of": 2, "won": won}
    assert profile["win_rates"] == [{"players": 1, "games": 1, "wins": int(won),
                                     "rate": float(won)}]
    [listed] = table._call("get", "/games", ada)
    assert {p["name"]: p["rating"] for p in listed["players"]}["Ada"] == rating["rating"]
    board = table._call("get", "/leaderboard?track=solo")
    assert [(row["name"], row["games"]) for row in board] == [("Ada", 1)]
    # Another process (nothing in memory) sees the same.
    as_before_the_ratings(table, game_id)
    with session_scope(app_engine(table.app)) as session:
        assert derived.ratings(session).of(ada.id, "solo").shown == rating["rating"]
