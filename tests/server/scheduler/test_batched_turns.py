"""A batch of automatic turns: its writes go together at its end (server/games/deferred.py).

Twelve two-player games whose first player let the turn deadline pass: the server plays each of
those turns (the cautious policy), counts the missed turn and tells the player. One game that
fails, in the engine or when the batch's rows are written, stops none of the others and loses
nothing; two schedulers sharing the games play each turn once."""

import logging
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func
from sqlmodel import select

from server.scheduler import automatic
from server.scheduler.automatic import RETRY_AFTER_ERROR, play_batch, play_due_turns
from server.storage.db import app_engine, session_scope
from server.storage.models import Command, Event, Game, Outbox, Seat, WebhookDelivery

GAMES = 12


@pytest.fixture
def overdue(app, table):
    """Twelve games whose first turn is past its deadline; returns (game ids, now)."""
    ada, bob = table.register("Ada"), table.register("Bob")
    ids = [table.new_game(ada, [bob], seed=f"batch-{n}", turn_deadline_hours=1)
           for n in range(GAMES)]
    return ids, table.game(ids[-1]).deadline_at + timedelta(minutes=1)


def _snapshot(app, ids):
    """Per game: (version, events, commands, played_for_you notices, missed turns)."""
    with session_scope(app_engine(app)) as session:
        def count(model, *where):
            return session.exec(select(func.count()).select_from(model).where(*where)).one()

        return {
            game_id: (
                session.get(Game, game_id).version,
                count(Event, Event.game_id == game_id),
                count(Command, Command.game_id == game_id),
                count(Outbox, Outbox.game_id == game_id, Outbox.kind == "played_for_you"),
                sum(s.missed_turns for s in session.exec(
                    select(Seat).where(Seat.game_id == game_id))),
            )
            for game_id in ids
        }


def _played(before, after, game_id) -> bool:
    version, events, commands, told, missed = after[game_id]
    old_version, old_events, old_commands, old_told, old_missed = before[game_id]
    assert events - old_events == version - old_version  # the log matches the version
    if version == old_version:
        assert (commands, told, missed) == (old_commands, old_told, old_missed)
        return False
    assert commands > old_commands and told == old_told + 1 and missed == old_missed + 1
    return True


def test_a_failing_game_stops_no_other_game_of_its_batch_and_loses_nothing(
    app, overdue, monkeypatch, caplog
):
    ids, now = overdue
    broken = ids[3]
    real_play = automatic._play

    def play(session, game, when, plans):
        if game.id == broken:
            real_play(session, game, when, plans)  # its writes are made, then it fails
            raise RuntimeError("the engine gave up on this game")
        return real_play(session, game, when, plans)

    monkeypatch.setattr(automatic, "_play", play)
    before = _snapshot(app, ids)
    with app.app_context(), caplog.at_level(logging.ERROR):
        turns = play_batch(app_engine(app), now)
    after = _snapshot(app, ids)

    assert sorted(t.game_id for t in turns) == sorted(set(ids) - {broken})
    assert [g for g in ids if _played(before, after, g)] == [g for g in ids if g != broken]
    assert f"automatic turn in game {broken} failed" in caplog.text
    # Nothing of the broken game's turn was written, and it is tried again later.
    assert after[broken] == before[broken]
    assert _aware(_game(app, broken).automatic_due_at) == now + RETRY_AFTER_ERROR

    monkeypatch.setattr(automatic, "_play", real_play)
    with app.app_context():
        [turn] = play_due_turns(app_engine(app), now + RETRY_AFTER_ERROR)
    assert turn.game_id == broken and _played(after, _snapshot(app, ids), broken)


def test_a_batch_whose_rows_cannot_be_written_is_played_game_by_game(app, overdue, caplog):
    ids, now = overdue
    broken = ids[5]
    game = _game(app, broken)
    with session_scope(app_engine(app)) as session:  # a row in the way of its next event
        session.add(Event(game_id=broken, seq=game.version + 1, type="stray", payload={},
                          actor="test", at=now, rules_version=game.rules_version))
    before = _snapshot(app, ids)
    with app.app_context(), caplog.at_level(logging.ERROR):
        turns = play_due_turns(app_engine(app), now)
    after = _snapshot(app, ids)

    assert "could not be written; playing it game by game" in caplog.text
    assert sorted(t.game_id for t in turns) == sorted(set(ids) - {broken})
    assert [g for g in ids if g != broken and _played(before, after, g)] == [
        g for g in ids if g != broken]
    # The broken game is as it was, its stray row untouched, and it is tried again later.
    assert after[broken][0] == before[broken][0] and after[broken][2:] == before[broken][2:]
    assert _aware(_game(app, broken).automatic_due_at) == now + RETRY_AFTER_ERROR


def test_two_schedulers_sharing_batches_play_each_turn_once(app, overdue, monkeypatch):
    ids, now = overdue
    monkeypatch.setattr(automatic, "AUTOMATIC_BATCH", 4)  # three batches to share
    before = _snapshot(app, ids)
    turns: dict[str, list] = {"one": [], "two": []}
    start = threading.Barrier(2)

    def run(name):
        with app.app_context():
            start.wait()
            turns[name] = play_due_turns(app_engine(app), now)

    threads = [threading.Thread(target=run, args=(name,)) for name in turns]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    played = [t.game_id for t in turns["one"] + turns["two"]]
    assert sorted(played) == sorted(ids)  # every turn once, by one scheduler or the other
    after = _snapshot(app, ids)
    assert all(_played(before, after, g) for g in ids)


def test_each_game_of_a_batch_tells_its_webhook_of_its_turn_and_a_failing_one_tells_none(
    app, table, monkeypatch
):
    app.config["WEBHOOK_ALLOW_PRIVATE"] = 1
    ada, bob = table.register("Ada"), table.register("Bob")
    ids = [table.new_game(ada, [bob], seed=f"hooked-{n}", turn_deadline_hours=1,
                          webhook={"url": "http://127.0.0.1:9/hook"}) for n in range(3)]
    now = table.game(ids[-1]).deadline_at + timedelta(minutes=1)
    broken = ids[1]
    real_play = automatic._play

    def play(session, game, when, plans):
        turn = real_play(session, game, when, plans)  # its delivery is queued, then it fails
        if game.id == broken:
            raise RuntimeError("the engine gave up on this game")
        return turn

    monkeypatch.setattr(automatic, "_play", play)
    before = _deliveries(app, ids)
    with app.app_context():
        turns = play_batch(app_engine(app), now)
    after = _deliveries(app, ids)

    assert sorted(t.game_id for t in turns) == sorted([ids[0], ids[2]])
    for game_id in (ids[0], ids[2]):  # the turn passed on: one delivery, at the new version
        assert after[game_id] == before[game_id] + [(_game(app, game_id).version, "turn")]
    assert after[broken] == before[broken]


def _deliveries(app, ids):
    with session_scope(app_engine(app)) as session:
        return {game_id: [(d.version, d.event) for d in session.exec(
            select(WebhookDelivery).where(WebhookDelivery.game_id == game_id)
            .order_by(WebhookDelivery.version))] for game_id in ids}


def _game(app, game_id):
    with session_scope(app_engine(app)) as session:
        return session.get(Game, game_id)


def _aware(moment):
    from datetime import UTC

    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
