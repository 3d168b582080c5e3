"""The game state: a value derived by folding events (see engine/rules/evolve/).

States are treated as immutable: nothing in the engine changes a state it was given. `evolve`
shallow-copies what an event touches and replaces containers (tuples, frozensets, dicts) instead of
changing them in place, so unchanged parts are shared between successive states.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields

from engine.data import GEM_SUPPLY, GEMS, START_COINS, STONE_DICE
from engine.options import Options
from engine.versions import Rules, rules_for


def empty_hold() -> dict[str, int]:
    return {g: 0 for g in GEMS}


@dataclass
class Player:
    seat: int
    kind: str  # "human" | "rhom"
    player_id: str
    position: str | None = None  # None: the airship (before the first move) or finished
    coins: int = START_COINS
    hold: dict[str, int] = field(default_factory=empty_hold)
    items: tuple[str, ...] = ()
    stone_dice: int = 0
    points: int = 0
    tiles: tuple[str, ...] = ()
    relics: tuple[str, ...] = ()
    reserved_relics: tuple[str, ...] = ()
    royalty_token: str | None = None
    iridia_stone: bool = False
    finished: bool = False
    objectives: tuple[str, ...] = ()
    discarded_objective: str | None = None

    @property
    def gems(self) -> int:
        return sum(self.hold.values())


@dataclass
class Roll:
    """A pending roll: mining ("mine") or the Wishing Well ("wishing_well")."""

    kind: str
    dice: tuple[int, ...]  # mining dice
    stone: tuple[int, ...] = ()  # active stone dice

    @property
    def values(self) -> tuple[int, ...]:
        """All dice; `roll:<i>` indexes this."""
        return self.dice + self.stone


@dataclass
class Turn:
    seat: int
    kind: str  # "turn" | "removal" | "rhom"
    number: int
    extra: bool = False  # a turn granted by the Epic Elixir
    phase: str = "reveal"  # "reveal" | "move" | "actions" | "restore"
    revealed: tuple[str, ...] = ()
    relocations: tuple[str, ...] = ()  # hexes relocated from this turn (no going back to them)
    tile_gem: str | None = None  # the gem of the tile stood on (chosen on a rainbow tile)
    choosing_gem: bool = False
    active_stone_dice: int = 0
    sold: bool = False
    bought: bool = False
    mine_cart: bool = False
    pickaxe: str | None = None
    elixir: bool = False  # an Epic Elixir was played: another turn follows
    roll: Roll | None = None
    # Undo within the turn (engine/rules/undo.py): the state before the first step that may be taken
    # back (None: nothing may be), how many steps lie after it (the events: State.undo_events),
    # and what stopped an earlier undo (the reason a refused undo gives).
    undo_base: State | None = None
    undo_steps: int = 0
    undo_sealed_by: str | None = None

    @property
    def at_start(self) -> bool:
        """Nothing done yet: start-of-turn items may be played."""
        return self.phase == "reveal" and not self.revealed and not self.relocations


@dataclass
class State:
    rules_version: str
    options: Options
    players: tuple[Player, ...]
    board: dict[str, str]  # hex -> tile id, for every hex that still holds a tile
    revealed: frozenset[str] = frozenset()
    barricades: frozenset[str] = frozenset()
    gem_values: dict[str, int] = field(default_factory=lambda: {g: 2 for g in GEMS})
    supply: dict[str, int] = field(default_factory=lambda: {g: GEM_SUPPLY for g in GEMS})
    stone_pool: int = STONE_DICE
    market: tuple[str, ...] = ()
    item_deck: tuple[str, ...] = ()
    item_discard: tuple[str, ...] = ()
    relic_row: tuple[str, ...] = ()
    relic_deck: tuple[str, ...] = ()
    royalty_tokens: tuple[str, ...] = ()
    rhom_deck: tuple[int, ...] = ()
    rhom_discard: tuple[int, ...] = ()
    rhom_card: int | None = None
    barricades_left: int = 0
    turn: Turn | None = None
    over: bool = False
    # How many events follow turn.undo_base (meaningful while it is set; engine/rules/undo.py).
    undo_events: int = 0

    def copy(self) -> State:
        new = object.__new__(self.__class__)  # _shallow, inlined: every event copies the state
        new.__dict__ = self.__dict__.copy()
        return new

    def edit_player(self, seat: int) -> Player:
        """Replace players[seat] (on this already-copied state) by a copy and return it."""
        players = self.players
        before = players[seat]
        p = object.__new__(before.__class__)  # _shallow, inlined: most events change a player
        p.__dict__ = before.__dict__.copy()
        self.players = players[:seat] + (p,) + players[seat + 1 :]
        return p

    def edit_turn(self) -> Turn:
        assert self.turn is not None
        self.turn = _shallow(self.turn)
        return self.turn

    @property
    def rules(self) -> Rules:
        """The behaviour switches of the rules version this game was created under."""
        return rules_for(self.rules_version)

    @property
    def rhom_seat(self) -> int | None:
        return 0 if self.options.rhom else None


def _shallow(obj):
    """A shallow copy, faster than copy.copy for these plain dataclasses."""
    new = object.__new__(obj.__class__)
    new.__dict__ = obj.__dict__.copy()
    return new


def _to_json(v):
    if isinstance(v, (tuple, list)):
        return [_to_json(x) for x in v]
    if isinstance(v, frozenset):
        return sorted(v)
    if isinstance(v, dict):
        return {k: _to_json(x) for k, x in v.items()}
    if isinstance(v, Options):
        return v.to_dict()
    if hasattr(v, "__dataclass_fields__"):
        return {f.name: _to_json(getattr(v, f.name)) for f in fields(v)}
    return v


def state_to_dict(state: State) -> dict:
    return _to_json(state)


def _tuple(v):
    return tuple(v)


def _from(cls, d: dict, converters: dict):
    kwargs = {}
    for name in _field_names(cls):
        if name not in d:  # a snapshot stored before the field existed: its default
            continue
        v = d[name]
        conv = converters.get(name)
        kwargs[name] = conv(v) if conv is not None and v is not None else v
    return cls(**kwargs)


@functools.cache
def _field_names(cls) -> tuple[str, ...]:
    # dataclasses.fields() builds its tuple anew at each call: over half of parsing a snapshot
    # (a state, its players, its turn and the turn's undo base) went there.
    return tuple(f.name for f in fields(cls))


_PLAYER = {k: _tuple for k in ("items", "tiles", "relics", "reserved_relics", "objectives")}
_PLAYER["hold"] = dict


def _roll(d):
    return _from(Roll, d, {"dice": _tuple, "stone": _tuple})


def _turn(d):
    return _from(Turn, d, {"revealed": _tuple, "relocations": _tuple, "roll": _roll,
                           "undo_base": state_from_dict})


def state_from_dict(d: dict) -> State:
    return _from(
        State,
        d,
        {
            "options": Options.from_dict,
            "players": lambda ps: tuple(_from(Player, p, _PLAYER) for p in ps),
            "board": dict,
            "revealed": frozenset,
            "barricades": frozenset,
            "gem_values": dict,
            "supply": dict,
            "market": _tuple,
            "item_deck": _tuple,
            "item_discard": _tuple,
            "relic_row": _tuple,
            "relic_deck": _tuple,
            "royalty_tokens": _tuple,
            "rhom_deck": _tuple,
            "rhom_discard": _tuple,
            "turn": _turn,
        },
    )
