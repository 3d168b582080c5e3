"""What a webhook delivery says: only what anyone watching the game may know.

Rendered when the delivery is first attempted, from the game as it was at the delivery's
version: whose turn it is, what the turn just ended did as a spectator is told it
(engine/text/narrate.py with no seat: no objective, deck order or face-down tile), the scores at the
end, and the game page's plain address (never a sign-in link). The owner's seat only decides
``your_turn``. The ``discord`` and ``slack`` formats carry the same words as one message, in the
body those incoming webhooks take (``{"content": ...}``, ``{"text": ...}``).
"""

from __future__ import annotations

import re

from sqlmodel import select

import engine
from engine.text.narrate import narrate
from engine.text.wording import clean
from server.games.service import load_state
from server.notifications.context import base_url, seat_names
from server.storage import json_codec
from server.storage.models import Event, Game

# The last turn is told from at most this many events (a round of four players is about 150).
HAPPENED_EVENTS = 200
DISCORD_LIMIT = 2000  # characters of a Discord message


def _last_turn(session, game: Game, version: int, names: dict[int, str],
               current: tuple[int, int] | None) -> list[str]:
    """The heading and sentences of the last turn told before the ``current`` one (number,
    seat), which has only just begun."""

    rows = session.exec(
        select(Event.payload).where(Event.game_id == game.id, Event.seq <= version)
        .order_by(Event.seq.desc()).limit(HAPPENED_EVENTS)
    ).all()
    stories = narrate(list(reversed(rows)), names, None)  # None: as a spectator sees it
    told = [story for story in stories if (story.number, story.seat) != current]
    if not told:
        return []
    return [told[-1].heading, *told[-1].sentences]


def _scores(state, names: dict[int, str]) -> list[dict]:

    outcome = engine.outcome(state).to_dict()
    winners = set(outcome["winners"])
    return sorted(({"seat": s["seat"], "player": names.get(s["seat"], f"seat {s['seat']}"),
                    "total": s["total"], "rank": s["rank"], "winner": s["seat"] in winners}
                   for s in outcome["seats"]), key=lambda s: (s["rank"], s["seat"]))


def document(session, game: Game, version: int, event: str, owner_seat: int | None,
             delivery_id: int) -> dict:
    """The JSON payload (docs/webhooks.md) of a delivery about ``game`` at ``version``."""

    state = load_state(session, game, version=version)
    names = {seat: clean(name) for seat, name in seat_names(session, game, version).items()}
    over = engine.is_terminal(state)
    turn = None
    if not over and state is not None and state.turn is not None:
        seat = engine.current_player(state)
        current = game.version == version  # the deadline of a later turn is not this one's
        turn = {"number": state.turn.number, "seat": seat, "player": names.get(seat, f"seat {seat}"),
                "decision": engine.pending_kind(state), "your_turn": seat == owner_seat,
                "deadline": game.deadline_at.isoformat() if current and game.deadline_at else None}
    return {
        "event": event,
        "delivery_id": delivery_id,
        "game": {"id": game.id, "url": f"{base_url()}/games/{game.id}", "version": version,
                 "status": "finished" if over else "active"},
        "turn": turn,
        "happened": _last_turn(session, game, version, names,
                               None if turn is None else (turn["number"], turn["seat"])),
        "scores": _scores(state, names) if over else None,
    }


def text(payload: dict) -> str:
    """The payload as one chat message."""
    game, turn = payload["game"], payload["turn"]
    if payload["scores"] is not None:
        lines = [f"Gems of Iridescia, game {game['id']} is over."]
        lines += [f"{s['rank']}. {s['player']}{' (winner)' if s['winner'] else ''}: "
                  f"{s['total']} points" for s in payload["scores"]]
    else:
        yours = ", yours" if turn["your_turn"] else ""
        lines = [f"Gems of Iridescia, game {game['id']}: it is {turn['player']}'s turn "
                 f"(turn {turn['number']}{yours})."]
    happened = payload["happened"]
    if happened:
        lines += [happened[0] + ":", *(f"- {sentence}" for sentence in happened[1:])]
    lines.append(game["url"])
    return "\n".join(lines)


def _slack_escaped(words: str) -> str:
    # Slack reads <...> as links and mentions (<!channel>): a player's name must not be one.
    return words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|<>\[\]()#:-])")


def _discord_escaped(words: str) -> str:
    # Discord reads markdown: a name like [your turn](https://evil.example) would be a link
    # that reads as anything, **x** or `x` would restyle the message. Every markdown character
    # is escaped, so the message shows exactly the words (our own link stays on its own line).
    *told, url = words.split("\n")
    return "\n".join([*(_DISCORD_MARKDOWN.sub(r"\\\1", line) for line in told), url])


def body(payload: dict, format: str) -> bytes:
    """The bytes POSTed in ``format`` (json, discord or slack)."""
    if format == "discord":
        words = _discord_escaped(text(payload))
        if len(words) > DISCORD_LIMIT:
            url = payload["game"]["url"]
            words = words[:DISCORD_LIMIT - len(url) - 3] + "…\n" + url
        # No @everyone, role or user ping, whatever a player named themselves.
        return json_codec.dumps({"content": words, "allowed_mentions": {"parse": []}}).encode()
    if format == "slack":
        return json_codec.dumps({"text": _slack_escaped(text(payload))}).encode()
    return json_codec.dumps(payload).encode()
