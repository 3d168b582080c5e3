"""Bot levels: `easy`, `medium` and `hard`, the names players choose bots and stand-ins by.

- `easy` is the cautious policy (cautious.py): it reveals, moves, answers, restores and ends the
  turn, and never spends a coin or an item of the player's.
- `medium` is the greedy one-step heuristic (greedy.py).
- `hard` is the tuned heuristic checked by a short search (hard.py).

The names the server used before the levels (`random`, `cautious`, `greedy`, `strong`) are still
accepted wherever a level is (the API, the command line, mail, games stored with them) and mean
the level in `OLD_NAMES`. docs/bots.md has the measured ladder.
"""

from __future__ import annotations

LEVELS = ("easy", "medium", "hard")
OLD_NAMES = {"random": "easy", "cautious": "easy", "greedy": "medium", "strong": "hard"}
# Every name a level may be given by.
NAMES = LEVELS + tuple(OLD_NAMES)


class UnknownLevel(ValueError):
    """A bot level that is neither a level nor one of the old names."""

    def __init__(self, name):
        super().__init__(f"there is no bot level {name!r}: choose easy, medium or hard")
        self.name = name


def level_of(name: str) -> str:
    """The level `name` means: a level itself, or the level an old name stands for."""
    key = str(name).strip().lower()
    if key in LEVELS:
        return key
    if key in OLD_NAMES:
        return OLD_NAMES[key]
    raise UnknownLevel(name)
