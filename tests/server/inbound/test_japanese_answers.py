"""Answers in the reader's language (issue 30): a player who chose Japanese reads the answer to
their reply in Japanese, refusals included, text and HTML; a sender who chose nothing is answered
in the language their mail's Content-Language asks for, else English."""

from __future__ import annotations

import re

from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply


def _choose(table, player, **changes):
    table._call("patch", "/users/me/preferences", player, **changes)


def _html(message) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def test_a_stale_reply_is_refused_in_japanese_text_and_html(post, table, duel):
    _choose(table, duel.player, language="ja")
    assert post.ingest(reply(duel.mail, duel.first)).status == "applied"
    post.deliver()
    # The first email again, its reveal again: written for before, and not legal any more.
    assert post.ingest(reply(duel.mail, f"{duel.first}\nend")).status == "stopped"
    post.deliver()
    message = post.answer(duel.player.email)
    text = answer_to(post, duel.player.email)
    assert f"{duel.player.name}さん、こんにちは。" in text
    assert f"拒否しました：1行目「{duel.first}」" in text, text
    # The subject tells the news in Japanese too: where the run stopped, whose turn it is.
    assert str(message["Subject"]).startswith(f"1行目で停止：{duel.first} — "), message["Subject"]
    assert "返信されたメールの後にゲームが進み" in flat(text) and "何も実行していません" in text
    assert "あなたが返信したメールの後に起きたこと：\n" in text
    for english in ("Hello", "Refused", "line 1", "nothing was played", "Since the email",
                    "Not run", "Reply to this email"):
        assert english not in text, english
    html = _html(message)
    assert '<html lang="ja">' in html and f"拒否しました：1行目「{duel.first}」" in html
    assert "Hello" not in html and "Open the game" not in html and "nothing was played" not in html


def test_an_unknown_sentence_is_answered_in_japanese(post, table, duel):
    _choose(table, duel.player, language="ja")
    assert post.ingest(reply(duel.mail, "Thanks!")).status == "answered"
    post.deliver()
    message = post.answer(duel.player.email)
    text = answer_to(post, duel.player.email)
    assert "メールにコマンドがありませんでした。" in text and "Your mail had no" not in text
    assert "メールにコマンドがありませんでした。" in _html(message)


def test_a_reply_to_a_forged_address_is_refused_in_japanese(post, table, duel):
    _choose(table, duel.player, language="ja")
    to = str(duel.mail["Reply-To"])
    local, _, domain = to.partition("@")
    tampered = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    assert post.ingest(reply(duel.mail, duel.first, to=tampered)).status == "refused"
    post.deliver()
    message = post.answer(duel.player.email)
    text = flat(answer_to(post, duel.player.email))
    assert "メールは実行されませんでした：送り先のアドレスは無効です。" in text, text
    assert "not acted on" not in text and "not valid" not in text
    html = _html(message)
    assert '<html lang="ja">' in html and "メールは実行されませんでした" in html
    assert "not acted on" not in html


def test_the_other_player_of_the_same_game_is_still_answered_in_english(post, table, duel):
    _choose(table, duel.player, language="ja")
    other_mail = post.latest(duel.other.email, duel.game_id)
    assert post.ingest(reply(other_mail, "help")).status in ("answered", "planned")
    post.deliver()
    text = answer_to(post, duel.other.email)
    assert f"Hello {duel.other.name}," in text and "The words you can send" in text
    assert not re.search(r"[ぁ-んァ-ン]", text.replace("公開 reveal", "").replace(
        "移動 move", "").replace("採掘 mine", "").replace("売る sell", "").replace(
        "買う buy", "").replace("使う play", "").replace("復元 restore", "").replace(
        "終了 end", ""))


def test_a_sender_who_chose_nothing_is_answered_as_content_language_asks(post, table, duel):
    before = duel.mail
    # (set first: an EmailMessage's set_content drops the Content-* headers set before it)
    raw = b"Content-Language: ja-JP\n" + reply(before, "Thanks!")
    assert post.ingest(raw).status == "answered"
    post.deliver()
    text = answer_to(post, duel.player.email)
    assert f"{duel.player.name}さん、こんにちは。" in text and "メールにコマンドがありませんでした。" in text
    assert "Hello" not in text
    assert post.ingest(reply(before, "Thanks again!")).status == "answered"
    post.deliver()
    assert f"Hello {duel.player.name}," in answer_to(post, duel.player.email)  # none: English


def test_the_mail_words_are_answered_in_japanese(post, table, duel):
    _choose(table, duel.player, language="ja")
    assert post.ingest(reply(duel.mail, "notify reminders here\nplan clear")).status == "answered"
    post.deliver()
    text = flat(answer_to(post, duel.player.email))
    assert f"ゲーム{duel.game_id}のメール：リマインダーのみ。" in text, text
    assert "このゲームに予定はありませんでした。" in text
    assert "Mail for" not in text and "no plan" not in text


def test_a_message_too_long_is_refused_in_japanese(post, table, duel):
    _choose(table, duel.player, language="ja")
    assert post.ingest(reply(duel.mail, "say " + "x" * 1001)).status == "said"
    post.deliver()
    text = flat(answer_to(post, duel.player.email))
    assert "1行目「" in text and "」は投稿されませんでした：メッセージは1,000文字までです（このメッセージは1,001文字）" in text, text
    assert "Not posted" not in text and "at most" not in text


def test_a_line_the_rules_refuse_is_refused_in_japanese(post, table, duel):
    _choose(table, duel.player, language="ja")
    assert post.ingest(reply(duel.mail, "end")).status == "stopped"
    post.deliver()
    message = post.answer(duel.player.email)
    text = flat(answer_to(post, duel.player.email))
    assert "拒否しました：1行目「end」" in text, text
    assert "手番を終える前に、探検家をタイルに移動してください" in text, text
    assert "move your explorer" not in text
    assert "手番を終える前に、探検家をタイルに移動してください" in _html(message)


def test_a_line_the_rules_refuse_is_refused_in_english_to_an_english_player(post, table, duel):
    assert post.ingest(reply(duel.mail, "end")).status == "stopped"
    post.deliver()
    text = flat(answer_to(post, duel.player.email))
    assert 'Refused: line 1, "end"' in text, text
    assert "move your explorer onto a tile before ending your turn" in text, text
