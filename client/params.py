"""Click parameter types for the things a player names: gems, hexes, component ids, seats, dice.

Each one accepts what a person would type (`Em`, `5C`, `Jolty Jackhammer`) and turns it into the
engine's spelling, or fails with a usage error (exit 2) that quotes the input.
"""

from __future__ import annotations

import click

from client.names import parse_gem, to_id


class GemType(click.ParamType):
    name = "GEM"

    def convert(self, value, param, ctx):
        try:
            return parse_gem(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class IdType(click.ParamType):
    """A component id typed as its name in any case, with spaces, dashes or underscores."""

    def __init__(self, name: str):
        self.name = name

    def convert(self, value, param, ctx):
        return to_id(value)


class HexType(click.ParamType):
    name = "HEX"

    def convert(self, value, param, ctx):
        text = value.strip().lower()
        if len(text) < 2 or not text[:-1].isdigit() or not text[-1].isalpha():
            self.fail(f"{value!r} is not a hex: write a row number and a letter, like 5c", param,
                      ctx)
        return text


GEM = GemType()
HEX = HexType()


class RecipientType(click.ParamType):
    name = "SEAT|supply"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value is None:
            return value
        if value.strip().lower() == "supply":
            return None
        try:
            return int(value)
        except ValueError:
            self.fail(f"{value!r} is not a seat number or 'supply'", param, ctx)


def parse_die(text: str) -> str:
    """`roll:1`, `1` (a pending die), `market:emerald` or `emerald` (a gem market die)."""
    value = text.strip().lower()
    kind, _, rest = value.partition(":")
    if rest:
        if kind == "roll" and rest.isdigit():
            return f"roll:{int(rest)}"
        if kind == "market":
            return f"market:{parse_gem(rest)}"
        raise ValueError(f"{text!r} is not a die: use roll:N or market:GEM")
    if value.isdigit():
        return f"roll:{int(value)}"
    return f"market:{parse_gem(value)}"


def parse_delta(text: str) -> int:
    try:
        delta = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a change: use +1, -1, +2 or -2") from None
    if delta == 0 or abs(delta) > 2:
        raise ValueError(f"{text!r} is not a change: use +1, -1, +2 or -2")
    return delta
