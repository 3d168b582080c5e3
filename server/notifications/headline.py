"""Subjects that tell the news: "Ana restored the Emerald Tablet — your turn 7 (q1h7sz6b)".

`news(events, names, seat)` picks the most telling thing the others did in the events a mail
covers (a relic restored beats an item bought beats a tile collected), told as the player may
know it: the events are those the mail's "since your last turn" tells, and only public facts
(what was restored, bought, collected, taken) are named. A pure function of plain values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.text.wording import Words
from server import i18n
from server.i18n import N_

# Most telling first: the first kind found among the events gives the headline. Each is a
# message of the catalog; `{who}` is a name, the others printed names in the reader's language.
_NEWS = (
    ("game_ended", N_("the game is over"), lambda e, w: {}),
    ("relic_restored", N_("{who} restored {relic}"), lambda e, w: {"relic": w.the(e["relic"])}),
    ("royalty_token_taken", N_("{who} reached the Castle"), lambda e, w: {}),
    ("iridia_stone_taken", N_("{who} took the Iridia Stone"), lambda e, w: {}),
    ("item_bought", N_("{who} bought {item}"), lambda e, w: {"item": w.the(e["item"])}),
    ("item_played", N_("{who} played {item}"), lambda e, w: {"item": w.the(e["item"])}),
    ("relic_reserved", N_("{who} reserved {relic}"), lambda e, w: {"relic": w.the(e["relic"])}),
    ("tile_collected", N_("{who} collected the {tile} tile"),
     lambda e, w: {"tile": w.name(e["tile"])}),
    ("tile_removed", N_("{who} removed the tile at {hex}"), lambda e, w: {"hex": e["hex"]}),
)
_ORDER = {kind: rank for rank, (kind, *_said) in enumerate(_NEWS)}
# Subjects are kept short enough for a phone's list of mail.
LONGEST = 110


def news(events: Iterable[Mapping], names: Mapping[int, str], seat: int | None,
         language: str | None = None) -> str | None:
    """The headline of what the others (not `seat`) did in `events`, None when nothing telling
    happened, in `language`. The latest of the most telling kind wins."""
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
    _kind, said, values = _NEWS[best[0]]
    who = names.get(event.get("seat"), i18n.gettext(language, N_("someone")))
    words = Words(i18n.engine_catalog(language))
    return i18n.gettext(language, said).format(who=who, **values(event, words))


def subject_with_news(headline: str | None, what: str, game_id: str,
                      language: str | None = None) -> str:
    """"HEADLINE — WHAT (GAME)", or "WHAT (GAME)" when there is no news; capitalised."""
    text = i18n.gettext(language, N_("{news} — {what}")).format(news=headline, what=what) \
        if headline else what
    text = text[:1].upper() + text[1:]
    if len(text) > LONGEST:
        text = text[:LONGEST - 1].rstrip() + "…"
    return f"{text} ({game_id})"
