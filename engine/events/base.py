"""The base of every event (engine/events/): a frozen dataclass whose list and dict fields are
frozen into tuples on creation, and their thawing back for JSON."""

from __future__ import annotations

from dataclasses import dataclass

SCHEMA_VERSION = 1


def _freeze(v):
    if isinstance(v, list | tuple):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return {k: _freeze(x) for k, x in v.items()}
    return v


# Values stored as they are: most event fields are one of these, and need no look inside.
_SCALARS = frozenset({int, str, bool, type(None)})


def _thaw(v):
    if isinstance(v, list | tuple):
        return [_thaw(x) for x in v]
    if isinstance(v, dict):
        return {k: _thaw(x) for k, x in v.items()}
    return v


@dataclass(frozen=True)
class Event:
    type = ""

    def __post_init__(self):
        for name, v in self.__dict__.items():
            if v.__class__ in _SCALARS:
                continue
            if isinstance(v, (list, dict)) or (isinstance(v, tuple) and any(isinstance(x, (list, dict)) for x in v)):
                object.__setattr__(self, name, _freeze(v))
