"""Card help (issue 21): every card of engine/data.py has its words, taken from the rulebook, and
the catalogue says them per rules version without naming who holds a card."""

from __future__ import annotations

import pytest

from engine.data import ITEMS, OBJECTIVES, RELICS, TILES
from engine.text import card_help, card_text


def test_every_card_of_the_data_module_has_its_text():
    assert card_text.missing_texts() == []
    cards = card_help.catalogue()
    assert [c["id"] for c in cards["items"]] == list(ITEMS)
    assert [c["id"] for c in cards["objectives"]] == list(OBJECTIVES)
    assert [c["id"] for c in cards["relics"]] == list(RELICS)
    assert [c["id"] for c in cards["tiles"]] == list(TILES)
    for item in cards["items"]:
        assert item["timing"] and item["effect"].endswith("."), item
    for objective in cards["objectives"]:
        assert objective["condition"].endswith(".") and "{" not in objective["condition"]


def test_a_new_card_without_text_is_found(monkeypatch):
    monkeypatch.setitem(ITEMS, "golden_goose", ITEMS["epic_elixir"])
    monkeypatch.setitem(OBJECTIVES, "goose_keeper", OBJECTIVES["master_miner"])
    assert card_text.missing_texts() == ["golden_goose", "goose_keeper"]


def test_relics_say_their_gems_points_category_and_lead_gem():
    relic = next(c for c in card_help.catalogue()["relics"] if c["id"] == "citrine_talisman")
    assert relic == {
        "kind": "relic", "id": "citrine_talisman", "name": "Citrine Talisman",
        "category": "lore", "lead_gem": "citrine",
        "gems": {"amethyst": 1, "citrine": 2, "emerald": 0, "sapphire": 1}, "points": 9,
        "text": "Lore, lead gem citrine; needs 2 citrine, 1 amethyst and 1 sapphire; 9 points."}
    chalice = card_text.relic_text("iridia_chalice")
    assert chalice.startswith("Iridia (wild: counts as Jewelry, Tech or Lore")


@pytest.mark.parametrize("tile_id,text", [
    ("desert_amethyst_2", "Gem: amethyst. No bonus."),
    ("canyon_citrine_coins", "Gem: citrine. Bonus: 1 coin."),
    ("ruins_sapphire_points", "Gem: sapphire. Bonus: 3 points."),
    ("forest_emerald_stone_die", "Gem: emerald. Bonus: take a stone die from the supply (if one "
                                 "is left) to add to your mining rolls."),
    ("castle_rainbow", "A rainbow tile: choose the gem you gain and mine; wild for tile sets; it "
                       "does not move the gem market. Bonus: 5 points."),
])
def test_each_tile_says_its_bonus(tile_id, text):
    assert card_text.tile_bonus_text(TILES[tile_id]) == text


def test_the_words_follow_the_rules_version():
    """R16/R25 (the Reference Book's search) and R22 (a rival's wilds) differ by version."""
    book = {v: next(c for c in card_help.catalogue(v)["items"] if c["id"] == "regal_reference_book")
            for v in ("1", "2")}
    assert "shuffled afterwards" in book["2"]["effect"]
    assert "in its order, and it is not shuffled" in book["1"]["effect"]
    savant = {v: card_text.objective_condition("sapphire_savant", v) for v in ("1", "2")}
    assert "a rival's count for no type" in savant["2"]
    assert "every player's rainbow tiles and Iridia Stone are wild" in savant["1"]
    assert card_help.catalogue()["rules_version"] == "2"


def test_find_by_name_or_id_and_suggest_the_nearest():
    assert [c["id"] for c in card_help.find("Jolty-Jackhammer")] == ["jolty_jackhammer"]
    assert [c["id"] for c in card_help.find("sapphire_spyglass")] == ["sapphire_spyglass"]
    assert [c["id"] for c in card_help.find("desert amethyst")] == [
        "desert_amethyst_1", "desert_amethyst_2", "desert_amethyst_3"]
    assert [c["id"] for c in card_help.find("lore")] == ["lots_o_lore"]  # a part of a name
    with pytest.raises(card_help.UnknownCard) as refused:
        card_help.find("Sapphire Spyglss")
    assert str(refused.value) == ("no card named 'Sapphire Spyglss'; did you mean Sapphire "
                                  "Spyglass, Sapphire Sun Dial or Sapphire Savant? "
                                  "(`iridescia explain` lists every card)")
