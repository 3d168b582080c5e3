"""What goes beside the board's picture in an HTML mail, as text: whose turn, the gem market, the
relic row, the item market, the royalty tokens and each player's panel (the SVG's side panels,
server/picture/svg/panels.py, in words). The picture shows the hex board only, the same for
every player; this part is the recipient's own view, so their objectives and items are theirs
alone to read.
"""

from __future__ import annotations

from engine.data import GEMS, ITEMS, RELICS, ROYALTY_POINTS
from engine.text.wording import item_text, objective_text
from server.picture.svg import describe
from server.picture.svg.symbols import gems_needed, hold_words, name_of, player_colour

PENDING_WORDS = {"choose_gem": "choose the rainbow tile's gem",
                 "give_gem": "give away gems", "discard_objective": "discard an objective"}


def _turn(view: dict, names: dict[int, str]) -> str:
    turn = view["turn"]
    if view["over"]:
        return "The game is over."
    if turn is None:
        return ""
    who = names.get(turn["seat"], "someone")
    kind = {"removal": "removal turn", "rhom": "turn (the Rhom)"}.get(turn["kind"], "turn")
    words = f"{who}'s {kind} {turn['number']}, {turn['phase']} step"
    pending = view["pending"]
    if pending and pending["kind"] != "roll":
        words += f"; waiting for {who} to {PENDING_WORDS.get(pending['kind'], pending['kind'])}"
    return words + "."


def _player(player: dict, names: dict[int, str], viewer: int | None,
            rules_version: str | None) -> dict:
    seat = player["seat"]
    mine = seat == viewer
    relics = [f"{name_of(r)} ({RELICS[r].category})" for r in player["relics"]]
    relics += [f"{name_of(r)} (reserved)" for r in player["reserved_relics"]]
    token = name_of(player["royalty_token"]) if player["royalty_token"] else "none"
    lines = [
        f"{player['points']} points, {player['coins']} coins, hold {hold_words(player['hold'])}, "
        f"stone dice {player['stone_dice']}",
        f"on {player['position'] or 'the airship'}" + (", finished" if player["finished"] else ""),
        f"Relics: {', '.join(relics) or 'none'}",
        f"Royalty token: {token}" + (", the Iridia Stone" if player["iridia_stone"] else ""),
    ]
    if mine:
        lines += [f"Item: {item_text(i, rules_version)}" for i in player["items"]]
    elif player["items"]:
        lines.append(f"Items: {', '.join(name_of(i) for i in player['items'])}")
    objectives = player.get("objectives")
    if objectives is not None:
        lines += [f"Objective: {objective_text(o, rules_version)}" for o in objectives]
    elif player["kind"] != "rhom":
        lines.append(f"Objectives: {player['objectives_held']} secret")
    return {"name": names.get(seat, "a player") + (" (you)" if mine else ""),
            "colour": player_colour(seat), "mine": mine, "lines": lines}


def board_sides(view: dict, names: dict[int, str]) -> dict:
    """The panels as text: turn, market, relics, items, royalty, players (the recipient first)."""
    market = view["market"]
    viewer = view["viewer"]
    players = sorted(view["players"], key=lambda p: (p["seat"] != viewer, p["seat"]))
    return {
        "turn": _turn(view, names),
        "market": [f"{gem} {market['gem_values'][gem]} (supply {market['supply'][gem]})"
                   for gem in GEMS],
        "stone_dice": market["stone_dice"],
        "relics": [f"{RELICS[r].name}: {gems_needed(RELICS[r].requirement())}, "
                   f"{RELICS[r].points} pts, {RELICS[r].category}" for r in market["relics"]],
        "relic_deck": market["relic_deck"],
        "items": [f"{ITEMS[i].name}: {ITEMS[i].cost} coins" for i in market["items"]],
        "item_deck": market["item_deck"],
        "royalty": ", ".join(f"{name_of(t)} ({ROYALTY_POINTS[t]} pts)"
                             for t in market["royalty_tokens"]) or "none",
        "players": [_player(p, names, viewer, view.get("rules_version")) for p in players],
    }


def picture_words(view: dict, names: dict[int, str]) -> str:
    """The picture's alt text: where everyone stands, in words."""
    return describe(view, names)
