"""What an email says: the template context for one notice, read from the game's log and its
state at the notice's version (the sender renders it later; the game has moved on since).

Keys: game_id, game_url, name, seat, your_turn, decision_kind, deadline, happened (lines),
board (text), me (coins, points, position, hold, items, objectives), scores, played, reason,
commands (show, legal, play).
"""

from datetime import datetime

from flask import current_app, has_app_context
from sqlmodel import select

from server.models import Command, Event, Game, Seat, User
from server.notifications.board_text import board_text
from server.notifications.render import commands

HAPPENED_LINES = 40
TURN_KINDS = {"game_started", "your_turn", "reminder", "deadline_warning"}


def base_url() -> str:
    if has_app_context():
        return current_app.config.get("BASE_URL", "").rstrip("/")
    from server.config import Settings

    return Settings.load().BASE_URL.rstrip("/")


def format_time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def _per_version(session, game: Game, version: int, what: str, compute):
    """`compute()` once per game version and transaction: the emails of one version (every
    player's game_over, a "played for you" and the next player's turn) share what they read.
    Kept in the session's `info` with the transaction it belongs to."""
    transaction = session.get_transaction()
    cache = session.info.get("iridescia.email_context")
    if cache is None or cache[0] is not transaction:  # a new transaction starts afresh
        cache = session.info["iridescia.email_context"] = (transaction, {})
    key = (what, game.id, version)
    if key not in cache[1]:
        cache[1][key] = compute()
    return cache[1][key]


def seat_names(session, game: Game, version: int) -> dict[int, str]:
    return _per_version(session, game, version, "names", lambda: _seat_names(session, game))


def _seat_names(session, game: Game) -> dict[int, str]:
    rows = session.exec(
        select(Seat, User)
        .join(User, Seat.user_id == User.id, isouter=True)
        .where(Seat.game_id == game.id)
    ).all()
    return {
        seat.seat: (seat.name or "a bot") if seat.kind == "bot" else
        ("the Rhom" if seat.kind == "rhom" or user is None else user.name)
        for seat, user in rows
        if seat.seat is not None
    }


def _display(component_id: str) -> str:
    from engine.data import display_name

    try:
        return display_name(component_id)
    except (KeyError, ValueError):
        return component_id.replace("_", " ")


def _named(value) -> str:
    """A component id as its printed name (tiles, items, relics...); anything else as it is."""
    if isinstance(value, str) and "_" in value:
        return _display(value)
    return str(value)


def _describe(payload: dict, names: dict[int, str]) -> str:
    """One line for an event: who, what (its type in words), and its plain fields."""
    who = names.get(payload.get("seat"), "")
    what = str(payload.get("type", "event")).replace("_", " ")
    details = []
    for key, value in payload.items():
        if key in ("type", "v", "seat"):
            continue
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            details.append(f"{key.replace('_', ' ')} {_named(value)}")
        elif isinstance(value, list) and value and all(isinstance(v, str | int) for v in value):
            details.append(f"{key.replace('_', ' ')} {', '.join(map(_named, value))}")
    line = f"{who}: {what}" if who else what
    return f"{line} ({'; '.join(details)})" if details else line


def happened_since_last_turn(
    session, game: Game, version: int, seat: int, names: dict[int, str]
) -> list[str]:
    """The events up to `version` after the player's own last command before it, redacted for
    them (the last 40)."""
    import engine

    own_last = _per_version(
        session,
        game,
        version,
        "commands",
        lambda: session.exec(
            select(Command.version, Command.command)
            .where(Command.game_id == game.id, Command.version < version)
            .order_by(Command.version)
        ).all(),
    )
    start = None
    for version, command in own_last:
        if command.get("seat") == seat:
            start = None
        elif start is None:
            start = version
    if start is None:
        return []
    rows = session.exec(
        select(Event.payload)
        .where(Event.game_id == game.id, Event.seq > start, Event.seq <= version)
        .order_by(Event.seq.desc())
        .limit(HAPPENED_LINES)
    ).all()
    return [_describe(engine.redact_event(payload, seat), names) for payload in reversed(rows)]


def _me(view: dict, seat: int) -> dict | None:
    player = next((p for p in view.get("players", []) if p.get("seat") == seat), None)
    if player is None:
        return None
    hold = ", ".join(
        f"{count} {gem}" for gem, count in sorted(player.get("hold", {}).items()) if count
    )
    return {
        "coins": player.get("coins", 0),
        "points": player.get("points", 0),
        "position": player.get("position"),
        "hold": hold,
        "items_held": ", ".join(_display(i) for i in player.get("items", [])),
        "objectives": ", ".join(_display(o) for o in player.get("objectives", []) or []),
    }


def _scores(state, names: dict[int, str]) -> list[dict]:
    import engine

    seats = engine.outcome(state).to_dict()["seats"]
    return sorted(
        (
            {
                "name": names.get(s["seat"], f"seat {s['seat']}"),
                "total": s["total"],
                "rank": s["rank"],
            }
            for s in seats
        ),
        key=lambda s: (s["rank"], s["name"]),
    )


def build_context(
    session,
    game: Game,
    version: int,
    state,
    kind: str,
    seat: int,
    name: str,
    extra: dict | None = None,
) -> dict:
    """The context of the `kind` notice to the player `name` at `seat`, about the game as it was
    at `version` (`state` is the engine state there). `extra` holds what was known only when the
    notice was queued: the deadline it quotes, the reason and commands of a turn played for them."""
    import engine

    extra = dict(extra or {})
    deadline = extra.pop("deadline", None)
    names = seat_names(session, game, version)
    over = engine.is_terminal(state)
    decision_kind = None if over else engine.pending_kind(state)
    your_turn = not over and kind in TURN_KINDS and engine.current_player(state) == seat
    view = engine.view(state, seat)
    return {
        "game_id": game.id,
        "game_url": f"{base_url()}/api/v1/games/{game.id}/view",
        "name": name,
        "seat": seat,
        "your_turn": your_turn,
        "decision_kind": decision_kind,
        "deadline": deadline if your_turn else None,
        "happened": happened_since_last_turn(session, game, version, seat, names),
        "board": board_text(view),
        "me": _me(view, seat),
        "scores": _scores(state, names) if over else [],
        "played": [],
        "reason": "",
        "commands": commands(game.id, decision_kind if your_turn else None),
        **extra,
    }
