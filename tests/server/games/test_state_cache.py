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
