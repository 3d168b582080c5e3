"""Stand-ins: the bot level a player chose plays their turn when its deadline passes (the seat's
choice at joining, else the account's preference, else hard), and the game says who it is."""

import random

import pytest

import engine
from engine import bots
from engine.bots import hard
from engine.bots.strong import Budget
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock


@pytest.fixture(autouse=True)
def quick_search(monkeypatch):
    # The real hard bot, with fewer playouts: the same choices given the same generator.
    monkeypatch.setattr(hard, "HARD_BUDGET", Budget(playouts=4))


def _expected_turn(state, seat, version, seed, level):
    """The commands `level` plays from `state`, as the scheduler seeds it (`{seed}/auto/{v}`)."""
    policy, commands = bots.level_policy(level), []
    while engine.current_player(state) == seat and not engine.is_terminal(state):
        command = policy(state, seat, random.Random(f"{seed}/auto/{version}"))
        events = engine.decide(state, command, engine.rng_for(seed, version))
        state, version = engine.replay(events, state), version + len(events)
        commands.append(engine.command_to_dict(command))
    return commands


def _miss_the_deadline(app, table, game_id):
    game = table.game(game_id)
    seat, state = game.current_seat, table.state(game_id)
    clock = Clock(game.turn_started_at)
    clock.advance(hours=72, minutes=1)
    report = Ticker(app, clock, name="test").tick()
    [turn] = [t for t in report.automatic if t.kind == "deadline"]
    assert turn.seat == seat
    return turn, state, game


@pytest.mark.parametrize("choice, level", [("easy", "easy"), ("greedy", "medium"), (None, "hard")])
def test_the_stand_in_chosen_at_joining_plays_the_missed_turn(app, table, choice, level):
    ada, bob = table.register("Ada"), table.register("Bob")
    body = {"stand_in": choice} if choice else {}
    with_choice = {"seats": 2, "turn_deadline_hours": 72, **body}
    game = table._call("post", "/games", ada, **with_choice)
    table._call("post", "/games/join", bob, code=game["join_code"], **body)
    table._call("post", f"/games/{game['id']}/start", ada)
    for player in (ada, bob):
        assert table._call("get", f"/games/{game['id']}", player)["my_stand_in"] == level
    first = table.player_at(game["id"], table.game(game["id"]).current_seat)
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        [mail] = [m for m in session.exec(Outbox.__table__.select()).all()
                  if m.to_email == first.email]
        assert f"Who plays it then: your stand-in, the {level} bot." in mail.text_body

    turn, state, before = _miss_the_deadline(app, table, game["id"])
    assert turn.commands == _expected_turn(state, turn.seat, before.version, before.seed, level)
    if level == "easy":  # it never spends a coin or an item of the player's
        assert not {c["type"] for c in turn.commands} & {"mine", "buy", "play_item", "sell"}


def test_the_accounts_preference_is_the_stand_in_where_the_seat_chose_none(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    for player in (ada, bob):
        prefs = table._call("patch", "/users/me/preferences", player, stand_in="cautious")
        assert prefs["preferences"]["stand_in"] == "easy"  # the old name, read as its level
    game_id = table.new_game(ada, [bob], turn_deadline_hours=72)
    assert table._call("get", f"/games/{game_id}", ada)["my_stand_in"] == "easy"

    turn, state, before = _miss_the_deadline(app, table, game_id)
    assert turn.commands == _expected_turn(state, turn.seat, before.version, before.seed, "easy")


def test_a_stand_in_that_is_no_level_is_refused_with_the_levels(app, table):
    ada = table.register("Ada")
    for path, method in (("/users/me/preferences", "patch"), ("/games", "post")):
        response = getattr(table.client, method)(
            f"/api/v1{path}", json={"seats": 2, "stand_in": "clever"} if method == "post"
            else {"stand_in": "clever"}, headers={"Authorization": f"Bearer {ada.token}"})
        assert response.status_code == 422
        assert "there is no bot level 'clever': choose easy, medium or hard" in \
            response.get_json()["message"]


def test_the_stand_in_thinks_before_the_game_is_locked(app, table, monkeypatch):
    """On SQLite the scheduler's transaction holds the write lock: the hard stand-in's search
    runs before it (bot_turns.py), so players' commands never wait on it."""
    from server.scheduler import automatic

    def in_the_lock(*_args):
        raise AssertionError("the stand-in thought inside the locked transaction")

    monkeypatch.setattr(automatic, "stand_in_turn", in_the_lock)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], turn_deadline_hours=72)

    turn, state, before = _miss_the_deadline(app, table, game_id)
    assert turn.commands == _expected_turn(state, turn.seat, before.version, before.seed, "hard")
    assert table.game(game_id).current_seat != turn.seat
