"""Bot levels: easy, medium and hard by name (old names read as their level), and `hard`, which
decides from the seat's view alone and finishes games with legal commands."""

from __future__ import annotations

import random

import pytest
from test_strong import _decisions, _other_world

import engine
from engine import bots
from engine.bots import hard, policies
from engine.bots.levels import UnknownLevel, level_of
from engine.bots.strong import Budget
from engine.simulate import make_options, play_game

SMALL = Budget(playouts=4)


@pytest.mark.parametrize("name, level", [
    ("easy", "easy"), ("medium", "medium"), ("hard", "hard"),
    ("strong", "hard"), ("greedy", "medium"), ("cautious", "easy"), ("random", "easy"),
    (" Hard ", "hard"),
])
def test_every_level_and_old_name_means_a_level(name, level):
    assert level_of(name) == level


def test_an_unknown_level_says_which_there_are():
    with pytest.raises(UnknownLevel, match="there is no bot level 'clever': choose easy, medium or hard"):
        level_of("clever")


def test_each_level_plays_its_policy():
    assert bots.level_policy("easy") is policies.cautious_policy
    assert bots.level_policy("greedy") is policies.greedy_policy
    assert bots.level_policy("strong") is bots.hard_policy


@pytest.mark.parametrize("players, rhom", [(1, True), (3, False)])
def test_hard_decides_only_from_what_the_seat_sees(players, rhom, monkeypatch):
    monkeypatch.setattr(hard, "HARD_BUDGET", SMALL)
    compared = differing = 0
    for state, seat in _decisions(players, rhom, every=11):
        other = _other_world(state, seat, compared)
        if other.board != state.board or other.relic_deck != state.relic_deck:
            differing += 1
        assert bots.hard_policy(state, seat, random.Random(5)) == bots.hard_policy(other, seat, random.Random(5))
        compared += 1
    assert compared > 5 and differing > 5


def test_hard_is_reproducible_from_its_generator():
    for state, seat in list(_decisions(2, False, every=13))[:8]:
        view, legal = engine.view(state, seat), engine.legal_commands(state, seat)
        first = bots.hard_choice(view, legal, random.Random(9), SMALL)
        assert bots.hard_choice(view, legal, random.Random(9), SMALL) == first
        assert first in legal and first.type != "undo"


@pytest.mark.parametrize("players", [1, 2, 4])
def test_hard_finishes_games_with_legal_commands(players):
    def checked(state, seat, rng):
        command = bots.hard_policy(state, seat, rng, SMALL)
        assert command in engine.legal_commands(state, seat)
        return command

    game = play_game(make_options(players), f"hard-{players}", checked)
    assert game.completed, game.error
