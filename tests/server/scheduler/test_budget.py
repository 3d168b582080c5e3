"""A tick spends at most its budget on due game work: what does not fit stays due, untouched, and
the following ticks finish it, each piece of work done once. The budget is measured by a timer
the test moves (one second per look), not by the wall clock."""

import logging
from datetime import timedelta

from sqlmodel import or_, select

from server.scheduler import nudges
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Outbox
from tests.server.scheduler.helpers import Clock


class SteppingTimer:
    """A monotonic timer that moves one second each time it is read: each unit of work seems
    to take a second."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def _due(app, now) -> dict[str, tuple[int, int | None]]:
    """The games with work due at `now`: their (version, seat to act)."""
    with session_scope(app_engine(app)) as session:
        games = session.exec(
            select(Game).where(or_(Game.automatic_due_at <= now, Game.next_reminder_at <= now))
        ).all()
        return {game.id: (game.version, game.current_seat) for game in games}


def _nudges_queued(app) -> list[str]:
    """The games of the reminders and warnings queued, one entry per mail."""
    with session_scope(app_engine(app)) as session:
        kinds = ("reminder", "deadline_warning")
        return list(session.exec(select(Outbox.game_id).where(Outbox.kind.in_(kinds))))


def test_work_beyond_the_budget_waits_for_the_next_ticks_and_is_done_once(
    app, table, monkeypatch
):
    monkeypatch.setattr(nudges, "NUDGE_BATCH", 1)
    app.config["SCHEDULER_BUDGET_SECONDS"] = 3.5  # time for two units of work a tick
    players = [table.register(f"P{n}") for n in range(8)]
    late = [  # past their deadline: an automatic turn each (and the warning they never got)
        table.new_game(players[n], [players[n + 1]], seed=f"late{n}", turn_deadline_hours=72)
        for n in (0, 2)
    ]
    slow = [  # no deadline, due a reminder
        table.new_game(players[n], [players[n + 1]], seed=f"slow{n}", turn_deadline_hours=0,
                       reminder_interval_hours=1)
        for n in (4, 6)
    ]
    now = max(table.game(g).turn_started_at for g in late + slow) + timedelta(hours=72, minutes=1)
    clock = Clock(now)
    before = _due(app, now)
    assert sorted(before) == sorted(late + slow)

    ticker = Ticker(app, clock, name="test", timer=SteppingTimer())
    first = ticker.due_work()
    assert first.out_of_time
    left = _due(app, now)
    assert 0 < len(left) < len(before)
    for game_id, (version, seat) in left.items():
        if game_id in late and game_id not in {t.game_id for t in first.automatic}:
            assert (version, seat) == before[game_id]  # not touched: still the late seat's turn

    automatic, nudged, ticks = list(first.automatic), len(first.nudges), 1
    while _due(app, now) and ticks < 10:
        report = ticker.due_work()
        assert report.automatic or report.nudges, "a tick with due work did nothing"
        automatic += report.automatic
        nudged += len(report.nudges)
        ticks += 1
    assert _due(app, now) == {}
    assert ticks > 1
    assert sorted(turn.game_id for turn in automatic) == sorted(late)  # each played once
    assert all(turn.kind == "deadline" for turn in automatic)
    # Each slow game reminded once; the late ones were played before or after their warning.
    queued = _nudges_queued(app)
    assert nudged == len(queued) and sorted(set(queued)) == sorted(queued)
    assert set(slow) <= set(queued) <= set(slow + late)


def test_a_generous_budget_does_everything_due_in_one_tick(app, table):
    players = [table.register(f"P{n}") for n in range(4)]
    games = [
        table.new_game(players[n], [players[n + 1]], seed=f"g{n}", turn_deadline_hours=72)
        for n in (0, 2)
    ]
    now = max(table.game(g).turn_started_at for g in games) + timedelta(hours=72, minutes=1)
    report = Ticker(app, Clock(now), name="test", timer=SteppingTimer()).due_work()  # 1 s budget:
    assert report.out_of_time and not report.automatic  # no time for a unit that takes a second
    report = Ticker(app, Clock(now), name="test").due_work()  # the real clock: plenty
    assert not report.out_of_time and _due(app, now) == {}


def test_a_failing_automatic_turn_is_rolled_back_alone_and_tried_again_later(
    app, table, monkeypatch, caplog
):
    from server.games.cache import CACHE
    from server.scheduler import automatic

    players = [table.register(f"P{n}") for n in range(6)]
    games = [
        table.new_game(players[n], [players[n + 1]], seed=f"f{n}", turn_deadline_hours=72)
        for n in (0, 2, 4)
    ]
    now = max(table.game(g).turn_started_at for g in games) + timedelta(hours=72, minutes=1)
    broken = games[1]
    before = table.game(broken)
    real = automatic._apply

    def apply_then_fail(session, game, state, command, now):
        state = real(session, game, state, command, now)  # the command's events are written...
        if game.id == broken:
            raise RuntimeError("the server cannot play this turn")  # ...then the turn fails
        return state

    monkeypatch.setattr(automatic, "_apply", apply_then_fail)
    with caplog.at_level(logging.ERROR, logger="server.scheduler"):
        report = Ticker(app, Clock(now), name="test").due_work()
    assert sorted(t.game_id for t in report.automatic) == sorted(set(games) - {broken})
    assert f"automatic turn in game {broken} failed" in caplog.text
    after = table.game(broken)
    assert (after.version, after.current_seat) == (before.version, before.current_seat)
    assert after.automatic_due_at == now + automatic.RETRY_AFTER_ERROR
    cached = CACHE.best_below(broken, 10_000)
    assert cached is None or cached[0] <= before.version  # no rolled-back state is cached

    monkeypatch.setattr(automatic, "_apply", real)
    later = Clock(now + automatic.RETRY_AFTER_ERROR)
    assert [t.game_id for t in Ticker(app, later, name="test").due_work().automatic] == [broken]
    assert table.game(broken).current_seat != before.current_seat
