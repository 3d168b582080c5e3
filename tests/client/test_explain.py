"""`iridescia explain [NAME]` (issue 21): card help from the engine's data, without a server."""

from __future__ import annotations

import json

JOLTY = """\
Jolty Jackhammer: item jolty_jackhammer, 2 coins (3 copies)
  When: your turn, during the optional actions: on a pending roll of yours or on
    the gem market dice
  Effect: Change one die by +1 or -1: a die of your pending roll or a gem market
    die; 6 and 1 wrap around.
"""


def test_explain_one_item(run):
    for name in (["jolty", "jackhammer"], ["Jolty Jackhammer"], ["jolty_jackhammer"]):
        result = run("explain", *name)
        assert result.exit_code == 0, result.output
        assert result.output == JOLTY


def test_explain_an_objective_a_relic_and_a_tile(run):
    assert run("explain", "master miner").output == (
        "Master Miner: secret objective master_miner, 7 points at the end if met\n"
        "  Condition: A restored relic of each category: Jewelry, Tech and Lore (Iridia\n"
        "    relics are wild).\n")
    assert run("explain", "Sapphire Spyglass").output == (
        "Sapphire Spyglass: relic sapphire_spyglass\n"
        "  Tech, lead gem sapphire; needs 2 sapphire and 1 citrine; 5 points.\n")
    assert run("explain", "forest_citrine_coins").output == (
        "Forest Citrine (2 coins): tile forest_citrine_coins, Forest region\n"
        "  Gem: citrine. Bonus: 2 coins.\n")


def test_an_unknown_name_suggests_the_nearest(run):
    result = run("explain", "jolty jackhamer")
    assert result.exit_code == 1
    assert result.output == ("Error: no card named 'jolty jackhamer'; did you mean Jolty "
                             "Jackhammer? (`iridescia explain` lists every card)\n")


def test_explain_lists_every_card_without_a_name(run):
    result = run("explain")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Items (3 copies each):"
    assert "  wishing_well              Wishing Well (5 coins)" in lines
    assert "  glimmering_gold           Glimmering Gold (7p)" in lines
    assert "  citrine_talisman          Citrine Talisman (lore, 1A2C1S, 9p)" in lines
    assert "  desert_amethyst_1         Desert Amethyst (x3)" in lines
    assert "  castle_iridia_stone       Castle Iridia Stone" in lines
    assert lines[-1] == "`iridescia explain NAME` tells what a card does (a name or an id)."


def test_explain_per_rules_version_and_as_json(run):
    v1 = run("explain", "regal reference book", "--rules-version", "1").output
    assert "shows it in its order, and it is not shuffled afterwards" in v1.replace("\n    ", " ")
    refused = run("explain", "x", "--rules-version", "9")
    assert refused.exit_code == 1 and "rules version '9'" in refused.output
    cards = json.loads(run("explain", "--json").output)
    assert {"rules_version", "items", "objectives", "relics", "tiles"} <= set(cards)
    assert json.loads(run("explain", "wishing well", "--json").output)[0]["cost"] == 5


def test_explain_in_japanese_when_lang_is_japanese(run, monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    for name in (["jolty", "jackhammer"], ["ガタガタ削岩機"]):
        assert run("explain", *name).output == (
            "ガタガタ削岩機：アイテム jolty_jackhammer、2金（3枚）\n"
            "  使えるとき：自分の手番、オプショナルアクション中：確定前の自分の出目か宝石市\n"
            "    場ダイスに\n"
            "  効果：ダイス1つを+1か-1する：確定前の自分の出目か宝石市場ダイス。6の次\n"
            "    は1、1の前は6。\n")
    assert run("explain", "Sapphire Spyglass").output == (
        "サファイアの望遠鏡：遺物 sapphire_spyglass\n"
        "  技術の遺物、宝石タイプサファイア。必要な宝石：サファイア2個とシトリン1個。\n"
        "    5点。\n")


def test_an_unknown_rules_version_is_refused_in_japanese_when_lang_is_japanese(run, monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    refused = run("explain", "x", "--rules-version", "9")
    assert refused.exit_code == 1
    assert "このサーバーはルールのバージョン '9' を遊べません：遊べるのは 1、2 です（新しいゲームは 2）" \
        in refused.output, refused.output
