"""The game page's panels as HTML text: the players, the gem market, the item market, the relic
row, my items and objectives, the roll. Names come from engine/data.py (never an engine id) and
each card carries the controls of the commands that act on it (server/web/commands.py)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from engine.data import GEMS, ITEMS, RELICS, ROYALTY_POINTS, TILES
from engine.text.wording import Words, item_text, objective_text
from server.picture.svg.symbols import GEM_LETTERS, player_colour


def _hold(hold: dict[str, int], w: Words) -> list[dict]:
    return [{"gem": gem, "name": w.gem(gem), "letter": GEM_LETTERS[gem],
             "count": hold.get(gem, 0)} for gem in GEMS if hold.get(gem, 0)]


def _tiles(tile_ids: list[str], w: Words) -> str:
    """The tiles a player collected, counted by the gem shown on them."""
    counts: dict[str, int] = {}
    for tile_id in tile_ids:
        tile = TILES[tile_id]
        key = tile.gem or ("iridia" if tile.iridia else "rainbow")
        counts[key] = counts.get(key, 0) + 1
    named = {"iridia": _("the Iridia Stone"), "rainbow": _("rainbow")}
    return _(", ").join(_("%(count)s %(gem)s", count=n, gem=named.get(gem) or w.gem(gem))
                        for gem, n in counts.items()) or _("none")


def _player(player: dict, names: dict[int, str], viewer: int | None, turn_seat: int | None,
            rules: str | None, w: Words) -> dict[str, Any]:
    seat = player["seat"]
    relics = [w.name(r) for r in player["relics"]]
    relics += [_("%(relic)s (reserved)", relic=w.name(r)) for r in player["reserved_relics"]]
    mine = seat == viewer
    catalog = w.translations
    return {
        "seat": seat, "name": names.get(seat) or _("a player"), "colour": player_colour(seat),
        "me": mine, "to_play": seat == turn_seat, "rhom": player["kind"] == "rhom",
        "where": player["position"] or _("the airship"), "finished": player["finished"],
        "coins": player["coins"], "points": player["points"], "hold": _hold(player["hold"], w),
        "stone_dice": player["stone_dice"], "tiles": _tiles(player["tiles"], w),
        "relics": relics,
        "token": w.name(player["royalty_token"]) if player["royalty_token"] else None,
        "iridia_stone": player["iridia_stone"],
        "items": [{"id": i, "name": w.name(i),
                   "text": item_text(i, rules, catalog) if mine else ""}
                  for i in player["items"]],
        "objectives": [{"id": o, "text": objective_text(o, rules, catalog)}
                       for o in player.get("objectives") or []],
        "secret_objectives": None if "objectives" in player or player["kind"] == "rhom"
        else player["objectives_held"],
    }


def _roll(view: dict) -> dict | None:
    roll = view["roll"]
    if not roll:
        return None
    target = roll.get("target")
    dice = [{"value": v, "stone": False} for v in roll["dice"]]
    dice += [{"value": v, "stone": True} for v in roll["stone"]]
    for die in dice:
        die["success"] = target is not None and die["value"] >= target
    return {"mining": roll["kind"] == "mine", "dice": dice, "target": target,
            "successes": sum(d["success"] for d in dice) if target is not None else None,
            "best": max(d["value"] for d in dice) if dice else None}


def panels(view: dict, names: dict[int, str], viewer: int | None,
           controls: dict[str, list], w: Words | None = None) -> dict[str, Any]:
    """The panels' words in the page's language (`w`: the engine's wording in it)."""
    w = w or Words()
    catalog = w.translations
    market = view["market"]
    turn = view["turn"]
    rules = view.get("rules_version")
    players = sorted(view["players"], key=lambda p: (p["seat"] != viewer, p["seat"]))
    return {
        "players": [_player(p, names, viewer, turn["seat"] if turn else None, rules, w)
                    for p in players],
        "gems": [{"gem": g, "name": w.gem(g), "letter": GEM_LETTERS[g],
                  "value": market["gem_values"][g],
                  "supply": market["supply"][g]} for g in GEMS],
        "stone_pool": market["stone_dice"],
        "items": [{"id": i, "name": w.name(i), "cost": ITEMS[i].cost,
                   "text": item_text(i, rules, catalog),
                   "controls": controls.get(f"buy:{i}", [])}
                  for i in market["items"]],
        "item_deck": market["item_deck"],
        "relics": [{"id": r, "name": w.name(r), "points": RELICS[r].points,
                    "category": w.category(RELICS[r].category),
                    "needs": w._(", ").join(w.gems(g, n)
                                            for g, n in RELICS[r].requirement().items() if n),
                    "controls": controls.get(f"relic:{r}", [])}
                   for r in market["relics"]],
        "relic_deck": market["relic_deck"],
        "tokens": [_("%(token)s (%(points)s)", token=w.name(t),
                     points=w.points(ROYALTY_POINTS[t])) for t in market["royalty_tokens"]],
        "roll": _roll(view),
    }
