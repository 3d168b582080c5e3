"""The strong bot: it samples only what the seat cannot see, decides from the view alone, plays
every item, and finishes games with legal commands."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_helpers import place_tile, set_player, set_turn, standing_on

import engine
from engine import bots, data
from engine.bots import policies
from engine.bots.candidates import shortlist
from engine.bots.determinize import sample_state
from engine.bots.strong import Budget, strong_choice
from engine.data import TILES
from engine.simulate import make_options, play_game, steps

SMALL = Budget(playouts=6)
CONFIGS = [(1, True), (2, False), (3, False), (4, False)]


def _decisions(players, rhom, seed="strong", every=7):
    """States of a greedy game where a human seat has more than one legal command."""
    for index, (_, state) in enumerate(steps(make_options(players, rhom), seed, policies.greedy_policy)):
        if state.over or engine.pending_kind(state) in ("rhom", "removal") or index % every:
            continue
        seat = engine.current_player(state)
        if len(engine.legal_commands(state, seat)) > 1:
            yield state, seat


@pytest.mark.parametrize("players, rhom", CONFIGS)
def test_a_sampled_state_looks_exactly_like_the_real_one_to_the_seat(players, rhom):
    layouts = set()
    for state, seat in _decisions(players, rhom):
        seen = engine.view(state, seat)
        sample = sample_state(seen, random.Random(len(layouts)))
        assert engine.view(sample, seat) == seen
        # Less the undo: it goes back to a past the sample does not have, and bots never undo.
        assert engine.legal_commands(sample, seat) == [
            c for c in engine.legal_commands(state, seat) if c.type != "undo"]
        hidden = tuple(sorted((h, t) for h, t in sample.board.items() if h not in sample.revealed))
        layouts.add((hidden, sample.item_deck, sample.relic_deck))
    # The hidden parts are dealt afresh: samples differ from each other.
    assert len(layouts) > 5


def _other_world(state, seat, seed):
    """`state` with everything `seat` cannot see dealt again: the face-down tiles of each region
    swapped among themselves, the decks reshuffled (the Rhom's top card stays: its back shows), the
    rivals' objectives exchanged for ones nobody holds."""
    rng = random.Random(seed)
    board = dict(state.board)
    for region in {TILES[t].region for t in board.values()}:
        hidden = [h for h, t in board.items() if h not in state.revealed and TILES[t].region == region]
        tiles = [board[h] for h in hidden]
        rng.shuffle(tiles)
        board.update(zip(hidden, tiles, strict=True))
    players = list(state.players)
    free = [o for o in data.OBJECTIVES if not any(o in p.objectives for p in players)]
    rng.shuffle(free)
    for i, p in enumerate(players):
        if i != seat and p.objectives:
            players[i] = replace(p, objectives=tuple(free[: len(p.objectives)]))
            free = free[len(p.objectives):]
    shuffled = {f: tuple(rng.sample(getattr(state, f), len(getattr(state, f))))
                for f in ("item_deck", "relic_deck")}
    rhom = state.rhom_deck[:1] + tuple(rng.sample(state.rhom_deck[1:], len(state.rhom_deck[1:])))
    other = replace(state, board=board, players=tuple(players), rhom_deck=rhom, **shuffled)
    assert engine.view(other, seat) == engine.view(state, seat)
    return other


@pytest.mark.parametrize("players, rhom", [(1, True), (3, False)])
def test_the_choice_depends_only_on_what_the_seat_sees(players, rhom):
    compared = differing = 0
    for state, seat in _decisions(players, rhom, every=11):
        other = _other_world(state, seat, compared)
        if other.board != state.board or other.relic_deck != state.relic_deck:
            differing += 1
        here = bots.strong_policy(state, seat, random.Random(5), SMALL)
        there = bots.strong_policy(other, seat, random.Random(5), SMALL)
        assert here == there
        compared += 1
    assert compared > 5 and differing > 5


def test_the_choice_is_reproducible_from_the_generator_with_a_playout_budget():
    for state, seat in list(_decisions(2, False, every=13))[:8]:
        view, legal = engine.view(state, seat), engine.legal_commands(state, seat)
        first = strong_choice(view, legal, random.Random(9), SMALL)
        assert strong_choice(view, legal, random.Random(9), SMALL) == first
        assert first in legal


def test_a_budget_needs_a_playout_and_a_positive_time():
    with pytest.raises(ValueError, match="at least one playout"):
        Budget(playouts=0)
    with pytest.raises(ValueError, match="must be positive"):
        Budget(playouts=4, seconds=0)


def test_the_strong_bot_plays_a_solo_game_to_the_end_with_legal_commands():
    def checked(state, seat, rng):
        command = bots.strong_policy(state, seat, rng, Budget(playouts=2))
        assert command in engine.legal_commands(state, seat)
        return command

    game = play_game(make_options(1), "strong-solo", checked)
    assert game.completed, game.error


def _start_of_turn_with(items):
    state = engine.replay(engine.decide(None, engine.command_from_dict({
        "type": "start_game", "seat": None, "options": make_options(4).to_dict(),
        "player_ids": ["a", "b", "c", "d"]}), random.Random(3)))
    for seat, hex_ in enumerate(("1c", "2c", "2e", "3c")):  # everybody on the board
        state = place_tile(state, hex_, state.board[hex_])
        state = set_player(state, seat, position=hex_)
    return set_player(set_turn(state, 0), 0, items=items)


def test_start_of_turn_items_are_among_the_choices_searched():
    state = _start_of_turn_with(("clever_catapult", "swapping_stones"))
    listed = shortlist(engine.view(state, 0), engine.legal_commands(state, 0))
    assert any(c.type == "play_item" and c.item == "clever_catapult" for c in listed)
    assert {c.target for c in listed if c.type == "play_item" and c.item == "swapping_stones"} == {1, 2, 3}


def test_every_item_on_a_tile_keeps_a_play_among_the_choices_searched():
    state = engine.replay(engine.decide(None, engine.command_from_dict({
        "type": "start_game", "seat": None, "options": make_options(2).to_dict(),
        "player_ids": ["a", "b"]}), random.Random(4)))
    tile = "canyon_emerald_coins"
    state = standing_on(state, 0, "3c", tile, coins=20,
                        hold={"amethyst": 2, "citrine": 1, "emerald": 1},
                        items=("lucky_libation", "jolty_jackhammer", "dazzling_dynamite",
                               "cauldron_of_fortune", "axe_of_awesomeness", "wishing_well",
                               "regal_reference_book", "marvelous_mine_cart", "epic_elixir",
                               "prosperous_pickaxe"))

    state = place_tile(state, "4c", "canyon_sapphire_points")
    assert TILES[tile].gem == "emerald"
    listed = shortlist(engine.view(state, 0), engine.legal_commands(state, 0))
    played = {c.item for c in listed if c.type == "play_item"}
    assert played == {"cauldron_of_fortune", "axe_of_awesomeness", "wishing_well",
                      "regal_reference_book", "marvelous_mine_cart", "epic_elixir",
                      "prosperous_pickaxe"}
    assert any(c.type == "roll_market" for c in listed)  # Lucky Libation's market roll
    assert {c.item for c in listed if c.type == "modify_die"} == {"jolty_jackhammer", "dazzling_dynamite"}


def test_choose_by_name_knows_strong_and_refuses_unknown_names():
    state, seat = next(_decisions(2, False))
    view, legal = engine.view(state, seat), engine.legal_commands(state, seat)
    assert bots.choose("strong", view, legal, random.Random(1)) in legal
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        bots.choose("clever", view, legal, random.Random(1))
