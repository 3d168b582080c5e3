"""The options a game is created with (RULINGS §9), stored in its first event."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from engine.errors import InvalidCommand

_FIELDS = {"players", "rhom", "mining_cost", "leftover_gems", "catapult_4th"}


@dataclass(frozen=True)
class Options:
    players: int = 2
    rhom: bool = False
    mining_cost: int = 1
    leftover_gems: str = "any"
    catapult_4th: bool = False

    @property
    def participants(self) -> int:
        return self.players + (1 if self.rhom else 0)

    @property
    def solo(self) -> bool:
        return self.players == 1

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: object) -> Options:
        """Parse and check options; a solo game always gets the Rhom."""
        if not isinstance(d, dict):
            raise InvalidCommand("options must be an object, got {options!r}", options=d)
        unknown = set(d) - _FIELDS
        if unknown:
            raise InvalidCommand("unknown option(s) {unknown}; known: {known}",
                                 unknown=sorted(unknown), known=sorted(_FIELDS))
        players = d.get("players", 2)
        if type(players) is not int or not 1 <= players <= 4:
            raise InvalidCommand("players must be 1 to 4, got {players!r}", players=players)
        rhom = d.get("rhom", players == 1)
        if type(rhom) is not bool:
            raise InvalidCommand("rhom must be true or false, got {rhom!r}", rhom=rhom)
        if players == 1:
            rhom = True
        if rhom and players > 2:
            raise InvalidCommand("the Rhom can join only a 1- or 2-player game, not {players} players",
                                 players=players)
        mining_cost = d.get("mining_cost", 1)
        if mining_cost not in (1, 3) or type(mining_cost) is not int:
            raise InvalidCommand("mining_cost must be 1 or 3, got {mining_cost!r}", mining_cost=mining_cost)
        leftover = d.get("leftover_gems", "any")
        if leftover not in ("any", "same_type"):
            raise InvalidCommand("leftover_gems must be 'any' or 'same_type', got {leftover!r}",
                                 leftover=leftover)
        catapult = d.get("catapult_4th", False)
        if type(catapult) is not bool:
            raise InvalidCommand("catapult_4th must be true or false, got {catapult!r}", catapult=catapult)
        if catapult and players != 4:
            raise InvalidCommand("catapult_4th needs 4 players, not {players}", players=players)

        return cls(players, rhom, mining_cost, leftover, catapult)
