"""What a seat (or a spectator) may see: the view of a state and the redacted form of an event."""

from __future__ import annotations

from engine.api import outcome as final_outcome
from engine.board import ROWS, region_of_row, row_hexes
from engine.data import GEMS, REGIONS, RELICS, RHOM_CARDS, TILES
from engine.rules.queries import pending
from engine.state import State


def _tile_json(tile_id: str) -> dict:
    t = TILES[tile_id]
    return {
        "id": t.id,
        "gem": t.gem,
        "rainbow": t.rainbow,
        "iridia": t.iridia,
        "bonus": t.bonus.to_dict() if t.bonus else None,
    }


def _board(state: State) -> list[dict]:
    rows = []
    for r in range(1, ROWS + 1):
        hexes = []
        for h in row_hexes(r):
            if h not in state.board:
                st, tile = "empty", None
            elif h in state.revealed:
                st, tile = "revealed", _tile_json(state.board[h])
            else:
                st, tile = "face_down", None
            hexes.append(
                {
                    "hex": h,
                    "state": st,
                    "tile": tile,
                    "barricade": h in state.barricades,
                    "explorers": [p.seat for p in state.players if p.position == h],
                }
            )
        rows.append({"row": r, "region": region_of_row(r), "hexes": hexes})
    return rows


# The digital edition's display settings (rules-summary-ja: 獲得したタイルのソート法, 遺物のソート法):
# a player's tiles by the gem shown on them or by region, relics by gem type or by category. None
# keeps the order they were taken in. Ties keep that order too (the sorts are stable).
TILE_SORTS = ("gem", "region")
RELIC_SORTS = ("gem", "category")
_RELIC_CATEGORIES = ("jewelry", "tech", "lore", "iridia")


def _gem_rank(gem: str | None) -> int:
    """A gem's place in GEMS; rainbow, Iridia Stone and Iridia relics (no gem) after them."""
    return GEMS.index(gem) if gem in GEMS else len(GEMS)


def sort_tiles(tile_ids, by: str | None) -> list[str]:
    """`tile_ids` ordered by "gem" (then region) or "region" (then gem); None: as given."""
    tiles = list(tile_ids)
    if by not in TILE_SORTS:
        return tiles

    def key(tile_id: str) -> tuple[int, int]:
        tile = TILES.get(tile_id)
        if tile is None:
            return (len(GEMS) + 1, len(REGIONS))
        gem = len(GEMS) + (1 if tile.iridia else 0) if tile.wild else _gem_rank(tile.gem)
        region = REGIONS.index(tile.region)
        return (gem, region) if by == "gem" else (region, gem)
    return sorted(tiles, key=key)


def sort_relics(relic_ids, by: str | None) -> list[str]:
    """`relic_ids` ordered by "gem" (the relic's gem type; Iridia relics last) or "category"
    (jewelry, tech, lore, Iridia); None: as given."""
    relics = list(relic_ids)
    if by not in RELIC_SORTS:
        return relics

    def key(relic_id: str) -> tuple[int, int]:
        relic = RELICS.get(relic_id)
        if relic is None:
            return (len(GEMS) + 1, len(_RELIC_CATEGORIES))
        gem = _gem_rank(relic.lead_gem)
        category = _RELIC_CATEGORIES.index(relic.category)
        return (gem, category) if by == "gem" else (category, gem)
    return sorted(relics, key=key)


def _roll(state: State) -> dict | None:
    t = state.turn
    if t is None or t.roll is None:
        return None
    target = state.gem_values[t.tile_gem] if t.roll.kind == "mine" and t.tile_gem else None
    return {"kind": t.roll.kind, "dice": list(t.roll.dice), "stone": list(t.roll.stone), "target": target}


