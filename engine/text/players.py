"""The players as the text board draws them: the table of every player's public state, the
reader's own hold, items and objectives, and the final scores."""

from __future__ import annotations

from engine.data import GEMS, TILES
from engine.text.columns import WIDTH, cut, pad, wrap, wrap_columns
from engine.text.language import ENGLISH, Catalog
from engine.text.line import Line
from engine.text.wording import (
    GEM_LETTERS,
    component_name,
    item_label,
    item_text,
    objective_text,
    relic_category,
    relic_label,
)

NAME_WIDTH = 24


def player_names(view: dict, game: dict | None,
                 translations: Catalog | None = None) -> dict[int, str]:
    names = {}
    by_seat = {p.get("seat"): p for p in (game or {}).get("players", [])}
    for player in view.get("players") or []:
        seat = player["seat"]
        if player.get("kind") == "rhom":
            names[seat] = (translations or ENGLISH).gettext("the Rhom")
        else:
            name = str(by_seat.get(seat, {}).get("name") or player.get("player_id"))
            names[seat] = name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
    return names


def player_marks(view: dict, names: dict[int, str]) -> dict[int, str]:
    """One lower-case letter a player: the mark of their explorer on the board and in the
    players' table. The first letter of the name not yet taken (`a` for Ada, `b` for Bo, `r`
    for the Rhom), else the first free letter of the alphabet."""
    marks: dict[int, str] = {}
    for player in view.get("players") or []:
        seat = player["seat"]
        name = "Rhom" if player.get("kind") == "rhom" else names.get(seat, "")
        wanted = [c for c in name.lower() if "a" <= c <= "z"] + list("abcdefghijklmnopqrstuvwxyz")
        marks[seat] = next(c for c in wanted if c not in marks.values())
    return marks


def hold_text(hold: dict) -> str:
    return " ".join(f"{GEM_LETTERS[g]}{hold.get(g, 0)}" for g in GEMS)


def tiles_per_gem(tile_ids: list[str], translations: Catalog | None = None) -> str:
    """`A2 C0 E1 S3 wild 1`: a victory pile counted by gem, as the "most ..." objectives and the
    tile sets count it (rainbow tiles and the Iridia Stone are wild)."""
    counts = dict.fromkeys(GEMS, 0)
    wild = 0
    for tile_id in tile_ids:
        tile = TILES.get(tile_id)
        if tile is None:
            continue
        if tile.wild:
            wild += 1
        elif tile.gem in counts:
            counts[tile.gem] += 1
    return " ".join(f"{GEM_LETTERS[g]}{n}" for g, n in counts.items()) + " " + (
        translations or ENGLISH).gettext("wild {count}").format(count=wild)


def player_lines(view: dict, names: dict[int, str], marks: dict[int, str],
                 translations: Catalog | None = None) -> list[Line]:
    _ = (translations or ENGLISH).gettext
    viewer = view.get("viewer")
    current = (view.get("turn") or {}).get("seat")
    # The table's heading is one message: its translation aligns its words over the columns
    # itself (a Japanese character takes two).
    lines = [Line(_("   Player          At   Coins Hold         Stone Points Tiles Relics Token"),
                  style="bold underline")]
    extras = []
    for player in view.get("players") or []:
        seat = player["seat"]
        marker = ">" if seat == current and not view.get("over") else " "
        name = names.get(seat, "?")
        name = cut(name, 13) + " *" if seat == viewer else cut(name, 15)
        position = player.get("position") or "-"
        if player.get("finished"):
            position = _("done")
        coins = "-" if player.get("kind") == "rhom" else str(player.get("coins", 0))
        token = _(component_name(player["royalty_token"])) if player.get("royalty_token") else "-"
        row = (
            f"{marker}{marks.get(seat, '?')} {pad(name, 15)} {pad(position, 4)} {coins:>5} "
            f"{hold_text(player.get('hold') or {}):<12} {player.get('stone_dice', 0):>5} "
            f"{player.get('points', 0):>6} {len(player.get('tiles') or []):>5} "
            f"{len(player.get('relics') or []):>6} {token}"
        )
        lines.append(Line(row, style="bold" if seat == viewer else ""))
        def label(what: str, seat=seat) -> str:  # noqa: ANN001
            return "  " + what.format(name=names.get(seat, "?"))
        if player.get("iridia_stone"):
            extras.append(label(_("{name} found the Iridia Stone")))
        if player.get("items"):
            extras += wrap(label(_("{name} items")),
                           [item_label(i, translations) for i in player["items"]],
                           comma=_(", "))
        if player.get("tiles"):
            extras += wrap(label(_("{name} tiles")),
                           [tiles_per_gem(player["tiles"], translations)],
                           comma=_(", "))
        if player.get("relics"):
            extras += wrap(label(_("{name} relics")),
                           [relic_category(r, translations) for r in player["relics"]],
                           comma=_(", "))
        if view.get("over") and player.get("objectives") and seat != viewer:
            extras += wrap(label(_("{name} objective")),
                           [_(component_name(o)) for o in player["objectives"]],
                           comma=_(", "))
        if player.get("reserved_relics"):
            extras += wrap(label(_("{name} reserved")),
                           [relic_label(r, translations) for r in player["reserved_relics"]],
                           comma=_(", "))
    return lines + [Line(line) for line in extras]


