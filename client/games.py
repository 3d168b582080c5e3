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

from client import server_words
from client.http import ApiClient
from client.i18n import _, engine_catalog
from engine.text.narrate import narrate


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
    """The events after ``after``. Without ``wait``, all of them: the server answers at most
    its ``limit`` at a time, so this asks again after the last one until it has the game's
    version."""
    params = {"after": after}
    if wait:
        params["wait"] = int(wait)
        return api.get(f"/games/{game_id}/events", params=params, read_timeout=wait + 30.0)
    data = api.get(f"/games/{game_id}/events", params=params, read_timeout=30.0)
    events = list(data.get("events") or [])
    while events and int(events[-1].get("seq") or 0) < int(data.get("version") or 0):
        more = api.get(f"/games/{game_id}/events",
                       params={"after": events[-1]["seq"]}, read_timeout=30.0)
        if not more.get("events"):
            break
        events.extend(more["events"])
        data = more
    return {**data, "events": events}


def engine_event(stored: dict) -> dict:
    """An event as the API serves it ({seq, type, payload, ...}) in the engine's JSON form."""
    payload = dict(stored.get("payload") or {})
    payload.setdefault("type", stored.get("type"))
    return payload


def tell(events: list[dict], game: dict, continued_heading: bool = False) -> list[str]:
    """The events as sentences (engine/text/narrate.py), grouped by turn, from my seat's side.

    A batch that starts in the middle of a turn has no heading unless `continued_heading`."""

    lines: list[str] = []
    names = {seat: name for seat, name in seat_names(game).items() if isinstance(seat, int)}
    for player in game.get("players") or []:
        if player.get("kind") == "rhom" and player.get("seat") is not None:
            names[player["seat"]] = _("the Rhom")  # as the rulebook and the emails call it
    for story in narrate([engine_event(e) for e in events], names, game.get("my_seat"),
                         translations=engine_catalog()):
        headed = story.kind != "continued" or continued_heading
        if headed:
            lines.append(story.heading)
        lines.extend(("  " if headed else "") + sentence for sentence in story.sentences)
    return lines


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
        return _("The game is over.")
    if game.get("status") == "open":
        return _("The game has not started.")
    if game.get("is_my_turn"):
        pending = game.get("pending_kind")
        return (_("Your move ({pending}).").format(pending=server_words.pending_kind(pending)) if pending and pending != "turn"
                else _("Your turn."))
    names = seat_names(game)
    for player in game.get("players") or []:
        if player.get("kind") == "rhom" and player.get("seat") is not None:
            names[player["seat"]] = _("the Rhom")
    # Players see names, never seat numbers.
    return _("Waiting for {name}.").format(name=names.get(game.get("current_seat"), "?"))
