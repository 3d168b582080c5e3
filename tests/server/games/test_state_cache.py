"""The in-process state cache: the nearest earlier state of the game asked for, and nothing that
the least-recently-used eviction has dropped."""

from __future__ import annotations

from server.games.cache import StateCache


def test_the_nearest_earlier_state_of_the_same_game():
    cache = StateCache(size=10)
    for version in (3, 7, 12):
        cache.put("a", version, f"a@{version}")
    cache.put("b", 9, "b@9")
    assert cache.best_below("a", 10) == (7, "a@7")
    assert cache.best_below("a", 12) == (12, "a@12")
    assert cache.best_below("a", 2) is None
    assert cache.best_below("b", 100) == (9, "b@9")
    assert cache.best_below("c", 100) is None


def test_evicted_states_are_not_offered():
    cache = StateCache(size=3)
    cache.put("a", 1, "a@1")
    cache.put("a", 2, "a@2")
    cache.put("b", 1, "b@1")
    assert cache.get("a", 1) == "a@1"  # now the most recently used
    cache.put("b", 2, "b@2")  # evicts a@2, the least recently used
    assert cache.best_below("a", 5) == (1, "a@1")
    cache.put("c", 1, "c@1")  # evicts b@1
    cache.put("c", 2, "c@2")  # evicts a@1: nothing of game a is left
    assert cache.best_below("a", 5) is None
    assert cache.best_below("b", 5) == (2, "b@2")
    cache.clear()
    assert cache.best_below("c", 5) is None and cache.get("c", 2) is None


def test_a_process_that_saw_an_earlier_version_derives_the_same_state(app, client, ada, bob,
                                                                     monkeypatch):
    """Behind two API processes each holds the states it derived: the other's commands are
    replayed on its own latest state (no snapshot can lie between when no multiple of
    SNAPSHOT_EVERY does), and the view it serves is the view of the whole log."""
    import random

    import engine
    from server.games import service
    from server.games.cache import CACHE
    from server.storage.db import app_engine, session_scope
    from server.storage.models import Game
    from tests.server.play import create_started_game, play_one, seat_map

    game_id = create_started_game(client, [ada, bob])["id"]
    seats, rng = seat_map(client, game_id, [ada, bob]), random.Random(3)
    monkeypatch.setattr(service, "SNAPSHOT_EVERY", 4)
    with session_scope(app_engine(app)) as session:
        early = session.get(Game, game_id)
        kept = (early.version, service.load_state(session, early))
    for _ in range(30):
        if play_one(client, game_id, seats, rng) is None:
            break
    with session_scope(app_engine(app)) as session:
        game = session.get(Game, game_id)
        assert game.version > kept[0] + 4
        for version in range(kept[0] + 1, game.version + 1):
            CACHE.clear()
            whole = engine.state_to_dict(service.load_state(session, game, version))
            CACHE.clear()
            CACHE.put(game_id, *kept)  # what the other process had seen
            assert engine.state_to_dict(service.load_state(session, game, version)) == whole
