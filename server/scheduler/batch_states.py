"""The current states of a batch of claimed games, derived with two statements for the lot.

    preload_states(session, games)   # then load_state / apply_command find them in the cache

Each game's latest snapshot, then the events after it, for every game of the batch at once
instead of two statements per game; the states go in the state cache, where `load_state` and
`apply_command` find them. The games are claimed, so their logs up to their versions are
committed and final. Both statements are built once (the OR of one condition per game was built
and compiled for every batch: a tenth of a turn).
"""

import functools

from sqlalchemy import and_, bindparam, func, or_, select

import engine
from server.games.cache import CACHE
from server.storage.models import Event, Game, Snapshot

_LATEST = (
    select(Snapshot.game_id, func.max(Snapshot.version).label("version"))
    .where(Snapshot.game_id.in_(bindparam("ids", expanding=True)))
    .group_by(Snapshot.game_id)
    .subquery()
)
_SNAPSHOTS = select(Snapshot.game_id, Snapshot.version, Snapshot.state).join(
    _LATEST, (Snapshot.game_id == _LATEST.c.game_id) & (Snapshot.version == _LATEST.c.version)
)


@functools.cache
def _events_after(count: int):
    """The events after each of `count` games' bases (g0/b0, g1/b1, ...): one index range per
    game. (A join on the latest snapshots instead made PostgreSQL read each game's whole log.)"""
    return (
        select(Event.game_id, Event.seq, Event.payload)
        .where(or_(*(and_(Event.game_id == bindparam(f"g{i}"), Event.seq > bindparam(f"b{i}"))
                     for i in range(count))))
        .order_by(Event.game_id, Event.seq)
    )


def preload_states(session, games: list[Game]) -> None:
    """Put the claimed games' current states in the state cache. A game whose rows do not add
    up is left to `load_state`, which says what is wrong."""

    need = {g.id: g for g in games if g.version > 0 and CACHE.get(g.id, g.version) is None}
    if not need:
        return
    connection = session.connection()
    bases: dict[str, tuple[int, object]] = {game_id: (0, None) for game_id in need}
    for game_id, version, state in connection.execute(_SNAPSHOTS, {"ids": list(need)}):
        if version <= need[game_id].version:
            bases[game_id] = (version, state)
    for game_id, game in need.items():
        base, state = bases[game_id]
        cached = CACHE.best_below(game_id, game.version)
        if cached is not None and cached[0] >= base:
            bases[game_id] = cached
        elif state is not None:
            bases[game_id] = (base, engine.state_from_dict(state))
    # Padded to a multiple of ten (the last game again): a few statements to compile, not one
    # per batch size.
    ranges = [(game_id, base) for game_id, (base, _state) in bases.items()]
    ranges += [ranges[-1]] * (-len(ranges) % 10)
    parameters = {}
    for i, (game_id, base) in enumerate(ranges):
        parameters[f"g{i}"], parameters[f"b{i}"] = game_id, base
    events: dict[str, list] = {game_id: [] for game_id in need}
    for game_id, seq, payload in connection.execute(_events_after(len(ranges)), parameters):
        events[game_id].append((seq, payload))
    for game_id, (base, state) in bases.items():
        version = need[game_id].version
        # (a padded game's events come twice: each is taken once)
        payloads = {seq: p for seq, p in events[game_id] if seq <= version}
        if base + len(payloads) == version:
            state = engine.replay([engine.event_from_dict(payloads[seq])
                                   for seq in sorted(payloads)], state)
            CACHE.put(game_id, version, state)
