"""The seed rules (engine/seeds.py): the server's seed mixed with the players' words."""

from __future__ import annotations

import hashlib

import pytest

from engine import seeds


def test_the_mixed_seed_is_the_hash_of_the_seed_and_the_words_in_table_order():
    mixed = seeds.dice_seed("s3cret", ["tolami", "veruko"], seeds.MIXED)
    assert mixed == hashlib.sha256(b"iridescia-seed\ns3cret\ntolami\nveruko").hexdigest()
    assert mixed != seeds.dice_seed("s3cret", ["veruko", "tolami"], seeds.MIXED)
    assert mixed != seeds.dice_seed("s3cret", ["tolami", "verukO"], seeds.MIXED)
    assert mixed != seeds.dice_seed("other", ["tolami", "veruko"], seeds.MIXED)


def test_one_word_is_enough_to_change_the_dice_and_none_leaves_the_servers_seed():
    assert seeds.dice_seed("s3cret", ["", ""], seeds.MIXED) == "s3cret"
    assert seeds.dice_seed("s3cret", ["", "x"], seeds.MIXED) != "s3cret"


def test_games_of_the_old_rule_keep_the_servers_seed():
    assert seeds.dice_seed("s3cret", ["tolami"], None) == "s3cret"
    assert seeds.dice_seed("s3cret", ["tolami"], seeds.SERVER_ONLY) == "s3cret"
    with pytest.raises(ValueError, match="unknown seed rule 'mixed-9'"):
        seeds.dice_seed("s3cret", ["tolami"], "mixed-9")


@pytest.mark.parametrize("word,plain", [("tolami-veruko", True), ("A_9", True), ("", False),
                                        ("two words", False), ("line\nbreak", False),
                                        ("x" * 65, False), ("é", False)])
def test_a_word_is_one_plain_word(word, plain):
    assert seeds.is_contribution(word) is plain
