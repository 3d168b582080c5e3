"""Whole games against the Rhom: the scheduler plays the Rhom (after the game's delay) and the
castle-row removal turns, a bot plays the humans through the API, and the final scores (in the
game-over email too) equal an offline replay of the exported log."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import engine
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock

RHOM_DELAY = 30


def _offline_outcome(export: dict) -> dict:
    """Re-decide every command with the published seed and check each stored event; then score."""
    state, stored = None, [e["payload"] for e in export["events"]]
    decided = []
    for entry in export["commands"]:
        command = engine.command_from_dict(entry["command"])
        events = engine.decide(state, command, engine.rng_for(export["seed"], entry["version"]))
        decided.extend(engine.event_to_dict(e) for e in events)
        state = engine.replay(events, state)
    assert decided == stored
    assert engine.is_terminal(state)
    return engine.outcome(state).to_dict()


# Solo: the player gets an hour to choose their removal tiles, then the server removes one.
def _removal_after_grace(app, table, ticker, clock, game_id) -> int:
    """The player is told it is their removal turn; the server removes a tile only when the
    grace has passed."""
    game = table.game(game_id)
    render_pending(app_engine(app))  # the mail's words, as the sender will write them
    with session_scope(app_engine(app)) as session:
        told = session.exec(
            select(Outbox.subject).where(
                Outbox.dedupe_key == f"{game_id}/v{game.version}/your_turn/seat{game.current_seat}"
            )
        ).one()
    assert told == f"Your removal turn ({game_id})"
    assert game.deadline_at == game.automatic_due_at == game.turn_started_at + timedelta(hours=1)
    clock.now = game.automatic_due_at - timedelta(seconds=1)
    assert ticker.tick().automatic == []
    clock.now = game.automatic_due_at
    [turn] = ticker.tick().automatic
    assert (turn.kind, turn.commands[0]["type"]) == ("removal", "remove_tile")
    key = (
        f"{game_id}/t{int(game.turn_started_at.timestamp())}/played_for_you/seat{game.current_seat}"
    )
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        body = session.exec(select(Outbox.text_body).where(Outbox.dedupe_key == key)).one()
    assert "was played for you: the grace period for choosing passed." in body
    assert f"  - remove tile (hex {turn.commands[0]['hex']})" in body
    return 1


@pytest.mark.parametrize(("humans", "grace_hours"), [(1, 1), (2, 0)])
def test_games_against_the_rhom_run_to_the_end(app, table, humans, grace_hours):
    players = [table.register(name) for name in ("Ada", "Bob")[:humans]]
    game_id = table.new_game(
        players[0],
        players[1:],
        # Seeds whose game has a removal turn under the current rules version.
        seed={1: "rhom-1", 2: "rhom-2-1"}[humans],
        rhom=True,
        rhom_delay_seconds=RHOM_DELAY,
        removal_grace_hours=0,
    )
    clock = Clock(datetime.now(UTC))
    ticker = Ticker(app, clock, name="test")
    rhom_turns = removal_turns = 0
    delay_checked = False
    for _ in range(3000):
        if table.game(game_id).status == "finished":
            break
        if table.play_one(game_id):
            continue
        state = table.state(game_id)
        seat = engine.current_player(state)
        if (
            grace_hours
            and engine.pending_kind(state) == "removal"
            and table.player_at(game_id, seat)
        ):
            removal_turns += _removal_after_grace(app, table, ticker, clock, game_id)
            continue
        if engine.pending_kind(state) == "rhom" and not delay_checked:
            clock.now = datetime.now(UTC)
            assert ticker.tick().automatic == [], "the Rhom waits for the game's delay"
            delay_checked = True
        # Humans play at the real time (the API's clock), the scheduler at ours: keep ours ahead.
        clock.now = max(clock.now, datetime.now(UTC)) + timedelta(seconds=RHOM_DELAY + 1)
        report = ticker.tick()
        assert report.automatic, f"nothing to play at {engine.pending_kind(state)}"
        rhom_turns += sum(t.kind == "rhom" for t in report.automatic)
        removal_turns += sum(t.kind == "removal" for t in report.automatic)
    assert table.game(game_id).status == "finished"
    assert rhom_turns > 5 and removal_turns > 0 and delay_checked

    export = table._call("get", f"/games/{game_id}/export", players[0])
    offline = _offline_outcome(export)
    assert export["outcome"] == offline
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        over = session.exec(select(Outbox).where(Outbox.kind == "game_over")).all()
        assert sorted(row.to_email for row in over) == sorted(p.email for p in players)
        emailed = sorted(int(points) for points in re.findall(
            r"^  \d+\. .*?: (\d+) points \(", over[0].text_body, re.M))
    assert emailed == sorted(seat["total"] for seat in offline["seats"])
