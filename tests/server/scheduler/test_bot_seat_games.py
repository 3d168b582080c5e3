"""A game with a bot seat, played to the end: the scheduler plays the bot's turns with its
policy, like the Rhom's (at once, no deadline, no reminders), and no mail is ever queued for it."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from sqlmodel import select

import engine
from engine.bots import hard, strong
from server.games import service
from server.scheduler.bot_turns import plan_bot_turns
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock
from tests.server.scheduler.test_rhom_games import _offline_outcome


@pytest.fixture(autouse=True)
def quick_search(monkeypatch):
    # The real search, with fewer playouts: the game takes seconds, not minutes.
    monkeypatch.setattr(hard, "HARD_BUDGET", strong.Budget(playouts=4))


def test_a_game_with_a_strong_bot_seat_is_played_to_the_end_by_the_scheduler(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    with mock.patch.object(service, "new_seed", lambda: ("bots-1", service.seed_hash("bots-1"))):
        game = table._call("post", "/games", ada, seats=3, bots=1, bot_policy="strong")
    table._call("post", "/games/join", bob, code=game["join_code"])
    table._call("post", f"/games/{game['id']}/start", ada)
    game_id = game["id"]
    players = table._call("get", f"/games/{game_id}", ada)["players"]
    [bot_seat] = [p["seat"] for p in players if p["kind"] == "bot"]

    clock = Clock(datetime.now(UTC))
    ticker = Ticker(app, clock, name="test")
    bot_turns = 0
    for _ in range(3000):
        if table.game(game_id).status == "finished":
            break
        if table.play_one(game_id):
            continue
        state = table.state(game_id)
        clock.now = max(clock.now, datetime.now(UTC)) + timedelta(seconds=1)
        plan = None
        if engine.current_player(state) == bot_seat and engine.pending_kind(state) != "removal":
            row = table.game(game_id)
            assert row.deadline_at is None and row.next_reminder_at is None
            assert row.automatic_due_at == row.turn_started_at  # at once (no Rhom delay)
            # The turn thought out without a lock is the turn the scheduler then plays.
            plan = plan_bot_turns(app_engine(app), clock.now)[(game_id, row.version)]
        report = ticker.tick()
        assert report.automatic, f"nothing to play at {engine.pending_kind(state)}"
        if plan is not None:
            # Once both humans have finished, one tick plays on: the bot's turn, then the
            # removal turns and the bot's next ones. The planned turn is the first.
            played = [t for t in report.automatic if t.game_id == game_id][0]
            assert played.commands == [engine.command_to_dict(c) for c in plan]
        bot_turns += sum(t.kind == "bot" and t.seat == bot_seat for t in report.automatic)
    assert table.game(game_id).status == "finished"
    assert bot_turns > 5

    export = table._call("get", f"/games/{game_id}/export", ada)
    assert export["outcome"] == _offline_outcome(export)
    with session_scope(app_engine(app)) as session:
        mail = session.exec(select(Outbox).where(Outbox.game_id == game_id)).all()
    assert {row.to_email for row in mail} == {ada.email, bob.email}
    assert {row.seat for row in mail if row.kind == "game_over"} == {0, 1, 2} - {bot_seat}
    assert not [row for row in mail if row.seat == bot_seat or row.user_id is None]
