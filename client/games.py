"""Game helpers shared by the looking, acting and following commands.

The client remembers, per server and game, the version the user last saw (in the XDG state
directory). A command is sent with that version as its expected version, so when somebody
acted in between the server answers 409 and the client shows what changed instead of playing a
move decided on an out-of-date board.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from client.http import ApiClient


def state_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return Path(base) / "iridescia" / "seen.json"


def _load_seen() -> dict:
    try:
        return json.loads(state_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def seen_version(api: ApiClient, game_id: str) -> int | None:
    value = _load_seen().get(f"{api.server} {game_id}")
    return int(value) if isinstance(value, int) else None


def remember_version(api: ApiClient, game_id: str, version: int | None) -> None:
    if version is None:
        return
    seen = _load_seen()
    seen[f"{api.server} {game_id}"] = int(version)
    path = state_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(seen, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # only a convenience: without it the client uses the server's current version


def fetch_game(api: ApiClient, game_id: str) -> dict:
    return api.get(f"/games/{game_id}")


def fetch_view(api: ApiClient, game_id: str, version: int | None = None) -> dict:
    params = {"version": version} if version is not None else None
    return api.get(f"/games/{game_id}/view", params=params)


def fetch_events(api: ApiClient, game_id: str, after: int = 0, wait: float | None = None) -> dict:
    params = {"after": after}
    if wait:
        params["wait"] = int(wait)
    return api.get(
        f"/games/{game_id}/events", params=params, read_timeout=(wait or 0) + 30.0
    )


def _value_text(value) -> str:
    if isinstance(value, list):
        return ",".join(_value_text(v) for v in value) or "-"
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={_value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


SKIPPED_FIELDS = {"type", "v", "seat"}


def describe_event(event: dict, names: dict | None = None) -> str:
    """One line for an event of the log: `#12 seat 1 (Ada): tiles revealed hexes=3c,3d`."""
    payload = event.get("payload") or {}
    seat = payload.get("seat")
    actor = event.get("actor")
    who = ""
    if seat is not None:
        who = f"seat {seat}"
        if names and seat in names:
            who += f" ({names[seat]})"
        who += ": "
    elif actor:
        who = f"{(names or {}).get(actor, actor)}: "
    shown = {k: v for k, v in payload.items() if k not in SKIPPED_FIELDS and v is not None}
    if payload.get("type") == "game_started" or event.get("type") == "game_started":
        # The layout and decks are hidden or huge: the options say what kind of game it is.
        shown = {k: v for k, v in shown.items() if k in ("options", "seats")}
    fields = " ".join(f"{key}={_value_text(value)}" for key, value in shown.items())
    kind = str(event.get("type") or payload.get("type") or "event").replace("_", " ")
    text = f"#{event.get('seq', '?')} {who}{kind}"
    return f"{text} {fields}" if fields else text


def seat_names(game: dict) -> dict:
    """Names by seat number, and by the server's actor string (`user:<id>`) for events that
    belong to no seat (the game's start)."""
    names: dict = {}
    for player in game.get("players", []):
        name = player.get("name") or "?"
        if player.get("seat") is not None:
            names[player["seat"]] = name
        if player.get("user_id") is not None:
            names[f"user:{player['user_id']}"] = name
    return names


def whose_turn(game: dict) -> str:
    if game.get("status") == "finished":
        return "The game is over."
    if game.get("status") == "open":
        return "The game has not started."
    if game.get("is_my_turn"):
        pending = game.get("pending_kind")
        return f"Your move ({pending})." if pending and pending != "turn" else "Your turn."
    seat = game.get("current_seat")
    names = seat_names(game)
    return f"Waiting for seat {seat} ({names.get(seat, '?')})."
