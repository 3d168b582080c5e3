"""The Rhom's whole turn (RULINGS §8). Work in progress."""

from __future__ import annotations

import random

from .acc import Acc
from .errors import IllegalCommand


def rhom_turn(acc: Acc, rng: random.Random) -> None:
    raise IllegalCommand("the Rhom is not implemented yet")
