"""Two schedulers on the same games: every automatic turn is played exactly once.

Every seat misses its first deadline and is then absent (absent_after_missed=1), so from then on
the schedulers play whole games by themselves: deadline turns, absent turns and removal turns, all
claimed with row locks at the same moments. PostgreSQL only: on SQLite one scheduler runs
(docs/scheduler.md)."""

import logging
import threading

import pytest
from sqlmodel import select

import engine
from server.scheduler import automatic
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Command, Game, Outbox
from tests.server.scheduler.helpers import Clock

GAMES = 3


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_two_schedulers_play_every_automatic_turn_exactly_once(app, table, caplog, monkeypatch):
    players = [table.register(name) for name in ("Ada", "Bob", "Cy", "Di", "Eve", "Fay")]
    game_ids = [
        table.new_game(
            players[2 * n],
            [players[2 * n + 1]],
            seed=f"seed-{n}",
            turn_deadline_hours=1,
            absent_after_missed=1,
            removal_grace_hours=0,
        )
        for n in range(GAMES)
    ]
    clock = Clock(table.game(game_ids[0]).turn_started_at)
    reports = {"one": [], "two": []}
    # One game per claim, and the two ticks start together each round: the schedulers contend
    # for the same due games (with the default batch, whichever claims first takes all three).
    monkeypatch.setattr(automatic, "AUTOMATIC_BATCH", 1)
    rounds = threading.Barrier(2, timeout=60)

    def run(name):
        ticker = Ticker(app, clock, name=name)
        for _ in range(400):
            rounds.wait()  # neither ticks while the other looks
            if name == "one":
                clock.advance(hours=2)  # past every deadline that was set since
            finished = all(table.game(g).status == "finished" for g in game_ids)
            rounds.wait()
            if finished:
                return
            report = ticker.tick()
            reports[name].extend(report.automatic)

    with caplog.at_level(logging.WARNING):
        threads = [threading.Thread(target=run, args=(name,)) for name in reports]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    assert [table.game(g).status for g in game_ids] == ["finished"] * GAMES
    assert "failed" not in caplog.text and "StaleVersion" not in caplog.text
    assert reports["one"] and reports["two"], "both schedulers took part"
    turns = reports["one"] + reports["two"]
    with session_scope(app_engine(app)) as session:
        for game_id in game_ids:
            logged = session.exec(
                select(Command)
                .where(Command.game_id == game_id, Command.version > 0)
                .order_by(Command.version)
            ).all()
            by_scheduler = [
                c
                for t in sorted(
                    (t for t in turns if t.game_id == game_id), key=lambda t: t.version_before
                )
                for c in t.commands
            ]
            # Each logged command was played by exactly one scheduler turn, and nothing else was.
            assert [c.command for c in logged] == by_scheduler
            assert all(c.actor == "server" for c in logged)
            starts = [t.version_before for t in turns if t.game_id == game_id]
            assert len(starts) == len(set(starts))
        # One "played for you" mail per seat (the missed deadline), whatever ran where.
        played = session.exec(
            select(Outbox.dedupe_key).where(Outbox.kind == "played_for_you")
        ).all()
        assert len(played) == 2 * GAMES
    for game_id in game_ids:
        state = table.state(game_id)
        assert engine.is_terminal(state)
        assert Game  # the log replays to a finished game (load_state replays it)
