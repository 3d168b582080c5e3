"""Subjects that tell the news: "Ana restored the Emerald Tablet — your turn 7 (q1h7sz6b)".

`news(events, names, seat)` picks the most telling thing the others did in the events a mail
covers (a relic restored beats an item bought beats a tile collected), told as the player may
know it: the events are those the mail's "since your last turn" tells, and only public facts
(what was restored, bought, collected, taken) are named. A pure function of plain values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.text.wording import component_name, the

# Most telling first: the first kind found among the events gives the headline.
_NEWS = (
    ("game_ended", lambda e, who: "the game is over"),
    ("relic_restored", lambda e, who: f"{who} restored {the(e['relic'])}"),
    ("royalty_token_taken", lambda e, who: f"{who} reached the Castle"),
    ("iridia_stone_taken", lambda e, who: f"{who} took the Iridia Stone"),
    ("item_bought", lambda e, who: f"{who} bought {the(e['item'])}"),
    ("item_played", lambda e, who: f"{who} played {the(e['item'])}"),
    ("relic_reserved", lambda e, who: f"{who} reserved {the(e['relic'])}"),
    ("tile_collected", lambda e, who: f"{who} collected the {component_name(e['tile'])} tile"),
    ("tile_removed", lambda e, who: f"{who} removed the tile at {e['hex']}"),
)
_ORDER = {kind: rank for rank, (kind, _) in enumerate(_NEWS)}
# Subjects are kept short enough for a phone's list of mail.
LONGEST = 110


def news(events: Iterable[Mapping], names: Mapping[int, str], seat: int | None) -> str | None:
    """The headline of what the others (not `seat`) did in `events`, None when nothing telling
    happened. The latest of the most telling kind wins."""
    best: tuple[int, int, Mapping] | None = None
    for index, event in enumerate(events):
        kind = event.get("type")
        rank = _ORDER.get(kind)
        if rank is None or (event.get("seat") == seat and kind != "game_ended"):
            continue
        if best is None or (rank, -index) < (best[0], -best[1]):
            best = (rank, index, event)
    if best is None:
        return None
    event = best[2]
    who = names.get(event.get("seat"), "someone")
    return _NEWS[best[0]][1](event, who)


def subject_with_news(headline: str | None, what: str, game_id: str) -> str:
    """"HEADLINE — WHAT (GAME)", or "WHAT (GAME)" when there is no news; capitalised."""
    text = f"{headline} — {what}" if headline else what
    text = text[:1].upper() + text[1:]
    if len(text) > LONGEST:
        text = text[:LONGEST - 1].rstrip() + "…"
    return f"{text} ({game_id})"
