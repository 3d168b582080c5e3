"""The final scores as lines a person reads (narrate.py re-exports `score_lines`)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.text.wording import Catalog, Words, clean


def score_lines(outcome: Mapping, names: Mapping[int, str],
                translations: Catalog | None = None) -> list[str]:
    """Every seat's final score and where it came from, best first (outcome().to_dict()), in
    the language of `translations` (None: English)."""
    words = Words(translations)
    _ = words._
    shown = {k: clean(v) for k, v in names.items()}
    seats = sorted(outcome.get("seats") or [], key=lambda s: (s.get("rank", 99), s["seat"]))
    lines = []
    for entry in seats:
        name = shown.get(entry["seat"], _("a player"))
        parts = [_("{n} during the game").format(n=entry.get("in_game", 0))]
        for key, label in (("tile_sets", _("{n} tile sets")), ("relic_sets", _("{n} relic sets")),
                           ("objective", _("{n} objective")), ("gems", _("{n} gems left"))):
            if entry.get(key):
                parts.append(label.format(n=entry[key]))
        objective = (entry.get("detail") or {}).get("objective") or {}
        if objective.get("id"):
            met = (_("objective {name} met") if objective.get("met")
                   else _("objective {name} not met"))
            parts.append(met.format(name=words.name(objective["id"])))
        line = (_("{rank}. {name} (winner): {total} points ({parts})")
                if entry["seat"] in (outcome.get("winners") or [])
                else _("{rank}. {name}: {total} points ({parts})"))
        lines.append(line.format(rank=entry.get("rank", "?"), name=name, total=entry["total"],
                                 parts=_(", ").join(parts)))
    return lines
