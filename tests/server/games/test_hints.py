"""Hints ("What would the bot do?") come from the player's own view only: two games that differ
only in what the player cannot see get the same hint."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace

import engine
from engine import data
from engine.bots import policies
from engine.simulate import make_options, steps
from server.games.hints import hint

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def _hidden_dealt_again(state, seat, seed):
    """`state` with the face-down tiles of each region swapped, the decks reshuffled and the
    rivals' objectives exchanged: what `seat` sees is the same."""
    rng = random.Random(seed)
    board = dict(state.board)
    for region in {data.TILES[t].region for t in board.values()}:
        hidden = [h for h, t in board.items()
                  if h not in state.revealed and data.TILES[t].region == region]
        tiles = [board[h] for h in hidden]
        rng.shuffle(tiles)
        board.update(zip(hidden, tiles, strict=True))
    players = list(state.players)
    free = [o for o in data.OBJECTIVES if not any(o in p.objectives for p in players)]
    rng.shuffle(free)
    for i, p in enumerate(players):
        if i != seat and p.objectives:
            players[i], free = replace(p, objectives=tuple(free[:len(p.objectives)])), \
                free[len(p.objectives):]
    other = replace(state, board=board, players=tuple(players),
                    item_deck=tuple(rng.sample(state.item_deck, len(state.item_deck))),
                    relic_deck=tuple(rng.sample(state.relic_deck, len(state.relic_deck))))
    assert engine.view(other, seat) == engine.view(state, seat)
    return other


def test_the_hint_does_not_depend_on_hidden_information():
    compared = differing = 0
    for index, (step, state) in enumerate(steps(make_options(3), "hints", policies.greedy_policy)):
        if state.over or engine.pending_kind(state) in ("rhom", "removal") or index % 9:
            continue
        seat = engine.current_player(state)
        game = SimpleNamespace(id="g1", version=step.version, current_seat=seat,
                               automatic_due_at=None)
        other = _hidden_dealt_again(state, seat, index)
        differing += other.board != state.board or other.item_deck != state.item_deck
        here, there = hint(game, state, seat, NOW), hint(game, other, seat, NOW)
        assert here == there
        assert engine.command_from_dict(here["command"]) in engine.legal_commands(state, seat)
        compared += 1
        if compared == 12:
            break
    assert compared == 12 and differing > 5


def test_no_hint_for_a_seat_with_nothing_to_decide():
    options = make_options(2)
    _, state = next(iter(steps(options, "hints", policies.greedy_policy)))
    seat = engine.current_player(state)
    game = SimpleNamespace(id="g1", version=1, current_seat=seat, automatic_due_at=None)
    assert hint(game, state, 1 - seat, NOW) is None