def view(state: State, seat: int | None, *, tile_sort: str | None = None,
         relic_sort: str | None = None) -> dict:
    """What `seat` may see (None: a spectator). `tile_sort` and `relic_sort` are the viewer's
    display settings (TILE_SORTS, RELIC_SORTS): the order of every player's tiles and relics."""
    over = state.over
    t = state.turn
    pend = pending(state)
    players = []
    for p in state.players:
        d = {
            "seat": p.seat,
            "kind": p.kind,
            "player_id": p.player_id,
            "position": p.position,
            "coins": p.coins,
            "hold": dict(p.hold),
            "items": list(p.items),
            "stone_dice": p.stone_dice,
            "points": p.points,
            "tiles": sort_tiles(p.tiles, tile_sort),
            "relics": sort_relics(p.relics, relic_sort),
            "reserved_relics": sort_relics(p.reserved_relics, relic_sort),
            "royalty_token": p.royalty_token,
            "iridia_stone": p.iridia_stone,
            "finished": p.finished,
            "objectives_held": len(p.objectives),
        }
        if over or seat == p.seat:
            d["objectives"] = list(p.objectives)
        players.append(d)
    rhom = None
    if state.options.rhom:
        top = state.rhom_deck[0] if state.rhom_deck else None
        rhom = {
            "seat": 0,
            "next_weathervane": RHOM_CARDS[top].weathervane if top else None,
            "deck": len(state.rhom_deck),
            "last_card": state.rhom_card,
            "barricades_left": state.barricades_left,
        }
    outcome = None
    if over:
        outcome = final_outcome(state).to_dict()
    return {
        "rules_version": state.rules_version,
        "options": state.options.to_dict(),
        "viewer": seat,
        "over": over,
        "turn": None
        if t is None
        else {
            "seat": t.seat,
            "kind": t.kind,
            "phase": t.phase,
            "pending": pend,
            "extra_turn": t.extra,
            "number": t.number,
            "tile_gem": t.tile_gem,
            # What the seat has done this turn, in plain sight of the table: a bot deciding from
            # the view needs it to know which actions are still open.
            "revealed": list(t.revealed),
            "relocations": list(t.relocations),
            "active_stone_dice": t.active_stone_dice,
            "sold": t.sold,
            "bought": t.bought,
            "mine_cart": t.mine_cart,
            "pickaxe": t.pickaxe,
            "elixir": t.elixir,
            # How many steps an undo would take back now (engine/rules/undo.py); 0: none.
            "undo_steps": t.undo_steps,
        },
        "board": _board(state),
        "market": {
            "gem_values": dict(state.gem_values),
            "supply": dict(state.supply),
            "stone_dice": state.stone_pool,
            "items": list(state.market),
            "item_deck": len(state.item_deck),
            "item_discard": len(state.item_discard),
            "relics": list(state.relic_row),
            "relic_deck": len(state.relic_deck),
            "royalty_tokens": list(state.royalty_tokens),
        },
        "players": players,
        "pending": pend,
        "roll": _roll(state),
        "rhom": rhom,
        "outcome": outcome,
    }


# Event fields that are hidden from everybody while the game runs (deck orders, face-down tiles).
_DECKS = {"item_deck", "relic_deck", "rhom_deck", "deck"}


def redact_event(event: dict, seat: int | None) -> dict:
    """The event's JSON as `seat` may see it: deck orders become counts, face-down layouts and
    other seats' objectives disappear."""
    kind = event.get("type")
    out = dict(event)
    if kind == "game_started":
        out["layout"] = {h: None for h in event["layout"]}
        out["removed_tiles"] = len(event["removed_tiles"])
        for f in ("item_deck", "relic_deck", "rhom_deck"):
            out[f] = len(event[f])
        out["objectives"] = [
            list(objs) if s == seat else [None] * len(objs) for s, objs in enumerate(event["objectives"])
        ]
    elif kind in ("item_deck_reshuffled", "market_refreshed", "rhom_deck_reshuffled",
                  "relic_deck_shuffled"):
        out["deck"] = len(event["deck"])
    elif kind == "objective_discarded" and event.get("seat") != seat:
        out["objective"] = None
    elif kind == "tile_removed":
        # The tile may have been face down; a revealed one was already named by tiles_revealed.
        out["tile"] = None
    return out
