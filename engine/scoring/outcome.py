"""What final scoring gives: a `SeatScore` per participant and the table's `Outcome`.

Plain values that go to storage and the wire as dicts; `from_dict` checks the shape, since what it
reads comes from outside.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.scoring.tally import InvalidOutcome

_SCORE_FIELDS = ("in_game", "gems", "relic_sets", "tile_sets", "objective", "total", "rank")


@dataclass(frozen=True)
class SeatScore:
    """One participant's final score. `detail` is plain JSON: the chosen sets and wilds."""

    seat: int
    in_game: int
    gems: int
    relic_sets: int
    tile_sets: int
    objective: int
    total: int
    rank: int
    detail: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, **{name: getattr(self, name) for name in _SCORE_FIELDS},
                "detail": copy.deepcopy(self.detail)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatScore:
        if not isinstance(data, Mapping):
            raise InvalidOutcome(f"a seat's score must be an object, not {data!r}")
        values = {}
        for name in ("seat", *_SCORE_FIELDS):
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOutcome(f"seat score field {name!r} must be a whole number, "
                                     f"not {value!r}")
            values[name] = value
        detail = data.get("detail", {})
        if not isinstance(detail, Mapping):
            raise InvalidOutcome(f"seat score field 'detail' must be an object, not {detail!r}")
        return cls(**values, detail=copy.deepcopy(dict(detail)))


@dataclass(frozen=True)
class Outcome:
    """The final scores of every participant, in seat order."""

    seats: tuple[SeatScore, ...]

    def __getitem__(self, seat: int) -> SeatScore:
        for score in self.seats:
            if score.seat == seat:
                return score
        raise KeyError(seat)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (several when the tie stands)."""
        return tuple(score.seat for score in self.seats if score.rank == 1)

    def to_dict(self) -> dict[str, Any]:
        return {"seats": [score.to_dict() for score in self.seats],
                "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        if not isinstance(data, Mapping) or not isinstance(data.get("seats"), list):
            raise InvalidOutcome(f"an outcome must be an object with a 'seats' list, not {data!r}")
        return cls(tuple(SeatScore.from_dict(entry) for entry in data["seats"]))
