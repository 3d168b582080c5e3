"""An engine view (docs/engine-api.md, "The view") drawn as text within 80 columns: the board,
the gem market and supply, the relic and item rows, every player's public state and the reader's
own hold, coins, items and objective with its text.

Shared by `iridescia show` (client/render.py adds colour) and the emails (server/notifications):
the client may not import the server nor the server the client, and both already depend on the
engine, whose view this draws. It is pure: a view (and the players' names) in, lines out. Each
line is a `Line` of (text, style) spans; the style is only a hint for a terminal, so a line's
`plain` text is exactly what is drawn without colour. Its words come from the reader's catalog
(`translations`, engine/text/language.py; None: English); a wide (Japanese) character takes two
columns, and labels are padded by columns, not characters.
"""

from __future__ import annotations

from engine.data import GEMS
from engine.text.columns import WIDTH, columns, pad, wrap, wrap_columns
from engine.text.language import ENGLISH, Catalog
from engine.text.line import Line
from engine.text.players import (
    outcome_lines,
    own_lines,
    player_lines,
    player_marks,
    player_names,
)
from engine.text.wording import (
    GEM_LETTERS,
    component_name,
    item_label,
    relic_label,
)

display_name = component_name


LABEL_WIDTH = 8
CELL_WIDTH = 10  # 9 characters of content and one space
GEM_STYLES = {
    "amethyst": "bold magenta",
    "citrine": "bold yellow",
    "emerald": "bold green",
    "sapphire": "bold blue",
}
RAINBOW_STYLE = "bold bright_white on magenta"
IRIDIA_STYLE = "bold black on bright_cyan"
LEGEND = [
    "A amethyst  C citrine  E emerald  S sapphire  R rainbow  I Iridia Stone",
    "2c coins  2p points  sd stone die  ░░ face down  ## barricade  · empty",
]
EXPLORERS = "letters after a tile: the explorers there ({marks})"


def bonus_code(bonus) -> str:
    """`2c`, `3p`, `sd` or '' for the view's tile bonus, whichever shape the engine gives."""
    if not bonus:
        return ""
    if isinstance(bonus, dict):
        kind = str(bonus.get("kind") or bonus.get("type") or "")
        amount = bonus.get("amount", bonus.get("value", bonus.get("count", "")))
    else:
        text = str(bonus)
        kind, _, amount = text.replace(":", "_").rpartition("_") if "_" in text or ":" in text \
            else (text, "", "")
        if not amount.isdigit():
            kind, amount = text, ""
    kind = kind.lower()
    if kind.startswith("coin"):
        return f"{amount}c"
    if kind.startswith("point") or kind.startswith("royal"):
        return f"{amount}p"
    if kind.startswith("stone"):
        return "sd"
    return kind[:3]


def tile_code(tile: dict) -> tuple[str, str]:
    """The 4-character code of a revealed tile and its style."""
    if tile.get("iridia"):
        return "I" + bonus_code(tile.get("bonus")), IRIDIA_STYLE
    if tile.get("rainbow"):
        return "R" + bonus_code(tile.get("bonus")), RAINBOW_STYLE
    gem = tile.get("gem")
    return GEM_LETTERS.get(gem, "?") + bonus_code(tile.get("bonus")), GEM_STYLES.get(gem, "")


def hex_cell(cell: dict, viewer, marks: dict[int, str]) -> Line:
    text = Line(f"{cell['hex']:<3}", style="dim")
    state = cell.get("state")
    if cell.get("barricade"):
        text.append(f"{'##':<4}", style="bold red")
    elif state == "face_down":
        text.append(f"{'░░':<4}", style="dim")
    elif state == "revealed" and cell.get("tile"):
        code, style = tile_code(cell["tile"])
        text.append(code[:4], style=style)
        text.append(" " * (4 - len(code[:4])))
    else:
        text.append(f"{'·':<4}", style="dim")
    seats = "".join(marks.get(s, "?") for s in cell.get("explorers") or [])[:2]
    style = "bold reverse" if viewer is not None and viewer in (cell.get("explorers") or []) \
        else "bold cyan"
    text.append(seats, style=style)
    text.append(" " * (2 - len(seats)))
    return text


