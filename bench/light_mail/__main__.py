"""How heavy the game's mail is, beside the mail as it was (issue 26), in the same run.

    python -m bench.light_mail [--positions 40] [--seed 7]

1. Drawing the board picture: the mail's picture now (the hex board alone, drawn by Pillow into
   a palette PNG, server/picture/raster.py) against the baseline, the picture every mail carried
   before (the whole SVG, board and panels, rasterised by resvg), over the same positions of a
   seeded game. Median milliseconds and bytes of each.
2. The mail itself: a whole solo game against the Rhom played by mail, each reply through
   `ingest` and every mail the server sends written as .eml (the outbox's bytes, as an SMTP
   server receives them): the size of each your-turn mail with its picture, and of each answer
   to a reply; beside them, the your-turn mail with the baseline picture in its place.

Targets: your-turn mail with the picture <= 60 KB, answer <= 12 KB, picture median <= 25 ms.
"""

from __future__ import annotations

import argparse
import base64
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from pathlib import Path

from bench.accounts import client_signed_up

TURN_MAIL_TARGET = 60_000
ANSWER_TARGET = 12_000
PICTURE_TARGET_MS = 25.0


def _median_ms(draw, states) -> tuple[float, int]:
    times, sizes = [], []
    for state in states:
        started = time.perf_counter()
        picture = draw(state)
        times.append(1000 * (time.perf_counter() - started))
        sizes.append(len(picture))
    return statistics.median(times), int(statistics.median(sizes))


def pictures(positions: int, seed: int) -> None:
    import engine
    from engine import simulate
    from engine.bots import policies
    from server.picture import png, raster
    from server.picture.svg import board_svg

    names = {0: "the Rhom", 1: "Ada", 2: "Bo"}
    options = simulate.make_options(2, rhom=True)
    states = [state for _, state in simulate.steps(options, f"bench-{seed}",
                                                   policies.random_policy)]
    step = max(1, len(states) // positions)
    chosen = states[::step][:positions]
    raster.board_png(engine.view(chosen[0], None), names)  # fonts loaded, as in a running server
    png.board_png(board_svg(engine.view(chosen[0], 1), names))
    for round_number in (1, 2):  # interleaved: the machine's load falls on both alike
        ours, our_size = _median_ms(lambda s: raster.board_png(engine.view(s, None), names),
                                    chosen)
        before, before_size = _median_ms(
            lambda s: png.board_png(board_svg(engine.view(s, 1), names)), chosen)
        verdict = "met" if ours <= PICTURE_TARGET_MS else "MISSED"
        print(f"picture round {round_number}: now {ours:6.1f} ms, {our_size / 1000:5.1f} KB; "
              f"baseline {before:6.1f} ms, {before_size / 1000:5.1f} KB "
              f"(x{before / ours:.1f} faster; target <= {PICTURE_TARGET_MS:.0f} ms: {verdict})",
              flush=True)


def _latest(outbox: Path, seen: set[str]) -> list[EmailMessage]:
    fresh = []
    for path in sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns):
        if path.name not in seen:
            seen.add(path.name)
            fresh.append((path.stat().st_size, message_from_bytes(path.read_bytes(),
                                                                  policy=policy.default)))
    return fresh


