"""The notation's reasons (engine/text/notation_words.py, notation.py, script.py) are refusals:
str() is the English they always were, translated(catalog) the same reason in the catalog's
language, the line quoted as typed and the command words kept (a player types them either way)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.support import Translations

import engine
from engine.errors import Refusal
from engine.text import notation
from engine.text.script import Script, ScriptLine, dry_run
from tests.engine.engine_helpers import new_game, place_tile

JA = Translations.load(str(Path(engine.__file__).parent / "translations"), ["ja"], domain="engine")


def refused(line: str, names=None) -> notation.NotationError:
    with pytest.raises(notation.NotationError) as caught:
        notation.parse(line, 0, names=names)
    return caught.value


@pytest.mark.parametrize(("line", "english", "japanese"), [
    ("move", "'move': move takes one hex, got nothing (write: move HEX)",
     "'move': move にはマスを1つ指定します（受け取ったもの：なし）（書き方：move HEX）"),
    ("move 9z", "'move 9z': '9z' is not a hex name (expected a row 1-9 and a letter, like '3b') "
                "(write: move HEX)",
     "'move 9z': '9z' はマスの名前ではありません（'3b' のように、1〜9の行と英字1つ）"
     "（書き方：move HEX）"),
    ("sell ruby 2", "'sell ruby 2': 'ruby' is not a gem: use amethyst, citrine, emerald, "
                    "sapphire (write: sell GEM COUNT)",
     "'sell ruby 2': 'ruby' は宝石ではありません：amethyst、citrine、emerald、sapphire "
     "のどれかです（書き方：sell GEM COUNT）"),
    ("mine --stone-dice", "'mine --stone-dice': --stone-dice needs a value (write: mine "
                          "[--stone-dice N])",
     "'mine --stone-dice': --stone-dice には値が必要です（書き方：mine [--stone-dice N]）"),
    ("play jolty", "'play jolty': Jolty Jackhammer is played with modify, not play (write: "
                   + notation.USAGE["play"] + ")",
     "'play jolty': ガタガタ削岩機は play ではなく modify で使います（書き方："
     + notation.USAGE["play"] + "）"),
    ("restore cup", "'restore cup': 'cup' is not a relic (write: restore RELIC)",
     "'restore cup': 'cup' は遺物ではありません（書き方：restore RELIC）"),
])
def test_a_reason_reads_in_english_and_in_japanese(line, english, japanese):
    error = refused(line)
    assert str(error) == english
    assert error.translated(None) == english
    assert error.translated(JA) == japanese
    assert isinstance(error.reason, Refusal)


def test_an_unknown_word_and_an_empty_line_list_the_commands_in_the_readers_commas():
    error = refused("mvoe 2f")
    assert str(error) == ("'mvoe 2f': unknown command 'mvoe'; the commands are "
                          + ", ".join(notation.WORDS))
    assert error.translated(JA) == ("'mvoe 2f': 「mvoe」というコマンドはありません。コマンドは "
                                    + "、".join(notation.WORDS) + " です")
    assert refused("").translated(JA).startswith("'': 空の行です。コマンドは reveal、move、")


def test_a_player_not_at_the_table_is_answered_with_the_names_there():
    error = refused("give amethyst to Zed", names={0: "Ada", 1: "Ben"})
    assert error.reason == ("'Zed' is not a player: the players are Ada, Ben (write: give GEM "
                            "--to SEAT|supply)")
    assert error.translated(JA) == ("'give amethyst to Zed': 'Zed' はプレイヤーではありません："
                                    "プレイヤーは Ada、Ben です（書き方：give GEM --to SEAT|supply）")


def test_a_line_with_several_gems_where_one_is_wanted():
    error = refused("give 2 amethyst to 1")
    assert error.reason == "give one gem per command here: write `give GEM --to SEAT`"
    assert error.translated(JA).endswith("ここでは1つのコマンドで宝石を1つ渡してください："
                                         "`give GEM --to SEAT` と書きます")


def test_a_scripts_did_you_mean_and_its_alternatives_are_translated():
    state = place_tile(new_game(2), "1b", "desert_rainbow")
    script = dry_run(state, Script([ScriptLine(1, "mvoe 1b")], 0), "seed", 1)
    reason = script.stop.reason
    assert reason == ("unknown command 'mvoe'; the commands are " + ", ".join(notation.WORDS)
                      + "; did you mean `move 1b`?")
    assert reason.translated(JA).endswith(" です。`move 1b` のことですか？")

    script = dry_run(new_game(2), Script([ScriptLine(1, "move 1b or sell")], 0), "seed", 1)
    reason = script.stop.reason
    assert str(reason).startswith("none of its alternatives can be played now: `move 1b`: ")
    assert "; `sell`: sell takes a gem and how many (write: sell GEM COUNT)" in reason
    japanese = reason.translated(JA)
    assert japanese.startswith("どの選択肢も今は実行できません：`move 1b`：")
    assert japanese.endswith("。`sell`：sell には宝石と個数を指定します（書き方：sell GEM COUNT）")
