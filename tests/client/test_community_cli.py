"""The community commands against a scripted stand-in server: a word for the dice sent with
`new` and `join`, `rematch`, `open`."""

from __future__ import annotations

import re

OPEN_GAME = {"id": "g1", "status": "open", "version": 0, "seats": 2, "join_code": "X7P2QK",
             "players": [{"seat": None, "user_id": 1, "name": "Ada", "kind": "human"},
                         {"seat": None, "user_id": 2, "name": "Bob", "kind": "human"}]}
JOINED = ("Game g1: open, 2 seat(s)\n"
          "  join code: X7P2QK\n"
          "  player: Ada (human)\n"
          "  player: Bob (human)\n")


def env(server):
    return {"IRIDESCIA_SERVER": server.url, "IRIDESCIA_TOKEN": "tok"}


def test_join_sends_the_players_word_for_the_dice(run, standin):
    standin.answer("POST", "/games/join", 200, OPEN_GAME)
    result = run("join", "X7P2QK", "--word", "tolami-veruko", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == JOINED
    assert standin.requests[-1]["json"] == {"code": "X7P2QK", "contribution": "tolami-veruko"}


def test_a_games_rules_are_said_in_words_not_the_apis_keys(run, standin):
    game = dict(OPEN_GAME, seats=4, variants={"mining_cost": 3, "leftover_gems": "same_type",
                                              "catapult_4th": True})
    standin.answer("POST", "/games/join", 200, game)
    result = run("join", "X7P2QK", "--word", "tolami-veruko", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        "Game g1: open, 4 seat(s)",
        "  rules: mining cost 3, leftover gems of one type, the 4th player starts with a Clever "
        "Catapult"]


def test_without_a_word_join_and_new_make_a_random_one_each_time(run, standin):
    standin.answer("POST", "/games/join", 200, OPEN_GAME)
    standin.answer("POST", "/games", 201, OPEN_GAME)
    for args in (("join", "X7P2QK"), ("join", "X7P2QK"), ("new", "--seats", "2")):
        assert run(*args, env=env(standin)).exit_code == 0
    words = [request["json"]["contribution"] for request in standin.requests]
    assert all(re.fullmatch(r"([bdfgklmnprstvz][aeiou]){3}-([bdfgklmnprstvz][aeiou]){3}", w)
               for w in words), words
    assert len(set(words)) == 3


def test_rematch_says_who_it_waits_for(run, standin):
    rematch = dict(OPEN_GAME, id="g2", join_code="Q4Z8RT",
                   players=[{"seat": None, "user_id": 2, "name": "Bob", "kind": "human"}])
    standin.answer("POST", "/games/g1/rematch", 201, rematch)
    result = run("rematch", "g1", "--word", "kesora", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Rematch of game g1:\n"
        "Game g2: open, 2 seat(s)\n"
        "  join code: Q4Z8RT\n"
        "  player: Bob (human)\n"
        "Waiting for 1 more player to accept: it starts by itself when they have.\n")
    assert standin.requests[-1]["json"] == {"contribution": "kesora"}


def test_rematch_of_a_game_not_over_prints_the_servers_reason(run, standin):
    standin.answer("POST", "/games/g1/rematch", 409, {
        "code": 409, "status": "Conflict",
        "message": "game g1 is not over: a rematch is offered at its end"})
    result = run("rematch", "g1", env=env(standin))
    assert result.exit_code == 1
    assert result.output == "Error: conflict: game g1 is not over: a rematch is offered at its end\n"


def test_open_lists_the_games_waiting_with_their_codes(run, standin):
    rated = [dict(OPEN_GAME["players"][0], rating=1087, rating_provisional=False),
             dict(OPEN_GAME["players"][1], rating=1000, rating_provisional=True)]
    listed = [dict(OPEN_GAME, id="g7", pace="1d", players=rated[:1]),
              dict(OPEN_GAME, id="g8", seats=3, pace="3d", join_code="B2C4D6", players=rated)]
    standin.answer("GET", "/games/open", 200, listed)
    result = run("open", "--seats", "2", "--pace", "1d", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "GAME       SEATS  PACE  PLAYERS (RATING)                         JOIN CODE\n"
        "g7         1/2    1d    Ada (1087)                               X7P2QK\n"
        "g8         2/3    3d    Ada (1087), Bob (1000?)                  B2C4D6\n"
        "Join one with `iridescia join CODE`.\n")
    assert standin.requests[-1]["args"] == {"seats": "2", "pace": "1d", "page": "1",
                                            "page_size": "100"}


def test_open_with_nothing_waiting_says_how_to_find_a_game(run, standin):
    standin.answer("GET", "/games/open", 200, [])
    result = run("open", env=env(standin))
    assert result.output == ("No open game waits for players. Seek one with `iridescia seek "
                             "--seats 2`, or create one with `iridescia new --public`.\n")


def test_seek_says_whether_it_waits_or_made_a_game(run, standin):
    standin.answer("POST", "/seeks", 201, {"id": 4, "seats": 3, "pace": "1d", "game_id": None,
                                           "created_at": "2026-12-02T02:00:00+00:00"})
    result = run("seek", "--seats", "3", "--pace", "1d", "--word", "kesora", env=env(standin))
    assert result.output == ("Seek 4: waiting for 2 other players to seek 3 seats at pace 1d. "
                             "`iridescia unseek 4` cancels it.\n")
    assert standin.requests[-1]["json"] == {"seats": 3, "pace": "1d", "contribution": "kesora"}
    standin.answers.clear()
    standin.answer("POST", "/seeks", 201, {"id": 5, "seats": 2, "pace": "3d", "game_id": "g9",
                                           "created_at": "2026-12-02T02:00:00+00:00"})
    result = run("seek", "--seats", "2", env=env(standin))
    assert result.output == ("Seek 5 fitted: game g9 has started. `iridescia show g9` shows "
                             "it.\n")


def test_seeks_and_unseek(run, standin):
    standin.answer("GET", "/seeks", 200, [
        {"id": 4, "seats": 3, "pace": "1d", "game_id": None},
        {"id": 2, "seats": 2, "pace": "3d", "game_id": "g9"}])
    standin.answer("DELETE", "/seeks/4", 204)
    assert run("seeks", env=env(standin)).output == ("    4  3 seats, pace 1d: waiting\n"
                                                      "    2  2 seats, pace 3d: made game g9\n")
    assert run("unseek", "4", env=env(standin)).output == "Seek 4 cancelled.\n"


def test_player_and_leaderboard(run, standin):
    standin.answer("GET", "/users/7", 200, {
        "id": 7, "name": "Ada", "ratings": [
            {"track": "2", "track_name": "2 players", "rating": 1087, "provisional": False,
             "games": 6, "wins": 4, "mu": 29.1, "sigma": 5.2}],
        "win_rates": [{"players": 2, "games": 6, "wins": 4, "rate": 0.667}],
        "running_games": [{"id": "g9", "players": 3, "status": "active", "rhom": False,
                           "public": True},
                          {"id": "g5", "players": 1, "status": "active", "rhom": True,
                           "public": False},
                          {"id": "g6", "players": 2, "status": "open", "rhom": True,
                           "public": True}],
        "finished_games": [{"id": "g1", "players": 2, "rhom": False, "public": True,
                            "result": {"rank": 2, "points": 30, "of": 2, "won": False}}]})
    result = run("player", "7", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == ("Ada\n"
                             "  2 players: 1087 (6 games, 4 won)\n"
                             "  2 players: won 4 of 6 (67%)\n"
                             "  playing g9 (3 players, active)\n"
                             "  playing g5 (solo against the Rhom, active)\n"
                             "  playing g6 (2 players + the Rhom, open)\n"
                             "  finished g1 (2 players): place 2 of 2\n")
    standin.answer("GET", "/leaderboard", 200, [
        {"rank": 1, "user_id": 7, "name": "Ada", "rating": 1087, "provisional": False,
         "games": 6, "wins": 4},
        {"rank": 2, "user_id": 8, "name": "Bob", "rating": 1012, "provisional": True,
         "games": 2, "wins": 1}])
    board = run("leaderboard", "--track", "2", env=env(standin))
    assert board.output == ("  #  PLAYER                    RATING GAMES  WON\n"
                            "  1  Ada                        1087      6    4\n"
                            "  2  Bob                        1012?     2    1\n")
    assert standin.requests[-1]["args"] == {"track": "2"}


def test_games_names_the_other_players_with_their_ratings(run, standin):
    """`iridescia games`: the other players of each game with their rating on its track (?
    while provisional), the Rhom's on the solo track; no rating for a bot; names, no seats."""
    ada = {"seat": 0, "user_id": 1, "name": "Ada", "kind": "human", "rating": 1087,
           "rating_provisional": False}
    bob = {"seat": 1, "user_id": 2, "name": "Bob", "kind": "human", "rating": 1012,
           "rating_provisional": True}
    rhom = {"seat": 1, "user_id": None, "name": "Rhom", "kind": "rhom", "rating": 1131,
            "rating_provisional": False}
    bot = {"seat": 2, "user_id": None, "name": "Beryl", "kind": "bot"}
    standin.answer("GET", "/games", 200, [
        {"id": "g1", "status": "active", "seats": 2, "pace": "1d", "players": [ada, bob],
         "current_seat": 1, "is_my_turn": False, "deadline_at": "2026-12-03T04:03:42+00:00",
         "time_left": "20 hours left"},
        {"id": "g2", "status": "active", "seats": 1, "rhom": True, "pace": "none",
         "players": [ada, rhom], "current_seat": 0, "is_my_turn": True},
        {"id": "g3", "status": "finished", "seats": 3, "pace": "3d",
         "players": [ada, bob, bot]}])
    standin.answer("GET", "/users/me", 200, {"id": 1, "name": "Ada", "email": "ada@example.org",
                                              "email_status": "confirmed"})
    result = run("games", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == (
        "GAME         STATUS    SEATS   PACE  TURN                         WITH               "
        "DEADLINE\n"
        "g1           active    2       1d    Bob to play                  Bob (1012?)        "
        "2026-12-03 04:03 UTC (20 hours left)\n"
        "g2           active    1+R     none  YOUR TURN                    the Rhom (1131)    -\n"
        "g3           finished  3       3d    finished                     Bob (1012?), Beryl -\n")


def test_seeks_in_japanese_under_a_japanese_lang(run, standin):
    standin.answer("GET", "/seeks", 200, [
        {"id": 4, "seats": 3, "pace": "1d", "game_id": None},
        {"id": 2, "seats": 2, "pace": "3d", "game_id": "g9"}])
    standin.answer("DELETE", "/seeks/4", 204)
    japanese = dict(env(standin), LANG="ja_JP.UTF-8", LC_ALL="", LC_MESSAGES="")
    assert run("seeks", env=japanese).output == ("    4  3席、ペース 1d：待機中\n"
                                                  "    2  2席、ペース 3d：ゲームg9を作成\n")
    assert run("unseek", "4", env=japanese).output == "募集4を取り消しました。\n"