def _reply(original: EmailMessage, line: str, sender: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = str(original["Reply-To"])
    message["Subject"] = "Re: " + str(original["Subject"])
    message["Message-ID"] = make_msgid(domain="example.org")
    message["In-Reply-To"] = str(original["Message-ID"])
    message.set_content(line + "\n")
    return bytes(message)


def _baseline_size(size: int, message: EmailMessage, state, names) -> int:
    """The mail's size with the picture it carried before in place of today's."""
    import engine
    from server.picture import png
    from server.picture.svg import board_svg

    [image] = [p for p in message.walk() if p.get_content_maintype() == "image"]
    now = len(base64.encodebytes(image.get_content()))
    seat = next(s for s, n in names.items() if n == "Ada")
    before = png.board_png(board_svg(engine.view(state, seat), names))
    return size - now + len(base64.encodebytes(before))


def mails(seed: int) -> None:
    import engine
    from bench.api import servers
    from engine.bots.policies import greedy_policy
    from engine.text import notation
    from server import create_app
    from server.games import service
    from server.inbound.ingest import ingest
    from server.mail import MailSettings
    from server.mail.outbox import flush_outbox
    from server.mail.transport import EmlTransport
    from server.storage.db import app_engine, session_scope
    from server.storage.migrate import upgrade
    from server.storage.models import Game, User

    workdir = Path(tempfile.mkdtemp(prefix="iridescia-light-mail-"))
    outbox = workdir / "outbox"
    url = servers.sqlite_url(workdir)
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "RATE_LIMIT": 0, "INBOUND_RATE_LIMIT": 0,
                      "OUTBOX_DIR": str(outbox), "REPLY_ADDRESS": "play@iridescia.test",
                      "BASE_URL": "https://iridescia.test"})
    client = app.test_client()
    ada = client_signed_up(client, "Ada", "ada@example.org")
    headers = {"Authorization": f"Bearer {ada['token']}"}
    game_id = client.post("/api/v1/games", json={"seats": 1}, headers=headers).get_json()["id"]
    db = app_engine(app)
    with session_scope(db) as session:
        user = session.get(User, ada["id"])
        user.verified_at = datetime.now(UTC)
        session.add(user)
        game = session.get(Game, game_id)
        game.rhom_delay_seconds = 0
        session.add(game)
    settings = MailSettings.for_app(app.config)
    rng = random.Random(seed)
    seen: set[str] = set()
    turn_sizes, answer_sizes, baseline_sizes = [], [], []
    latest = None

    def deliver():
        from server.scheduler.tick import Ticker

        Ticker(app, name="bench").tick()
        with app.app_context():
            flush_outbox(db, EmlTransport(outbox), settings, datetime.now(UTC))
        return _latest(outbox, seen)

    for _ in range(3000):
        for size, message in deliver():
            key = str(message["X-Iridescia-Key"])
            if key.startswith("answer:"):
                answer_sizes.append(size)
            elif "/your_turn/" in key or "/game_started/" in key:
                with session_scope(db) as session:
                    game = session.get(Game, game_id)
                    state = service.load_state(session, game, version=int(key.split("/v")[1]
                                                                          .split("/")[0]))
                if "/your_turn/" in key:
                    turn_sizes.append(size)
                    baseline_sizes.append(_baseline_size(size, message, state,
                                                         {0: "the Rhom", 1: "Ada"}))
            latest = message
        with session_scope(db) as session:
            state = service.load_state(session, session.get(Game, game_id))
        if engine.is_terminal(state):
            break
        seat = engine.current_player(state)
        if engine.pending_kind(state) in ("rhom", "removal") or latest is None:
            time.sleep(0.01)
            continue
        line = notation.format(greedy_policy(state, seat, rng))
        ingest(_reply(latest, line, "ada@example.org"), app=app,
               recipients=[parseaddr(str(latest["Reply-To"]))[1]])

    def figures(sizes):
        return f"median {statistics.median(sizes) / 1000:5.1f} KB, max {max(sizes) / 1000:5.1f} KB"

    verdict = "met" if max(turn_sizes) <= TURN_MAIL_TARGET else "MISSED"
    print(f"your-turn mail, picture included ({len(turn_sizes)}): now {figures(turn_sizes)}; "
          f"baseline picture {figures(baseline_sizes)} "
          f"(target <= {TURN_MAIL_TARGET // 1000} KB: {verdict})")
    verdict = "met" if max(answer_sizes) <= ANSWER_TARGET else "MISSED"
    print(f"answer to a reply ({len(answer_sizes)}): now {figures(answer_sizes)} "
          f"(target <= {ANSWER_TARGET // 1000} KB: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    pictures(args.positions, args.seed)
    mails(args.seed)


if __name__ == "__main__":
    main()
