"""The community commands against a scripted stand-in server: a word for the dice sent with
`new` and `join`, `rematch`, `open`."""

from __future__ import annotations

import re

OPEN_GAME = {"id": "g1", "status": "open", "version": 0, "seats": 2, "join_code": "X7P2QK",
             "players": [{"seat": None, "user_id": 1, "name": "Ada", "kind": "human"},
                         {"seat": None, "user_id": 2, "name": "Bob", "kind": "human"}]}
JOINED = ("Game g1: open, 2 seat(s), version 0\n"
          "  join code: X7P2QK\n"
          "  seat -: Ada (human)\n"
          "  seat -: Bob (human)\n")


def env(server):
    return {"IRIDESCIA_SERVER": server.url, "IRIDESCIA_TOKEN": "tok"}


def test_join_sends_the_players_word_for_the_dice(run, standin):
    standin.answer("POST", "/games/join", 200, OPEN_GAME)
    result = run("join", "X7P2QK", "--word", "tolami-veruko", env=env(standin))
    assert result.exit_code == 0, result.output
    assert result.output == JOINED
    assert standin.requests[-1]["json"] == {"code": "X7P2QK", "contribution": "tolami-veruko"}


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
        "Game g2: open, 2 seat(s), version 0\n"
        "  join code: Q4Z8RT\n"
        "  seat -: Bob (human)\n"
        "Waiting for 1 more player to accept: it starts by itself when they have.\n")
    assert standin.requests[-1]["json"] == {"contribution": "kesora"}


def test_rematch_of_a_game_not_over_prints_the_servers_reason(run, standin):
    standin.answer("POST", "/games/g1/rematch", 409, {
        "code": 409, "status": "Conflict",
        "message": "game g1 is not over: a rematch is offered at its end"})
    result = run("rematch", "g1", env=env(standin))
    assert result.exit_code == 1
    assert result.output == "Error: conflict: game g1 is not over: a rematch is offered at its end\n"
