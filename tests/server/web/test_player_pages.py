"""/players/<id> and /leaderboard (server/web/player_pages.py), and the ratings on /open."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Seat
from tests.server.web.conftest import signed_in


def ended(app, game_id: str, winner_id: int) -> None:
    with session_scope(app_engine(app)) as session:
        game = session.get(Game, game_id)
        seats = session.exec(select(Seat).where(Seat.game_id == game_id)).all()
        game.status, game.finished_at = "finished", datetime(2026, 12, 1, tzinfo=UTC)
        game.outcome = {"seats": [{"seat": s.seat, "rank": 1 if s.user_id == winner_id else 2,
                                   "total": 20 if s.user_id == winner_id else 12}
                                  for s in seats], "winners": []}
        session.commit()


def test_a_players_page_shows_ratings_results_and_hides_private_games(app, client, ada, bob,
                                                                     game, register_eve):
    ended(app, game["id"], ada.id)
    private = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post("/api/v1/games/join", json={"code": private["join_code"]}, headers=bob.headers)

    page = client.get(f"/players/{ada.id}").get_data(as_text=True)
    assert "<h1>Ada</h1>" in page
    assert ('<li><a href="/leaderboard?track=2">2 players</a>: <strong>' in page
            and "(provisional: 1 of 5 games), 1 won</li>" in page)
    assert "2 players: 1 won of 1 (100%)" in page
    assert f'<a href="/games/{game["id"]}">{game["id"]}</a>, Dec 1, 2026: 2 players — won, 20 points' in page
    assert private["id"] not in page  # not to a visitor
    assert private["id"] not in signed_in(app, register_eve).get(
        f"/players/{ada.id}").get_data(as_text=True)
    assert (f'{private["id"]}</a>: 2 players, waiting for players (private)' in signed_in(
        app, bob).get(f"/players/{ada.id}").get_data(as_text=True))
    assert client.get("/players/999999", headers={"Accept": "text/html"}).status_code == 404


def test_the_leaderboard_ranks_each_track(app, client, ada, bob, game):
    ended(app, game["id"], bob.id)
    page = client.get("/leaderboard?track=2").get_data(as_text=True)
    bob_row = page.index(f'<a href="/players/{bob.id}">Bob</a>')
    assert bob_row < page.index(f'<a href="/players/{ada.id}">Ada</a>')
    assert "<td>1</td>" in page[page.rfind("<tr>", 0, bob_row):bob_row]
    assert "Nobody is rated on this track yet." in client.get(
        "/leaderboard?track=solo").get_data(as_text=True)
    assert client.get("/leaderboard?track=9", headers={"Accept": "text/html"}).status_code == 400


def test_the_open_games_show_each_players_rating(app, client, ada, bob, game):
    ended(app, game["id"], ada.id)
    client.post("/api/v1/games", json={"seats": 2, "public": True}, headers=ada.headers)
    listed = client.get("/api/v1/games/open").json
    [player] = listed[0]["players"]
    assert player["rating"] > 1000 and player["rating_provisional"] is True
    page = client.get("/open").get_data(as_text=True)
    assert f'<a href="/players/{ada.id}">Ada</a> ({player["rating"]}?)' in page


def test_the_home_page_shows_the_other_players_ratings(app, client, ada, bob, game):
    """The signed-in player's game list names each other player with their rating on the
    game's track (? while provisional); not their own, and no seat number."""
    ended(app, game["id"], bob.id)
    again = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post("/api/v1/games/join", json={"code": again["join_code"]}, headers=bob.headers)
    bob_rating = {p["name"]: p["rating"] for p in client.get(
        "/api/v1/games", headers=ada.headers).json[0]["players"]}["Bob"]
    assert bob_rating > 1000
    page = signed_in(app, ada).get("/").get_data(as_text=True)
    listed = page[page.index('<ul class="games-list">'):page.index("</ul>")]
    assert listed.count(f'Bob <span class="rating" title="provisional rating: fewer than 5 '
                        f'games">({bob_rating}?)</span>') == 2  # the finished game and the new
    assert "Ada <span" not in listed and "Ada, Bob" in listed and "seat" not in listed
