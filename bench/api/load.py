"""The load: N client processes, each with its own players and games, for a bounded time.

Every client first sets itself up (untimed), then all start together and run until the deadline.
Each request is recorded as (kind, status, seconds). Clients use http.client with no retries, so
the client side costs as little CPU as a Python client can (the clients share the machine's cores
with the server, the same for the baselines as for the app).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, field

from bench.accounts import signed_up

API = "/api/v1"


class Http:
    def __init__(self, port: int):
        self.port = port
        self.records: list[tuple[str, int, float]] = []
        self.timing = False

    def call(self, kind: str, method: str, path: str, body=None, token: str | None = None,
             headers: dict[str, str] | None = None):
        all_headers = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body)
            all_headers["Content-Type"] = "application/json"
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=data, headers=all_headers)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        elapsed = time.perf_counter() - started
        if self.timing:
            self.records.append((kind, response.status, elapsed))
        payload = json.loads(raw) if raw and response.status != 304 else None
        return response.status, payload


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank); NaN when empty."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def expect(status: int, payload, wanted: int, what: str):
    if status != wanted:
        raise RuntimeError(f"{what}: expected {wanted}, got {status}: {payload}")
    return payload


# --- the baselines ----------------------------------------------------------------------------


def run_noop(http: Http, deadline: float, rng: random.Random) -> None:
    while time.perf_counter() < deadline:
        http.call("noop", "GET", "/noop")


def run_insert(http: Http, deadline: float, rng: random.Random) -> None:
    while time.perf_counter() < deadline:
        http.call("insert", "POST", "/insert", {"n": rng.randrange(1 << 30), "text": "x" * 64})


def run_bare(http: Http, deadline: float, rng: random.Random) -> None:
    while time.perf_counter() < deadline:
        http.call("bare", "POST", "/bare-insert", {"n": rng.randrange(1 << 30), "text": "x" * 64})


def run_shaped(http: Http, deadline: float, rng: random.Random) -> None:
    table = f"bench-{rng.randrange(1 << 40):x}"  # one per client: its versions never race
    while time.perf_counter() < deadline:
        http.call("shaped", "POST", "/shaped", {"table": table, "text": "x" * 64})


BASELINES = {"noop": run_noop, "insert": run_insert, "bare": run_bare, "shaped": run_shaped}


# --- the app ----------------------------------------------------------------------------------


@dataclass
class Table:
    """One client's game between two players it plays both of."""

    tokens: dict[int, str] = field(default_factory=dict)  # seat -> token
    game_id: str = ""
    seat: int = 0  # the seat we believe is to act


# The served app's database, where registering reads the mailed confirmation code (set by the
# caller before `run` forks the clients).
DATABASE_URL: str | None = None


def register(http: Http, tag: str) -> str:
    email = f"{tag}-{random.randrange(1 << 40):x}@bench.example"
    return signed_up(lambda method, path, body: http.call("lobby", method, path, body),
                     tag[:40], email, DATABASE_URL)["token"]


def new_table(http: Http, players: list[str]) -> Table:
    """Create, join and start a 2-player game; map seats to tokens."""
    first, second = players
    status, game = http.call("lobby", "POST", f"{API}/games", {"seats": 2}, token=first)
    game = expect(status, game, 201, "create a game")
    status, body = http.call("lobby", "POST", f"{API}/games/join", {"code": game["join_code"]},
                             token=second)
    expect(status, body, 200, "join")
    status, game = http.call("lobby", "POST", f"{API}/games/{game['id']}/start", token=first)
    game = expect(status, game, 200, "start")
    by_user = {}
    for token in players:
        status, me = http.call("lobby", "GET", f"{API}/users/me", token=token)
        by_user[expect(status, me, 200, "whoami")["id"]] = token
    table = Table(game_id=game["id"])
    for player in game["players"]:
        table.tokens[player["seat"]] = by_user[player["user_id"]]
    table.seat = game["current_seat"] if game["current_seat"] is not None else 0
    return table


def setup_game_client(http: Http, rng: random.Random) -> tuple[list[str], Table]:
    players = [register(http, f"bench-{rng.randrange(1 << 30)}") for _ in range(2)]
    return players, new_table(http, players)


