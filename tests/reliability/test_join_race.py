"""16 players join a 2-seat game with its join code at the same moment, over real HTTP to a
threaded server: exactly one gets the free seat, the 15 others are told the game is full, and the
game starts (issue 16, finding 1: on PostgreSQL five of six were seated and the game was stuck)."""

from __future__ import annotations

import threading

import requests
from sqlmodel import select

from server.storage.db import session_scope
from server.storage.models import Seat

JOINERS = 16


def _join_at_once(base: str, code: str, players: list) -> list[tuple[int, dict]]:
    barrier = threading.Barrier(len(players))
    results: list = [None] * len(players)

    def join(index: int) -> None:
        with requests.Session() as session:
            session.get(f"{base}/api/v1/health", timeout=30)  # connect before the start line
            barrier.wait(timeout=30)
            response = session.post(f"{base}/api/v1/games/join", json={"code": code},
                                    headers=players[index].headers, timeout=60)
            results[index] = (response.status_code, response.json())

    threads = [threading.Thread(target=join, args=(i,)) for i in range(len(players))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(result is not None for result in results), "a joiner never got an answer"
    return results


def test_sixteen_joiners_on_a_two_seat_game_one_is_seated(api, served, db, ada):
    game = api.ok("POST", "/games", ada, {"seats": 2})
    joiners = [api.register(f"joiner{i}") for i in range(JOINERS)]

    results = _join_at_once(served, game["join_code"], joiners)

    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * (JOINERS - 1), statuses
    for status, body in results:
        if status == 409:
            assert body["message"] == f"game {game['id']} is full (2 seats)", body
    with session_scope(db) as session:
        seats = session.exec(select(Seat).where(Seat.game_id == game["id"])).all()
    assert len(seats) == 2, [seat.user_id for seat in seats]
    started = api.ok("POST", f"/games/{game['id']}/start", ada)
    assert started["status"] == "active"
    print(f"join race: {JOINERS} joiners on a 2-seat game: {statuses.count(200)} seated, "
          f"{statuses.count(409)} told it is full; the game started")
