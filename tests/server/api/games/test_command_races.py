"""Commands racing each other, their retries and the scheduler: each lands exactly once, and
a loser is told (409) rather than applied twice."""

from __future__ import annotations

import threading
import time

import pytest

from server.games import service
from server.storage.db import get_engine, session_scope
from server.storage.models import Event, Game, utcnow
from tests.server.api.games.test_commands import legal_of, post
from tests.server.helpers import assert_error


def test_racing_commands_land_exactly_once(database_url, client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    command = legal["commands"][0]
    engine_ = get_engine(database_url)
    # Two deciders read the same version; the second to write must lose.
    with session_scope(engine_) as session:
        first_view = session.get(Game, game_id)
    with session_scope(engine_) as session:
        second_view = session.get(Game, game_id)
    with session_scope(engine_) as session:
        game_row = session.merge(first_view)
        service.apply_command(session, game_row, command, "user:test", utcnow())
    with pytest.raises(service.StaleVersion) as lost:
        with session_scope(engine_) as session:
            game_row = session.merge(second_view, load=False)
            service.apply_command(session, game_row, command, "user:test", utcnow())
    with session_scope(engine_) as session:
        current = session.get(Game, game_id).version
        seqs = [e.seq for e in session.exec(
            __import__("sqlmodel").select(Event).where(Event.game_id == game_id))]
    assert lost.value.current_version == current
    assert seqs == list(range(1, current + 1))


def test_racing_requests_land_exactly_once(app, client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    statuses: list[int] = []

    def attempt():
        statuses.append(post(app.test_client(), game_id, seats[0], body).status_code)

    threads = [threading.Thread(target=attempt) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 5


def test_racing_retries_with_one_idempotency_key_all_get_the_one_answer(app, client, game):
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    answers: list[tuple[int, dict]] = []

    def attempt():
        response = post(app.test_client(), game_id, seats[0], body, **{"Idempotency-Key": "r"})
        answers.append((response.status_code, response.json))

    threads = [threading.Thread(target=attempt) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [201] * 5
    assert all(answer == answers[0][1] for _, answer in answers)
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert feed["version"] == answers[0][1]["version"]


def test_a_command_landing_between_reading_and_writing_wins(app, client, game, monkeypatch):
    """A post decides outside the write lock: a command that lands after it read the game (here
    the same one, played by the server) makes it answer 409, and the log holds one copy."""
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    command = legal["commands"][0]
    load_state = service.load_state
    engine_ = get_engine(app.config["DATABASE_URL"])

    def load_then_lose_the_race(session, game_row, version=None):
        state = load_state(session, game_row, version)
        monkeypatch.setattr(service, "load_state", load_state)  # once
        with session_scope(engine_) as other:
            service.apply_command(other, other.get(Game, game_id), command, "server", utcnow())
        return state

    monkeypatch.setattr(service, "load_state", load_then_lose_the_race)
    response = post(client, game_id, seats[0], {"command": command,
                                                "expected_version": legal["version"]})
    assert_error(response, 409, "another command landed first")
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert response.json["details"]["current_version"] == feed["version"] > legal["version"]
    assert [e["seq"] for e in feed["events"]] == list(range(1, feed["version"] + 1))
    assert {e["actor"] for e in feed["events"][legal["version"]:]} == {"server"}


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_post_racing_a_scheduler_that_claimed_the_game_gets_409(app, client, game):
    """The scheduler claims a due game FOR UPDATE, then plays its decision; a player posting the
    same decision meanwhile waits for the claim and loses the race with a 409. (PostgreSQL
    once deadlocked here: the post's rows were in the unique index before its foreign-key check
    waited for the claim, and the scheduler's same rows waited for the post: a 503.)"""
    game_id, seats = game
    legal = legal_of(client, game_id, seats[0])
    command = legal["commands"][0]
    answers = []
    with session_scope(get_engine(app.config["DATABASE_URL"])) as scheduler:
        claimed = scheduler.exec(
            __import__("sqlmodel").select(Game).where(Game.id == game_id).with_for_update()
        ).one()
        poster = threading.Thread(target=lambda: answers.append(post(
            app.test_client(), game_id, seats[0],
            {"command": command, "expected_version": legal["version"]})))
        poster.start()
        time.sleep(0.5)  # the post reads, decides and waits on the claim
        service.apply_command(scheduler, claimed, command, "server", utcnow())
    poster.join(timeout=10)
    assert_error(answers[0], 409)
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert [e["seq"] for e in feed["events"]] == list(range(1, feed["version"] + 1))
    assert {e["actor"] for e in feed["events"][legal["version"]:]} == {"server"}
