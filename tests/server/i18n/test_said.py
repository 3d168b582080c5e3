"""server.i18n.Said (issue 30): a message the core writes once is its English wherever a string
is expected, and is said again in each reader's language where it is shown."""

from __future__ import annotations

import copy

from server import i18n
from server.i18n import N_, Said


def test_a_said_message_is_its_english_and_said_again_in_japanese():
    full = Said(N_("game {game} is full ({seats} seats)"), game="k3x9q2ab", seats=2)
    assert full == "game k3x9q2ab is full (2 seats)"
    assert f"refused: {full}" == "refused: game k3x9q2ab is full (2 seats)"
    assert full.said_in("en") == "game k3x9q2ab is full (2 seats)"
    assert full.said_in("ja") == "ゲームk3x9q2abは満席です（2席）"
    assert i18n.say(full, "ja") == "ゲームk3x9q2abは満席です（2席）"
    assert i18n.say("a sentence from elsewhere", "ja") == "a sentence from elsewhere"


def test_a_said_value_is_said_in_the_same_language_and_survives_a_copy():
    said = Said(N_("game {game} was {status}: it takes no more commands"), game="k3x9q2ab",
                status=i18n.status("aborted"))
    assert said == "game k3x9q2ab was aborted: it takes no more commands"
    assert said.said_in("ja") == "ゲームk3x9q2abは中止です。これ以上コマンドを受け付けません"
    assert copy.deepcopy(said).said_in("ja") == said.said_in("ja")
    assert i18n.translate("ja", N_("Your mail was not acted on: {reason}."), reason=said) == (
        "メールは実行されませんでした：ゲームk3x9q2abは中止です。これ以上コマンドを受け付けません。")


def test_the_status_words():
    words = {key: i18n.say(i18n.status(key), "ja") for key in ("open", "active", "finished")}
    assert words == {"open": "募集中", "active": "進行中", "finished": "終了"}
    assert i18n.say(i18n.status("finished"), "en") == "finished"
