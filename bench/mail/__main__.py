"""Mail delivery against bare smtplib, the same messages, in the same run.

    python -m bench.mail [--games 60] [--commands 40] [--rounds 3] [--render-rounds 1]
                         [--backend sqlite ...]
                         [--profile]

Plays ``--games`` 2-player games through the app (Flask's test client) with random legal commands,
which queues their notices (game started, your turn, game over) as a command post does: unrendered.
An SMTP sink (aiosmtpd's, in a process of its own) takes the mail. Then, in ``--rounds`` rounds:
every queued notice is made pending again and `flush_outbox` delivers them all (claim, build,
send over one SMTP session, mark each sent), then bare smtplib sends the same messages, already
built, over one session (`sendmail`). Rendering (the words and the board picture) is timed on its
own first, in the first ``--render-rounds`` rounds (default 1): every notice is made unrendered
and `render_pending` stores the words ahead of delivery; the other rounds deliver the words
stored (rendering a notice costs 100-300 ms, delivering one a few: more rounds and games for the
same time, less noise). Prints mails/s of each and their ratio (target: delivery >= 0.6 x bare
smtplib, issue 17), and rendering's cost a mail. ``--profile`` runs one
more delivery and one more rendering under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import smtplib
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.api import servers
from bench.scale import populate

TARGET_RATIO = 0.6


def start_sink(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}",
         "-c", "aiosmtpd.handlers.Sink"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            smtplib.SMTP("127.0.0.1", port, timeout=2).quit()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the SMTP sink did not start")


def fill(app, games: int, commands: int, rng: random.Random) -> None:
    client = app.test_client()
    for i in range(games):
        populate.play_template(client, rng, 2, commands, f"mail{i}")


def confirm_every_address(engine) -> None:
    """As if every player had opened their confirmation link: an unconfirmed address is sent
    only that (server/mail/consent.py)."""
    from sqlalchemy import update

    from server.storage.models import User

    with engine.begin() as connection:
        connection.execute(update(User).values(verified_at=datetime.now(UTC)))


def requeue(engine, unrendered: bool = True) -> int:
    """Every game notice (rendered from its game's version) pending again, due now, and
    unrendered (what a post leaves behind) unless told to keep its words. Mail stored with its
    words (invitations, account mail) is left alone."""
    from sqlalchemy import update

    from server.storage.models import Outbox

    words = {"subject": None, "text_body": None, "html_body": None} if unrendered else {}
    with engine.begin() as connection:
        return connection.execute(update(Outbox).where(Outbox.version.is_not(None)).values(
            status="pending", attempts=0, next_attempt_at=datetime.now(UTC), sent_at=None,
            last_error=None, **words)).rowcount


def render_ahead(app) -> tuple[int, float]:
    """`render_pending`: the words of every unrendered notice stored, nothing sent."""
    from server.mail.outbox import render_pending
    from server.storage.db import app_engine

    started = time.perf_counter()
    with app.app_context():
        count = render_pending(app_engine(app))
    return count, time.perf_counter() - started


def built_messages(engine, settings) -> list[tuple[str, bytes]]:
    from sqlmodel import Session, select

    from server.mail.message import build_message
    from server.storage.models import Outbox

    with Session(engine) as session:
        rows = session.exec(select(Outbox).where(Outbox.status == "sent")
                            .order_by(Outbox.id)).all()
        messages = [build_message(row, settings) for row in rows]
        # As smtplib's send_message writes them: CRLF line ends.
        return [(m["To"], m.as_bytes(policy=m.policy.clone(linesep="\r\n"))) for m in messages]


def deliver(app) -> tuple[int, float]:
    from server.mail import MailSettings, transport_for
    from server.mail.outbox import flush_outbox
    from server.storage.db import app_engine

    settings = MailSettings.for_app(app.config)
    started = time.perf_counter()
    with app.app_context():
        report = flush_outbox(app_engine(app), transport_for(settings), settings,
                              datetime.now(UTC), limit=1_000_000)
    elapsed = time.perf_counter() - started
    if report.retrying or report.parked:
        raise RuntimeError(f"delivery failed: {len(report.retrying)} retrying, "
                           f"{len(report.parked)} parked")
    return len(report.sent), elapsed


def bare(port: int, sender: str, messages: list[tuple[str, bytes]]) -> float:
    started = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as connection:
        for to, message in messages:
            connection.sendmail(sender, [to], message)
    return time.perf_counter() - started


def run_backend(backend: str, args, workdir: Path, port: int) -> dict:
    from server import create_app
    from server.mail import MailSettings
    from server.storage.db import app_engine
    from server.storage.migrate import upgrade

    url = (servers.sqlite_url(workdir) if backend == "sqlite"
           else servers.fresh_postgres_url("iridescia_bench_mail"))
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
                      "RATE_LIMIT": 0})
    filled = time.perf_counter()
    fill(app, args.games, args.commands, random.Random(args.seed))
    engine = app_engine(app)
    confirm_every_address(engine)
    queued = requeue(engine)
    print(f"{backend:<10} {queued} notices queued by {args.games} games "
          f"({time.perf_counter() - filled:.1f} s)", flush=True)
    deliver(app)  # warm: templates compiled, states cached as a running scheduler has them
    settings = MailSettings.for_app(app.config)
    messages = built_messages(engine, settings)
    totals = {"render": 0.0, "delivery": 0.0, "bare": 0.0}
    count = rendered = 0
    for round_number in range(1, args.rounds + 1):
        if round_number <= args.render_rounds:
            requeue(engine)
            made, render_seconds = render_ahead(app)
            totals["render"] += render_seconds
            rendered += made
        requeue(engine, unrendered=False)
        sent, ours = deliver(app)
        theirs = bare(port, settings.from_address, messages)
        for key, seconds in (("delivery", ours), ("bare", theirs)):
            totals[key] += seconds
        count += sent
        print(f"{backend:<10} round {round_number}: rendering "
              f"{1000 * totals['render'] / rendered:.2f} "
              f"ms a mail; delivery {sent / ours:7.1f} mails/s, bare smtplib "
              f"{len(messages) / theirs:7.1f} mails/s, ratio "
              f"{(sent / ours) / (len(messages) / theirs):.2f}", flush=True)
    ours_rate = count / totals["delivery"]
    bare_rate = args.rounds * len(messages) / totals["bare"]
    ratio = ours_rate / bare_rate
    verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
    print(f"{backend:<10} delivery {ours_rate:.1f} mails/s = {ratio:.2f} x bare smtplib "
          f"{bare_rate:.1f} mails/s (target >= {TARGET_RATIO}: {verdict})", flush=True)
    render_ms = 1000 * totals["render"] / rendered
    whole = count / (totals["delivery"] + totals["render"] * count / rendered)
    print(f"{backend:<10} rendering {render_ms:.2f} ms a mail (ahead of delivery); rendered and "
          f"delivered {whole:.1f} mails/s = {whole / bare_rate:.2f} x bare smtplib", flush=True)
    if args.profile:
        for what, step, unrendered in (("delivery", deliver, False),
                                       ("rendering", render_ahead, True)):
            requeue(engine, unrendered=unrendered)
            profiler = cProfile.Profile()
            profiler.runcall(step, app)
            print(f"--- profile of {what}")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    if backend == "postgresql":
        from server.storage.db import dispose_engine

        dispose_engine(url)
        servers.drop_postgres("iridescia_bench_mail")
    return {"ours": ours_rate, "bare": bare_rate, "ratio": ratio, "render_ms": render_ms}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mail", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--render-rounds", type=int, default=1,
                        help="rounds that render every notice again first (the others deliver "
                             "the words stored; rendering costs 100-300 ms a notice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    print(f"bench.mail: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    port = servers.free_port()
    sink = start_sink(port)
    failed = False
    try:
        for backend in args.backend or ["sqlite", "postgresql"]:
            with tempfile.TemporaryDirectory(prefix="bench-mail-") as workdir:
                result = run_backend(backend, args, Path(workdir), port)
                failed |= result["ratio"] < TARGET_RATIO
    finally:
        sink.terminate()
        sink.wait()
    print(f"bench.mail: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
