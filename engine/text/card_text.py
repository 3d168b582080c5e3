"""What each card says, keyed by the ids of engine/data.py: each item's effect and when it may be
played, each objective's condition. Written from the rulebook (Rumi's Catalog, Secret Objectives)
and RULINGS §4/§7, with our rulings where they decide (docs/rulings.md). A corrected card is a
one-line change here; tests/engine/text/test_card_text.py fails when a card of engine/data.py has no text.

Relics and tiles need no text of their own: their gems, points, category, lead gem and bonus are
the data itself (`relic_text`, `tile_bonus_text` say them in words).

Where a rules version plays a card differently, `VERSION_TEXTS` holds that version's words.

Every function takes the reader's catalog (engine/text/language.py; None: English): the texts here
are its messages (engine/text/printed_names.py hands them to Babel).
"""

from __future__ import annotations

from engine.data import ITEMS, OBJECTIVES, RELICS, Tile
from engine.text.language import ENGLISH, Catalog
from engine.versions import RULES_VERSION as LATEST

START_OF_TURN = "start of your turn only, before Reveal (green flag)"
OPTIONAL_ACTIONS = "your turn, during the optional actions (step 3)"
BEFORE_A_ROLL = "your turn, during the optional actions, before a mining roll"
ON_A_DIE = ("your turn, during the optional actions: on a pending roll of yours or on the gem "
            "market dice")

# item id: (when it may be played, what it does)
ITEM_TEXTS: dict[str, tuple[str, str]] = {
    "cauldron_of_fortune": (
        OPTIONAL_ACTIONS,
        "Trade two gems of your hold (any mix) for one gem of your choice from the supply."),
    "regal_reference_book": (
        OPTIONAL_ACTIONS,
        "Reserve a relic from the relic row (the row is refilled) or from anywhere in the relic "
        "deck: only you may restore it, and it scores only once restored. Searching the deck "
        "shows its relics by name, not in their order, and the deck is shuffled afterwards."),
    "marvelous_mine_cart": (
        BEFORE_A_ROLL,
        "Gems gained by mining are doubled for the rest of this turn (not the gem gained by "
        "moving onto the tile)."),
    "epic_elixir": (
        "your turn, during the optional actions or while restoring; not in the Castle row",
        "Take another full turn after this one. No Epic Elixir may be bought in that extra "
        "turn."),
    "lucky_libation": (
        ON_A_DIE,
        "Re-roll any of your pending dice (stone dice included) once, or roll any number of the "
        "gem market dice once."),
    "jolty_jackhammer": (
        ON_A_DIE,
        "Change one die by +1 or -1: a die of your pending roll or a gem market die; 6 and 1 "
        "wrap around."),
    "dazzling_dynamite": (
        ON_A_DIE,
        "Change one die by up to +2 or -2: a die of your pending roll or a gem market die; 6 "
        "and 1 wrap around."),
    "axe_of_awesomeness": (
        OPTIONAL_ACTIONS,
        "Split one gem of your hold into two gems of that type."),
    "prosperous_pickaxe": (
        BEFORE_A_ROLL,
        "For every gem gained by mining this turn, also gain one gem of a revealed adjacent "
        "tile showing one gem; the same tile for every attempt. Each attempt still costs its "
        "coin."),
    "swapping_stones": (
        START_OF_TURN,
        "Swap locations with any other explorer on the board, then play your turn from "
        "Reveal."),
    "clever_catapult": (
        START_OF_TURN,
        "Jump over one adjacent hex (ahead or to the side; from the airship, over a row-1 hex) "
        "onto the free tile beyond it in the same direction, revealing it if face down. This "
        "replaces Reveal and Move: you gain its gem and bonus and go on with the optional "
        "actions."),
    "wishing_well": (
        OPTIONAL_ACTIONS,
        "Roll your two mining dice and gain one gem whose market value is at most one of the "
        "dice. This is not mining: the Mine Cart and the Pickaxe do not apply."),
}

_MOST = "a tie for most counts, and you need at least one"
# "{most}" is RULINGS §7's tie rule; "{tiles_wild}" and "{relics_wild}" are said as the game's
# rules version plays them (R22).
OBJECTIVE_TEXTS: dict[str, str] = {
    "glimmering_gold": "The most coins at the end of the game ({most}).",
    "amethyst_aficionado": "The most amethyst tiles in your victory pile ({tiles_wild}; {most}).",
    "citrine_crazy": "The most citrine tiles in your victory pile ({tiles_wild}; {most}).",
    "emerald_enthusiast": "The most emerald tiles in your victory pile ({tiles_wild}; {most}).",
    "sapphire_savant": "The most sapphire tiles in your victory pile ({tiles_wild}; {most}).",
    "regal_rainbow": "A restored relic of each lead gem: amethyst, citrine, emerald and sapphire "
                     "(Iridia relics are wild).",
    "all_about_amethyst": (
        "The most restored relics whose lead gem is amethyst ({relics_wild}; {most})."),
    "classy_citrine": "The most restored relics whose lead gem is citrine ({relics_wild}; {most}).",
    "emerald_euphoria": (
        "The most restored relics whose lead gem is emerald ({relics_wild}; {most})."),
    "sapphire_saturation": (
        "The most restored relics whose lead gem is sapphire ({relics_wild}; {most})."),
    "remarkable_restorer": "5 or more restored relics.",
    "jazzy_jeweler": "The most restored Jewelry relics ({relics_wild}; {most}).",
    "lots_o_lore": "The most restored Lore relics ({relics_wild}; {most}).",
    "tantalizing_tech": "The most restored Tech relics ({relics_wild}; {most}).",
    "master_miner": "A restored relic of each category: Jewelry, Tech and Lore (Iridia relics "
                    "are wild).",
}

