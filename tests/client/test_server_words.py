"""The server's enum words and the tables' headings in the language of `LANG` (issue 30): the
API sends "active", "rhom", "give_gem", the command line shows 進行中, ロム, 宝石を与える to a
Japanese reader and the same keys as before to an English one (client/server_words.py,
client/table.py)."""

from __future__ import annotations

import pytest

from client import server_words
from tests.client.test_community_cli import OPEN_GAME, env

JAPANESE = {"LANG": "ja_JP.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
ADA = {"seat": 0, "user_id": 1, "name": "Ada", "kind": "human", "rating": 1087,
       "rating_provisional": False}
BOB = {"seat": 1, "user_id": 2, "name": "Bob", "kind": "human", "rating": 1012,
       "rating_provisional": True}
RHOM = {"seat": 1, "user_id": None, "name": "Rhom", "kind": "rhom", "rating": 1131,
        "rating_provisional": False}
GAMES = [
    {"id": "g1", "status": "active", "seats": 2, "pace": "1d", "players": [ADA, BOB],
     "current_seat": 1, "is_my_turn": False, "deadline_at": "2026-12-03T04:03:42+00:00",
     "time_left": "20 hours left"},
    {"id": "g2", "status": "active", "seats": 1, "rhom": True, "pace": "none",
     "players": [ADA, RHOM], "current_seat": 0, "is_my_turn": True, "paused": True},
    {"id": "g3", "status": "finished", "seats": 3, "pace": "3d", "players": [ADA, BOB]},
    {"id": "g4", "status": "open", "seats": 2, "pace": "3d", "players": [ADA]}]
ME = {"id": 1, "name": "Ada", "email": "ada@example.org", "email_status": "confirmed"}


def test_games_in_japanese_headings_statuses_and_time_left(run, standin):
    standin.answer("GET", "/games", 200, GAMES)
    standin.answer("GET", "/users/me", 200, ME)
    result = run("games", env=dict(env(standin), **JAPANESE))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "ゲーム       状態      席      ペース 手番                         相手        期限\n"
        "g1           進行中    2       1d    Bobの手番                    Bob (1012?) "
        "2026-12-03 04:03 UTC (残り20時間)\n"
        "g2           進行中    1+R     none  あなたの手番                 ロム (1131) 一時停止中\n"
        "g3           終了      3       3d    終了                         Bob (1012?) -\n"
        "g4           募集中    2       3d    プレイヤー待ち（1/2）        -           -\n")


def test_games_in_english_as_before(run, standin):
    standin.answer("GET", "/games", 200, GAMES)
    standin.answer("GET", "/users/me", 200, ME)
    result = run("games", env=dict(env(standin), LANG="en_US.UTF-8", LC_ALL="", LC_MESSAGES=""))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "GAME         STATUS    SEATS   PACE  TURN                         WITH            "
        "DEADLINE\n"
        "g1           active    2       1d    Bob to play                  Bob (1012?)     "
        "2026-12-03 04:03 UTC (20 hours left)\n"
        "g2           active    1+R     none  YOUR TURN                    the Rhom (1131) paused\n"
        "g3           finished  3       3d    finished                     Bob (1012?)     -\n"
        "g4           open      2       3d    waiting for players (1/2)    -               -\n")


def test_a_game_and_its_players_kinds_in_japanese(run, standin):
    game = dict(OPEN_GAME, players=[*OPEN_GAME["players"],
                                    {"seat": None, "user_id": None, "name": "Beryl",
                                     "kind": "bot"}])
    standin.answer("POST", "/games/join", 200, game)
    result = run("join", "X7P2QK", "--word", "tolami-veruko", env=dict(env(standin), **JAPANESE))
    assert result.exit_code == 0, result.output
    assert result.output == ("ゲームg1：募集中、2席\n"
                             "  参加コード：X7P2QK\n"
                             "  プレイヤー：Ada（人間）\n"
                             "  プレイヤー：Bob（人間）\n"
                             "  プレイヤー：Beryl（ボット）\n")


def test_open_and_leaderboard_headings_in_japanese(run, standin):
    standin.answer("GET", "/games/open", 200, [
        {"id": "g7", "seats": 3, "pace": "1d", "join_code": "Q4RT9Z",
         "players": [{"name": "Ada", "kind": "human"}]}])
    standin.answer("GET", "/leaderboard", 200, [
        {"rank": 1, "user_id": 7, "name": "Ada", "rating": 1087, "provisional": False,
         "games": 6, "wins": 4}])
    japanese = dict(env(standin), **JAPANESE)
    assert run("open", env=japanese).output.splitlines()[:2] == [
        "ゲーム     席     ペース プレイヤー（レーティング）               参加コード",
        "g7         1/3    1d    Ada                                      Q4RT9Z"]
    assert run("leaderboard", env=japanese).output == (
        "  #  プレイヤー               レーティング 対戦数 勝利\n"
        "  1  Ada                        1087      6    4\n")


@pytest.mark.parametrize(("word", "key", "japanese"), [
    (server_words.status, "aborted", "中止"),
    (server_words.pending_kind, "give_gem", "宝石を与える"),
    (server_words.pending_kind, "removal", "除外ターン"),
    (server_words.bot_level, "medium", "中級"),
    (server_words.preference, "digest", "1日1通のまとめ (digest)"),
    (server_words.time_left, "2 days 4 hours left", "残り2日4時間"),
    (server_words.time_left, "due now", "期限です"),
    (server_words.status, "suspended", "suspended"),  # a key the client does not know yet
])
def test_each_key_has_its_word_and_english_keeps_the_key(monkeypatch, word, key, japanese):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    assert word(key) == japanese
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert word(key) == key


def test_every_key_the_api_documents_has_japanese(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    words = {**server_words.STATUSES, **server_words.PLAYER_KINDS, **server_words.PENDING_KINDS,
             **server_words.BOT_LEVELS, **server_words.PREFERENCES}
    assert [key for key, english in words.items() if server_words._(english) == english] == []


def test_a_games_rules_are_listed_with_the_japanese_comma(run, standin):
    game = dict(OPEN_GAME, seats=4, variants={"mining_cost": 3, "leftover_gems": "same_type",
                                              "catapult_4th": False})
    standin.answer("POST", "/games/join", 200, game)
    result = run("join", "X7P2QK", "--word", "tolami-veruko", env=dict(env(standin), **JAPANESE))
    assert result.exit_code == 0, result.output
    [rules] = [line for line in result.output.splitlines() if "ルール" in line]
    assert rules.startswith("  ルール：採掘コスト3、") and ", " not in rules, rules
