"""A real ``iridescia-server serve`` (scheduler on) plays several games for a few clients at once;
it is killed with SIGKILL in the middle of that and started again on the same database, twice.

Afterwards every command the server acknowledged (201) is in the log with the events it answered,
no game holds half a command (every event is explained by a stored command that re-decides to
it, the version column agrees), every game replays to the view the restarted server serves, and
the command that was in flight at the kill, retried with its Idempotency-Key, lands exactly once.
"""

from __future__ import annotations

import random
import threading
import time

import requests

import engine
from tests.reliability.helpers import Api, event_log, verify_log
from tests.reliability.processes import ServerProcess, free_port

GAMES = 4
LOAD_SECONDS = 2.0
CYCLES = 2


def _player_loop(base: str, game_id: str, seats: dict, seed: int, stop: threading.Event,
                 acked: list, in_flight: dict, unexpected: list) -> None:
    rng = random.Random(seed)
    api = Api(requests.Session(), base)
    try:
        while not stop.is_set():
            info = api.ok("GET", f"/games/{game_id}", seats[0])
            if info["status"] != "active":
                return
            player = seats[info["current_seat"]]
            legal = api.ok("GET", f"/games/{game_id}/legal", player)
            if not legal["commands"]:  # a removal the server is about to play (RULINGS §5)
                time.sleep(0.05)
                continue
            body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
            key = f"{game_id}-{legal['version']}"
            in_flight[game_id] = (player, body, key)
            status, answer, _ = api.call("POST", f"/games/{game_id}/commands", player, body,
                                         headers={"Idempotency-Key": key}, timeout=10)
            if status != 201:
                unexpected.append((game_id, status, answer))
                return
            in_flight.pop(game_id)
            acked.append((game_id, player, body, answer))
    except (requests.RequestException, AssertionError):
        return  # the server died under us


def _check_acknowledged(db, acked: list) -> None:
    from sqlmodel import select

    from server.storage.db import session_scope
    from server.storage.models import Command, Event

    with session_scope(db) as session:
        for game_id, player, body, answer in acked:
            seqs = [event["seq"] for event in answer["events"]]
            stored = session.exec(select(Event).where(Event.game_id == game_id,
                                                      Event.seq.in_(seqs))).all()  # type: ignore[union-attr]
            assert sorted((e.seq, e.type) for e in stored) == [
                (e["seq"], e["type"]) for e in answer["events"]], (game_id, answer)
            command = session.get(Command, (game_id, body["expected_version"]))
            assert command is not None and command.actor == f"user:{player.id}", (game_id, body)
            sent = {k: v for k, v in body["command"].items() if k != "seat"}
            assert {k: v for k, v in command.command.items() if k != "seat"} == sent


def test_sigkill_under_load_loses_no_acknowledged_command(database_url, db, tmp_path):
    settings = {"IRIDESCIA_SCHEDULER_INTERVAL_SECONDS": "1"}
    server = ServerProcess(tmp_path, database_url, "serve", port=free_port(),
                           settings=settings).start()
    try:
        api = Api(requests.Session(), server.base, db=db)
        games = {}
        for number in range(GAMES):
            first, second = api.register(f"ada{number}"), api.register(f"bob{number}")
            game_id = api.new_game(first, [second])
            games[game_id] = api.seats(game_id, first, [first, second])
        acked: list = []
        figures = []
        for cycle in range(CYCLES):
            stop, in_flight, unexpected = threading.Event(), {}, []
            threads = [threading.Thread(target=_player_loop, args=(
                server.base, game_id, seats, cycle * 100 + n, stop, acked, in_flight, unexpected))
                for n, (game_id, seats) in enumerate(games.items())]
            before = len(acked)
            for thread in threads:
                thread.start()
            time.sleep(LOAD_SECONDS)
            server.kill()
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
            assert not unexpected, unexpected

            server = ServerProcess(tmp_path, database_url, "serve", port=free_port(),
                                   settings=settings, name=f"server{cycle + 1}").start()
            api = Api(requests.Session(), server.base)
            _check_acknowledged(db, acked)
            for game_id in games:
                verify_log(db, game_id)

            # The commands cut off by the kill, retried with their keys: each lands once.
            for game_id, (player, body, key) in list(in_flight.items()):
                log_before = event_log(db, game_id)
                status, answer, _ = api.call("POST", f"/games/{game_id}/commands", player, body,
                                             headers={"Idempotency-Key": key})
                assert status == 201, (status, answer)
                again = api.call("POST", f"/games/{game_id}/commands", player, body,
                                 headers={"Idempotency-Key": key})
                assert again[:2] == (201, answer)
                committed_before = len(event_log(db, game_id)) == len(log_before)
                acked.append((game_id, player, body, answer))
                figures.append("stored" if committed_before else "applied on retry")
            _check_acknowledged(db, acked)
            print(f"crash cycle {cycle + 1}: {len(acked) - before} commands acknowledged, "
                  f"{len(in_flight)} in flight at the kill")

        for game_id, seats in games.items():
            state = verify_log(db, game_id)
            for seat, player in seats.items():
                served = api.ok("GET", f"/games/{game_id}/view", player)
                served.pop("version")
                # As the player's display settings order it: an account starts with both by gem.
                assert served == engine.view(state, seat, tile_sort="gem", relic_sort="gem")
        print(f"crash: {CYCLES} SIGKILLs under load, {len(acked)} acknowledged commands all in "
              f"the log, {GAMES} games replay; in-flight retries: {figures}")
    finally:
        server.stop()
