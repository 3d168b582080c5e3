"""A full engine state sampled from what one seat sees (determinization).

A seat's view leaves out the face-down tiles, the order and contents of the decks, the rivals'
objectives and the Rhom's deck. `sample_state` deals all of them at random, consistently with the
view: the tiles of a region that nobody has seen yet go face down in that region, the item cards
nobody holds and the market does not show make up the deck and the discard pile, and so on. Every
sample is a state the seat cannot tell from the real one, so a search over samples never uses what
the seat may not know.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.board import region_of_row, row_of
from engine.data import (
    ITEM_COPIES,
    ITEMS,
    OBJECTIVES,
    REGIONS,
    RELICS,
    RHOM_CARDS,
    SMALL_GAME_REMOVED_ITEMS,
    TILES,
)
from engine.options import Options
from engine.state import Player, Roll, State, Turn


def sample_state(view: dict, rng: random.Random) -> State:
    """One state consistent with `view` (a seat's `engine.view`), hidden parts dealt by `rng`."""
    options = Options.from_dict(view["options"])
    market = view["market"]
    board, revealed, barricades = _board(view, rng)
    players = tuple(_player(d, view, rng) for d in view["players"])
    players = _deal_objectives(players, view, rng)
    deck, discard = _items(view, options, rng)
    relic_deck = _relics(view, rng)
    rhom = view.get("rhom") or {}
    rhom_deck, rhom_discard = _rhom_cards(rhom, rng)
    return State(
        rules_version=view["rules_version"],
        options=options,
        players=players,
        board=board,
        revealed=frozenset(revealed),
        barricades=frozenset(barricades),
        gem_values=dict(market["gem_values"]),
        supply=dict(market["supply"]),
        stone_pool=market["stone_dice"],
        market=tuple(market["items"]),
        item_deck=deck,
        item_discard=discard,
        relic_row=tuple(market["relics"]),
        relic_deck=relic_deck,
        royalty_tokens=tuple(market["royalty_tokens"]),
        rhom_deck=rhom_deck,
        rhom_discard=rhom_discard,
        rhom_card=rhom.get("last_card"),
        barricades_left=rhom.get("barricades_left", 0),
        turn=_turn(view),
        over=view["over"],
    )


def _board(view: dict, rng: random.Random):
    board: dict[str, str] = {}
    revealed, barricades = [], []
    face_down: dict[str, list[str]] = {region: [] for region in REGIONS}
    seen = Counter(t for p in view["players"] for t in p["tiles"])
    for row in view["board"]:
        for h in row["hexes"]:
            name = h["hex"]
            if h["barricade"]:
                barricades.append(name)
            if h["state"] == "revealed":
                board[name] = h["tile"]["id"]
                revealed.append(name)
                seen[h["tile"]["id"]] += 1
            elif h["state"] == "face_down":
                face_down[region_of_row(row_of(name))].append(name)
    for region, hexes in face_down.items():
        if not hexes:
            continue
        tiles = [t for t in TILES.values() if t.region == region]
        # Tiles not in sight anywhere: face down, set aside at setup, or removed face down.
        unseen = [t.id for t in tiles if not seen[t.id]]
        if len(unseen) < len(hexes):  # a view the deal cannot explain: fall back on the region
            unseen = [t.id for t in tiles]
        board.update(zip(hexes, rng.sample(unseen, len(hexes)), strict=True))
    return board, revealed, barricades


def _player(d: dict, view: dict, rng: random.Random) -> Player:
    return Player(
        seat=d["seat"],
        kind=d["kind"],
        player_id=d["player_id"],
        position=d["position"],
        coins=d["coins"],
        hold=dict(d["hold"]),
        items=tuple(d["items"]),
        stone_dice=d["stone_dice"],
        points=d["points"],
        tiles=tuple(d["tiles"]),
        relics=tuple(d["relics"]),
        reserved_relics=tuple(d["reserved_relics"]),
        royalty_token=d["royalty_token"],
        iridia_stone=d["iridia_stone"],
        finished=d["finished"],
        objectives=tuple(d.get("objectives") or ()),
    )


def _deal_objectives(players, view: dict, rng: random.Random):
    known = {o for p in players for o in p.objectives}
    pool = [o for o in OBJECTIVES if o not in known]
    rng.shuffle(pool)
    out = []
    for d, p in zip(view["players"], players, strict=True):
        if "objectives" not in d and d["objectives_held"]:
            n = d["objectives_held"]
            p.objectives, pool = tuple(pool[:n]), pool[n:]
        out.append(p)
    return tuple(out)


def _items(view: dict, options: Options, rng: random.Random):
    market = view["market"]
    cards = Counter({i: ITEM_COPIES for i in ITEMS})
    if options.participants <= 2:
        for item in SMALL_GAME_REMOVED_ITEMS:
            del cards[item]
    cards.subtract(market["items"])
    for p in view["players"]:
        cards.subtract(p["items"])
    pool = list((+cards).elements())
    rng.shuffle(pool)
    deck_size = min(market["item_deck"], len(pool))
    deck = tuple(pool[:deck_size])
    discard = tuple(pool[deck_size : deck_size + market["item_discard"]])
    return deck, discard


def _relics(view: dict, rng: random.Random):
    taken = set(view["market"]["relics"])
    for p in view["players"]:
        taken.update(p["relics"])
        taken.update(p["reserved_relics"])
    pool = [r for r in RELICS if r not in taken]
    rng.shuffle(pool)
    return tuple(pool[: view["market"]["relic_deck"]])


def _rhom_cards(rhom: dict, rng: random.Random):
    if not rhom:
        return (), ()
    size = rhom["deck"]
    pool = [n for n in RHOM_CARDS if n != rhom.get("last_card")]
    rng.shuffle(pool)
    vane = rhom.get("next_weathervane")
    if size and vane:
        # The top card's back is in sight: put a card with that weathervane on top.
        top = next((n for n in pool if RHOM_CARDS[n].weathervane == vane), pool[0])
        pool.remove(top)
        pool.insert(0, top)
    deck, discard = pool[:size], pool[size:]
    if rhom.get("last_card") is not None:
        discard.append(rhom["last_card"])
    return tuple(deck), tuple(discard)


def _turn(view: dict) -> Turn | None:
    t = view["turn"]
    if t is None:
        return None
    pend = t.get("pending") or {}
    roll = view.get("roll")
    return Turn(
        seat=t["seat"],
        kind=t["kind"],
        number=t["number"],
        extra=t["extra_turn"],
        phase=t["phase"],
        revealed=tuple(t.get("revealed") or ()),
        relocations=tuple(t.get("relocations") or ()),
        tile_gem=t["tile_gem"],
        choosing_gem=pend.get("kind") == "choose_gem",
        active_stone_dice=t.get("active_stone_dice", 0),
        sold=t.get("sold", False),
        bought=t.get("bought", False),
        mine_cart=t.get("mine_cart", False),
        pickaxe=t.get("pickaxe"),
        elixir=t.get("elixir", False),
        # The count only: a sample has no past to go back to (and a bot never undoes).
        undo_steps=t.get("undo_steps", 0),
        roll=Roll(roll["kind"], tuple(roll["dice"]), tuple(roll["stone"])) if roll else None,
    )
