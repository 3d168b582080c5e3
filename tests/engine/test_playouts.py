"""Random playouts: complete games played through `decide`, with invariants checked after every event.

The normal run plays CONFIGS[table] games for each table size (2,050 in all), with the rule
variants of RULINGS §9 spread over them (variants_for); `--many N` plays N times as many
(`--many` alone: 10 times; `--many 0.05` for a quick smoke run). Each game's log is also serialised
to JSON and replayed from the start, and must give the same final state. On a smaller sample, every
step's state survives a JSON round trip and `legal_commands` agrees with `decide`
(test_legal_commands_agree_with_decide_and_states_round_trip).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine import data
from engine.board import ALL_HEXES
from engine.bots import policies
from engine.events import CoinsGained
from engine.simulate import GameDidNotEnd, make_options, steps

# (players, rhom) -> normal-run game count. 1 player always plays with the Rhom.
CONFIGS = {(1, True): 450, (2, False): 450, (2, True): 350, (3, False): 400, (4, False): 400}
SAMPLE_PER_CONFIG = 4
ALL_TILES = Counter(list(data.TILES))
# A game lasts at most one turn per tile plus the removal turns; relocations add a few more.
ALL_RELICS = Counter(list(data.RELICS))
TILE_COUNT = len(ALL_TILES)
ALL_GEMS = {gem: data.GEM_SUPPLY for gem in data.GEMS}
TILE_ROW_5_UP = {t: tile.region in ("forest", "ruins", "castle") for t, tile in data.TILES.items()}
TILE_EVENTS = {"game_started", "tile_collected", "tile_discarded", "tile_removed"}
RELIC_EVENTS = {"game_started", "relic_restored", "relic_drawn", "relic_reserved",
                "relic_deck_shuffled"}
MAX_TURNS = 400


def scaled(count: int, factor: float) -> int:
    """`count` games scaled by the --many factor, never fewer than one."""
    return max(1, round(count * factor))


def config_id(config) -> str:
    players, rhom = config
    return f"{players}p" + ("+rhom" if rhom and players > 1 else "")


class Invariants:
    """Checks the conservation laws of one game, event by event.

    Tiles leave the game only through events (setup removal, a discard when relocating, a removal
    turn), so the checker keeps the set of tiles out of the game from the events it sees.
    """

    def __init__(self, seed: str):
        self.seed = seed
        self.out_of_game: Counter = Counter()
        self.points: list[int] | None = None
        self.events = 0
        self.turns = 0
        self.once_a_turn: Counter = Counter()
        self.adjusting = None
        self.elixir_played = False

    def fail(self, event, message: str):
        raise AssertionError(
            f"seed {self.seed!r}, event #{self.events} {event.type}: {message}\n"
            f"event: {engine.event_to_dict(event)}"
        )

    def __call__(self, before, event, state) -> None:
        self.events += 1
        if event.type == "game_started":
            self.out_of_game.update(event.removed_tiles)
            self.item_count = data.ITEM_COPIES * (
                len(data.ITEMS) - (len(data.SMALL_GAME_REMOVED_ITEMS) if len(event.seats) <= 2 else 0)
            )
        elif event.type == "item_claimed" and state.rules.rhom_keeps_merchant_card:
            self.item_count -= 1  # the Rhom keeps it: it leaves the game (R23)
        elif event.type in ("tile_discarded", "tile_removed"):
            self.out_of_game[event.tile] += 1
        elif event.type == "turn_started":
            self.turns += 1
            if self.turns > MAX_TURNS:
                self.fail(event, f"more than {MAX_TURNS} turns: the game does not end")
        self.check_rules(before, event, state)

        # One pass over the players gathers every count; the messages are built only on failure.
        players = state.players
        gems = dict(state.supply)
        tiles = len(state.board) + self.out_of_game.total()
        relics = len(state.relic_row) + len(state.relic_deck)
        items = len(state.market) + len(state.item_deck) + len(state.item_discard)
        stone = state.stone_pool + (state.turn.active_stone_dice if state.turn else 0)
        negative = [gem for gem, count in gems.items() if count < 0]
        points = []
        for p in players:
            for gem, count in p.hold.items():
                gems[gem] += count
                if count < 0:
                    negative.append(gem)
            if p.coins < 0:
                self.fail(event, f"seat {p.seat} has {p.coins} coins")
            tiles += len(p.tiles)
            relics += len(p.relics) + len(p.reserved_relics)
            items += len(p.items)
            stone += p.stone_dice
            if p.stone_dice < 0:
                self.fail(event, f"seat {p.seat} holds {p.stone_dice} stone dice")
            points.append(p.points)
        if gems != ALL_GEMS or negative:
            self.fail(event, f"gems in the game: {gems} (negative counts of {negative}), "
                      f"expected {data.GEM_SUPPLY} of each")
        values = state.gem_values.values()
        if min(values) < 1 or max(values) > 6:
            self.fail(event, f"gem market values {state.gem_values}")
        # The full multisets are compared when an event moves tiles or relics (or a count is off),
        # which is where a tile or relic could be swapped for another.
        if tiles != TILE_COUNT or event.type in TILE_EVENTS:
            self.check_tiles(event, state)
        if relics != len(ALL_RELICS) or event.type in RELIC_EVENTS:
            self.check_relics(event, state)
        if items != self.item_count:
            self.fail(event, f"{items} item cards in the game instead of {self.item_count}")
        if stone != data.STONE_DICE:
            self.fail(event, f"{stone} stone dice in the game instead of {data.STONE_DICE}")
        if self.points is not None and any(a < b for a, b in zip(points, self.points, strict=True)):
            self.fail(event, f"scores went down from {self.points} to {points}")
        self.points = points

    def check_rules(self, before, event, state) -> None:
        """Rules an event must respect, read off the event and the states around it."""
        kind = event.type
        if kind == "turn_started":
            self.once_a_turn = Counter()
            player = state.players[event.seat]
            self.check_turn_order(event, state)
            if event.kind == "removal" and (player.kind == "rhom" or not player.finished):
                self.fail(event, f"a removal turn for seat {event.seat}, which may not remove tiles")
            if event.kind == "turn" and player.finished:
                self.fail(event, f"seat {event.seat} has finished but gets a normal turn")
        elif kind == "item_played" and event.item == "epic_elixir":
            self.elixir_played = True
        elif kind in ("gems_sold", "item_bought"):
            self.once_a_turn[kind] += 1
            if self.once_a_turn[kind] > 1:
                self.fail(event, f"a second {kind} in one turn")
            if kind == "gems_sold" and event.coins != event.count * before.gem_values[event.gem]:
                self.fail(event, f"sold at {event.coins} coins, the market pays "
                          f"{event.count * before.gem_values[event.gem]}")
        elif kind == "explorer_moved" and event.via == "move":
            was = before.players[event.seat].position
            if was is not None and int(event.hex[0]) < int(was[0]):
                self.fail(event, f"seat {event.seat} moved back from {was} to {event.hex}")
        elif kind == "tile_collected":
            tile = data.TILES[event.tile]
            if tile.gem is None:
                self.adjusting = None
            else:
                self.adjusting = (tile.gem, before.gem_values[tile.gem] % 6 + 1)
        elif kind == "market_adjusted":
            if self.adjusting != (event.gem, event.value):
                self.fail(event, f"the market moved {event.gem} to {event.value}; "
                      f"expected {self.adjusting} from the tile collected")
            self.adjusting = None
        elif kind == "barricade_placed":
            if event.hex[0] == "9" or len(state.barricades) > data.BARRICADES:
                self.fail(event, f"a barricade on {event.hex} ({len(state.barricades)} placed)")
        elif kind == "royalty_token_taken" and event.token is not None:
            if event.points != data.ROYALTY_POINTS[event.token] or event.token in state.royalty_tokens:
                self.fail(event, f"token {event.token} for {event.points} points")
        elif kind == "game_ended":
            unfinished = [p.seat for p in state.players if not p.finished]
            if unfinished:
                self.fail(event, f"the game ended while seats {unfinished} are still exploring")

    def check_turn_order(self, event, state) -> None:
        """Seats take turns in order; an Epic Elixir gives the same seat one extra turn; a Rhom
        that has finished is skipped (it does not remove tiles), and so is a finished player when
        no tile is left to remove."""
        previous, self.last_turn = getattr(self, "last_turn", None), event
        if previous is None:
            return
        if self.elixir_played:
            self.elixir_played = False
            if not (event.extra and event.seat == previous.seat):
                self.fail(event, f"seat {previous.seat} played an Epic Elixir but the next turn "
                          f"is seat {event.seat}'s (extra: {event.extra})")
            return
        players = state.players
        nothing_to_remove = all(h[0] == "9" for h in state.board)
        expected = (previous.seat + 1) % len(players)
        while players[expected].finished and (
            players[expected].kind == "rhom" or nothing_to_remove
        ):
            expected = (expected + 1) % len(players)
        if event.seat != expected or event.extra:
            self.fail(event, f"after seat {previous.seat}'s turn, seat {event.seat} plays "
                      f"(expected seat {expected}, extra: {event.extra})")

    def check_tiles(self, event, state) -> None:
        tiles = Counter(state.board.values()) + self.out_of_game
        for p in state.players:
            tiles.update(p.tiles)
        if tiles != ALL_TILES:
            extra, missing = tiles - ALL_TILES, ALL_TILES - tiles
            self.fail(event, f"tiles counted twice: {dict(extra)}, tiles lost: {dict(missing)}")

    def check_relics(self, event, state) -> None:
        relics = Counter(state.relic_row) + Counter(state.relic_deck)
        for p in state.players:
            relics.update(p.relics)
            relics.update(p.reserved_relics)
        if relics != ALL_RELICS:
            self.fail(event, f"relics not conserved: {dict(relics - ALL_RELICS)} "
                      f"extra, {dict(ALL_RELICS - relics)} missing")

    def after_command(self, state, step) -> None:
        """Between commands, the only hold over 7 is one whose owner is choosing what to give, and
        a player who has stood in the Forest or beyond has kept one objective (or is choosing)."""
        choosing = engine.pending_kind(state) == "discard_objective"
        for p in state.players:
            if len(p.objectives) > 1 and any(TILE_ROW_5_UP[t] for t in p.tiles):
                if not (choosing and engine.current_player(state) == p.seat):
                    raise AssertionError(
                        f"seed {self.seed!r}: seat {p.seat} collected {p.tiles[-1]} yet still "
                        f"holds objectives {p.objectives}"
                    )
        for p in state.players:
            if p.gems > data.HOLD_LIMIT:
                giving = (
                    engine.pending_kind(state) == "give_gem"
                    and engine.current_player(state) == p.seat
                )
                if not giving:
                    raise AssertionError(
                        f"seed {self.seed!r}: seat {p.seat} holds {p.gems} gems after "
                        f"{engine.command_to_dict(step.command)} with nothing pending"
                    )


def variants_for(config, index: int) -> dict:
    """The rule variants of RULINGS §9, spread over the games: every third game mines at 3 coins,
    every fifth scores leftover gems by type, every other 4-player game gives the 4th a Catapult."""
    players, _ = config
    return {
        "mining_cost": 3 if index % 3 == 2 else 1,
        "leftover_gems": "same_type" if index % 5 == 4 else "any",
        "catapult_4th": players == 4 and index % 2 == 1,
    }


def play_checked(config, seed: str, policy=policies.random_policy, on_step=None, variants=None):
    """Play one game with the invariants checked; returns (steps, final state, checker)."""
    players, rhom = config
    check = Invariants(seed)
    played = []
    state = None
    options = make_options(players, rhom, **(variants or {}))
    try:
        for step, state in steps(options, seed, policy, on_event=check):
            check.after_command(state, step)
            if on_step is not None:
                on_step(step, state)
            played.append(step)
    except GameDidNotEnd as error:
        pytest.fail(str(error))
    assert engine.is_terminal(state), f"seed {seed!r}: the game stopped before its end"
    assert engine.current_player(state) is None
    return played, state, check


def replayed_from_json(played) -> object:
    """The final state rebuilt from the log after a trip through JSON text."""
    text = json.dumps([engine.event_to_dict(e) for step in played for e in step.events])
    return engine.replay([engine.event_from_dict(d) for d in json.loads(text)])


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_random_games_keep_the_invariants_and_replay_from_json(config, many):
    games = scaled(CONFIGS[config], many)
    outcomes = Counter()
    for index in range(games):
        seed = f"playout-{config_id(config)}-{index}"
        played, state, _ = play_checked(config, seed, variants=variants_for(config, index))
        replayed = replayed_from_json(played)
        assert engine.state_to_dict(replayed) == engine.state_to_dict(state), seed
        totals = [seat["total"] for seat in engine.outcome(state).to_dict()["seats"]]
        outcomes[max(totals) > 0] += 1
    # Somebody scores in every game: a game that ends with nobody scoring means nothing happened.
    assert outcomes[True] == games


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_greedy_and_cautious_games_end_with_the_invariants(config, many):
    players, _ = config
    for index in range(scaled(2, many)):
        seed = f"bots-{config_id(config)}-{index}"
        mixed = {seat: policies.greedy_policy for seat in range(players + 1)}
        mixed[players - 1 + (1 if config[1] else 0)] = policies.cautious_policy
        play_checked(config, seed, mixed)


# --- legal commands against decide, on a sample ---------------------------------------------


def _other_values(name, value, state, rng):
    """Plausible wrong values for a command field: the kind of thing a client might send."""
    seats = list(range(len(state.players)))
    if name == "seat":
        return [s for s in seats if s != value] + [len(seats)]
    if isinstance(value, list):
        value = tuple(value)
    if name in ("hex", "discard_tile") and (value is None or value in ALL_HEXES):
        return rng.sample(ALL_HEXES, 6) + ([None] if value is not None else [])
    if name == "discard_tile":
        return rng.sample(list(data.TILES), 3) + [None]
    if name in ("gem", "take"):
        return [g for g in data.GEMS if g != value] + ([None] if value is not None else [])
    if name == "to":
        return [s for s in seats if s != value] + ([None] if value is not None else [])
    if name in ("count", "stone_dice", "delta"):
        return [value - 1, value + 1, value + 3]
    if name == "item":
        return rng.sample(list(data.ITEMS), 4)
    if name == "relic":
        return rng.sample(list(data.RELICS), 4)
    if name == "objective":
        return rng.sample(list(data.OBJECTIVES), 3)
    if name == "hexes":
        return [tuple(rng.sample(ALL_HEXES, k)) for k in (1, 2)] + [(), tuple(ALL_HEXES[:3])]
    if name == "give":
        return [tuple(rng.choices(data.GEMS, k=2)) for _ in range(3)] + [(data.GEMS[0],)]
    if name == "dice":
        return [(0,), (1,), (0, 1), (2,), (0, 1, 2)]
    if name == "gems":
        return [(g,) for g in data.GEMS] + [tuple(data.GEMS)]
    if name == "die":
        return ["roll:0", "roll:1", "roll:2", "roll:5"] + [f"market:{g}" for g in data.GEMS]
    if name == "target":
        return seats
    return []


def _mutations(command, state, rng):
    """Commands a client could send that differ from a listed one in one field (as JSON, so
    whatever `command_from_dict` refuses never reaches `decide`, as on the server)."""
    sent = engine.command_to_dict(command)
    for name, value in sent.items():
        if name == "type":
            continue
        for other in _other_values(name, value, state, rng):
            if isinstance(other, tuple):
                other = list(other)
            try:
                yield engine.command_from_dict({**sent, name: other})
            except engine.InvalidCommand:
                continue


def _unlisted_type_commands(state, seat):
    """One plausible command of every type, whatever the moment."""
    row = state.relic_row
    market = state.market
    return [
        engine.command_from_dict(d)
        for d in (
            {"type": "end_turn", "seat": seat},
            {"type": "mine", "seat": seat, "stone_dice": 0},
            {"type": "keep_roll", "seat": seat, "gem": None},
            {"type": "sell", "seat": seat, "gem": "amethyst", "count": 1},
            {"type": "rhom_turn", "seat": seat},
            *({"type": "restore", "seat": seat, "relic": r} for r in row[:2]),
            *({"type": "buy", "seat": seat, "item": i} for i in market[:2]),
            {"type": "reveal", "seat": seat, "hexes": ["1b"]},
            {"type": "move", "seat": seat, "hex": "1c"},
            {"type": "remove_tile", "seat": seat, "hex": "3c"},
            {"type": "choose_gem", "seat": seat, "gem": "emerald"},
            {"type": "give_gem", "seat": seat, "gem": "citrine", "to": None},
            {"type": "play_item", "seat": seat, "item": "epic_elixir"},
        )
    ]


def check_legal_commands(state, rng):
    """Every listed command is accepted; mutated and other-seat commands are refused."""
    seat = engine.current_player(state)
    before = engine.state_to_dict(state)
    listed = engine.legal_commands(state, seat)
    assert listed, f"seat {seat} is to act but has no legal command"
    listed_set = set(listed)
    assert len(listed_set) == len(listed), "legal_commands lists a command twice"
    for command in listed:
        assert engine.command_from_dict(engine.command_to_dict(command)) == command
        try:
            engine.decide(state, command, random.Random(1))
        except engine.RuleError as error:
            raise AssertionError(
                f"listed {engine.command_to_dict(command)} refused: {error}"
            ) from error
    for other in range(len(state.players)):
        if other != seat:
            assert engine.legal_commands(state, other) == [], f"seat {other} may act out of turn"

    candidates = set(_unlisted_type_commands(state, seat))
    for command in rng.sample(listed, min(6, len(listed))):
        candidates.update(_mutations(command, state, rng))
    for command in candidates - listed_set:
        if engine.canonical_command(state, command) in listed_set:
            continue  # another form of a listed command (a pair of hexes in the other order)
        try:
            events = engine.decide(state, command, random.Random(1))
        except engine.RuleError:
            continue
        raise AssertionError(
            f"unlisted {engine.command_to_dict(command)} accepted, giving "
            f"{[e.type for e in events]}; listed: "
            f"{[engine.command_to_dict(c) for c in listed][:12]}"
        )
    assert engine.state_to_dict(state) == before, "decide changed the state it was given"


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_legal_commands_agree_with_decide_and_states_round_trip(config, many):
    for index in range(scaled(SAMPLE_PER_CONFIG, many)):
        seed = f"sample-{config_id(config)}-{index}"
        rng = random.Random(seed)
        policy = policies.greedy_policy if index % 2 else policies.random_policy

        def on_step(step, state, rng=rng, seed=seed):
            for event in step.events:
                assert engine.event_from_dict(engine.event_to_dict(event)) == event, seed
            as_json = json.loads(json.dumps(engine.state_to_dict(state)))
            assert engine.state_to_dict(engine.state_from_dict(as_json)) == as_json, seed
            assert engine.state_from_dict(as_json) == state, seed
            if not engine.is_terminal(state):
                check_legal_commands(state, rng)

        play_checked(config, seed, policy, on_step, variants_for(config, index))


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_sell_that_resolves_a_pending_roll_is_listed(version):
    """Found by the playouts: under rules version 1 selling resolves a pending roll first, so the
    gems just mined may be sold too, and legal_commands must list those larger sales. From
    version 2 selling leaves the roll pending (R26): no sale beyond the hold is accepted."""
    larger_sales = 0
    for index in range(6):
        for _step, state in steps(make_options(1, True), f"sell-roll-{index}", policies.random_policy,
                                  rules_version=version):
            if engine.pending_kind(state) != "roll":
                continue
            seat = engine.current_player(state)
            listed = set(engine.legal_commands(state, seat))
            hold = state.players[seat].hold
            for gem in data.GEMS:
                for count in range(hold[gem] + 1, data.HOLD_LIMIT + 2):
                    command = engine.command_from_dict(
                        {"type": "sell", "seat": seat, "gem": gem, "count": count}
                    )
                    try:
                        engine.decide(state, command, random.Random(1))
                    except engine.RuleError:
                        continue
                    larger_sales += 1
                    assert command in listed, f"{engine.command_to_dict(command)} not listed"
    if version == "1":
        assert larger_sales > 0, "no game sold gems from a pending roll: pick other seeds"
    else:
        assert larger_sales == 0


def test_the_invariant_checker_catches_broken_states():
    """The checker must be able to fail: feed it states with a gem, a tile, a relic, a stone die
    or points gone, or coins below zero."""
    check = Invariants("self-test")
    for _step, state in steps(make_options(2), "self-test", policies.random_policy, on_event=check):
        if len(state.players[0].tiles) >= 2 and state.players[0].points > 0:
            break
    neutral = CoinsGained(seat=0, amount=0, reason="self-test")
    check(state, neutral, state)  # the untouched state passes

    def broken(edit, message):
        bad = state.copy()
        edit(bad)
        with pytest.raises(AssertionError, match=message):
            check(state, neutral, bad)

    broken(lambda s: setattr(s, "supply", {**s.supply, "emerald": s.supply["emerald"] - 1}),
           "gems in the game")
    broken(lambda s: setattr(s.edit_player(0), "tiles", s.players[0].tiles[1:]), "tiles lost")
    broken(lambda s: setattr(s.edit_player(0), "points", s.players[0].points - 1),
           "scores went down")
    broken(lambda s: setattr(s.edit_player(1), "coins", -1), "has -1 coins")
    broken(lambda s: setattr(s, "relic_row", s.relic_row[1:]), "relics not conserved")
    broken(lambda s: setattr(s, "stone_pool", s.stone_pool + 1), "stone dice in the game")