def own_lines(view: dict, translations: Catalog | None = None) -> list[Line]:
    _ = (translations or ENGLISH).gettext
    viewer = view.get("viewer")
    if viewer is None:
        return [Line(_("You are watching (no seat in this game)."), style="dim")]
    me = next((p for p in view.get("players") or [] if p["seat"] == viewer), None)
    if me is None:
        return []
    lines = [
        Line(
            _("You: hold {hold} ({held}/7), coins {coins}, stone dice {dice}, "
              "points {points}").format(
                hold=hold_text(me.get("hold") or {}),
                held=sum((me.get("hold") or {}).values()), coins=me.get("coins", 0),
                dice=me.get("stone_dice", 0), points=me.get("points", 0)),
            style="bold",
        )
    ]
    version = view.get("rules_version")
    items = me.get("items") or []
    lines += card_texts(_("Items"), [item_text(i, version, translations) for i in items])
    objectives = me.get("objectives") or []
    lines += card_texts(_("Objectives") if len(objectives) > 1 else _("Objective"),
                    [objective_text(o, version, translations) for o in objectives])
    return lines


def card_texts(label: str, texts: list[str]) -> list[Line]:
    """Each card's text under one label, wrapped within the width (`-` for none)."""
    if not texts:
        return [Line(s) for s in wrap(label, [])]
    lines = []
    for text in texts:
        lines += [Line(s) for s in wrap_columns(text, WIDTH, pad(label, 12), " " * 12, False)]
        label = ""
    return lines


OUTCOME_HEADER = "Rank Player             In game Gems Relic sets Tile sets Objective Total"


def outcome_lines(view: dict, names: dict[int, str],
                  translations: Catalog | None = None) -> list[str]:
    outcome = view.get("outcome")
    if not outcome:
        return []
    seats = outcome.get("seats") if isinstance(outcome, dict) else outcome
    if isinstance(seats, dict):
        seats = [dict(value, seat=int(key)) for key, value in seats.items()]
    entries = sorted(
        (dict(entry, seat=entry.get("seat", index)) for index, entry in enumerate(seats or [])),
        key=lambda e: (e.get("rank", 99), e["seat"]),
    )
    lines = [(translations or ENGLISH).gettext("Final scores"), OUTCOME_HEADER]
    for e in entries:
        lines.append(
            f"{e.get('rank', '?'):>4} {names.get(e['seat'], '?')[:18]:<18} "
            f"{e.get('in_game', 0):>7} {e.get('gems', 0):>4} {e.get('relic_sets', 0):>10} "
            f"{e.get('tile_sets', 0):>9} {e.get('objective', 0):>9} {e.get('total', 0):>5}"
        )
    return lines
