"""Mail coming in: messages ingested per second through each way in, and the time from a mail
sent to the embedded receiver to the server's answer reaching an SMTP sink.

    python -m bench inbound [--messages 100] [--pipe-messages 10] [--database-url URL]

Every message is a player's `show` reply to the game's latest email: read, authorised, answered
with the whole board (the answer is queued, and rendered in full). The baseline, run alongside:
the same player's GET /view through the API (the Flask test client), the work without the mail.
Ways in: `ingest()` called directly; the embedded SMTP receiver (one SMTP connection per
message, as mail servers deliver); `iridescia-server mail ingest` (one process per message, as
a Postfix pipe runs it); IMAP polling (messages appended to a pymap mailbox, then one poll).
The latency is measured with the scheduler running as `serve` runs it (its mail job is woken
when an answer is queued).
"""

from __future__ import annotations

import argparse
import imaplib
import os
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

from aiosmtpd.controller import Controller

from bench.accounts import client_signed_up


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Sink:
    def __init__(self) -> None:
        self.received: list[tuple[float, EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        self.received.append((time.perf_counter(), message))
        return "250 OK"


def show_reply(original: EmailMessage, sender: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, str(original["Reply-To"])
    message["Subject"] = "Re: " + str(original["Subject"])
    message["Message-ID"] = make_msgid(domain="example.org")
    message["In-Reply-To"] = str(original["Message-ID"])
    message.set_content("show\n")
    return bytes(message).replace(b"\n", b"\r\n")


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:8.1f} messages/s  ({count} in {seconds:.2f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--pipe-messages", type=int, default=10)
    parser.add_argument("--latency-samples", type=int, default=10)
    parser.add_argument("--database-url", default=None, help="default: a new SQLite file")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="bench-inbound-")
    url = args.database_url or f"sqlite:///{workdir}/bench.db"

    from server import create_app
    from server.inbound.ingest import ingest
    from server.inbound.smtp import start_receiver
    from server.scheduler.tick import Ticker
    from server.storage.migrate import upgrade

    upgrade(url)
    sink = Sink()
    sink_controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    sink_controller.start()
    settings = {
        "DATABASE_URL": url, "SMTP_URL": f"smtp://127.0.0.1:{sink_controller.port}?security=none",
        "REPLY_ADDRESS": "play@bench.test", "SECRET_KEY": "bench", "INBOUND_RATE_LIMIT": 0,
        "INBOUND_SMTP": f"127.0.0.1:{free_port()}", "SCHEDULER_INTERVAL_SECONDS": 5,
    }
    app = create_app(settings)
    client = app.test_client()
    user = client_signed_up(client, "Ada", "ada@example.org")
    headers = {"Authorization": f"Bearer {user['token']}"}
    game = client.post("/api/v1/games", json={"seats": 1}, headers=headers).get_json()
    ticker = Ticker(app)
    ticker.tick()
    original = next(m for _, m in reversed(sink.received) if game["id"] in str(m["Subject"]))
    sender = "ada@example.org"
    print(f"inbound: SQLite {url}" if url.startswith("sqlite") else f"inbound: {url}")

    def timed(run, count: int) -> float:
        start = time.perf_counter()
        for _ in range(count):
            run()
        return time.perf_counter() - start

    n = args.messages
    view = f"/api/v1/games/{game['id']}/view"
    print("baseline GET /view (API) ", rate(n, timed(lambda: client.get(view, headers=headers), n)))
    print("ingest() directly        ", rate(n, timed(
        lambda: ingest(show_reply(original, sender), app=app), n)))

    receiver = start_receiver(app, ("127.0.0.1", int(settings["INBOUND_SMTP"].split(":")[1])))

    def by_smtp() -> None:
        with smtplib.SMTP("127.0.0.1", receiver.port) as smtp:
            smtp.sendmail(sender, [str(original["Reply-To"])], show_reply(original, sender))

    print("embedded SMTP receiver   ", rate(n, timed(by_smtp, n)))

    env = dict(os.environ, **{f"IRIDESCIA_{k}": str(v) for k, v in settings.items()})

    def by_pipe() -> None:
        subprocess.run([sys.executable, "-m", "server.cli", "mail", "ingest"], env=env,
                       input=show_reply(original, sender), check=True, capture_output=True)

    print("mail ingest (a process each)", rate(args.pipe_messages,
                                                timed(by_pipe, args.pipe_messages)))
    print("IMAP polling (pymap)     ", imap_rate(app, original, sender, n))

    from server.scheduler import start_embedded

    ticker.tick()  # what the runs above queued goes out first
    scheduler = start_embedded(app)
    latencies = []
    for _ in range(args.latency_samples):
        raw = show_reply(original, sender)
        wanted = message_from_bytes(raw, policy=policy.default)["Message-ID"]
        start = time.perf_counter()
        with smtplib.SMTP("127.0.0.1", receiver.port) as smtp:
            smtp.sendmail(sender, [str(original["Reply-To"])], raw)
        while True:
            arrived = [t for t, m in sink.received if wanted in str(m["References"] or "")]
            if arrived:
                latencies.append(arrived[0] - start)
                break
            if time.perf_counter() - start > 30:
                raise SystemExit("no answer within 30 s")
            time.sleep(0.005)
    scheduler.shutdown(wait=False)
    print(f"mail in -> answer at the sink: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {max(latencies) * 1000:.0f} ms ({len(latencies)} samples, the scheduler's "
          "mail job woken by the receiver)")
    receiver.stop()
    sink_controller.stop()


def imap_rate(app, original: EmailMessage, sender: str, count: int) -> str:
    from server.inbound.imap import ImapSettings, poll

    port = free_port()
    pymap = os.path.join(os.path.dirname(sys.executable), "pymap")
    process = subprocess.Popen([pymap, "--host", "127.0.0.1", "--port", str(port), "--no-tls",
                                "dict", "--demo-user", "play", "--demo-password", "secret"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                mailbox = imaplib.IMAP4("127.0.0.1", port, timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        mailbox.login("play", "secret")
        for _ in range(count):
            mailbox.append("INBOX", None, None, show_reply(original, sender))
        mailbox.logout()
        start = time.perf_counter()
        counts = poll(app, ImapSettings.from_url(f"imap://play:secret@127.0.0.1:{port}/INBOX"))
        seconds = time.perf_counter() - start
        assert counts.get("answered") == count, counts
        return rate(count, seconds) + "  (one poll: login, search, fetch and flag each)"
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main()
