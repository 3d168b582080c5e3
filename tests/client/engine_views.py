"""Views of real engine states, reached from a fixed seed by a simple fixed chooser (not the
engine's bots, whose heuristics may be tuned without changing the rules)."""

from __future__ import annotations

import engine
from engine import simulate

ORDER = ("choose_gem", "give_gem", "discard_objective", "keep_roll", "restore", "reveal", "move",
         "relocate", "mine", "remove_tile", "end_turn")


def plain_chooser(state, seat, rng):
    """The first legal command of the first kind in ORDER; reveals two hexes when it can;
    mines while the player has 3 coins or more."""
    commands = engine.legal_commands(state, seat)
    coins = engine.view(state, seat)["players"][seat]["coins"]
    for kind in ORDER:
        matching = [c for c in commands if engine.command_to_dict(c)["type"] == kind]
        if kind == "mine" and coins < 3:
            continue
        if kind == "reveal":
            matching.sort(key=lambda c: -len(engine.command_to_dict(c)["hexes"]))
        if matching:
            return matching[0]
    return commands[0]


def state_after(players: int, seed: str, steps: int | None, stop=None):
    """The state after `steps` commands (None: the end), or at the first state where `stop`.
    Played under rules version 1, so that the pictures stay those of the same positions."""
    options = simulate.make_options(players)
    state = None
    for index, (_step, state) in enumerate(
        simulate.steps(options, seed, plain_chooser, rules_version="1"), start=1
    ):
        if steps is not None and index >= steps and (stop is None or stop(state)):
            return state
    return state


def game_info(players: int, rhom: bool, game_id: str) -> dict:
    names = ["Ada", "Babbage", "Curie", "Dirac"]
    seats = [{"seat": s, "user_id": f"u{s}", "name": names[s], "kind": "human"}
             for s in range(players)]
    if rhom:
        seats = [{"seat": 0, "user_id": None, "name": "Rhom", "kind": "rhom"}] + [
            dict(p, seat=p["seat"] + 1) for p in seats]
    return {"id": game_id, "players": seats}
