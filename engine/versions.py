"""Rules versions: what changed between them, as switches the engine reads from the game's state.

Every game records the rules version it was created under (`game_started.rules_version`) and is
played, replayed, re-decided and scored under it for its whole life. A new version adds a
`Rules` profile below with the switches that differ; the code keeps both branches of each switch.
We keep switches rather than an importable copy of an older engine: the changes are a handful of
lines each, a copy would be ~4000 lines that every later fix (and every refactoring) would have to
leave untouched, and the recorded games under tests/engine/recorded/ prove both versions at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidCommand, Listed


class UnsupportedRulesVersion(InvalidCommand):
    """A game names a rules version this engine cannot play."""


@dataclass(frozen=True)
class Rules:
    """One rules version's behaviour switches (docs/rulings.md says which ruling each holds)."""

    version: str
    # R22: a rival's rainbow/Iridia tiles and Iridia relics count for no type in "most" goals.
    wilds_for_owner_only: bool
    # R23: the Rhom's merchant card leaves the game instead of going to the discard pile.
    rhom_keeps_merchant_card: bool
    # R24: the Rhom restores at once when a player gives it gems, not only on its turn.
    rhom_restores_when_given: bool
    # R16/R25: the Regal Reference Book lists the deck by name and shuffles it after a search.
    relic_deck_search_hidden: bool
    # R6/R26: buying and selling leave a pending roll pending.
    roll_survives_trade: bool
    # R27: a two-hex reveal is one command whatever the order (hexes in board order).
    reveal_in_board_order: bool
    # R28: the server's automatic removal takes a tile the rearmost explorer could move onto.
    removal_near_rearmost: bool


PROFILES: dict[str, Rules] = {
    "1": Rules("1", False, False, False, False, False, False, False),
    "2": Rules("2", True, True, True, True, True, True, True),
}
RULES_VERSION = "2"  # what new games are created under
SUPPORTED_VERSIONS = tuple(PROFILES)


def rules_for(version: str | None) -> Rules:
    """The profile of `version` (None: the current one); UnsupportedRulesVersion otherwise."""
    if version is None:
        return PROFILES[RULES_VERSION]
    try:
        return PROFILES[version]
    except (KeyError, TypeError):
        raise UnsupportedRulesVersion(
            "this server cannot play rules version {version!r}: it plays {supported} (new games "
            "get {current})", version=version, supported=Listed(SUPPORTED_VERSIONS),
            current=RULES_VERSION) from None

