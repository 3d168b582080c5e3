"""The conservation laws of one game, checked event by event: tiles, relics, gems and coins
neither appear nor vanish, turns stay bounded, and every state after a command is whole (the
random playouts of test_playouts.py run every game through it)."""

from __future__ import annotations

from collections import Counter

import engine
from engine import data

ALL_TILES = Counter(list(data.TILES))
ALL_RELICS = Counter(list(data.RELICS))
TILE_COUNT = len(ALL_TILES)
ALL_GEMS = {gem: data.GEM_SUPPLY for gem in data.GEMS}
TILE_ROW_5_UP = {t: tile.region in ("forest", "ruins", "castle") for t, tile in data.TILES.items()}
TILE_EVENTS = {"game_started", "tile_collected", "tile_discarded", "tile_removed"}
RELIC_EVENTS = {"game_started", "relic_restored", "relic_drawn", "relic_reserved",
                "relic_deck_shuffled"}
# A game lasts at most one turn per tile plus the removal turns; relocations add a few more.
MAX_TURNS = 400


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
