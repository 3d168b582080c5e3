"""Card help: every card of engine/data.py with its words (engine/text/card_text.py), as one catalogue
(`GET /api/v1/rules/cards`), looked up by name or id (`iridescia explain NAME`) and told in lines.

It describes cards, never who holds them: nothing here reads a game. Each function takes the
reader's catalog (engine/text/language.py; None: English).
"""

from __future__ import annotations

import difflib
import re
import textwrap

from engine.data import GEMS, ITEM_COPIES, ITEMS, OBJECTIVES, RELICS, TILES, display_name
from engine.text.card_text import item_text, objective_condition, relic_text, tile_bonus_text
from engine.text.language import ENGLISH, Catalog
from engine.text.wording import GEM_LETTERS
from engine.versions import rules_for

WIDTH = 80


def catalogue(rules_version: str | None = None, translations: Catalog | None = None) -> dict:
    """Every item, objective, relic and tile with its text, under `rules_version` (None: the
    current one; UnsupportedRulesVersion for one this engine cannot play), in the language of
    `translations` (the names too; the ids stay)."""
    version = rules_for(rules_version).version
    t = translations or ENGLISH
    return {
        "rules_version": version,
        "items": [_item(item_id, version, t) for item_id in ITEMS],
        "objectives": [_objective(objective_id, version, t) for objective_id in OBJECTIVES],
        "relics": [_relic(relic_id, t) for relic_id in RELICS],
        "tiles": [_tile(tile_id, t) for tile_id in TILES],
    }


def _item(item_id: str, version: str, t: Catalog) -> dict:
    item = ITEMS[item_id]
    timing, effect = item_text(item_id, version, t)
    return {"kind": "item", "id": item.id, "name": t.gettext(item.name), "cost": item.cost,
            "copies": ITEM_COPIES, "start_of_turn": item.start_of_turn, "timing": timing,
            "effect": effect}


def _objective(objective_id: str, version: str, t: Catalog) -> dict:
    objective = OBJECTIVES[objective_id]
    return {"kind": "objective", "id": objective.id, "name": t.gettext(objective.name),
            "points": objective.points,
            "condition": objective_condition(objective_id, version, t)}


def _relic(relic_id: str, t: Catalog) -> dict:
    relic = RELICS[relic_id]
    return {"kind": "relic", "id": relic.id, "name": t.gettext(relic.name),
            "category": relic.category,
            "lead_gem": relic.lead_gem, "gems": {gem: relic.requirement().get(gem, 0)
                                                 for gem in GEMS},
            "points": relic.points, "text": relic_text(relic_id, t)}


def _tile(tile_id: str, t: Catalog) -> dict:
    tile = TILES[tile_id]
    return {"kind": "tile", "id": tile.id, "name": t.gettext(display_name(tile_id)),
            "region": tile.region, "gem": tile.gem, "rainbow": tile.rainbow,
            "iridia": tile.iridia, "bonus": tile.bonus.to_dict() if tile.bonus else None,
            "text": tile_bonus_text(tile, t)}


class UnknownCard(LookupError):
    """No card has the name asked for; the message suggests the nearest names."""


def _key(text: str) -> str:
    """Letters and digits only (any script: a Japanese name is its own key), in lower case."""
    return re.sub(r"[\W_]", "", text.lower())


def _cards(catalogue_: dict) -> list[dict]:
    return [card for kind in ("items", "objectives", "relics", "tiles")
            for card in catalogue_[kind]]


def find(name: str, rules_version: str | None = None,
         translations: Catalog | None = None) -> list[dict]:
    """The cards `name` names: by id or printed name (case, spaces, `_` and `-` do not matter;
    in the catalog's language or English), else every card whose id or name contains it.
    UnknownCard when none does."""
    wanted = _key(name)
    cards = _cards(catalogue(rules_version, translations))
    english = {(card["kind"], card["id"]): card["name"] for card in _cards(catalogue(rules_version))}
    cards = [dict(card, english=english[(card["kind"], card["id"])]) for card in cards]
    if not wanted:
        raise UnknownCard("name a card: `iridescia explain` lists them all")
    exact = [c for c in cards if wanted in (_key(c["id"]), _key(c["name"]), _key(c["english"]))]
    if exact:
        return [_without_english(c) for c in exact]
    partial = [c for c in cards if wanted in _key(c["id"]) or wanted in _key(c["name"])
               or wanted in _key(c["english"])]
    if partial:
        return [_without_english(c) for c in partial]
    names = list(dict.fromkeys(c["name"] for c in cards))
    by_key = {_key(n): n for n in names}
    close = [by_key[k] for k in difflib.get_close_matches(wanted, list(by_key), n=3, cutoff=0.6)]
    hint = f"; did you mean {_or_list(close)}?" if close else ""
    raise UnknownCard(f"no card named {name!r}{hint} (`iridescia explain` lists every card)")