# How each rules version counts wilds in a "most ..." objective: version 2 holds R22 (a wild is
# wild for its owner only), version 1 counted everyone's.
WILDS: dict[str, dict[str, str]] = {
    "1": {"tiles_wild": "every player's rainbow tiles and Iridia Stone are wild",
          "relics_wild": "every player's Iridia relics are wild"},
    "2": {"tiles_wild": "your rainbow tiles and the Iridia Stone are wild; a rival's count for "
                        "no type",
          "relics_wild": "your Iridia relics are wild; a rival's count for no type"},
}

# What rules version 1 says differently of an item (R16, superseded by R25 in version 2).
VERSION_TEXTS: dict[str, dict[str, str]] = {
    "1": {
        "regal_reference_book": (
            "Reserve a relic from the relic row (the row is refilled) or from anywhere in the "
            "relic deck: only you may restore it, and it scores only once restored. Searching "
            "the deck shows it in its order, and it is not shuffled afterwards."),
    },
}


def item_text(item_id: str, rules_version: str | None = None,
              translations: Catalog | None = None) -> tuple[str, str]:
    """(timing, effect) of an item under `rules_version` (None: the current one)."""
    _ = (translations or ENGLISH).gettext
    timing, effect = ITEM_TEXTS[item_id]
    return _(timing), _(VERSION_TEXTS.get(rules_version or "", {}).get(item_id, effect))


def objective_condition(objective_id: str, rules_version: str | None = None,
                        translations: Catalog | None = None) -> str:
    _ = (translations or ENGLISH).gettext
    wilds = {key: _(text) for key, text in WILDS.get(rules_version or "", WILDS[LATEST]).items()}
    return _(OBJECTIVE_TEXTS[objective_id]).format(most=_(_MOST), **wilds)


def and_list(parts: list[str], translations: Catalog | None = None) -> str:
    _ = (translations or ENGLISH).gettext
    if len(parts) == 1:
        return parts[0]
    return _("{items} and {last}").format(items=_(", ").join(parts[:-1]), last=parts[-1])


def relic_text(relic_id: str, translations: Catalog | None = None) -> str:
    """`Jewelry, lead gem amethyst; needs 2 amethyst and 1 citrine; 5 points.`"""
    _ = (translations or ENGLISH).gettext
    relic = RELICS[relic_id]
    # The lead gem first, as the rulebook's reference guide lists them.
    needs = and_list([_("{n} {gem}").format(n=n, gem=_(gem))
                      for gem, n in sorted(relic.requires, key=lambda r: r[0] != relic.lead_gem)],
                     translations)
    if relic.category == "iridia":
        kind = _("Iridia (wild: counts as Jewelry, Tech or Lore, and as any lead gem)")
    else:
        kind = _("{category}, lead gem {gem}").format(category=_(relic.category.capitalize()),
                                                     gem=_(relic.lead_gem or ""))
    return _("{kind}; needs {needs}; {points} points.").format(kind=kind, needs=needs,
                                                              points=relic.points)


def tile_bonus_text(tile: Tile, translations: Catalog | None = None) -> str:
    """The tile's gem and its bonus, gained when an explorer moves onto it."""
    _ = (translations or ENGLISH).gettext
    if tile.iridia:
        return _("The Iridia Stone: 10 points and the Iridia Stone token; a rainbow tile for the "
                 "gem gained, for mining and for tile sets; it does not move the gem market.")
    gem = (_("A rainbow tile: choose the gem you gain and mine; wild for tile sets; it does not "
             "move the gem market.") if tile.rainbow else _("Gem: {gem}.").format(
                 gem=_(tile.gem or "")))
    bonus = tile.bonus
    if bonus is None:
        return _("{gem} No bonus.").format(gem=gem)
    if bonus.kind == "stone_die":
        return _("{gem} Bonus: take a stone die from the supply (if one is left) to add to your "
                 "mining rolls.").format(gem=gem)
    if bonus.kind == "coins":
        said = (translations or ENGLISH).ngettext("{gem} Bonus: {n} coin.",
                                                  "{gem} Bonus: {n} coins.", bonus.amount)
    else:
        said = (translations or ENGLISH).ngettext("{gem} Bonus: {n} point.",
                                                  "{gem} Bonus: {n} points.", bonus.amount)
    return said.format(gem=gem, n=bonus.amount)


def missing_texts() -> list[str]:
    """Ids of engine/data.py items and objectives with no text here (a new card needs one)."""
    return sorted([i for i in ITEMS if i not in ITEM_TEXTS]
                  + [o for o in OBJECTIVES if o not in OBJECTIVE_TEXTS])
