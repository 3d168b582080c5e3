"""Playing games through the HTTP API only, and what a player must never see."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.server.helpers import Player


def create_started_game(client, players: list[Player], **options) -> dict:
    """A game created by players[0] with the others joined, started."""
    body = {"seats": len(players), **options}
    game = client.post("/api/v1/games", json=body, headers=players[0].headers).json
    for player in players[1:]:
        joined = client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=player.headers)
        assert joined.status_code == 200, joined.json
    if game["status"] == "open":
        started = client.post(f"/api/v1/games/{game['id']}/start", headers=players[0].headers)
        assert started.status_code == 200, started.json
        game = started.json
    assert game["status"] == "active"
    return game


def seat_map(client, game_id: str, players: list[Player]) -> dict[int, Player]:
    """Engine seat -> player, as each player's own game answer says."""
    seats = {}
    for player in players:
        my_seat = client.get(f"/api/v1/games/{game_id}", headers=player.headers).json["my_seat"]
        seats[my_seat] = player
    return seats


def play_one(client, game_id: str, seats: dict[int, Player], rng: random.Random
             ) -> tuple[int, dict, dict] | None:
    """Play one random legal command for whoever must act: (their seat, the command's answer, the
    command),
    or None when the game is over or only the server acts now (the Rhom, a removal it is about
    to play)."""
    game = client.get(f"/api/v1/games/{game_id}", headers=next(iter(seats.values())).headers).json
    if game["status"] != "active" or game["current_seat"] not in seats:
        return None
    player = seats[game["current_seat"]]
    legal = client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json
    if not legal["commands"] and legal["server_decides_at"] is not None:
        return None
    assert legal["commands"], f"seat {legal['seat']} is to act but has no legal command"
    # A random player never takes back (as the bots): undoing at random only makes games longer.
    command = rng.choice([c for c in legal["commands"] if c["type"] != "undo"])
    response = client.post(f"/api/v1/games/{game_id}/commands",
                           json={"command": command, "expected_version": legal["version"]},
                           headers=player.headers)
    assert response.status_code == 201, (command, response.json)
    return game["current_seat"], response.json, command


def secrets_hidden_from(state: Any, viewer: int | None, seed: str) -> set[str]:
    """Strings the viewer must not find in any answer: the seed and other seats' objectives (the
    discarded ones too) unless the viewer holds the same card. (Which cards remain in a deck, or
    lie face down, anyone can count; the secret there is the order, see deck_tops and
    face_down_tiles.)"""
    mine = state.players[viewer] if viewer is not None else None
    own = set(mine.objectives) | {mine.discarded_objective} if mine is not None else set()
    secret = {seed}
    for player in state.players:
        if player.seat != viewer:
            secret |= set(player.objectives) | {player.discarded_objective}
    return {s for s in secret - own if s}


def deck_tops(state: Any) -> list[list]:
    """The next cards of every deck, in order: no answer may list them so. Relic and Rhom cards
    are unique, so three in a row are enough; items come in copies (the market can show three in
    the deck's order by chance), so it takes six."""
    tops = [list(state.item_deck[:6])] if len(state.item_deck) >= 6 else []
    tops += [list(deck[:3]) for deck in (state.relic_deck, state.rhom_deck) if len(deck) >= 3]
    return tops


def face_down_tiles(state: Any) -> dict[str, str]:
    """hex -> identity of every face-down tile: no answer may pair the two."""
    return {hex_name: tile for hex_name, tile in state.board.items()
            if hex_name not in state.revealed}


def assert_nothing_leaks(answer: Any, secrets: set[str], tops: list[list],
                         face_down: dict[str, str], where: str) -> None:
    text = json.dumps(answer)
    leaked = sorted(s for s in secrets if f'"{s}"' in text)
    assert not leaked, f"{where} shows {leaked} at {list(_paths(answer, set(leaked)))}"
    for value in _walk(answer):
        if isinstance(value, list):
            for top in tops:
                for start in range(len(value) - len(top) + 1):
                    assert value[start:start + len(top)] != top, (
                        f"{where} shows a deck's next cards {top} in {value}: "
                        f"{_context(answer, value)}")
        elif isinstance(value, dict):
            values = {v for v in value.values() if isinstance(v, str)}
            for hex_name, tile in face_down.items():
                assert value.get(hex_name) != tile and not {hex_name, tile} <= values, (
                    f"{where} shows the face-down tile at {hex_name}: {value}")


def _walk(value: Any):
    yield value
    if isinstance(value, list):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)


def _paths(value: Any, needles: set[str], path: str = ""):
    if isinstance(value, str) and value in needles:
        yield path
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, needles, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, needles, f"{path}.{key}")


def _context(answer: Any, needle: list) -> Any:
    """The smallest dict around ``needle`` (for a readable failure)."""
    if isinstance(answer, dict):
        if any(v is needle for v in answer.values()):
            return answer
        for v in answer.values():
            found = _context(v, needle)
            if found is not None:
                return found
    elif isinstance(answer, list):
        for v in answer:
            found = _context(v, needle)
            if found is not None:
                return found
    return None
