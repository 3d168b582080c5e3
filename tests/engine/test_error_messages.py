"""A refusal is a template and its values: str() is its English, translated(catalog) the same
refusal in the catalog's language, the names in it (gems, items, relics, tiles) named as the
catalog names them, hexes and numbers as they are."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from babel.support import Translations

import engine
from engine.commands import Reveal, Sell, command_from_dict
from engine.errors import IllegalCommand, Listed, Name, Refusal
from tests.engine.engine_helpers import new_game

JA = Translations.load(str(Path(engine.__file__).parent / "translations"), ["ja"], domain="engine")


def refusal_of(state, command) -> engine.RuleError:
    with pytest.raises(engine.RuleError) as caught:
        engine.decide(state, command, random.Random(0))
    return caught.value


def test_a_refusal_reads_in_english_as_str_and_in_japanese_through_the_catalog():
    error = refusal_of(new_game(), Reveal(0, ("1a", "1a")))
    assert str(error) == "you named hex 1a twice"
    assert error.translated(JA) == "1aを2回指定しました"
    assert error.translated(None) == str(error) == error.args[0]


def test_a_reason_inside_a_refusal_is_translated_too():
    error = refusal_of(new_game(), Sell(0, "emerald", 1))
    assert str(error) == "you can sell gems only after moving onto a tile"
    assert error.translated(JA) == "宝石の売却は、タイルに移動した後でなければできません"


def test_gem_names_are_the_catalogs_and_what_the_player_typed_stays():
    with pytest.raises(engine.InvalidCommand) as caught:
        command_from_dict({"type": "sell", "seat": 0, "gem": "ruby", "count": 1})
    assert str(caught.value) == "gem must be one of amethyst, citrine, emerald, sapphire, got 'ruby'"
    assert caught.value.translated(JA) == (
        "gem はアメジスト、シトリン、エメラルド、サファイアのいずれかです（受け取ったもの：'ruby'）")


def test_a_tile_is_its_id_in_english_as_before_and_its_printed_name_in_japanese():
    error = IllegalCommand("tile {tile} is not in your victory pile",
                           tile=Name("desert_amethyst_1", "Desert Amethyst"))
    assert str(error) == "tile desert_amethyst_1 is not in your victory pile"
    assert error.translated(JA) == "砂漠のアメジストのタイルはあなたの勝利の山にありません"


def test_lists_and_nested_reasons_keep_their_english_and_survive_pickling():
    need = Listed(Refusal("{n} more {gem}", n=n, gem=Name(g)) for g, n in (("emerald", 1), ("sapphire", 2)))
    error = IllegalCommand("restoring the {relic} needs {need}", relic=Name("Amethyst Ring"), need=need)
    assert str(error) == "restoring the Amethyst Ring needs 1 more emerald, 2 more sapphire"
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error)
    assert again.translated(JA) == error.translated(JA) == (
        "アメジストの指輪を復元するには宝石が足りません：エメラルドがあと1個、サファイアがあと2個")
