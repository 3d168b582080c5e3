"""The mail words for time away: `vacation until DATE`, `vacation end`, `pause`, `resume`."""

from datetime import timedelta

from server.storage.models import utcnow
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply


def _players(table, game_id, viewer):
    return {p["name"]: p for p in table._call("get", f"/games/{game_id}", viewer)["players"]}


def test_vacation_by_mail_and_back(post, table, duel):
    until = (utcnow().date() + timedelta(days=4)).isoformat()
    outcome = post.ingest(reply(duel.mail, f"vacation until {until}"))
    post.deliver()
    answer = flat(answer_to(post, duel.player.email))
    assert outcome.status == "answered"
    assert (f"You are away until {until} 00:00 UTC: your turns wait for you, and no reminders "
            "come. 17 vacation days are left this year.") in answer
    seen = _players(table, duel.game_id, duel.other)[duel.player.name]
    assert seen["away_until"].startswith(until)
    assert table.game(duel.game_id).deadline_at is None  # it is their turn: it waits

    post.ingest(reply(duel.mail, "vacation end"))
    post.deliver()
    assert "Welcome back" in flat(answer_to(post, duel.player.email))
    assert _players(table, duel.game_id, duel.other)[duel.player.name]["away_until"] is None
    assert table.game(duel.game_id).deadline_at is not None


def test_a_vacation_in_the_past_is_answered_with_what_to_do(post, table, duel):
    post.ingest(reply(duel.mail, "vacation until 2020-01-01"))
    post.deliver()
    answer = flat(answer_to(post, duel.player.email))
    assert "`vacation until 2020-01-01` was not done: 2020-01-01 is not after today" in answer


def test_pause_and_resume_by_mail(post, table, duel):
    post.ingest(reply(duel.mail, "pause"))
    post.deliver()
    assert (f"You asked to pause game {duel.game_id}; it pauses when {duel.other.name} asks too"
            in flat(answer_to(post, duel.player.email)))
    other_mail = post.latest(duel.other.email, duel.game_id)
    post.ingest(reply(other_mail, "pause", sender=duel.other.email))
    post.deliver()
    assert f"Game {duel.game_id} is paused" in flat(answer_to(post, duel.other.email))
    assert table.game(duel.game_id).paused_at is not None
    post.ingest(reply(duel.mail, "resume"))
    post.deliver()
    assert f"Game {duel.game_id} runs again" in flat(answer_to(post, duel.player.email))
    assert table.game(duel.game_id).paused_at is None


def test_help_lists_the_table_words(post, table, duel):
    post.ingest(reply(duel.mail, "help"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert "vacation until 2026-12-24" in answer and "resume: start it again" in answer


def test_notify_words_change_the_choice(post, table, duel):
    post.ingest(reply(duel.mail, "notify digest 9"))
    post.deliver()
    assert "Mail for all your games: one digest a day at 9:00 (UTC)." in flat(
        answer_to(post, duel.player.email))
    prefs = table._call("get", "/users/me", duel.player)["preferences"]
    assert prefs["email"] == "digest" and prefs["digest_hour"] == 9
    post.ingest(reply(duel.mail, "notify reminders here"))
    post.deliver()
    assert f"Mail for game {duel.game_id}: reminders only." in flat(
        answer_to(post, duel.player.email))
    assert table._call("get", f"/games/{duel.game_id}/notifications", duel.player) == {
        "email": "reminders"}
    post.ingest(reply(duel.mail, "notify digest 30"))
    post.deliver()
    assert ("`notify digest 30` was not done: the digest hour is a whole hour from 0 to 23, "
            "not 30.") in flat(answer_to(post, duel.player.email))


def test_language_and_sort_words_change_the_readers_settings(post, table, duel):
    post.ingest(reply(duel.mail, "language ja\ntiles region\nrelics category"))
    post.deliver()
    answer = flat(answer_to(post, duel.player.email))
    # Answered in the language just chosen.
    assert "メール・返信・ページを日本語にしました。" in answer
    assert "タイルのソート法を地域にしました。" in answer
    assert "遺物のソート法をカテゴリーにしました。" in answer
    prefs = table._call("get", "/users/me", duel.player)["preferences"]
    assert (prefs["language"], prefs["tile_sort"], prefs["relic_sort"]) == (
        "ja", "region", "category")
    post.ingest(reply(duel.mail, "help"))
    post.deliver()
    helped = answer_to(post, duel.player.email)
    assert "送れる語（1行に1つ、# 以降はコメント）" in helped
    assert "language ja | language en" in helped and "公開 reveal" in helped
    post.ingest(reply(duel.mail, "language en"))
    post.deliver()
    assert "Your mails, answers and pages are now in English." in flat(
        answer_to(post, duel.player.email))


def test_a_japanese_player_plays_with_a_japanese_verb_and_reads_the_answer_in_japanese(
        post, table, duel):
    table._call("patch", "/users/me/preferences", duel.player, language="ja")
    line = duel.first.replace("reveal", "公開", 1)
    assert post.ingest(reply(duel.mail, line)).status == "applied"
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert f"{duel.player.name}さん、こんにちは。" in answer
    assert f"実行しました：\n    {line}\n" in answer
    assert "起きたこと：" in answer and "を公開" in answer
    assert "Applied" not in answer and "What happened" not in answer
