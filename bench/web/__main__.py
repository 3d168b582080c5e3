"""The board picture and the game page: ms to draw one SVG (against building the view it is
drawn from and the text board, in the same run), ms to rasterise one PNG, bytes per email (with
and without the picture), the game page's compressed bytes (HTML, CSS, JS, SVG) against its
60 KB budget, and its latency with 8 clients against the JSON view's (the page's p99 should
stay within 1.5 times the view's), interleaved in the same run on the same server.

    python -m bench web                      # SQLite, 8 clients, 20 s of load
    python -m bench web -- --seconds 5 --clients 8
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.accounts import client_signed_up
from bench.api import servers
from bench.api.load import percentile


def _timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def _line(name: str, times: list[float]) -> None:
    print(f"  {name:<34} median {statistics.median(times):7.2f} ms   "
          f"p90 {percentile(times, 0.9):7.2f} ms   (n={len(times)})")


def drawing(repeat: int) -> None:
    import engine
    from engine import simulate
    from engine.bots import policies
    from engine.text.board import board_lines
    from server.picture.png import board_png
    from server.picture.svg import board_svg

    options = simulate.make_options(2, rhom=True)
    state = None
    for _step, state in simulate.steps(options, "bench-web", policies.random_policy):
        if state.turn is not None and state.turn.number >= 20:
            break
    names = {0: "the Rhom", 1: "Ada", 2: "Bo"}
    view = engine.view(state, 1)
    print(f"drawing one board (a 3-seat game at turn {state.turn.number}, seat 1's view)")
    _line("baseline: engine.view", _timed(lambda: engine.view(state, 1), repeat))
    _line("baseline: text board (emails)", _timed(lambda: board_lines(view), repeat))
    _line("board_svg", _timed(lambda: board_svg(view, names), repeat))
    svg = board_svg(view, names)
    board_png(svg)  # the fonts' first load is not what each email pays
    pngs = max(5, repeat // 10)
    _line("board_png (resvg, DejaVu Sans)", _timed(lambda: board_png(svg), pngs))
    print(f"  SVG {len(svg.encode()):,} bytes, PNG {len(board_png(svg)):,} bytes")


def email_bytes(workdir: Path) -> None:
    from sqlmodel import select

    from server import create_app
    from server.mail.message import build_message
    from server.mail.outbox import render_pending
    from server.mail.settings import MailSettings
    from server.picture.png import DATA_URI
    from server.storage.db import get_engine, session_scope
    from server.storage.migrate import upgrade
    from server.storage.models import Outbox

    url = servers.sqlite_url(workdir / "email")
    (workdir / "email").mkdir()
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    client = app.test_client()
    tokens = [client_signed_up(client, n, f"{n}@example.org")["token"] for n in ("ada", "bo")]
    headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
    game = client.post("/api/v1/games", json={"seats": 2}, headers=headers[0]).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=headers[1])
    client.post(f"/api/v1/games/{game['id']}/start", headers=headers[0])
    for _ in range(8):  # a few commands, so that a your-turn email is queued
        current = client.get(f"/api/v1/games/{game['id']}", headers=headers[0]).json
        for h in headers:
            legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=h).json
            if legal["commands"]:
                ends = [c for c in legal["commands"] if c["type"] == "end_turn"]
                command = ends[0] if ends else legal["commands"][0]
                client.post(f"/api/v1/games/{game['id']}/commands", headers=h, json={
                    "command": command, "expected_version": current["version"]})
                break
    with app.app_context():
        render_pending(get_engine(url))
    print("bytes per email (as sent: MIME, base64 parts)")
    with session_scope(get_engine(url)) as session:
        for row in session.exec(select(Outbox).order_by(Outbox.id)):
            if row.kind not in ("your_turn", "game_started"):
                continue
            pictured = len(bytes(build_message(row, MailSettings())))
            row.html_body = DATA_URI.sub('src=""', row.html_body)
            plain = len(bytes(build_message(row, MailSettings())))
            print(f"  {row.kind:<14} {pictured:9,} bytes with the board PNG   "
                  f"{plain:9,} bytes without it (baseline)")
            if row.kind == "your_turn":
                break


def _client(port: int, paths: list[str], seconds: float, barrier, results) -> None:
    records: dict[str, list[float]] = {path: [] for path in paths}
    barrier.wait()
    deadline = time.monotonic() + seconds
    i = 0
    while time.monotonic() < deadline:
        path = paths[i % len(paths)]
        i += 1
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status}")
        records[path].append((time.perf_counter() - started) * 1000)
    results.put(records)


PAGE_BUDGET = 60_000  # bytes, gzip-compressed: HTML, CSS, JS and SVG together (issue 27)


def page_bytes(client, game_id: str) -> None:
    """The game page and what it loads, as sent compressed, against its budget."""
    import gzip

    parts = {"game page (HTML + board SVG)": f"/games/{game_id}",
             "site.css": "/static/web/site.css", "board.css": "/board.css",
             "game.js": "/static/web/game.js"}
    total = 0
    print("bytes of a game page, gzip-compressed")
    for label, path in parts.items():
        body = client.get(path).get_data()
        size = len(gzip.compress(body))
        total += size
        print(f"  {label:<30} {len(body):8,} bytes   {size:7,} compressed")
    print(f"  {'all together':<30} {'':14} {total:7,} compressed   (budget {PAGE_BUDGET:,})")


def page_load(workdir: Path, clients: int, seconds: float) -> None:
    from server import create_app
    from server.storage.migrate import upgrade

    (workdir / "pages").mkdir()
    url = servers.sqlite_url(workdir / "pages")
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    client = app.test_client()
    tokens = [client_signed_up(client, n, f"{n}@example.org")["token"] for n in ("ada", "bo")]
    game = client.post("/api/v1/games", json={"seats": 2, "public": True},
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]},
                headers={"Authorization": f"Bearer {tokens[1]}"})
    client.post(f"/api/v1/games/{game['id']}/start",
                headers={"Authorization": f"Bearer {tokens[0]}"})
    page_bytes(client, game["id"])
    env = servers.server_env(url, workdir)
    paths = [f"/games/{game['id']}", f"/api/v1/games/{game['id']}/view"]
    with servers.gunicorn("server:create_app()", env, workdir, "/api/v1/health") as (port, _pid):
        context = multiprocessing.get_context("fork")
        barrier, results = context.Barrier(clients), context.Queue()
        workers = [context.Process(target=_client, args=(port, paths, seconds, barrier, results))
                   for _ in range(clients)]
        for worker in workers:
            worker.start()
        gathered = [results.get(timeout=seconds + 60) for _ in workers]
        for worker in workers:
            worker.join()
    print(f"{clients} clients for {seconds:.0f} s against gunicorn (2 sync workers, SQLite), the "
          "two requests interleaved")
    for path, label in zip(paths, ("game page /games/ID", "baseline: JSON view"), strict=True):
        times = [t for record in gathered for t in record[path]]
        print(f"  {label:<24} p50 {percentile(times, 0.5):7.1f} ms   p99 "
              f"{percentile(times, 0.99):7.1f} ms   {len(times) / seconds:6.1f}/s")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    drawing(args.repeat)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as directory:
        email_bytes(Path(directory))
        page_load(Path(directory), args.clients, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