def _without_english(card: dict) -> dict:
    return {key: value for key, value in card.items() if key != "english"}


def _or_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _width(text: str) -> int:
    """WIDTH columns: a wide (CJK) character takes two of them."""
    return WIDTH // 2 if any(ord(char) >= 0x2E80 for char in text) else WIDTH


def _wrapped(label: str, text: str) -> list[str]:
    lines = textwrap.wrap(f"{label}{text}", _width(text), initial_indent="  ",
                          subsequent_indent="    ", break_on_hyphens=False)
    # Japanese is cut anywhere: a line never starts with its closing punctuation.
    for i in range(len(lines) - 1, 0, -1):
        rest = lines[i].lstrip()
        if rest[:1] in "。、）":
            lines[i - 1] += rest[0]
            lines[i] = lines[i][:len(lines[i]) - len(rest)] + rest[1:]
            if not lines[i].strip():
                del lines[i]
    return lines


def explain_lines(cards: list[dict], translations: Catalog | None = None) -> list[str]:
    """`iridescia explain NAME`: each card told in a few lines (identical tiles once)."""
    _ = (translations or ENGLISH).gettext
    lines: list[str] = []
    tiles_by_name: dict[str, list[dict]] = {}
    for card in cards:
        if card["kind"] == "tile":
            tiles_by_name.setdefault(card["name"], []).append(card)
    told_tiles: set[str] = set()
    for card in cards:
        if lines:
            lines.append("")
        kind = card["kind"]
        if kind == "item":
            lines.append(_("{name}: item {id}, {cost} coins ({copies} copies)").format(
                name=card["name"], id=card["id"], cost=card["cost"], copies=card["copies"]))
            lines += _wrapped(_("When: "), card["timing"])
            lines += _wrapped(_("Effect: "), card["effect"])
        elif kind == "objective":
            lines.append(_("{name}: secret objective {id}, {points} points at the end if met")
                         .format(name=card["name"], id=card["id"], points=card["points"]))
            lines += _wrapped(_("Condition: "), card["condition"])
        elif kind == "relic":
            lines.append(_("{name}: relic {id}").format(name=card["name"], id=card["id"]))
            lines += _wrapped("", card["text"])
        else:
            if card["name"] in told_tiles:
                lines.pop()  # the blank line before it
                continue
            told_tiles.add(card["name"])
            same = tiles_by_name[card["name"]]
            ids = ", ".join(t["id"] for t in same)
            region = _(card["region"].capitalize())
            if len(same) > 1:
                said = _("{name}: {count} tiles {ids}, {region} region").format(
                    name=card["name"], count=len(same), ids=ids, region=region)
            else:
                said = _("{name}: tile {ids}, {region} region").format(
                    name=card["name"], ids=ids, region=region)
            lines += textwrap.wrap(said, _width(said), subsequent_indent="    ")
            lines += _wrapped("", card["text"])
    return lines


def list_lines(rules_version: str | None = None,
               translations: Catalog | None = None) -> list[str]:
    """`iridescia explain`: every card by kind, one line each, with its id."""
    _ = (translations or ENGLISH).gettext
    cards = catalogue(rules_version, translations)
    lines = [_("Items ({copies} copies each):").format(copies=ITEM_COPIES)]
    lines += [f"  {c['id']:<25} " + _("{name} ({cost} coins)").format(name=c["name"],
                                                                       cost=c["cost"])
              for c in cards["items"]]
    lines += ["", _("Secret objectives:")]
    lines += [f"  {c['id']:<25} " + _("{name} ({points}p)").format(name=c["name"],
                                                                   points=c["points"])
              for c in cards["objectives"]]
    lines += ["", _("Relics:")]
    lines += [f"  {c['id']:<25} " + _relic_line(c, _) for c in cards["relics"]]
    lines += ["", _("Tiles:")]
    counts: dict[str, list[str]] = {}
    for tile in cards["tiles"]:
        counts.setdefault(tile["name"], []).append(tile["id"])
    lines += [f"  {ids[0]:<25} {name}" + (f" (x{len(ids)})" if len(ids) > 1 else "")
              for name, ids in counts.items()]
    lines += ["", _("`iridescia explain NAME` tells what a card does (a name or an id).")]
    return lines


def _relic_line(card: dict, _) -> str:  # noqa: ANN001
    """`Sapphire Spyglass (tech, 1C2S, 5p)`, as wording.relic_label writes it."""
    needs = "".join(f"{count}{GEM_LETTERS[gem]}" for gem, count in card["gems"].items() if count)
    return _("{name} ({category}, {needs}, {points}p)").format(
        name=card["name"], category=_(card["category"]), needs=needs, points=card["points"])
