"""The pure notification policy: who is told what after the events just appended."""

from server.notifications.policy import (
    Decision,
    Notice,
    Participant,
    after_events,
    played_for_you,
    reminder,
    wanted,
)

RHOM = Participant(0, "rhom", None)
ADA = Participant(1, "human", 11)
BOB = Participant(2, "human", 12)
TABLE = [RHOM, ADA, BOB]


def _after(before, after, actor_seat, events=("turn_ended",), table=TABLE, grace=False):
    return after_events("g1", table, before, after, list(events), actor_seat, 17, grace)


def test_turn_passing_to_another_human_tells_only_them():
    notices = _after(Decision(1, "turn"), Decision(2, "turn"), actor_seat=1)
    assert notices == [Notice("your_turn", 2, 12, "g1/v17/your_turn/seat2")]


def test_no_email_while_the_same_player_is_still_acting():
    assert _after(Decision(1, "turn"), Decision(1, "turn"), actor_seat=1) == []
    assert _after(Decision(1, "turn"), Decision(1, "give_gem"), actor_seat=1) == []


def test_rhom_turn_passing_to_a_human_tells_the_human():
    notices = _after(Decision(0, "rhom"), Decision(1, "turn"), actor_seat=None)
    assert [n.user_id for n in notices] == [11]


def test_decision_passing_to_the_rhom_tells_nobody():
    assert _after(Decision(2, "turn"), Decision(0, "rhom"), actor_seat=2) == []


def test_absent_seat_gets_no_turn_email():
    table = [RHOM, ADA, Participant(2, "human", 12, absent=True)]
    assert _after(Decision(1, "turn"), Decision(2, "turn"), actor_seat=1, table=table) == []


def test_removal_turn_is_announced_only_when_the_player_has_time_to_choose():
    assert _after(Decision(1, "turn"), Decision(2, "removal"), actor_seat=1, grace=False) == []
    notices = _after(Decision(1, "turn"), Decision(2, "removal"), actor_seat=1, grace=True)
    assert [n.kind for n in notices] == ["your_turn"]


def test_server_playing_a_turn_for_a_human_tells_the_next_human():
    notices = _after(Decision(1, "turn"), Decision(2, "turn"), actor_seat=None)
    assert [n.seat for n in notices] == [2]


def test_game_start_tells_every_human_once_and_no_separate_turn_email():
    notices = _after(Decision(None, None), Decision(1, "turn"), None, events=["game_started"])
    assert [(n.kind, n.seat) for n in notices] == [("game_started", 1), ("game_started", 2)]


def test_game_over_tells_every_human():
    notices = _after(Decision(1, "turn"), Decision(None, None), actor_seat=1)
    assert [(n.kind, n.user_id) for n in notices] == [("game_over", 11), ("game_over", 12)]
    assert len({n.dedupe_key for n in notices}) == 2


def test_dedupe_keys_differ_by_version_kind_and_reminder_number():
    keys = {
        reminder("g1", ADA, 17, 1).dedupe_key,
        reminder("g1", ADA, 17, 2).dedupe_key,
        reminder("g1", ADA, 18, 1).dedupe_key,
        played_for_you("g1", ADA, 17).dedupe_key,
    }
    assert len(keys) == 4


def test_preferences_filter_kinds():
    turn = Notice("your_turn", 1, 11, "k")
    nudge = Notice("reminder", 1, 11, "k")
    assert wanted(turn, "every_turn") and wanted(nudge, "every_turn")
    assert not wanted(turn, "reminders") and wanted(nudge, "reminders")
    assert not wanted(turn, "none") and not wanted(nudge, "none")
