"""The load: client processes that play whole games over HTTP, choosing among the legal commands
at random, solo against the Rhom and 2-player games, until each game ends."""

from __future__ import annotations

import multiprocessing
import random
import time

from bench.accounts import signed_up
from bench.api.load import API, Http, expect

MAX_COMMANDS = 3000  # a game that runs past this is left (it never has, in random play)


def register(http: Http, tag: str, db) -> tuple[str, int]:  # noqa: ANN001
    """A player registered and confirmed with the mailed code (``db``: the server's)."""
    email = f"{tag}-{random.randrange(1 << 40):x}@bench.example"
    body = signed_up(lambda method, path, data: http.call("lobby", method, path, data),
                     tag[:40], email, db)
    return body["token"], body["id"]


def new_game(http: Http, players: list[tuple[str, int]]) -> tuple[str, dict[int, str]]:
    """A public game of these players (one: against the Rhom), started; its id and tokens by
    seat."""
    (first, _), *others = players
    settings = {"seats": len(players), "public": True}
    if not others:
        settings.update(rhom=True, rhom_delay_seconds=0)
    status, game = http.call("lobby", "POST", f"{API}/games", settings, token=first)
    game = expect(status, game, 201, "create a game")
    for token, _ in others:
        status, body = http.call("lobby", "POST", f"{API}/games/join",
                                 {"code": game["join_code"]}, token=token)
        expect(status, body, 200, "join")
    if others:
        status, game = http.call("lobby", "POST", f"{API}/games/{game['id']}/start", token=first)
        game = expect(status, game, 200, "start")
    else:
        status, game = http.call("lobby", "GET", f"{API}/games/{game['id']}", token=first)
    by_user = {user_id: token for token, user_id in players}
    return game["id"], {p["seat"]: by_user[p["user_id"]] for p in game["players"]
                        if p.get("user_id") in by_user}


def play_game(http: Http, rng: random.Random, game_id: str, tokens: dict[int, str]) -> int:
    """Play to the end; the commands posted. As a client should, it reads the legal commands
    from each post's answer while the decision stays with the same player, and the game only
    when it has passed on."""
    path = f"{API}/games/{game_id}"
    any_token = next(iter(tokens.values()))
    posted, legal, token = 0, None, None
    while posted < MAX_COMMANDS:
        if not legal:
            status, game = http.call("game", "GET", path, token=any_token)
            if game["status"] == "finished":
                return posted
            token = tokens.get(game["current_seat"])
            if token is None:  # the Rhom's turn: the scheduler plays it
                time.sleep(0.05)
                continue
            status, answer = http.call("legal", "GET", f"{path}/legal", token=token)
            if status != 200 or not answer["commands"]:
                time.sleep(0.05)
                continue
            legal = (answer["version"], answer["commands"])
        version, commands = legal
        body = {"command": rng.choice(commands), "expected_version": version}
        status, answer = http.call("command", "POST", f"{path}/commands", body, token=token)
        posted += status == 201
        legal = (answer["version"], answer["legal"]) if status == 201 and answer["legal"] else None
    return posted


def _client(port: int, seed: int, games: list[tuple[str, list[tuple[str, int]]]],
            results) -> None:
    http = Http(port)
    rng = random.Random(seed)
    posted, ids = 0, []
    for _kind, players in games:
        game_id, tokens = new_game(http, players)
        ids.append((game_id, players[0][0]))
        posted += play_game(http, rng, game_id, tokens)
    results.put((posted, ids))


def run(port: int, clients: int, games_per_client: int,
        players_by_client) -> tuple[int, list[tuple[str, str]]]:
    """``clients`` processes, each playing its games one after the other (solo and 2-player in
    turn); the commands posted, and each game's id with its creator's token."""
    results = multiprocessing.Queue()
    processes = []
    for number in range(clients):
        mine = players_by_client[number]
        games = [("solo", [mine[0]]) if index % 2 == 0 else ("pair", mine[1:3])
                 for index in range(games_per_client)]
        process = multiprocessing.Process(target=_client,
                                          args=(port, 1000 + number, games, results))
        process.start()
        processes.append(process)
    posted, ids = 0, []
    for _ in processes:
        count, games = results.get()
        posted += count
        ids += games
    for process in processes:
        process.join()
    return posted, ids
