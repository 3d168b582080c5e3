"""The final scores as lines a person reads (narrate.py re-exports `score_lines`)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.text.wording import clean
from engine.text.wording import component_name as _name


def score_lines(outcome: Mapping, names: Mapping[int, str]) -> list[str]:
    """Every seat's final score and where it came from, best first (outcome().to_dict())."""
    shown = {k: clean(v) for k, v in names.items()}
    seats = sorted(outcome.get("seats") or [], key=lambda s: (s.get("rank", 99), s["seat"]))
    lines = []
    for entry in seats:
        name = shown.get(entry["seat"], f"seat {entry['seat']}")
        parts = [f"{entry.get('in_game', 0)} during the game"]
        for key, label in (("tile_sets", "tile sets"), ("relic_sets", "relic sets"),
                           ("objective", "objective"), ("gems", "gems left")):
            if entry.get(key):
                parts.append(f"{entry[key]} {label}")
        objective = (entry.get("detail") or {}).get("objective") or {}
        if objective.get("id"):
            met = "met" if objective.get("met") else "not met"
            parts.append(f"objective {_name(objective['id'])} {met}")
        winner = " (winner)" if entry["seat"] in (outcome.get("winners") or []) else ""
        lines.append(f"{entry.get('rank', '?')}. {name}{winner}: {entry['total']} points "
                     f"({', '.join(parts)})")
    return lines

