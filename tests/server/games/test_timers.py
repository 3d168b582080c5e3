"""When reminders, the deadline warning and automatic turns fall due."""

from datetime import UTC, datetime, timedelta

from server.games.due_times import next_nudge, warning_at
from server.storage.models import Game

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _game(**settings):
    values = dict(
        id="g1",
        status="active",
        created_by=1,
        join_code="j",
        seats=2,
        variants={},
        seed="s",
        seed_hash="h",
        current_seat=1,
        pending_kind="turn",
        turn_started_at=START,
        reminder_interval_hours=24,
        turn_deadline_hours=72,
    )
    values.update(settings)
    game = Game(**values)
    game.deadline_at = (
        START + timedelta(hours=game.turn_deadline_hours) if game.turn_deadline_hours else None
    )
    return game


def test_reminders_every_interval_then_one_warning_then_nothing():
    game = _game()
    times, moment = [], START
    while (moment := next_nudge(game, moment)) is not None:
        times.append(moment - START)
    assert times == [timedelta(hours=24), timedelta(hours=48), timedelta(hours=60)]
    assert warning_at(game) == START + timedelta(hours=60)


def test_short_deadline_is_warned_a_quarter_ahead():
    game = _game(reminder_interval_hours=0, turn_deadline_hours=8)
    assert next_nudge(game, START) == START + timedelta(hours=6)


def test_no_deadline_means_reminders_only_and_no_warning():
    game = _game(turn_deadline_hours=0)
    assert warning_at(game) is None
    assert next_nudge(game, START + timedelta(hours=100)) == START + timedelta(hours=120)


def test_late_tick_schedules_the_next_nudge_after_now_not_the_missed_ones():
    game = _game(reminder_interval_hours=6)
    assert next_nudge(game, START + timedelta(hours=19)) == START + timedelta(hours=24)
