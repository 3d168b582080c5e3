"""The server's own refusals in an answer, in the reader's language (issue 30): the notation's
reasons (an unknown command, a hex it cannot read, alternatives none of which reads: the engine's
refusals, engine/text/notation_words.py) and the "did you mean" guess (server/inbound/lines.py), a
join refused by the lobby (server/games/lobby.py), and a game's status in the list of games;
English for a player who chose English."""

from __future__ import annotations

import pytest

from server.storage.db import app_engine, session_scope
from server.storage.models import Game
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply, text_of
from tests.server.inbound.test_community_mail import to_bare

COMMANDS = ("reveal, move, relocate, choose, give, discard-objective, mine, keep, reroll, modify, "
            "roll-market, buy, sell, play, restore, end, remove, undo")


def _choose(table, player, language: str) -> None:
    table._call("patch", "/users/me/preferences", player, language=language)


@pytest.mark.parametrize("language, refused", [
    ("ja", '拒否しました：1行目「mvoe 2f」\n    コマンドではありません。`move 2f` のことですか？'),
    ("en", 'Refused: line 1, "mvoe 2f"\n    not a command: did you mean `move 2f`?'),
])
def test_a_mistyped_command_is_guessed_at_in_each_readers_language(post, table, duel, language,
                                                                   refused):
    _choose(table, duel.player, language)
    assert post.ingest(reply(duel.mail, "mvoe 2f")).status == "stopped"
    post.deliver()
    text = answer_to(post, duel.player.email)
    assert refused in text, text
    assert language == "en" or "did you mean" not in text


@pytest.mark.parametrize("language, hint", [
    ("ja", f"「dance」というコマンドはありません。コマンドは {COMMANDS.replace(', ', '、')} です"),
    ("en", f"unknown command 'dance'; the commands are {COMMANDS}"),
])
def test_an_unknown_command_is_named_in_each_readers_language(post, table, duel, language, hint):
    _choose(table, duel.player, language)
    assert post.ingest(reply(duel.mail, f"{duel.first}\ndance wildly\nend")).status == "stopped"
    post.deliver()
    text = flat(answer_to(post, duel.player.email))
    assert hint in text, text
    assert language == "en" or "unknown command" not in text


def squashed(text: str) -> str:
    """The text without its spaces and line breaks (a long line is wrapped where it falls)."""
    return "".join(text.split())


@pytest.mark.parametrize("language, refused", [
    ("ja", "拒否しました：1行目「move 9z」'9z' はマスの名前ではありません（'3b' のように、1〜9の"
           "行と英字1つ）（書き方：move HEX）"),
    ("en", "Refused: line 1, \"move 9z\" '9z' is not a hex name (expected a row 1-9 and a "
           "letter, like '3b') (write: move HEX)"),
])
def test_a_command_the_notation_cannot_read_is_refused_in_each_readers_language(
        post, table, duel, language, refused):
    _choose(table, duel.player, language)
    assert post.ingest(reply(duel.mail, "move 9z\nend")).status == "stopped"
    post.deliver()
    text = answer_to(post, duel.player.email)
    assert squashed(refused) in squashed(text), text
    assert language == "en" or "is not a hex name" not in text


@pytest.mark.parametrize("language, refused", [
    ("ja", "拒否しました：1行目「sell ruby 2 or give 2 amethyst」どの選択肢も今は実行できません："
           "`sell ruby 2`：'ruby' は宝石ではありません：amethyst、citrine、emerald、sapphire "
           "のどれかです（書き方：sell GEM COUNT）。`give 2 amethyst`：受け取る人を --to SEAT か "
           "--to supply で指定してください（書き方：give GEM --to SEAT|supply）"),
    ("en", "Refused: line 1, \"sell ruby 2 or give 2 amethyst\" none of its alternatives can be "
           "played now: `sell ruby 2`: 'ruby' is not a gem: use amethyst, citrine, emerald, "
           "sapphire (write: sell GEM COUNT); `give 2 amethyst`: say who receives it with --to "
           "SEAT, or --to supply (write: give GEM --to SEAT|supply)"),
])
def test_alternatives_none_of_which_reads_are_refused_in_each_readers_language(
        post, table, duel, language, refused):
    _choose(table, duel.player, language)
    assert post.ingest(reply(duel.mail, "sell ruby 2 or give 2 amethyst")).status == "stopped"
    post.deliver()
    text = answer_to(post, duel.player.email)
    assert squashed(refused) in squashed(text), text


def test_a_join_refused_by_the_lobby_in_each_readers_language(post, table, receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    eve, cy = table.register("Eve"), table.register("Cy")
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", "/games/join", bob, code=game["join_code"])
    _choose(table, eve, "ja")
    assert post.ingest(to_bare(eve.email, f"join {game['join_code']}")).status == "refused"
    post.deliver()
    text = flat(text_of(post.answer(eve.email)))
    assert f"メールは実行されませんでした：ゲーム{game['id']}は満席です（2席）。" in text, text
    assert post.ingest(to_bare(cy.email, f"join {game['join_code']}")).status == "refused"
    post.deliver()
    assert (f"Your mail was not acted on: game {game['id']} is full (2 seats)."
            in flat(text_of(post.answer(cy.email))))


def test_a_games_status_in_the_list_of_games_in_each_readers_language(post, table, receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    post.deliver()
    with session_scope(app_engine(table.app)) as session:
        session.get(Game, game_id).status = "aborted"
        session.commit()
    _choose(table, ada, "ja")
    assert post.ingest(to_bare(ada.email, "games")).status == "answered"
    post.deliver()
    assert f"{game_id}（中止）：宛先 " in flat(text_of(post.answer(ada.email)))
    assert post.ingest(to_bare(bob.email, "games")).status == "answered"
    post.deliver()
    assert f"{game_id} (aborted): write to " in flat(text_of(post.answer(bob.email)))