def board_lines(view: dict, marks: dict[int, str],
                translations: Catalog | None = None) -> list[Line]:
    _ = (translations or ENGLISH).gettext
    rows = sorted(view.get("board") or [], key=lambda row: row["row"], reverse=True)
    widest = max((len(row["hexes"]) for row in rows), default=7)
    lines = []
    previous_region = None
    for row in rows:
        region = _(str(row.get("region") or "").capitalize())
        label = region if region != previous_region else ""
        previous_region = region
        line = Line(pad(label, LABEL_WIDTH), style="bold")
        if len(row["hexes"]) < widest:
            line.append(" " * (CELL_WIDTH // 2 * (widest - len(row["hexes"]))))
        cells = [hex_cell(cell, view.get("viewer"), marks) for cell in row["hexes"]]
        line.extend(Line(" ").join(cells))
        line.rstrip()
        lines.append(line)
    return lines


def turn_lines(view: dict, names: dict[int, str],
               translations: Catalog | None = None) -> list[Line]:
    _ = (translations or ENGLISH).gettext
    lines = []
    turn = view.get("turn") or {}
    viewer = view.get("viewer")
    if view.get("over"):
        lines.append(Line(_("Game over."), style="bold"))
        return lines
    seat = turn.get("seat")
    if seat == viewer and seat is not None:
        who = _("{name} (you)").format(name=names.get(seat, "?"))
    else:
        who = names.get(seat, "?")
    kind = turn.get("kind") or "turn"
    phase = turn.get("phase")
    text = _("Turn {number}: {who}").format(number=turn.get("number", "?"), who=who)
    if kind == "removal":
        text = _("{turn}, removal turn: remove one tile below the Castle").format(turn=text)
    elif kind == "rhom":
        text = _("{turn}, the Rhom's turn").format(turn=text)
    elif phase:
        text = _("{turn}, {phase} phase").format(turn=text, phase=_(phase))
    if turn.get("extra_turn"):
        text = _("{turn} (extra turn)").format(turn=text)
    style = "bold reverse" if seat == viewer else "bold"
    lines += [Line(part, style=style)
              for part in wrap_columns(text, WIDTH, "", "  ", True)]
    pending = view.get("pending") or turn.get("pending")
    if pending:
        lines.append(Line(_("Pending: {what}").format(what=describe_pending(pending, translations)),
                          style="bold yellow"))
    roll = view.get("roll")
    if roll:
        lines.append(Line(_("Roll: {what}").format(what=describe_roll(roll, translations)),
                          style="bold yellow"))
    return lines


def describe_pending(pending: dict, translations: Catalog | None = None) -> str:
    t = translations or ENGLISH
    kind = pending.get("kind")
    if kind == "give_gem":
        count = pending.get("count", 1)
        return t.ngettext("give away {count} gem (the hold takes 7)",
                          "give away {count} gems (the hold takes 7)", count).format(count=count)
    if kind == "choose_gem":
        return t.gettext("choose the gem of the rainbow tile")
    if kind == "discard_objective":
        return t.gettext("discard one of your two secret objectives")
    if kind == "roll":
        return t.gettext("keep or change the roll")
    extra = ", ".join(f"{k} {v}" for k, v in pending.items() if k != "kind")
    return f"{kind}{' (' + extra + ')' if extra else ''}"


def describe_roll(roll: dict, translations: Catalog | None = None) -> str:
    _ = (translations or ENGLISH).gettext
    parts = [_("{kind}: dice {dice}").format(kind=_(roll.get("kind", "roll")),
                                             dice=" ".join(str(d) for d in roll.get("dice") or []))]
    if roll.get("stone"):
        parts.append(_("stone {dice}").format(dice=" ".join(str(d) for d in roll["stone"])))
    if roll.get("target") is not None:
        parts.append(_("needs {target} or more").format(target=roll["target"]))
    return ", ".join(parts)


def market_lines(view: dict, translations: Catalog | None = None) -> list[str]:
    _ = (translations or ENGLISH).gettext
    market = view.get("market") or {}
    values = market.get("gem_values") or {}
    supply = market.get("supply") or {}
    lines = [
        pad(_("Gem market"), 12)
        + "  ".join(f"{_(g)} {values.get(g, '?')}" for g in GEMS)
        + "   " + _("stone dice {count}").format(count=market.get("stone_dice", "?")),
        pad(_("Supply"), 12) + "  ".join(f"{_(g)} {supply.get(g, '?')}" for g in GEMS),
    ]
    relics = [relic_label(r, translations) for r in market.get("relics") or []]
    lines += wrap(_("Relics"), relics + [_("(deck {count})").format(
        count=market.get("relic_deck", "?"))], comma=_(", "))
    items = [item_label(i, translations) for i in market.get("items") or []]
    lines += wrap(
        _("Items"),
        items + [_("(deck {deck}, discard {discard})").format(
            deck=market.get("item_deck", "?"), discard=market.get("item_discard", "?"))],
        comma=_(", "),
    )
    tokens = [_(display_name(t)) for t in market.get("royalty_tokens") or []]
    lines += wrap(_("Royalty"), tokens, comma=_(", "))
    rhom = view.get("rhom")
    if rhom:
        lines.append(pad(_("Rhom deck"), 12) + _(
            "{deck} cards, next weathervane {vane}, last card {last}").format(
            deck=rhom.get("deck", "?"), vane=_(str(rhom.get("next_weathervane", "?"))),
            last=rhom.get("last_card") or "-"))
    return lines


def legend_lines(view: dict, names: dict[int, str], marks: dict[int, str],
                 translations: Catalog | None = None) -> list[Line]:
    """The board's key, the explorers' letters with their players' names last."""
    _ = (translations or ENGLISH).gettext
    who = ", ".join(f"{marks[seat]} {names.get(seat, '?')}" for seat in marks)
    return [Line(_(s), style="dim") for s in LEGEND] + [
        Line(s, style="dim") for s in wrap_columns(_(EXPLORERS).format(marks=who), WIDTH, "",
                                                   "  ", True)]


def view_lines(view: dict, game: dict | None = None,
               translations: Catalog | None = None) -> list[Line]:
    """The view drawn as text. Players are named, never numbered: the turn line names whose turn
    it is, the board marks each explorer with its player's letter (the key says whose), the
    tables name the players; the title carries no version (the turn line has the turn's
    number)."""
    _ = (translations or ENGLISH).gettext
    names = player_names(view, game, translations)
    marks = player_marks(view, names)
    options = view.get("options") or {}
    title = _("Game {id}").format(id=game["id"]) if game and game.get("id") else _("Game")
    rules = _("(mining cost {cost}, leftover gems {leftover})").format(
        cost=options.get("mining_cost", "?"), leftover=_(str(options.get("leftover_gems", "?"))))
    if columns(title) + 1 + columns(rules) <= WIDTH:
        lines: list[Line] = [Line(f"{title} {rules}", style="bold")]
    else:
        lines = [Line(title, style="bold"), Line(rules)]
    lines += turn_lines(view, names, translations)
    lines.append(Line(""))
    lines += board_lines(view, marks, translations)
    lines += legend_lines(view, names, marks, translations)
    lines.append(Line(""))
    lines += [Line(s) for s in market_lines(view, translations)]
    lines.append(Line(""))
    lines += player_lines(view, names, marks, translations)
    lines.append(Line(""))
    lines += own_lines(view, translations)
    outcome = outcome_lines(view, names, translations)
    if outcome:
        lines.append(Line(""))
        lines += [Line(s, style="bold" if i < 2 else "") for i, s in enumerate(outcome)]
    return lines


def render_plain(view: dict, game: dict | None = None,
                 translations: Catalog | None = None) -> str:
    """The view as `iridescia show --no-color` draws it, in the catalog's language."""
    return "\n".join(line.plain.rstrip() for line in view_lines(view, game, translations))
