"""A game paused by all its players, with an injected clock: paused only when every player has
asked, nothing runs while it is (no reminder, no automatic turn, not even the Rhom), and any
player resumes it, every waiting turn with the time it had left."""

from datetime import timedelta

import pytest

import engine
from server.scheduler.tick import Ticker

pytestmark = pytest.mark.clocked


def _post(table, player, path):
    return table.client.post(f"/api/v1{path}", headers={"Authorization": f"Bearer {player.token}"})


def test_paused_when_all_agree_nothing_runs_and_any_player_resumes(app, table, clock):
    ada, bob, eve = table.register("Ada"), table.register("Bob"), table.register("Eve")
    game_id = table.new_game(ada, [bob])
    ticker = Ticker(app, clock, name="test")
    ticker.tick()
    deadline = table.game(game_id).deadline_at
    seat = table.game(game_id).current_seat

    asked = _post(table, ada, f"/games/{game_id}/pause")
    assert asked.status_code == 200, asked.get_json()
    body = asked.get_json()
    assert body["paused"] is False  # Bob has not asked yet
    assert {p["name"]: p["wants_pause"] for p in body["players"]} == {"Ada": True, "Bob": False}
    assert table.game(game_id).deadline_at == deadline
    clock.advance(hours=2)
    paused = _post(table, bob, f"/games/{game_id}/pause").get_json()
    assert paused["paused"] is True and paused["time_left"] is None
    game = table.game(game_id)
    assert game.deadline_at is None and game.next_reminder_at is None
    assert game.automatic_due_at is None

    again = _post(table, ada, f"/games/{game_id}/pause")
    assert again.status_code == 409 and "is paused already" in again.get_json()["message"]
    outsider = _post(table, eve, f"/games/{game_id}/pause")
    assert outsider.status_code == 404  # a private game: not even its existence

    clock.advance(days=10)
    report = ticker.tick()
    assert report.automatic == [] and report.nudges == []
    assert engine.current_player(table.state(game_id)) == seat

    resumed = _post(table, bob, f"/games/{game_id}/resume")  # any one player resumes
    assert resumed.status_code == 200 and resumed.get_json()["paused"] is False
    assert not any(p["wants_pause"] for p in resumed.get_json()["players"])
    # Paused at +2 hours, resumed 10 days later: the deadline moved on by the 10 days.
    assert table.game(game_id).deadline_at == deadline + timedelta(days=10)
    not_paused = _post(table, ada, f"/games/{game_id}/resume")
    assert not_paused.status_code == 409
    assert "is not paused and nobody asked to pause it" in not_paused.get_json()["message"]


def test_resuming_before_all_agreed_withdraws_the_requests(app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    _post(table, ada, f"/games/{game_id}/pause")
    withdrawn = _post(table, ada, f"/games/{game_id}/resume").get_json()
    assert not any(p["wants_pause"] for p in withdrawn["players"])
    assert _post(table, bob, f"/games/{game_id}/pause").get_json()["paused"] is False


def test_a_paused_solo_game_holds_the_rhom_too(app, table, clock):
    ada = table.register("Ada")
    game_id = table.new_game(ada)  # solo: the lone player's request pauses it
    ticker = Ticker(app, clock, name="test")
    assert _post(table, ada, f"/games/{game_id}/pause").get_json()["paused"] is True
    while engine.pending_kind(table.state(game_id)) != "rhom":
        table.play_at(game_id, clock(), player=ada)  # playing on while paused is allowed
    clock.advance(hours=1)
    assert ticker.tick().automatic == []  # the Rhom waits too
    _post(table, ada, f"/games/{game_id}/resume")
    assert [t.kind for t in ticker.tick().automatic] == ["rhom"]
