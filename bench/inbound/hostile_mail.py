"""Mail built to cost the server time (issue 32: H1, M7), read the old way and the new way in the
same run.

    python -m bench.inbound.hostile_mail [--cap 60]

For each mail: the time to find the typed lines (the quote parsing) with mail-parser-reply, as
`letter.latest_reply` did before (the baseline; in a child process stopped after --cap seconds),
and with our own line classifier on the whole new path (`read_letter` then `with_lines`: limits,
headers, body, quotes); and the time the header parser took for a 30,000-encoded-word Subject
and a 40,000-address To (the baseline) beside `limits.beyond_limits`, which refuses them unread.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from email.message import EmailMessage

QUOTE_LANGUAGES = ["en", "de", "fr", "es", "it", "nl"]  # what letter.py passed the library


def shaped(kind: str, size: int) -> str:
    if kind == "blank lines":
        return "move 3c\n" + "\n" * size
    if kind == "spaces":
        return "move 3c " + " " * size + "x"
    if kind == "'On ' runs":
        return "move 3c\n" + "On " * (size // 3)
    return "move 3c\n" + ("> quoted line of a long thread\n" * (size // 31))


def as_mail(text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = "Ada <ada@example.org>", "play+x@iridescia.test"
    message["Subject"], message["Message-ID"] = "Re: your turn", "<1@example.org>"
    message.set_content(text)
    return bytes(message)


def _old(text: str, done) -> None:
    from mailparser_reply import EmailReplyParser

    started = time.perf_counter()
    EmailReplyParser(languages=QUOTE_LANGUAGES).read(text=text)
    done.put(time.perf_counter() - started)


def old_seconds(text: str, cap: float) -> float | None:
    """mail-parser-reply's time on `text`, None when it took more than `cap` seconds."""
    done = multiprocessing.Queue()
    child = multiprocessing.Process(target=_old, args=(text, done))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    return done.get()


def new_seconds(raw: bytes) -> float:
    from server.inbound.letter import read_letter, with_lines
    from server.inbound.limits import beyond_limits

    started = time.perf_counter()
    if beyond_limits(raw) is None:
        with_lines(read_letter(raw), raw)
    return time.perf_counter() - started


def header_seconds(raw: bytes, name: str) -> float:
    from email import message_from_bytes, policy

    started = time.perf_counter()
    message = message_from_bytes(raw, policy=policy.default)
    str(message[name])
    return time.perf_counter() - started


def limit_seconds(raw: bytes) -> tuple[float, str | None]:
    from server.inbound.limits import beyond_limits

    started = time.perf_counter()
    reason = beyond_limits(raw)
    return time.perf_counter() - started, reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0,
                        help="seconds the baseline may take on one mail before it is stopped")
    args = parser.parse_args()
    new_seconds(as_mail("warm-up: the modules imported before anything is timed"))
    print("quote parsing: mail-parser-reply (before) | our classifier, whole read (after)")
    for kind in ("blank lines", "spaces", "'On ' runs", "a long quote"):
        for size in (4_000, 44_000):
            text = shaped(kind, size)
            raw = as_mail(text)
            old = old_seconds(text, args.cap)
            new = new_seconds(raw)
            before = f"> {args.cap:.0f} s (stopped)" if old is None else f"{old * 1000:10.1f} ms"
            print(f"  {kind:14} {len(raw) // 1000:3d} KB   before {before:>18}   "
                  f"after {new * 1000:7.2f} ms")
    print("headers: the standard parser (before) | limits.beyond_limits (after)")
    head = b"From: Ada <ada@example.org>\r\nTo: play+x@iridescia.test\r\nMessage-ID: <2@x>\r\n"
    subject = head + b"Subject: " + b" ".join([b"=?utf-8?q?a?="] * 30_000) + b"\r\n\r\nhi\r\n"
    many = b", ".join(b"p%d@example.net" % i for i in range(40_000))
    to = (b"From: Ada <ada@example.org>\r\nTo: " + many + b"\r\nSubject: hi\r\n\r\nhi\r\n")
    for label, raw, name in (("30,000 encoded words in Subject", subject, "Subject"),
                             ("40,000 addresses in To", to, "To")):
        after, reason = limit_seconds(raw)
        before = header_seconds(raw, name)
        print(f"  {label:32} before {before * 1000:10.1f} ms   after {after * 1000:7.2f} ms "
              f"({reason})")


if __name__ == "__main__":
    main()
