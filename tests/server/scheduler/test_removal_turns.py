"""Removal turns (RULINGS §5): what `legal` offers, when the server decides, and who chooses.

A two-player game is played through the API to the first removal turn (it starts when the other
player ends a turn, so it can be looked at before the scheduler plays it), once with the
server's automatic removal and once with the finished player's preference to choose their own
removals."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import engine
from engine.board import ahead_or_side
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock

SEED = "removal-turns-0"  # a removal turn before the end


def _to_the_first_removal(table, ticker, clock, players, **settings) -> str:
    game_id = table.new_game(players[0], players[1:], seed=SEED, **settings)
    for _ in range(3000):
        state = table.state(game_id)
        if engine.pending_kind(state) == "removal":
            return game_id
        if table.play_one(game_id):
            continue
        clock.now = max(clock.now, datetime.now(UTC)) + timedelta(seconds=1)
        assert ticker.tick().automatic, (engine.pending_kind(state), engine.current_player(state), table.game(game_id).status)
    raise AssertionError("no removal turn")


@pytest.fixture
def ticker(app):
    clock = Clock(datetime.now(UTC))
    return Ticker(app, clock, name="test"), clock


def test_r28_a_removal_the_server_is_about_to_play_is_never_offered(app, table, ticker):
    ticker, clock = ticker
    players = [table.register("Ada"), table.register("Bob")]
    game_id = _to_the_first_removal(table, ticker, clock, players, turn_deadline_hours=5)
    game = table.game(game_id)
    finished = table.player_at(game_id, game.current_seat)
    legal = table._call("get", f"/games/{game_id}/legal", finished)
    assert legal["commands"] == []
    assert legal["server_decides_at"] == game.automatic_due_at.isoformat()
    assert game.automatic_due_at <= datetime.now(UTC)
    clock.now = max(clock.now, datetime.now(UTC))
    state = table.state(game_id)
    [turn] = ticker.tick().automatic
    [rival] = [p for p in state.players if not p.finished]
    could_enter = [h for h in ahead_or_side(rival.position) if h in state.board
                   and engine.board.row_of(h) != 9 and h not in state.barricades]
    assert turn.kind == "removal" and could_enter
    assert turn.commands[0]["hex"] in could_enter, "a tile the rearmost explorer could enter next"


def test_a_player_who_chooses_their_removals_gets_their_turn_deadline(app, table, ticker):
    ticker, clock = ticker
    players = [table.register("Ada"), table.register("Bob")]
    for player in players:
        prefs = table._call("patch", "/users/me/preferences", player, removals="choose")
        assert prefs["preferences"]["removals"] == "choose"
    game_id = _to_the_first_removal(table, ticker, clock, players, turn_deadline_hours=5)
    game = table.game(game_id)
    finished = table.player_at(game_id, game.current_seat)
    assert game.automatic_due_at == game.deadline_at == game.turn_started_at + timedelta(hours=5)
    legal = table._call("get", f"/games/{game_id}/legal", finished)
    assert legal["commands"] and {c["type"] for c in legal["commands"]} == {"remove_tile"}
    assert legal["server_decides_at"] == game.automatic_due_at.isoformat()
    # The your-turn mail says when the server will decide.
    render_pending(app_engine(app))
    key = f"{game_id}/v{game.version}/your_turn/seat{game.current_seat}"
    with session_scope(app_engine(app)) as session:
        body = session.exec(select(Outbox.text_body).where(Outbox.dedupe_key == key)).one()
    assert "It is your removal turn" in body
    assert "The server will decide at " in body and "if you have not chosen a tile" in body
    clock.now = game.automatic_due_at - timedelta(seconds=1)
    assert ticker.tick().automatic == []
    clock.now = game.automatic_due_at
    [turn] = ticker.tick().automatic
    assert (turn.kind, turn.commands[0]["type"]) == ("removal", "remove_tile")