def play(http: Http, rng: random.Random, players: list[str], table: Table, deadline: float,
         mix: bool) -> None:
    """Play random legal commands until the deadline, starting a new game when one ends.

    With ``mix``, the player to act looks at the board first, and every third step the other
    player checks their game list and the board (a realistic session). Without it, only what
    posting needs: the post, and the legal commands when the last answer did not list them
    (a new turn: each answer lists its poster's next commands, as `iridescia autoplay` uses
    them)."""
    step = 0
    listed = None  # the last answer's legal commands for table.seat, if any
    while time.perf_counter() < deadline:
        step += 1
        token = table.tokens[table.seat]
        path = f"{API}/games/{table.game_id}"
        if mix:
            status, view = http.call("view", "GET", f"{path}/view", token=token)
            if status == 200:
                if view.get("over"):
                    table, listed = new_table(http, players), None
                    continue
                acting = (view.get("turn") or {}).get("seat")
                if acting in table.tokens and acting != table.seat:
                    table.seat, listed = acting, None
                    token = table.tokens[acting]
        if listed is not None:
            legal, listed = listed, None
        else:
            status, legal = http.call("legal", "GET", f"{path}/legal", token=token)
            if status != 200:
                continue
        if not legal["commands"]:
            # Not this seat's decision, or the game is over: the game says whose it is.
            status, game = http.call("lobby", "GET", path, token=token)
            if game.get("status") == "finished" or game.get("current_seat") is None:
                table = new_table(http, players)
            else:
                table.seat = game["current_seat"]
            continue
        command = rng.choice(legal["commands"])
        body = {"command": command, "expected_version": legal["version"]}
        status, result = http.call("command", "POST", f"{path}/commands", body, token=token)
        if status == 201 and result.get("legal"):
            listed = {"version": result["version"], "commands": result["legal"]}
        # The events say whose turn starts (as a client following the game would read them);
        # decisions inside a turn are found through the empty legal list above.
        for event in (result or {}).get("events", []) if status == 201 else []:
            if event["type"] == "turn_started" and event["payload"]["seat"] in table.tokens:
                if event["payload"]["seat"] != table.seat:
                    listed = None
                table.seat = event["payload"]["seat"]
        if mix and step % 3 == 0:
            other = table.tokens[1 - table.seat]
            http.call("list", "GET", f"{API}/games", token=other)
            http.call("view", "GET", f"{path}/view", token=other)


def _client(scenario: str, port: int, seconds: float, seed: int, barrier, results) -> None:
    http = Http(port)
    rng = random.Random(seed)
    try:
        if scenario in BASELINES:
            work = BASELINES[scenario]
            barrier.wait()
            barrier.wait()
            http.timing = True
            work(http, time.perf_counter() + seconds, rng)
        else:
            # Registration and the first game are set up before the clock starts.
            players, table = setup_game_client(http, rng)
            barrier.wait()  # set up; the parent runs its after_setup
            barrier.wait()
            http.timing = True
            play(http, rng, players, table, time.perf_counter() + seconds, scenario == "mix")
        results.put((None, http.records))
    except Exception as error:  # noqa: BLE001 - reported to the parent, which fails loudly
        barrier.abort()  # so that nobody waits for a client that will never come
        results.put((f"{type(error).__name__}: {error}", http.records))


def run(scenario: str, port: int, clients: int, seconds: float, seed: int = 1,
        after_setup=None):
    """Run ``clients`` processes for ``seconds``; (records, wall seconds, errors).
    ``after_setup`` is called once every client is set up, before the clock starts."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(clients + 1)
    results = context.Queue()
    processes = [
        context.Process(target=_client, args=(scenario, port, seconds, seed + i, barrier, results))
        for i in range(clients)
    ]
    for process in processes:
        process.start()
    try:
        barrier.wait(timeout=120)
        if after_setup is not None:
            after_setup()
        barrier.wait(timeout=120)
    except threading.BrokenBarrierError:
        pass  # a client failed during set-up: its error comes through the queue
    started = time.perf_counter()
    records, errors = [], []
    for _ in processes:
        error, client_records = results.get(timeout=seconds + 120)
        records.extend(client_records)
        if error:
            errors.append(error)
    wall = time.perf_counter() - started
    for process in processes:
        process.join(timeout=30)
    return records, wall, errors
