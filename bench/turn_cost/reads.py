"""Reads beside the JSON view, one request at a time on one API process: the board picture, the
game page, and a request that does nothing, through the deployed front and through gunicorn's
plain (sync) worker."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

from bench.api import servers
from bench.api.load import percentile
from bench.turn_cost.processes import UVICORN, process_cpu

NOTHING = "/api/v1/nothing-here"  # a 404 the app answers without reading anything


def timed(port: int, pids: list[int], path: str, count: int, token: str | None = None):
    """``count`` GETs of ``path``: (CPU ms a request of the serving processes, p99 ms)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    latencies = []
    before = sum(process_cpu(pid) for pid in pids)
    for _ in range(count):
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        latencies.append((time.perf_counter() - started) * 1000)
        if response.status >= 500:
            raise RuntimeError(f"GET {path}: {response.status}")
    cpu = (sum(process_cpu(pid) for pid in pids) - before) * 1000 / count
    return cpu, percentile(latencies, 0.99)


def workers(master: int) -> list[int]:
    return [master, *servers.child_pids(master)]


def game_reads(port: int, master: int, game_id: str, token: str, count: int) -> dict:
    """The JSON view, the board picture and the game page of one finished public game."""
    pids = workers(master)
    timed(port, pids, f"/api/v1/games/{game_id}/view", 5, token)  # warm: caches, statements
    figures = {}
    for name, path in (("view", f"/api/v1/games/{game_id}/view"),
                       ("board.png", f"/games/{game_id}/board.png"),
                       ("page", f"/games/{game_id}")):
        figures[name] = timed(port, pids, path, count, token)
    return figures


def front_against_plain(url: str, workdir: Path, count: int) -> dict:
    """A request that does nothing (the app's 404), served by one gunicorn worker of each kind."""
    env = servers.server_env(url, workdir)
    figures = {}
    for name, app, worker_class in (("front", "server.asgi:create_asgi_app()", UVICORN),
                                    ("plain", "server:create_app()", "sync")):
        with servers.gunicorn(app, env, workdir, "/api/v1/health", workers=1,
                              worker_class=worker_class) as (port, master):
            pids = workers(master)
            timed(port, pids, NOTHING, 20)
            figures[name] = timed(port, pids, NOTHING, count)
    return figures
